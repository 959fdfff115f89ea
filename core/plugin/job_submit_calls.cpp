// job_submit_calls.cpp - JobSubmitCalls: NULL checks and Status for job_submit plugins.
#include "plugin/job_submit_calls.hpp"

#include <cstring>

namespace drover::plugin {

namespace {

// A refusal goes to the submitter as the plugin worded it: no plugin or op name before it, and
// an empty text when the plugin wrote none (the caller then uses the user message).
Status refusal(int rc, const drover_error &err) {
    if (rc == DROVER_OK) return {};
    std::string text(err.text, strnlen(err.text, sizeof err.text));
    if (auto nl = text.find('\n'); nl != std::string::npos) text.resize(nl);
    return Status(rc, text);
}

} // namespace

Status JobSubmitCalls::job_submit(const drover_job_submit_host &host, drover_job_desc *desc,
                                  uint32_t submit_uid) const {
    if (!ops().job_submit) return {};
    drover_error err{};
    const auto timing = timed("job_submit");
    return refusal(ops().job_submit(state(), &host, desc, submit_uid, &err), err);
}

Status JobSubmitCalls::job_modify(const drover_job_submit_host &host, drover_job_desc *desc,
                                  uint32_t job_id, uint32_t submit_uid) const {
    if (!ops().job_modify) return {};
    drover_error err{};
    const auto timing = timed("job_modify");
    return refusal(ops().job_modify(state(), &host, desc, job_id, submit_uid, &err), err);
}

} // namespace drover::plugin
