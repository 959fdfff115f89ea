// status.hpp - Status: the outcome of an operation, a DROVER_* code and one line of text.
#pragma once

#include <string>
#include <string_view>

#include <drover/plugin.h> // the DROVER_* codes, and drover_error: a plugin's error line

namespace drover {

// ok() when code() is DROVER_OK (0); otherwise code() is a negative DROVER_E* code and text() one
// line a user or a log can take as it is. Cheap to return; never thrown.
class Status {
  public:
    Status() = default; // success
    Status(int code, std::string text) : code_(code), text_(std::move(text)) {}
    // A plugin operation's outcome from its return code and error buffer: success when rc is
    // DROVER_OK, else "select/cons_tres job_begin: <the plugin's line>" (the code's name when the
    // plugin wrote none). plugin is the plugin's id; empty when no plugin is loaded.
    Status(int rc, const drover_error &err, std::string_view plugin, std::string_view op);

    bool ok() const { return code_ == 0; }
    int code() const { return code_; }
    const std::string &text() const { return text_; } // empty on success
    // The text without the plugin and operation that a plugin's Status starts with: what a
    // remote peer is told (which plugin refused is for this daemon's log).
    std::string_view reason() const { return std::string_view(text_).substr(reason_at_); }

  private:
    int code_ = 0;
    std::string text_;
    std::size_t reason_at_ = 0;
};

// A refusal of what was asked (DROVER_EINVAL): a value, or a state, that does not allow it.
inline Status invalid(std::string text) {
    return {DROVER_EINVAL, std::move(text)};
}

// The refusal of a query for accounting records when no accounting store is configured
// (AccountingStorageType=accounting_storage/none), in Slurm's words: sacct prints it bare and
// scripts match it.
inline constexpr const char *kAcctDisabled = "Slurm accounting storage is disabled";

// "EBUSY" for DROVER_EBUSY, and so on; "error <n>" for a code drover/plugin.h does not name.
std::string status_code_name(int code);

} // namespace drover
