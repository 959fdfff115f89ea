// submit_body.hpp - the body of POST /slurm/vX/job/submit (slurmrestd's job_desc_msg) as the
// sbatch options, script and environment it stands for, so a REST submission is checked exactly
// as sbatch checks one (the same parser builds the request).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli/sbatch_opts.hpp"
#include "common/json_value.hpp"

namespace drover::restd {

// A body that is not a submission: the message names the field ("job.tasks: expected an
// integer, got string").
class BadRequest : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A request's body as JSON; throws BadRequest ("body: expected ... at byte N").
json::Value parse_body(std::string_view text);
// A field's value as the type slurmrestd gives it; throws BadRequest naming the field. A number
// may be {"number": N, "set": .., "infinite": ..}: nullopt when unset or infinite.
std::string field_text(const json::Value &v, const std::string &field);
std::optional<int64_t> field_number(const json::Value &v, const std::string &field);
bool field_flag(const json::Value &v, const std::string &field);

struct SubmitBody {
    std::string script;
    std::vector<std::string> options;  // "--job-name=x", ... in the order of the fields
    std::vector<std::string> argv;     // the script's arguments
    cli::Env environment;              // the job's: REST jobs start from an empty one
    std::string cwd;                   // current_working_directory, else empty
    std::vector<std::string> warnings; // fields taken but not acted on
    // "jobs": the options of a heterogeneous job's components after the first (whose fields
    // fill the rest of this body).
    std::vector<std::vector<std::string>> het_options;
};

// Throws BadRequest for malformed JSON, a field of the wrong type, an unknown field or a body
// without a script.
// script_required: a submission (job/submit); an allocation (job/allocate) has none.
SubmitBody parse_submit_body(std::string_view json, bool script_required = true);

} // namespace drover::restd
