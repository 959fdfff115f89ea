// squeue_fields.cpp - the value, header and sort key of every squeue column.
#include "cli/squeue_fields.hpp"

#include <drover/views.h>

#include <algorithm>
#include <cstdio>
#include <optional>

#include "cli/job_states.hpp"
#include "cli/text.hpp"
#include "cli/users.hpp"
#include "common/error.hpp"
#include "common/gres.hpp"
#include "common/hostlist.hpp"
#include "common/timefmt.hpp"
#include "proto/fb_read.hpp"

namespace drover::cli {

namespace {

enum Kind : int {
    kAccount,
    kJobId,
    kJobArrayId,
    kBatchHost,
    kMinCpus,
    kNumCpus,
    kMinTmpDisk,
    kNumNodes,
    kEndTime,
    kDependency,
    kFeatures,
    kArrayJobId,
    kGroupName,
    kGroupId,
    kOverSubscribe,
    kSocketsPerNode,
    kCoresPerSocket,
    kThreadsPerCore,
    kComment,
    kArrayTaskId,
    kTimeLimit,
    kTimeLeft,
    kMinMemory,
    kTimeUsed,
    kReqNodes,
    kNodeList,
    kCommand,
    kContiguous,
    kPriority,
    kPartition,
    kQos,
    kPriorityLong,
    kReason,
    kReasonList,
    kSelectInfo,
    kStartTime,
    kStateCompact,
    kState,
    kUserName,
    kUserId,
    kReservation,
    kSubmitTime,
    kWCKey,
    kLicenses,
    kExcNodes,
    kCoreSpec,
    kNice,
    kSchedNodes,
    kSct,
    kWorkDir,
    kGres,
    kName,
    kExitCode,
    kStdOut,
    kStdErr,
    kStdIn,
    kCpusPerTask,
    kCluster,
    kOrigin,
    kOriginRaw,
    kSiblingsActive,
    kSiblingsActiveRaw,
    kSiblingsViable,
    kSiblingsViableRaw,
    kNumTasks,
    kEligibleTime,
    kAllocNode,
    kBatchFlag,
    kRequeue,
    kRestarts,
    kHetJobId,
    kHetJobIdSet,
    kHetJobOffset,
    kPrefix,
};

struct Def {
    Kind kind;
    char letter;      // 0: -O only
    const char *name; // nullptr: -o only
    const char *header;
};

constexpr Def kDefs[] = {
    {kAccount, 'a', "Account", "ACCOUNT"},
    {kJobId, 'A', "JobID", "JOBID"},
    {kJobArrayId, 'i', "JobArrayID", "JOBID"},
    {kBatchHost, 'B', "BatchHost", "EXEC_HOST"},
    {kMinCpus, 'c', "MinCpus", "MIN_CPUS"},
    {kNumCpus, 'C', "NumCPUs", "CPUS"},
    {kMinTmpDisk, 'd', "MinTmpDisk", "MIN_TMP_DISK"},
    {kNumNodes, 'D', "NumNodes", "NODES"},
    {kEndTime, 'e', "EndTime", "END_TIME"},
    {kDependency, 'E', "Dependency", "DEPENDENCY"},
    {kFeatures, 'f', "Feature", "FEATURES"},
    {kArrayJobId, 'F', "ArrayJobID", "ARRAY_JOB_ID"},
    {kGroupName, 'g', "GroupName", "GROUP"},
    {kGroupId, 'G', "GroupID", "GROUP"},
    {kOverSubscribe, 'h', "OverSubscribe", "OVER_SUBSCRIBE"},
    {kSocketsPerNode, 'H', "SocketsPerNode", "SOCKETS_PER_NODE"},
    {kCoresPerSocket, 'I', "CoresPerSocket", "CORES_PER_SOCKET"},
    {kThreadsPerCore, 'J', "ThreadsPerCore", "THREADS_PER_CORE"},
    {kComment, 'k', "Comment", "COMMENT"},
    {kArrayTaskId, 'K', "ArrayTaskID", "ARRAY_TASK_ID"},
    {kTimeLimit, 'l', "TimeLimit", "TIME_LIMIT"},
    {kTimeLeft, 'L', "TimeLeft", "TIME_LEFT"},
    {kMinMemory, 'm', "MinMemory", "MIN_MEMORY"},
    {kTimeUsed, 'M', "TimeUsed", "TIME"},
    {kReqNodes, 'n', "ReqNodes", "REQ_NODES"},
    {kNodeList, 'N', "NodeList", "NODELIST"},
    {kCommand, 'o', "Command", "COMMAND"},
    {kContiguous, 'O', "Contiguous", "CONTIGUOUS"},
    {kPriority, 'p', "Priority", "PRIORITY"},
    {kPartition, 'P', "Partition", "PARTITION"},
    {kQos, 'q', "QOS", "QOS"},
    {kPriorityLong, 'Q', "PriorityLong", "PRIORITY"},
    {kReason, 'r', "Reason", "REASON"},
    {kReasonList, 'R', "ReasonList", "NODELIST(REASON)"},
    {kSelectInfo, 's', "SelectJobInfo", "SELECT_JOBINFO"},
    {kStartTime, 'S', "StartTime", "START_TIME"},
    {kStateCompact, 't', "StateCompact", "ST"},
    {kState, 'T', "State", "STATE"},
    {kUserName, 'u', "UserName", "USER"},
    {kUserId, 'U', "UserID", "UID"},
    {kReservation, 'v', "Reservation", "RESERVATION"},
    {kSubmitTime, 'V', "SubmitTime", "SUBMIT_TIME"},
    {kWCKey, 'w', "WCKey", "WCKEY"},
    {kLicenses, 'W', "Licenses", "LICENSES"},
    {kExcNodes, 'x', "ExcNodes", "EXC_NODES"},
    {kCoreSpec, 'X', "CoreSpec", "CORE_SPEC"},
    {kNice, 'y', "Nice", "NICE"},
    {kSchedNodes, 'Y', "SchedNodes", "SCHEDNODES"},
    {kSct, 'z', "SCT", "S:C:T"},
    {kWorkDir, 'Z', "WorkDir", "WORK_DIR"},
    {kGres, 'b', "tres-per-node", "TRES_PER_NODE"},
    {kName, 'j', "Name", "NAME"},
    {kExitCode, 0, "ExitCode", "EXIT_CODE"},
    {kStdOut, 0, "STDOUT", "STDOUT"},
    {kStdErr, 0, "STDERR", "STDERR"},
    {kStdIn, 0, "STDIN", "STDIN"},
    {kCpusPerTask, 0, "cpus-per-task", "CPUS_PER_TASK"},
    {kCluster, 0, "Cluster", "CLUSTER"},
    {kOrigin, 0, "Origin", "ORIGIN"},
    {kOriginRaw, 0, "OriginRaw", "ORIGIN_RAW"},
    {kSiblingsActive, 0, "SiblingsActive", "ACTIVE_SIBLINGS"},
    {kSiblingsActiveRaw, 0, "SiblingsActiveRaw", "ACTIVE_SIBLINGS_RAW"},
    {kSiblingsViable, 0, "SiblingsViable", "VIABLE_SIBLINGS"},
    {kSiblingsViableRaw, 0, "SiblingsViableRaw", "VIABLE_SIBLINGS_RAW"},
    {kNumTasks, 0, "NumTasks", "TASKS"},
    {kEligibleTime, 0, "EligibleTime", "ELIGIBLE_TIME"},
    {kAllocNode, 0, "AllocNodes", "ALLOC_NODES"},
    {kBatchFlag, 0, "BatchFlag", "BATCHFLAG"},
    {kRequeue, 0, "Requeue", "REQUEUE"},
    {kRestarts, 0, "RestartCnt", "RESTARTCNT"},
    {kHetJobId, 0, "HetJobID", "HET_JOB_ID"},
    {kHetJobIdSet, 0, "HetJobIDSet", "HET_JOB_ID_SET"},
    {kHetJobOffset, 0, "HetJobOffset", "HET_JOB_OFFSET"},
    {kTimeUsed, 0, "Time", "TIME"},
    {kUserName, 0, "User", "USER"},
    {kStdOut, 0, "StdOut", "STDOUT"},
};

using proto::sv;

using MemberName = std::function<std::string(uint32_t)>;

// "2,3" (name: "c2,c3") for a set of federation members (bit id-1 for id); "NA" for none.
std::string members(uint64_t set, const MemberName &name) {
    std::string out;
    for (uint32_t id = 1; id <= 64; ++id) {
        if (!(set & (uint64_t(1) << (id - 1)))) continue;
        std::string one = name ? name(id) : str_u(id);
        if (!one.empty()) out += (out.empty() ? "" : ",") + one;
    }
    return out.empty() ? "NA" : out;
}

// A federated job's origin and siblings, by name or (raw) federation id; NA outside one.
std::string federation_value(Kind k, const proto::JobInfo &j, const MemberName &name) {
    const uint32_t origin = j.job_id() >> 26;
    const MemberName raw;
    switch (k) {
    case kOrigin:
        return members(origin ? uint64_t(1) << (origin - 1) : 0, name);
    case kOriginRaw:
        return members(origin ? uint64_t(1) << (origin - 1) : 0, raw);
    case kSiblingsActive:
        return members(j.siblings_active(), name);
    case kSiblingsActiveRaw:
        return members(j.siblings_active(), raw);
    case kSiblingsViable:
        return members(j.siblings_viable(), name);
    default:
        return members(j.siblings_viable(), raw);
    }
}

// squeue's elapsed form, with Slurm's "INVALID" for negative or over a year.
std::string secs(int64_t t) {
    if (t < 0 || t > 365LL * 24 * 3600) return "INVALID";
    return format_elapsed(t);
}

std::string when(int64_t t) {
    return format_timestamp(t, /*na_for_zero=*/true);
}

std::string reason(const proto::JobInfo &j) {
    std::string_view r = sv(j.state_reason());
    return r.empty() ? "None" : std::string(r);
}

std::string share_text(const proto::JobInfo &j) {
    if (j.exclusive() || j.share() == DROVER_SHARE_EXCLUSIVE) return "NO";
    if (j.share() == DROVER_SHARE_OVERSUB) return "YES";
    return "OK";
}

uint32_t min_cpus_node(const proto::JobInfo &j) {
    uint32_t cpt = j.cpus_per_task() ? j.cpus_per_task() : 1;
    return std::max(cpt, j.min_cpus_per_node());
}

// An array's columns: a task shown on its own line, an array's pending tasks together, or the
// record as it is.
std::optional<FieldValue> array_value(Kind k, const SqueueRow &row) {
    const proto::JobInfo &j = *row.job;
    uint32_t task = row.task;
    bool expanded = task != kNoVal;
    switch (k) {
    case kJobArrayId:
        if (expanded) return FieldValue{str_u(j.array_job_id()) + "_" + str_u(task)};
        if (!row.tasks.empty()) return FieldValue{str_u(j.array_job_id()) + "_[" + row.tasks + "]"};
        return FieldValue{job_array_id(j)};
    case kArrayJobId:
        return FieldValue{str_u(j.array_job_id() ? j.array_job_id() : j.job_id())};
    case kArrayTaskId:
        if (expanded) return FieldValue{str_u(task)};
        if (!row.tasks.empty()) return FieldValue{row.tasks};
        if (is_array_record(j)) return FieldValue{array_task_string(j)};
        if (j.array_job_id() && j.array_task_id() != kNoVal)
            return FieldValue{str_u(j.array_task_id())};
        return FieldValue{"N/A"};
    default:
        return std::nullopt;
    }
}

std::optional<FieldValue> time_value(Kind k, const proto::JobInfo &j, int64_t now) {
    switch (k) {
    case kEndTime:
        if (j.time_limit_min() == kInfinite && (j.end_time() > now || job_is_active(j.state())))
            return FieldValue{"NONE"};
        return FieldValue{when(job_end_time(j))};
    case kTimeLimit:
        if (j.time_limit_min() == kInfinite) return FieldValue{"UNLIMITED"};
        if (j.time_limit_min() == kNoVal) return FieldValue{"NOT_SET"};
        return FieldValue{secs(int64_t(j.time_limit_min()) * 60), false};
    case kTimeLeft:
        if (j.time_limit_min() == kInfinite) return FieldValue{"UNLIMITED"};
        if (j.time_limit_min() == kNoVal) return FieldValue{"NOT_SET"};
        return FieldValue{secs(int64_t(j.time_limit_min()) * 60 - job_time_used(j, now)), false};
    case kTimeUsed:
        return FieldValue{secs(job_time_used(j, now)), false};
    case kStartTime:
        return FieldValue{when(j.start_time())};
    case kSubmitTime:
        return FieldValue{when(j.submit_time())};
    case kEligibleTime:
        return FieldValue{when(j.eligible_time())};
    default:
        return std::nullopt;
    }
}

// What the job asks for: CPUs, memory, nodes, tasks, GRES, sharing.
std::optional<FieldValue> request_value(Kind k, const proto::JobInfo &j) {
    switch (k) {
    case kMinCpus:
        return FieldValue{str_u(min_cpus_node(j))};
    case kNumCpus:
        return FieldValue{str_u(j.num_cpus())};
    case kMinTmpDisk:
        return FieldValue{format_size_mb(j.tmp_disk_mb())};
    case kNumNodes:
        return FieldValue{str_u(job_node_count(j))};
    case kFeatures:
        return FieldValue{or_null(sv(j.constraint()))};
    case kOverSubscribe:
        return FieldValue{share_text(j)};
    case kSocketsPerNode:
    case kCoresPerSocket:
    case kThreadsPerCore:
        return FieldValue{"*"};
    case kSct:
        return FieldValue{"*:*:*"};
    case kMinMemory:
        return FieldValue{
            format_size_mb(j.mem_per_cpu_mb() ? j.mem_per_cpu_mb() : j.mem_per_node_mb())};
    case kReqNodes:
        return FieldValue{std::string(sv(j.req_nodes()))};
    case kExcNodes:
        return FieldValue{std::string(sv(j.exc_nodes()))};
    case kContiguous:
        return FieldValue{j.contiguous() ? "1" : "0"};
    case kGres: {
        std::string t = tres_per_node(j);
        return FieldValue{t.empty() ? "N/A" : t};
    }
    case kCpusPerTask:
        return FieldValue{str_u(j.cpus_per_task() ? j.cpus_per_task() : 1)};
    case kNumTasks:
        return FieldValue{str_u(j.num_tasks() ? j.num_tasks() : 1)};
    default:
        return std::nullopt;
    }
}

// A heterogeneous job's columns (-O HetJobID, HetJobIDSet, HetJobOffset): N/A for other jobs,
// as Slurm's squeue prints them.
std::optional<FieldValue> het_value(Kind k, const proto::JobInfo &j) {
    if (k != kHetJobId && k != kHetJobIdSet && k != kHetJobOffset) return std::nullopt;
    if (j.het_job_id() == 0) return FieldValue{"N/A"};
    if (k == kHetJobId) return FieldValue{str_u(j.het_job_id())};
    if (k == kHetJobIdSet) return FieldValue{het_job_id_set(j)};
    return FieldValue{str_u(j.het_job_offset())};
}

FieldValue value(Kind k, const SqueueRow &row, int64_t now) {
    if (auto v = array_value(k, row)) return *v;
    if (auto v = het_value(k, *row.job)) return *v;
    if (auto v = time_value(k, *row.job, now)) return *v;
    if (auto v = request_value(k, *row.job)) return *v;
    const proto::JobInfo &j = *row.job;
    uint32_t base = j.state() & kJobStateBase;
    switch (k) {
    case kAccount:
        return {or_null(sv(j.account()))};
    case kJobId:
        return {str_u(j.job_id())};
    case kBatchHost:
        return {sv(j.batch_host()).empty() ? "n/a" : std::string(sv(j.batch_host()))};
    case kDependency:
        return {dependency_text(j)};
    case kGroupName:
        return {group_name(j.group_id())};
    case kGroupId:
        return {str_u(j.group_id())};
    case kComment:
        return {or_null(sv(j.comment()))};
    case kNodeList:
        return {std::string(sv(j.node_list())), false};
    case kSchedNodes:
        return {or_null(sv(j.sched_nodes())), false};
    case kCommand:
        return {or_null(sv(j.command()))};
    case kPriority: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%16.14f", double(j.priority()) / double(0xffffffffu));
        return {buf};
    }
    case kPriorityLong:
        return {str_u(j.priority())};
    case kPartition:
        return {std::string(sv(j.partition()))};
    case kQos: // none asked for: Slurm's default QOS
        return {or_default(sv(j.qos()), "normal")};
    case kReason:
        return {reason(j)};
    case kReasonList: {
        bool completing = (j.state() & kJobFlagCompleting) != 0;
        if (!completing &&
            (base == DROVER_JOB_PENDING || base == DROVER_JOB_TIMEOUT || base == DROVER_JOB_FAILED))
            return {"(" + reason(j) + ")"};
        return {std::string(sv(j.node_list())), false};
    }
    case kSelectInfo:
        return {"N/A"};
    case kStateCompact:
        return {job_state_compact(j.state())};
    case kState:
        return {job_state_long(j.state())};
    case kUserName:
        return {sv(j.user_name()).empty() ? user_name(j.user_id())
                                          : std::string(sv(j.user_name()))};
    case kUserId:
        return {str_u(j.user_id())};
    case kLicenses:
        return {or_null(sv(j.licenses()))};
    case kReservation:
        return {or_null(sv(j.reservation()))};
    case kWCKey:
        return {"(null)"};
    case kCoreSpec:
        return {"N/A"};
    case kNice:
        return {str_i(j.nice())};
    case kWorkDir:
        return {std::string(sv(j.work_dir()))};
    case kName:
        return {std::string(sv(j.name()))};
    case kExitCode:
        return {exit_code_string(j.exit_status())};
    case kStdOut:
        return {std::string(sv(j.std_out()))};
    case kStdErr:
        return {std::string(sv(j.std_err()))};
    case kStdIn:
        return {sv(j.std_in()).empty() ? "/dev/null" : std::string(sv(j.std_in()))};
    case kCluster:
        return {std::string(sv(j.cluster()))};
    case kAllocNode:
        return {std::string(sv(j.submit_host()))};
    case kBatchFlag:
        return {"1"};
    case kRequeue:
        return {j.requeue() ? "1" : "0"};
    case kRestarts:
        return {str_u(j.restart_count())};
    case kPrefix:
        return {""};
    default:
        break;
    }
    return {""};
}

// "gres/gpu:2,gres/nic:1" from a --gres string (as the controller keeps it).
std::string gres_tres(std::string_view gres) {
    std::string out;
    std::vector<GresCount> items;
    try {
        items = parse_gres_request(gres);
    } catch (const ParseError &) {
        return std::string(gres);
    }
    for (const auto &g : items) {
        if (!out.empty()) out += ",";
        out += "gres/" + g.name;
        if (!g.type.empty()) out += ":" + g.type;
        out += ":" + str_u(g.count);
    }
    return out;
}

const Def *by_letter(char c) {
    for (const auto &d : kDefs)
        if (d.letter == c) return &d;
    return nullptr;
}

const Def *by_name(std::string_view n) {
    for (const auto &d : kDefs)
        if (d.name && iequals(n, d.name)) return &d;
    return nullptr;
}

const char *header_of(int kind, const FieldSpec &f) {
    for (const auto &d : kDefs) {
        if (d.kind != kind) continue;
        if (f.type ? d.letter == f.type : (d.name && iequals(f.name, d.name))) return d.header;
    }
    return "";
}

} // namespace

int64_t job_time_used(const proto::JobInfo &j, int64_t now) {
    uint32_t base = j.state() & kJobStateBase;
    if (j.start_time() == 0 || base == DROVER_JOB_PENDING) return 0;
    // The time it spent suspended does not count: what it ran before its last suspension or
    // resume, plus the time since that resume.
    if (base == DROVER_JOB_SUSPENDED) return j.pre_suspend_secs();
    int64_t end = (base == DROVER_JOB_RUNNING || j.end_time() == 0) ? now : j.end_time();
    int64_t since = j.suspend_time() ? j.suspend_time() : j.start_time();
    return j.pre_suspend_secs() + std::max<int64_t>(0, end - since);
}

int64_t job_end_time(const proto::JobInfo &j) {
    if (j.end_time() != 0) return j.end_time();
    uint32_t base = j.state() & kJobStateBase;
    bool limited = j.time_limit_min() != kInfinite && j.time_limit_min() != kNoVal;
    // Moved on by the time it spent suspended (while suspended: as it stood at the suspension).
    int64_t since = j.suspend_time() ? j.suspend_time() : j.start_time();
    if ((base == DROVER_JOB_RUNNING || base == DROVER_JOB_SUSPENDED) && j.start_time() && limited)
        return since - j.pre_suspend_secs() + int64_t(j.time_limit_min()) * 60;
    return 0;
}

uint32_t job_node_count(const proto::JobInfo &j) {
    std::string_view nodes = sv(j.node_list());
    uint32_t base = j.state() & kJobStateBase;
    if (!nodes.empty() && base != DROVER_JOB_PENDING) {
        try {
            return static_cast<uint32_t>(hostlist_expand(nodes).size());
        } catch (const ParseError &) {}
    }
    return j.min_nodes() ? j.min_nodes() : 1;
}

SqueueFormat squeue_percent_format(std::string_view fmt) {
    SqueueFormat out;
    out.spec = parse_percent_format(fmt);
    for (const auto &f : out.spec.fields) {
        const Def *d = by_letter(f.type);
        if (!d) throw ParseError(std::string("Invalid job format specification: ") + f.type);
        out.kinds.push_back(d->kind);
    }
    return out;
}

SqueueFormat squeue_long_format(std::string_view fmt) {
    SqueueFormat out;
    out.spec = parse_long_format(fmt, 20);
    for (const auto &f : out.spec.fields) {
        const Def *d = by_name(f.name);
        if (!d) throw ParseError("Invalid job format specification: " + f.name);
        out.kinds.push_back(d->kind);
    }
    return out;
}

std::string squeue_header(const SqueueFormat &f) {
    return render_line(f.spec, [&](const FieldSpec &fs) {
        int kind = f.kinds[static_cast<std::size_t>(&fs - f.spec.fields.data())];
        bool cut = kind != kNodeList && kind != kReasonList && kind != kSchedNodes;
        return FieldValue{header_of(kind, fs), cut};
    });
}

std::string squeue_line(const SqueueFormat &f, const SqueueRow &row, int64_t now) {
    return render_line(f.spec, [&](const FieldSpec &fs) {
        auto kind =
            static_cast<Kind>(f.kinds[static_cast<std::size_t>(&fs - f.spec.fields.data())]);
        if (kind >= kOrigin && kind <= kSiblingsViableRaw)
            return FieldValue{federation_value(kind, *row.job, f.member_name)};
        return value(kind, row, now);
    });
}

std::vector<SqueueRow> squeue_rows(const std::vector<const proto::JobInfo *> &jobs, bool expand,
                                   const std::vector<JobSpec> &specs) {
    std::vector<SqueueRow> rows;
    rows.reserve(jobs.size());
    for (const auto *j : jobs) {
        auto waiting = is_array_record(*j) ? parse_task_ranges(sv(j->array_tasks())) : std::nullopt;
        if (!waiting) {
            rows.push_back({j});
            continue;
        }
        // The waiting tasks the specs name: all of them unless every spec naming this record
        // names only some tasks.
        bool whole = specs.empty();
        std::vector<TaskRange> named;
        for (const auto &s : specs) {
            if (!s.matches(*j)) continue;
            if (!s.has_tasks) {
                whole = true;
                break;
            }
            for (const auto &w : *waiting)
                for (const auto &t : s.tasks) {
                    uint32_t lo = std::max(w.lo, t.lo), hi = std::min(w.hi, t.hi);
                    if (lo <= hi) named.push_back({lo, hi});
                }
        }
        if (whole) named = *waiting;
        std::sort(named.begin(), named.end(),
                  [](const TaskRange &a, const TaskRange &b) { return a.lo < b.lo; });
        std::vector<TaskRange> merged;
        for (const auto &r : named) {
            if (!merged.empty() && uint64_t(r.lo) <= uint64_t(merged.back().hi) + 1)
                merged.back().hi = std::max(merged.back().hi, r.hi);
            else
                merged.push_back(r);
        }
        if (merged.empty()) continue;
        if (expand) {
            for (const auto &r : merged)
                for (uint64_t t = r.lo; t <= r.hi; ++t) rows.push_back({j, uint32_t(t)});
        } else if (whole) {
            rows.push_back({j});
        } else if (merged.size() == 1 && merged[0].lo == merged[0].hi) {
            rows.push_back({j, merged[0].lo});
        } else {
            std::string list;
            for (const auto &r : merged) {
                if (!list.empty()) list += ",";
                list += str_u(r.lo);
                if (r.hi > r.lo) list += "-" + str_u(r.hi);
            }
            rows.push_back({j, kNoVal, list});
        }
    }
    return rows;
}

bool is_array_record(const proto::JobInfo &j) {
    return j.array_task_id() == kNoVal && j.array_tasks() && j.array_tasks()->size() > 0;
}

std::string array_task_string(const proto::JobInfo &j) {
    if (!is_array_record(j)) return "";
    std::string out(sv(j.array_tasks()));
    // Slurm shows waiting tasks spread evenly over more than ten ids as first-last:step.
    if (auto ranges = parse_task_ranges(out); ranges && ranges->size() > 1) {
        bool singles = true, even = true, ascending = true;
        for (const auto &r : *ranges) singles = singles && r.lo == r.hi;
        const auto &v = *ranges;
        uint32_t step = v[1].lo > v[0].lo ? v[1].lo - v[0].lo : 0;
        for (std::size_t i = 1; i < v.size(); ++i) {
            ascending = ascending && v[i].lo > v[i - 1].lo;
            even = even && v[i].lo - v[i - 1].lo == step;
        }
        uint32_t first = v.front().lo, last = v.back().lo;
        if (singles && ascending && even && step > 1 && last - first > 10)
            out = str_u(first) + "-" + str_u(last) + ":" + str_u(step);
    }
    if (j.array_max_running()) out += "%" + str_u(j.array_max_running());
    return out;
}

std::string job_array_id(const proto::JobInfo &j) {
    if (is_array_record(j))
        return str_u(j.array_job_id() ? j.array_job_id() : j.job_id()) + "_[" +
               array_task_string(j) + "]";
    if (j.array_job_id() && j.array_task_id() != kNoVal)
        return str_u(j.array_job_id()) + "_" + str_u(j.array_task_id());
    // A heterogeneous job's component as "LEADER+OFFSET" (the leader itself "L+0").
    if (j.het_job_id()) return str_u(j.het_job_id()) + "+" + str_u(j.het_job_offset());
    return str_u(j.job_id());
}

std::string het_job_id_set(const proto::JobInfo &j) {
    if (j.het_job_id() == 0) return "";
    // The components' ids are consecutive from the leader's, so the set is one range (Slurm
    // prints it as a ranged id list, "93-95").
    uint32_t last = j.het_job_id() + (j.het_size() > 1 ? j.het_size() - 1 : 0);
    if (last == j.het_job_id()) return str_u(last);
    return str_u(j.het_job_id()) + "-" + str_u(last);
}

std::string dependency_text(const proto::JobInfo &j) {
    std::string_view dep = sv(j.dependency());
    if (dep.empty()) return "(null)";
    bool any = dep.find('?') != std::string_view::npos;
    std::vector<std::string> terms;
    std::string cur;
    for (char c : dep) {
        if (c == ',' || c == '?') {
            terms.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    terms.push_back(cur);
    // The controller keeps every term of a dependency that can never be met; which one failed
    // is known when there is one term, or when any term would do (then all of them failed).
    bool never = sv(j.state_reason()) == "DependencyNeverSatisfied";
    const char *mark = never && (any || terms.size() == 1) ? "(failed)" : "(unfulfilled)";
    std::string out;
    for (const auto &t : terms) {
        if (t.empty()) continue;
        if (!out.empty()) out += any ? "?" : ",";
        out += t + mark;
    }
    return out.empty() ? "(null)" : out;
}

std::string tres_per_node(const proto::JobInfo &j) {
    std::string out = gres_tres(sv(j.gres()));
    if (j.gpus_per_node()) {
        if (!out.empty()) out += ",";
        out += "gres/gpu:" + str_u(j.gpus_per_node());
    }
    return out;
}

std::string tres_per_job(const proto::JobInfo &j) {
    return j.gpus() ? "gres/gpu:" + str_u(j.gpus()) : std::string();
}

std::string tres_per_task(const proto::JobInfo &j) {
    return j.gpus_per_task() ? "gres/gpu:" + str_u(j.gpus_per_task()) : std::string();
}

void squeue_sort(std::vector<const proto::JobInfo *> &jobs, std::string_view spec, int64_t now) {
    struct Key {
        char c;
        bool desc;
    };
    std::vector<Key> keys;
    for (const auto &item : split(spec, ',')) {
        std::string_view k = trim(item);
        bool desc = false;
        if (!k.empty() && (k[0] == '-' || k[0] == '+')) {
            desc = k[0] == '-';
            k.remove_prefix(1);
        }
        if (k.size() != 1 ||
            std::string_view("PtTpQiAjuUMSVeDClNr").find(k[0]) == std::string_view::npos)
            throw ParseError("Invalid sort specification: " + std::string(k));
        keys.push_back({k[0], desc});
    }
    auto cmp_key = [&](char c, const proto::JobInfo &a, const proto::JobInfo &b) -> int {
        auto three = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
        switch (c) {
        case 'P':
            return three(sv(a.partition()), sv(b.partition()));
        case 't':
            return three(std::string_view(job_state_compact(a.state())),
                         std::string_view(job_state_compact(b.state())));
        case 'T':
            return three(std::string_view(job_state_long(a.state())),
                         std::string_view(job_state_long(b.state())));
        case 'p':
        case 'Q':
            return three(a.priority(), b.priority());
        case 'i':
        case 'A':
            return three(a.job_id(), b.job_id());
        case 'j':
            return three(sv(a.name()), sv(b.name()));
        case 'u':
            return three(sv(a.user_name()), sv(b.user_name()));
        case 'U':
            return three(a.user_id(), b.user_id());
        case 'M':
            return three(job_time_used(a, now), job_time_used(b, now));
        case 'S':
            return three(a.start_time(), b.start_time());
        case 'V':
            return three(a.submit_time(), b.submit_time());
        case 'e':
            return three(a.end_time(), b.end_time());
        case 'D':
            return three(job_node_count(a), job_node_count(b));
        case 'C':
            return three(a.num_cpus(), b.num_cpus());
        case 'l':
            return three(a.time_limit_min(), b.time_limit_min());
        case 'N':
            return three(sv(a.node_list()), sv(b.node_list()));
        case 'r':
            return three(sv(a.state_reason()), sv(b.state_reason()));
        }
        return 0;
    };
    std::stable_sort(jobs.begin(), jobs.end(),
                     [&](const proto::JobInfo *a, const proto::JobInfo *b) {
                         for (const auto &k : keys) {
                             int c = cmp_key(k.c, *a, *b);
                             if (c != 0) return k.desc ? c > 0 : c < 0;
                         }
                         if (a->start_time() != b->start_time())
                             return a->start_time() > b->start_time();
                         return a->job_id() < b->job_id();
                     });
}

} // namespace drover::cli
