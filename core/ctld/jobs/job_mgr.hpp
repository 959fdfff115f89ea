// job_mgr.hpp - the controller's jobs: submission, queries, signals, updates, completion, time
// limits and the purge of old records. JobManager is the only owner of Job objects.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/exit_codes.hpp"
#include "common/status.hpp"
#include "ctld/acct/acct_records.hpp"
#include "ctld/context.hpp"
#include "ctld/jobs/job.hpp"
#include "ctld/jobs/licenses.hpp"
#include "ctld/policy/acct_policy.hpp"
#include "net/routes.hpp"
#include "net/server.hpp"
#include "proto/message_generated.h"

namespace drover::ctld {

struct Partition;
class NodeManager;
class Placement;

// Counts over all the tasks of one job array, for dependencies on the whole array and the %N
// throttle.
// Slurm's refusal for a job id it does not have.
inline constexpr const char *kInvalidJobId = "Invalid job id specified";
// How long the controller waits for a node to answer a job's kill or signal.
inline constexpr int kNodeCallMs = 10000;

struct ArrayCounts {
    uint32_t total = 0, pending = 0, running = 0, ok = 0, bad = 0;
};

class JobManager {
  public:
    JobManager(Ctx &ctx, NodeManager &nodes, const Placement &place);

    // Loads jobs from the store (cold: discards them) and restores allocations of running jobs.
    // Running batch jobs are launched again (Events::relaunch): the launch of one that had just
    // started may never have left; a node that has it ignores the repeat.
    void recover(bool cold);

    // A new (or released) job's priority: the priority source's (a priority plugin's), else the
    // sched plugin's job_priority, else Slurm's basic order (earlier submissions first) moved
    // down by --nice.
    uint32_t initial_priority(const Job &job) const;
    // Where priorities come from when a priority plugin runs (the controller's Priorities, built
    // above this manager): set once when the controller is built. nullopt: the basic order.
    using PrioritySource = std::function<std::optional<uint32_t>(const Job &)>;
    void set_priority_source(PrioritySource source) { priority_source_ = std::move(source); }
    // Whether a new job may run in the reservation it names (the controller's Reservations,
    // built above this manager): an empty string, or Slurm's refusal. Set once when built.
    using ReservationCheck = std::function<std::string(const Job &)>;
    void set_reservation_check(ReservationCheck check) { resv_check_ = std::move(check); }
    // A federation's say over an update of one job (fed_jobs.hpp): before it is applied here,
    // forward may take the request (a job another member runs) and answer it itself; once it
    // is applied here, updated hears it (the job's copies elsewhere change alike). Set once when
    // the controller is built.
    using UpdateForward = std::function<bool(Job &, const std::shared_ptr<net::Request> &,
                                             const net::ResponderPtr &)>;
    using Updated = std::function<void(const Job &, const std::shared_ptr<net::Request> &)>;
    void set_update_forward(UpdateForward f, Updated updated) {
        update_forward_ = std::move(f);
        updated_ = std::move(updated);
    }
    // A federation's view of the jobs other members gave, for dependencies on them
    // (fed_jobs.hpp): nullopt for an id of no other member (this cluster's own rules); a null
    // Job while its state is not known yet (the term waits); else how it stands. Set once when
    // the controller is built.
    using RemoteJob = std::function<std::optional<const Job *>(uint32_t job_id)>;
    void set_remote_job(RemoteJob f) { remote_job_ = std::move(f); }
    // An update another member forwarded for this member's copy of a job, as uid.
    Status apply_update(Job &job, const proto::JobUpdateRequest &r, uint32_t uid) {
        return update_job(job, r, uid, ctx_.is_admin(uid));
    }
    // A pending job's priority as the priority plugin computed it again. In memory only: it is
    // computed again after a restart (a record written for another reason carries it).
    void set_priority(Job &job, uint32_t priority) { job.priority = priority; }

    // Takes a job built in memory (benchmarks and tests that need many jobs without sending
    // them): it gets the next id and a priority, is persisted in the current batch, and waits.
    uint32_t adopt(std::unique_ptr<Job> job);

    Job *find(uint32_t id);
    // Pending jobs in submit (id) order.
    std::vector<Job *> pending();
    std::vector<Job *> running();
    std::size_t count() const { return jobs_.size(); }
    // Calls fn for every job held, in id order (the metrics' counts).
    template <class Fn>
    void each(Fn &&fn) const {
        for (const auto &[id, j] : jobs_) fn(*j);
    }

    // Writes the job's record into the current batch (and counts the job's usage again).
    void persist(const Job &job);

    // AccountingStorageEnforce over the current associations, and what the live jobs hold.
    policy::AcctPolicy policy() const;
    const policy::UsageIndex &usage() const { return usage_; }
    // slurm.conf's Licenses= and what running jobs hold of them.
    const Licenses &licenses() const { return licenses_; }
    // Spools the job's accounting record for event (delivered once the batch is durable).
    void account(int event, const Job &job);
    // Before a requeue resets the job: its ending run's record, REQUEUED (then account SUBMIT).
    void account_requeue(const Job &job);

    // Records the start of a job its nodes were just allocated to (the scheduler's decision):
    // running, persisted and accounted; Events::job_started once that is durable.
    void record_start(Job &job);
    // Ends a job: final state and exit status, resources released, recorded, scheduler woken.
    void end_job(Job &job, uint32_t state, int32_t exit_status);
    // What a scheduling pass decided for a job it left pending (nothing once the job no longer
    // is): why it waits; when and where a planning policy expects to start it; that it ends
    // without running (state; cancelled_by: the uid that cancelled it, or DROVER_NO_VAL).
    void note_pending(uint32_t id, std::string reason);
    void note_expected_start(uint32_t id, int64_t when, std::vector<uint32_t> nodes);
    void end_pending(uint32_t id, uint32_t state, uint32_t cancelled_by);
    // A node the job runs on failed: its jobs end NODE_FAIL.
    void node_failed(uint32_t node);
    // A node registered saying which batch jobs it has (running, or ended and not yet
    // acknowledged) and which jobs have steps running there. A job that runs there but is unknown
    // here, no longer running or not on that node (a cold start, an end the node missed) is
    // terminated there; a batch job running here whose launch the node does not have is
    // launched again.
    void node_registered(uint32_t node, const std::vector<uint32_t> &batch,
                         const std::vector<uint32_t> &step_jobs);
    // Sends a signal (terminate: SIGTERM, KillWait, SIGKILL) to the job's batch host; for an
    // interactive job, to every step of it (Events::steps_signalled). A termination's cause is
    // what the batch host writes to the script's stderr.
    void send_kill(Job &job, int sig, bool terminate,
                   proto::KillCause cause = proto::KillCause::None);
    // Which processes of a running job a signal reaches, as Slurm scopes them: its steps only
    // (scancel -s, --signal=SIG@T), the batch shell alone (scancel -b, --signal=B:SIG@T), or the
    // batch step with the shell's children and every step (scancel -f).
    enum class SignalScope { Steps, BatchShell, Full };
    void send_signal(Job &job, int sig, SignalScope scope);
    // Tells the job's nodes (all but the batch host) that it has ended.
    void end_on_nodes(const Job &job);

    // Jobs past their time limit are terminated; finished jobs older than MinJobAge forgotten.
    void tick();

    // The job messages this manager serves, and who may send each.
    net::Routes routes();

    void on_submit(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    void on_info(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    void on_update(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    void on_complete(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    void on_script(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    void on_licenses(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    // A sibling job the origin of federated job id sent (its submission as the origin took it,
    // its owner and viable members): checked here as a submission is, then queued. OK too when
    // it is already here and not finished.
    Status enter_sibling(std::span<const uint8_t> submission, uint32_t id, uint32_t uid,
                         uint32_t gid, uint64_t viable);

    // Dependencies: how a job's unmet terms stand now (terms that hold are dropped).
    DepState check_dependency(Job &job);
    // The job (or array task) a dependency names, if the controller still has it.
    const Job *find_for_dependency(uint32_t job_id, uint32_t task_id) const;
    ArrayCounts &array_counts(uint32_t array_job_id) { return arrays_[array_job_id]; }
    // A job named by scancel/scontrol: a job, a running or finished array task, or a task still
    // waiting inside its array's record (pending_task set).
    struct Target {
        std::string label;  // as the user wrote it, for messages
        Job *job = nullptr; // nullptr: no such job
        uint32_t pending_task = DROVER_NO_VAL;
    };
    // Parts of update_job: an action (requeue, top), a hold or release, one Key=Value.
    Status job_action(Job &job, const std::string &action, bool admin);
    Status update_hold(Job &next, int hold, bool admin);
    Status update_field(Job &next, const std::string &key, const std::string &key_as_given,
                        const std::string &val, bool admin);
    // The jobs a JobSignalRequest names: job (and array task) specs, job ids, or every live job
    // the caller sees that matches all the filters given; specs with ".S" name steps.
    Status signal_targets(const proto::JobSignalRequest &r, uint32_t uid,
                          std::vector<Target> *targets,
                          std::vector<std::pair<Target, uint32_t>> *step_targets);
    // Signals (SIGKILL: cancels) one named job, as its owner or an admin may; a signal other
    // than SIGKILL reaches the processes scope names.
    Status signal_job_target(const Target &t, int sig, uint32_t uid,
                             SignalScope scope = SignalScope::Steps);
    // Resolves "123", "123_4", "123_[1-3,5]"; a bare array id means every task of the array.
    std::vector<Target> resolve(const std::string &spec);
    // Ends one task still waiting in its array's record, as cancelled by uid.
    void cancel_pending_task(Job &record, uint32_t task, uint32_t uid);
    // Puts a job back in the queue (scontrol requeue, or a failed node under --requeue).
    void requeue_job(Job &job, bool hold);
    // Marks a running job preempted by the job by: requeued when it ends (requeue), else ending
    // PREEMPTED. The caller then signals it (at once, or after its GraceTime).
    void mark_preempted(Job &job, bool requeue, uint32_t by);
    // Stops a running job's processes (SIGSTOP) and its clock; its CPUs are free for others
    // until resume_job (the select plugin's job_suspend). by_preemption: the scheduler resumes
    // it.
    // Refusals as Slurm's: not running, already suspended.
    Status suspend_job(Job &job, bool by_preemption);
    Status resume_job(Job &job);

    // Takes the lowest pending task out of an array's pending record as a Job of its own (the
    // record itself when it is the last one). Returns nullptr when none may start (throttle).
    Job *split_array_task(Job &record);
    // The same for one named task (scontrol on "12_5"), whatever the throttle.
    Job *split_array_task(Job &record, uint32_t task);

    // Heterogeneous jobs (het_job.cpp). The components of the heterogeneous job that job
    // belongs to, leader first; just job when it is not one (or a component is gone).
    std::vector<Job *> het_components(const Job &job);
    // What an operation naming job reaches: every component when job is a heterogeneous job's
    // leader, else job alone.
    std::vector<Job *> het_named(Job &job);
    // The leader's other components that are still known (none when it is not a leader).
    std::vector<Job *> het_others(const Job &leader);
    // The leader ended or was requeued: the components still pending or running end with it,
    // in its state, or are requeued with it.
    void end_het_components(const Job &leader);
    void requeue_het_components(const Job &leader, bool hold);
    // The leader of job's heterogeneous job (what a failure of one component acts on); job
    // itself when it is not a component or its leader is gone.
    Job &het_leader(Job &job);
    // Slurm's refusal of an operation meant for a whole heterogeneous job (requeue, suspend,
    // resume) named on a component other than its leader; OK otherwise.
    static Status het_leader_only(const Job &job);
    // A component other than the leader may be cancelled or signalled on its own only once it
    // runs (Slurm's rule): while pending, only the whole job can be.
    static Status het_signal_check(const Job &job);

    // Power saving (job_configuring.cpp): a job started on nodes that are powering up is
    // CONFIGURING (DROVER_JOB_FLAG_CONFIGURING) until they have all registered; then its time
    // starts and Events::job_started is published (its script launched, its salloc answered).
    void configured_if_up(Job &job);

  private:
    AcctRecord acct_record(const Job &job);
    // One job's scontrol update (fields, hold/release, requeue, top): OK, or the refusal (EPERM
    // for what the caller has no right to, else EINVAL), in which case the job is unchanged.
    Status update_job(Job &job, const proto::JobUpdateRequest &r, uint32_t uid, bool admin);
    Status read_request(Job &job, const proto::JobDescT &d, bool admin);
    uint32_t take_job_id();
    // count consecutive free ids (a heterogeneous job's components): the first.
    uint32_t take_job_ids(uint32_t count);
    // A submission's job desc d checked and read into j (JobSubmitPlugins first), as uid.
    Status build_job(const proto::JobDesc &d, Job &j, Partition *&part, std::string *user_msg);
    // sbatch/salloc with ':' components: each checked as a job is, then queued together with
    // consecutive ids (the leader first); the answer names the leader.
    void submit_het(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    // A new job's priority, and its hold (-H) with its reason.
    void queue_as_new(Job &j, bool hold);
    // The answer to a submission once it is durable.
    void answer_submit(const net::ResponderPtr &resp, uint32_t id, std::string user_msg);
    std::string user_name(uint32_t uid);
    // Checks a job against its partition: OK, or Slurm's refusal (EINVAL).
    Status validate(Job &job, Partition *&part, uint32_t uid, uint32_t gid);
    // AccountingStorageEnforce: the job's QOS chosen and allowed, a new job within the submit
    // limits (Slurm's refusal otherwise).
    Status check_policy(Job &job, uint32_t uid);
    // A new job's viable federation members (-M, --cluster-constraint, FedState); refused when
    // there is none.
    Status choose_siblings(Job &job);
    // Queues a new job: its record, its submission as the script record, its accounting.
    void enter(std::unique_ptr<Job> job, std::span<const uint8_t> submission);
    void forget(uint32_t id);
    // Sends a JobKillRequest for the job to the nodes (more than one through the fan-out tree);
    // what (for the log) says what it was for.
    void kill_on_nodes(const std::vector<uint32_t> &nodes, uint32_t job_id, int sig, bool terminate,
                       const char *what, proto::KillCause cause = proto::KillCause::None);
    // Sends a finished message to the named nodes; each refusal is logged as "cannot <what>".
    void tell_nodes(std::vector<std::string> names, const flatbuffers::FlatBufferBuilder &msg,
                    uint32_t job_id, const char *what);

    Ctx &ctx_;
    NodeManager &nodes_;
    const Placement &place_;
    std::map<uint32_t, std::unique_ptr<Job>> jobs_; // ordered: submit order is id order
    uint32_t next_id_ = 1;
    // When a job last changed (written, given a new reason, purged): a query with an update time
    // later than it is told nothing changed (squeue -i, slurmrestd's update_time).
    int64_t last_change_ = 0;
    std::unordered_map<uint32_t, std::string> user_names_;
    std::unordered_map<uint32_t, ArrayCounts> arrays_;
    policy::Enforce enforce_;
    PrioritySource priority_source_;
    ReservationCheck resv_check_;
    UpdateForward update_forward_;
    Updated updated_;
    RemoteJob remote_job_;
    // RequeueExit and RequeueExitHold: batch exit codes that requeue the job, or requeue it held
    // in SPECIAL_EXIT.
    ExitCodeSet requeue_exit_, requeue_exit_hold_;
    // Requeues a batch job whose script exited by itself with a code RequeueExit or
    // RequeueExitHold lists (not one submitted --no-requeue): true when it did.
    bool requeue_on_exit(Job &job, const proto::JobCompleteRequest &r);
    // Ends a job whose batch script (or allocation) has ended, in the state its end means.
    void batch_ended(Job &job, const proto::JobCompleteRequest &r);
    policy::UsageIndex usage_; // kept by persist and forget; counted again on assocs_changed
    Licenses licenses_;        // kept by persist and forget; counted when recovered
    void count_usage_again();
    // (array job id, task id) -> job id, for tasks that have left the pending record.
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> tasks_;
};

// Expands an output path pattern (%j %x %u %N %A %a %n %t %s %%, with optional zero-padding
// width like %5j) and makes it absolute against the job's working directory.
std::string expand_output_path(const std::string &pattern, const Job &job,
                               const std::string &node_name);

} // namespace drover::ctld
