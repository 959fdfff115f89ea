// scontrol_token.hpp - scontrol token: a JSON Web Token for the REST daemon (drover-restd).
#pragma once

#include <span>
#include <string>

namespace drover::cli {

// rest: "lifespan=N" and "username=U" words. Prints "SLURM_JWT=..." and returns 0, or the error
// and 1.
int fetch_token(std::span<const std::string> rest);

} // namespace drover::cli
