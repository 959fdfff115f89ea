// job_states.cpp - job state names, compact codes, -t lists and exit codes.
#include "cli/job_states.hpp"

#include <drover/views.h>
#include <sys/wait.h>

#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

struct StateName {
    uint32_t state;
    const char *name;
    const char *code;
};

constexpr StateName kStates[] = {
    {DROVER_JOB_PENDING, "PENDING", "PD"},     {DROVER_JOB_RUNNING, "RUNNING", "R"},
    {DROVER_JOB_SUSPENDED, "SUSPENDED", "S"},  {DROVER_JOB_COMPLETE, "COMPLETED", "CD"},
    {DROVER_JOB_CANCELLED, "CANCELLED", "CA"}, {DROVER_JOB_FAILED, "FAILED", "F"},
    {DROVER_JOB_TIMEOUT, "TIMEOUT", "TO"},     {DROVER_JOB_NODE_FAIL, "NODE_FAIL", "NF"},
    {DROVER_JOB_PREEMPTED, "PREEMPTED", "PR"}, {DROVER_JOB_BOOT_FAIL, "BOOT_FAIL", "BF"},
    {DROVER_JOB_DEADLINE, "DEADLINE", "DL"},   {DROVER_JOB_OOM, "OUT_OF_MEMORY", "OOM"},
    {kStateCompleting, "COMPLETING", "CG"},    {kStateConfiguring, "CONFIGURING", "CF"},
    {kStateRequeued, "REQUEUED", "RQ"},        {kStateSpecialExit, "SPECIAL_EXIT", "SE"},
    {kStateRevoked, "REVOKED", "RV"},
};

const StateName *lookup(uint32_t state) {
    for (const auto &s : kStates)
        if (s.state == state) return &s;
    return nullptr;
}

// The state a flagged job shows: completing wins over configuring over requeued over special
// exit.
uint32_t shown_state(uint32_t state) {
    if (state & kJobFlagCompleting) return kStateCompleting;
    if (state & kJobFlagRevoked) return kStateRevoked;
    if (state & kJobFlagConfiguring) return kStateConfiguring;
    if (state & kJobFlagRequeued) return kStateRequeued;
    if (state & kJobFlagSpecialExit) return kStateSpecialExit;
    return state & kJobStateBase;
}

} // namespace

const char *job_state_long(uint32_t state) {
    const StateName *s = lookup(shown_state(state));
    return s ? s->name : "UNKNOWN";
}

const char *job_state_compact(uint32_t state) {
    const StateName *s = lookup(shown_state(state));
    return s ? s->code : "?";
}

bool job_is_active(uint32_t state) {
    if (state & (kJobFlagCompleting | kJobFlagConfiguring)) return true;
    uint32_t base = state & kJobStateBase;
    return base == DROVER_JOB_PENDING || base == DROVER_JOB_RUNNING || base == DROVER_JOB_SUSPENDED;
}

bool job_is_finished(uint32_t state) {
    return !job_is_active(state);
}

std::optional<uint32_t> parse_job_state(std::string_view name) {
    for (const auto &s : kStates)
        if (iequals(name, s.name) || iequals(name, s.code)) return s.state;
    // Slurm also accepts a few spellings of its own.
    if (iequals(name, "OOM")) return DROVER_JOB_OOM;
    if (iequals(name, "COMPLETE")) return DROVER_JOB_COMPLETE;
    if (iequals(name, "CANCELED")) return DROVER_JOB_CANCELLED;
    return std::nullopt;
}

bool JobStateFilter::matches(uint32_t state) const {
    if (all || states.empty()) return true;
    uint32_t base = state & kJobStateBase;
    for (uint32_t s : states) {
        if (s == base) return true;
        if (s == kStateCompleting && (state & kJobFlagCompleting)) return true;
        if (s == kStateConfiguring && (state & kJobFlagConfiguring)) return true;
        if (s == kStateRequeued && (state & kJobFlagRequeued)) return true;
        if (s == kStateSpecialExit && (state & kJobFlagSpecialExit)) return true;
        if (s == kStateRevoked && (state & kJobFlagRevoked)) return true;
    }
    return false;
}

JobStateFilter parse_job_state_list(std::string_view list) {
    JobStateFilter f;
    for (const auto &item : split(list, ',')) {
        if (iequals(item, "all")) {
            f.all = true;
            continue;
        }
        auto s = parse_job_state(item);
        if (!s) throw ParseError("Invalid job state specified: " + item);
        f.states.push_back(*s);
    }
    return f;
}

std::string valid_job_state_names() {
    std::string out;
    for (const auto &s : kStates) {
        if (!out.empty()) out += ',';
        out += s.name;
    }
    return out;
}

std::string exit_code_string(int32_t wait_status) {
    int status = static_cast<int>(wait_status);
    int code = 0, sig = 0;
    if (WIFSIGNALED(status))
        sig = WTERMSIG(status);
    else if (WIFEXITED(status))
        code = WEXITSTATUS(status);
    return str_i(code) + ":" + str_i(sig);
}

} // namespace drover::cli
