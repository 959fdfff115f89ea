// ctld_stats.hpp - the controller's counters that sdiag shows: since when, and how many jobs were
// submitted, started, completed, cancelled and failed (counted as their accounting records are
// made). sdiag -r starts them again.
#pragma once

#include <drover/accounting.h>

#include <cstdint>
#include <memory>

namespace drover::net {
struct Request;
class Responder;
}  // namespace drover::net

namespace drover::ctld {

struct Ctx;

struct CtldStats {
    int64_t server_start = 0;  // when the controller started
    int64_t since = 0;         // when the counts began (start, or the last sdiag -r)
    uint64_t submitted = 0, started = 0, completed = 0, canceled = 0, failed = 0;

    // A job's accounting event with the state it records.
    void count(int event, uint32_t state) {
        if (event == DROVER_ACCT_JOB_SUBMIT) ++submitted;
        else if (event == DROVER_ACCT_JOB_START) ++started;
        else if (event == DROVER_ACCT_JOB_END) {
            uint32_t base = state & 0xff;
            if (base == DROVER_JOB_COMPLETE) ++completed;
            else if (base == DROVER_JOB_CANCELLED) ++canceled;
            else ++failed;
        }
    }
    void reset(int64_t now) {
        since = now;
        submitted = started = completed = canceled = failed = 0;
    }
};

// Answers a StatsRequest (sdiag) with the counters, the accounting backlog, the jobs pending and
// running and the scheduling passes; a reset (sdiag -r) needs admin_level Operator or more.
void stats_reply(Ctx &ctx, const std::shared_ptr<net::Request> &req,
                 const std::shared_ptr<net::Responder> &resp, uint32_t admin_level);

}  // namespace drover::ctld
