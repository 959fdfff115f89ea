// fed_jobs_impl.hpp - FedJobs' state and parts, shared by its three files: fed_jobs.cpp (the
// component, the origin's sweep, what the members tell each other), fed_vote.cpp (who may start
// a job) and fed_sync.cpp (the origin asking the members how its jobs stand there).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <vector>
#include <boost/asio/steady_timer.hpp>

#include "common/status.hpp"
#include "ctld/fed/fed_jobs.hpp"
#include "ctld/fed/federation.hpp"
#include "ctld/jobs/job.hpp"
#include "net/client.hpp"
#include "proto/message_generated.h"

namespace drover::ctld {

struct Ctx;
class JobManager;

namespace fed {

using Op = proto::FedJobOp;

constexpr const char *kLockReason = "FedJobLock";
constexpr const char *kLocked = "Job locked by another sibling";

// What one message says (the fields its op uses).
struct FedMsg {
    Op op = Op::Submit;
    uint32_t job_id = 0, uid = 0, gid = 0, state = 0;
    uint64_t viable = 0;
    int32_t exit_status = 0;
    int64_t start_time = 0, end_time = 0;
    std::vector<uint8_t> submit, request;
    int32_t signal = 0;
    uint8_t scope = 0;
};

// Each member of a set, by federation id.
template <class Fn>
void each_member(uint64_t set, Fn &&fn) {
    for (uint32_t id = 1; id <= kMaxFedId; ++id)
        if (set & fed_bit(id)) fn(id);
}

// The members whose votes decide which one starts a job: its viable members and its origin.
uint64_t voters(const Job &job);

} // namespace fed

struct FedJobs::Impl {
    using Done = std::function<void(bool ok, int code, const std::string &text)>;

    Ctx &ctx;
    JobManager &jobs;
    const Federation &fed;
    boost::asio::steady_timer timer;
    // Messages under way, by (job, member): one at a time for each.
    std::set<std::pair<uint32_t, uint32_t>> in_flight;
    // Votes this controller is gathering to start a job (those for it so far, those refused),
    // and the jobs it has a majority for (since when, who voted for it).
    struct Gathering {
        uint64_t asked = 0, granted = 0, refused = 0;
    };
    std::map<uint32_t, Gathering> gathering;
    std::map<uint32_t, std::pair<int64_t, uint64_t>> lock_held;
    std::map<uint32_t, int64_t> retry_at; // no new gathering for the job before then
    // What other members are still to hear (resent until they answer), by (job, op, member).
    std::map<std::tuple<uint32_t, fed::Op, uint32_t>, fed::FedMsg> outbox;
    int64_t last_sync = 0;
    // Other members' jobs that dependencies here name: when a dependency last asked for each,
    // their state as their origins said it, and those their origins no longer have.
    std::map<uint32_t, int64_t> remote_wanted;
    std::map<uint32_t, Job> remote_jobs;
    std::set<uint32_t> remote_gone;
    int64_t last_remote_poll = 0;
    int64_t last_orphan_check = 0;
    std::function<void()> leave;
    bool leaving = false; // asked to leave (until the view shows another state)

    Impl(Ctx &c, JobManager &j, const Federation &f);
    uint32_t self() const { return fed.self_id(); }

    // Sends m to member; done(ok, error code, text) on the loop (code 0: unreachable). False
    // when nothing was sent: the member is unknown or unregistered, or a message about the job
    // is already under way to it.
    bool send(uint32_t member, const fed::FedMsg &m, Done done);
    bool call(uint32_t member, uint32_t id, std::vector<uint8_t> msg,
              std::function<void(const std::string &, const net::Reply *)> done);
    // Queues m for member until it answers.
    void post(uint32_t member, const fed::FedMsg &m);
    void flush_outbox();
    void persist_after(Job &job, const std::function<void(JobExtra &)> &change);

    // fed_jobs.cpp
    void sweep();
    void sweep_origin_job(Job &job);
    void submit_siblings(Job &job, uint64_t missing);
    void revoke(Job &job, uint64_t members);
    void started(const Job &job);
    void ended(const Job &job);
    void end_copy(Job &job, uint32_t state, int32_t exit_status, int64_t start, int64_t end);
    void end_revoked(Job &job, uint32_t state = DROVER_JOB_CANCELLED, int32_t exit_status = 0);
    void leave_when_drained();
    void drop_orphan_copies();
    void arm();
    Status on_submit(const proto::FedJobRequest &r);
    void on_started(uint32_t id, uint32_t member, int64_t start_time);
    void on_revoke(const proto::FedJobRequest &r);
    void on_ended(const proto::FedJobRequest &r);
    // The member that runs a job of this origin (0: none, or this one).
    uint32_t runner(const Job &job) const;
    Status on_update(const proto::FedJobRequest &r);
    Status on_signal(const proto::FedJobRequest &r);

    // fed_vote.cpp
    int may_start(Job &job, std::string &why);
    void gather(Job &job);
    void counted(uint32_t id);
    void release(uint32_t id, uint64_t granted);
    void give_back_unused_locks();
    Status on_lock(const proto::FedJobRequest &r, bool &changed);
    void on_unlock(const proto::FedJobRequest &r);

    // fed_sync.cpp
    void sync();
    void synced(uint32_t member, const proto::JobInfo &copy);
    void poll_remote_jobs();
    void polled(uint32_t member, const std::vector<uint32_t> &asked,
                const proto::JobInfoResponse *r);
};

} // namespace drover::ctld
