// error.hpp - the exceptions of the core: each carries a Status (a DROVER_* code and its line),
// the one outcome type the core reports in, thrown where the caller cannot go on.
#pragma once

#include <stdexcept>
#include <string>

#include <drover/plugin.h>

#include "common/status.hpp"

namespace drover {

// Thrown where a caller cannot go on (a configuration that does not parse, a plugin refused at
// load, a store that cannot be written, a peer that cannot be reached); a request's handler that
// fails returns a Status instead. what() is status().text(); code() is what a reply carries.
class Error : public std::runtime_error {
  public:
    Error(int code, const std::string &text) : std::runtime_error(text), status_(code, text) {}
    const Status &status() const { return status_; }
    int code() const { return status_.code(); }

  private:
    Status status_;
};

// Bad input: a config line, hostlist, time or size string, directive or message. what() is a
// complete one-line message a user can act on ("slurm.conf:12: bad value for CPUs: 'x'").
class ParseError : public Error {
  public:
    explicit ParseError(const std::string &what) : Error(DROVER_EINVAL, what) {}
};

} // namespace drover
