// error.hpp - the exception every Drover parser throws for bad input.
#pragma once

#include <stdexcept>
#include <string>

namespace drover {

// Bad input: a config line, hostlist, time or size string, directive or message. what() is a
// complete one-line message a user can act on ("slurm.conf:12: bad value for CPUs: 'x'").
class ParseError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

} // namespace drover
