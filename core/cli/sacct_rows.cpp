// sacct_rows.cpp - sacct field table (Slurm's widths), values for job and batch lines, layouts.
#include "cli/sacct_rows.hpp"

#include <drover/views.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include "cli/job_states.hpp"
#include "cli/sacct_fields.hpp"
#include "cli/sacct_steps.hpp"
#include "cli/scontrol_show.hpp"
#include "cli/text.hpp"
#include "cli/users.hpp"
#include "common/error.hpp"
#include "common/gres.hpp"
#include "common/hostlist.hpp"
#include "common/timefmt.hpp"
#include "proto/fb_read.hpp"

namespace drover::cli {

const char *const kSacctLongFields =
    "JobID,JobIDRaw,JobName,Partition,MaxVMSize,MaxVMSizeNode,MaxVMSizeTask,AveVMSize,MaxRSS,"
    "MaxRSSNode,MaxRSSTask,AveRSS,MaxPages,MaxPagesNode,MaxPagesTask,AvePages,MinCPU,MinCPUNode,"
    "MinCPUTask,AveCPU,NTasks,AllocCPUS,Elapsed,State,ExitCode,AveCPUFreq,ReqCPUFreqMin,"
    "ReqCPUFreqMax,ReqCPUFreqGov,ReqMem,ConsumedEnergy,MaxDiskRead,MaxDiskReadNode,"
    "MaxDiskReadTask,AveDiskRead,MaxDiskWrite,MaxDiskWriteNode,MaxDiskWriteTask,AveDiskWrite,"
    "ReqTRES,AllocTRES,TRESUsageInAve,TRESUsageInMax,TRESUsageInMaxNode,TRESUsageInMaxTask,"
    "TRESUsageInMin,TRESUsageInMinNode,TRESUsageInMinTask,TRESUsageInTot,TRESUsageOutMax,"
    "TRESUsageOutMaxNode,TRESUsageOutMaxTask,TRESUsageOutAve,TRESUsageOutTot";

namespace {

struct Def {
    const char *name;
    int width;
    SacctKind kind;
};

// In Slurm's order, so an abbreviation picks the same field it does.
constexpr Def kDefs[] = {
    {"Account", 10, kAccount},
    {"AdminComment", 15, kEmpty},
    {"AllocCPUS", 10, kAllocCpus},
    {"AllocGRES", 12, kEmpty},
    {"AllocNodes", 10, kAllocNodes},
    {"AllocTRES", 10, kAllocTres},
    {"AssocID", 7, kEmpty},
    {"AveCPU", 10, kAveCpu},
    {"AveCPUFreq", 10, kUsage},
    {"AveDiskRead", 14, kAveDiskRead},
    {"AveDiskWrite", 14, kAveDiskWrite},
    {"AvePages", 10, kUsage},
    {"AveRSS", 10, kAveRss},
    {"AveVMSize", 10, kAveVmSize},
    {"BlockID", 16, kEmpty},
    {"Cluster", 10, kCluster},
    {"Comment", 14, kComment},
    {"Constraints", 19, kEmpty},
    {"ConsumedEnergy", 14, kConsumedEnergy},
    {"ConsumedEnergyRaw", 17, kConsumedEnergy},
    {"CPUTime", 10, kCpuTime},
    {"CPUTimeRAW", 10, kCpuTimeRaw},
    {"DerivedExitCode", 15, kDerivedExitCode},
    {"Elapsed", 10, kElapsed},
    {"ElapsedRaw", 10, kElapsedRaw},
    {"Eligible", 19, kEligible},
    {"End", 19, kEnd},
    {"ExitCode", 8, kExitCode},
    {"Flags", 19, kFlags},
    {"GID", 6, kGid},
    {"Group", 9, kGroup},
    {"JobID", -12, kJobId},
    {"JobIDRaw", -12, kJobIdRaw},
    {"JobName", 10, kJobName},
    {"Layout", 9, kEmpty},
    {"MaxDiskRead", 12, kMaxDiskRead},
    {"MaxDiskReadNode", 15, kMaxDiskReadNode},
    {"MaxDiskReadTask", 15, kUsage},
    {"MaxDiskWrite", 12, kMaxDiskWrite},
    {"MaxDiskWriteNode", 16, kMaxDiskWriteNode},
    {"MaxDiskWriteTask", 16, kUsage},
    {"MaxPages", 8, kUsage},
    {"MaxPagesNode", 12, kUsage},
    {"MaxPagesTask", 14, kUsage},
    {"MaxRSS", 10, kMaxRss},
    {"MaxRSSNode", 10, kMaxRssNode},
    {"MaxRSSTask", 10, kMaxRssTask},
    {"MaxVMSize", 10, kMaxVmSize},
    {"MaxVMSizeNode", 14, kMaxVmSizeNode},
    {"MaxVMSizeTask", 14, kUsage},
    {"McsLabel", 12, kEmpty},
    {"MinCPU", 10, kMinCpu},
    {"MinCPUNode", 10, kUsage},
    {"MinCPUTask", 10, kUsage},
    {"NCPUS", 10, kAllocCpus},
    {"NNodes", 8, kNNodes},
    {"NodeList", 15, kNodeList},
    {"NTasks", 8, kNTasks},
    {"Priority", 10, kPriority},
    {"Partition", 10, kPartition},
    {"QOS", 10, kQos},
    {"QOSRAW", 6, kQosRaw},
    {"Reason", 22, kReason},
    {"ReqCPUFreq", 10, kUsage},
    {"ReqCPUFreqMin", 13, kUsage},
    {"ReqCPUFreqMax", 13, kUsage},
    {"ReqCPUFreqGov", 13, kUsage},
    {"ReqCPUS", 8, kReqCpus},
    {"ReqGRES", 12, kEmpty},
    {"ReqMem", 10, kReqMem},
    {"ReqNodes", 8, kReqNodes},
    {"ReqTRES", 10, kReqTres},
    {"Reservation", 20, kEmpty},
    {"ReservationId", 8, kEmpty},
    {"Reserved", 10, kReserved},
    {"ResvCPU", 10, kZeroTime},
    {"ResvCPURAW", 10, kEmpty},
    {"Start", 19, kStart},
    {"State", 10, kState},
    {"Submit", 19, kSubmit},
    {"Suspended", 10, kSuspended},
    {"SystemCPU", 10, kSystemCpu},
    {"SystemComment", 15, kEmpty},
    {"Timelimit", 10, kTimelimit},
    {"TimelimitRaw", 10, kTimelimitRaw},
    {"TotalCPU", 10, kTotalCpu},
    {"TRESUsageInAve", 14, kUsage},
    {"TRESUsageInMax", 14, kUsage},
    {"TRESUsageInMaxNode", 18, kUsage},
    {"TRESUsageInMaxTask", 18, kUsage},
    {"TRESUsageInMin", 14, kUsage},
    {"TRESUsageInMinNode", 18, kUsage},
    {"TRESUsageInMinTask", 18, kUsage},
    {"TRESUsageInTot", 14, kUsage},
    {"TRESUsageOutAve", 15, kUsage},
    {"TRESUsageOutMax", 15, kUsage},
    {"TRESUsageOutMaxNode", 19, kUsage},
    {"TRESUsageOutMaxTask", 19, kUsage},
    {"TRESUsageOutMin", 15, kUsage},
    {"TRESUsageOutMinNode", 19, kUsage},
    {"TRESUsageOutMinTask", 19, kUsage},
    {"TRESUsageOutTot", 15, kUsage},
    {"UID", 6, kUid},
    {"User", 9, kUser},
    {"UserCPU", 10, kUserCpu},
    {"WCKey", 10, kEmpty},
    {"WCKeyID", 10, kEmpty},
    {"WorkDir", 20, kWorkDir},
};

using proto::sv;

// A requeued job's earlier run (sacct -D) is REQUEUED over PENDING, and over.
bool requeued_run(const proto::AcctJob &j) {
    return (j.state() & kJobFlagRequeued) != 0;
}

// Still pending or running (an earlier run of a requeued job is not).
bool active(const proto::AcctJob &j) {
    return job_is_active(j.state()) && !requeued_run(j);
}

// It ran: it got nodes (a job cancelled while pending has a start time but no nodes).
bool started(const proto::AcctJob &j) {
    return j.start_time() != 0 &&
           ((j.state() & kJobStateBase) != DROVER_JOB_PENDING || requeued_run(j)) &&
           j.node_list() && j.node_list()->size() != 0;
}

int64_t elapsed(const proto::AcctJob &j, int64_t now) {
    if (!started(j)) return 0;
    int64_t end = active(j) || j.end_time() == 0 ? now : j.end_time();
    return end > j.start_time() ? end - j.start_time() : 0;
}

uint32_t batch_cpus(const proto::AcctJob &j) {
    uint32_t nodes = j.alloc_nodes() ? j.alloc_nodes() : 1;
    return (j.alloc_cpus() + nodes - 1) / nodes;
}

std::string first_node(const proto::AcctJob &j) {
    std::string_view list = sv(j.node_list());
    try {
        auto names = hostlist_expand(list);
        if (!names.empty()) return names.front();
    } catch (const ParseError &) {}
    return std::string(list);
}

// Slurm's TRES text, names in order: "billing=2,cpu=2,gres/gpu=1,mem=1000M,node=1" (gres:
// "gpu:1,nic:2", what the job held).
std::string tres(uint32_t cpus, uint64_t mem_mb, uint32_t nodes, bool billing,
                 std::string_view gres = {}) {
    std::string t;
    if (billing) t = "billing=" + str_u(cpus) + ",";
    t += "cpu=" + str_u(cpus);
    if (std::string g = gres_as_tres(gres); !g.empty()) t += "," + g;
    if (mem_mb) t += ",mem=" + format_size_mb(mem_mb);
    t += ",node=" + str_u(nodes);
    return t;
}

} // namespace

std::vector<SacctField> parse_sacct_fields(std::string_view list) {
    std::vector<SacctField> out;
    for (const auto &item : split(list, ',')) {
        std::string_view spec = trim(item);
        if (spec.empty()) continue;
        std::size_t pct = spec.find('%');
        std::string_view name = spec.substr(0, pct);
        const Def *def = nullptr;
        for (const auto &d : kDefs)
            if (iequals(name, d.name)) def = &d;
        if (!def && !name.empty())
            for (const auto &d : kDefs)
                if (istarts_with(d.name, name)) {
                    def = &d;
                    break;
                }
        if (!def) throw ParseError("Invalid field requested: \"" + std::string(name) + "\"");
        SacctField f{def->kind, def->width, def->name};
        if (pct != std::string_view::npos) {
            std::string_view w = spec.substr(pct + 1);
            bool neg = !w.empty() && w[0] == '-';
            if (neg) w.remove_prefix(1);
            auto n = parse_u32(w);
            if (!n || *n > 1000)
                throw ParseError("Invalid field requested: \"" + std::string(spec) + "\"");
            if (*n) f.width = neg ? -int(*n) : int(*n);
        }
        out.push_back(std::move(f));
    }
    if (out.empty()) throw ParseError("Invalid field requested: \"\"");
    return out;
}

std::string sacct_field_names() {
    std::string out;
    int col = 0;
    for (const auto &d : kDefs) {
        out += fit(d.name, 20, false);
        if (++col % 4 == 0) {
            while (!out.empty() && out.back() == ' ') out.pop_back();
            out += "\n";
        }
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    if (!out.ends_with("\n")) out += "\n";
    return out;
}

std::vector<SacctRow> sacct_rows(std::vector<const proto::AcctJob *> jobs, bool allocations_only) {
    // Each cluster's jobs together (-L, -M with several), each cluster's in id order.
    auto key = [](const proto::AcctJob *j) {
        return std::make_pair(j->cluster() ? j->cluster()->string_view() : std::string_view(),
                              j->job_id());
    };
    std::stable_sort(jobs.begin(), jobs.end(),
                     [&key](const auto *a, const auto *b) { return key(a) < key(b); });
    std::vector<SacctRow> rows;
    for (const auto *j : jobs) {
        rows.push_back({j, false, nullptr});
        if (allocations_only) continue;
        auto steps = sacct_steps(*j);
        if (steps.empty() && started(*j)) rows.push_back({j, true, nullptr});
        for (const auto *s : steps) rows.push_back({j, false, s});
    }
    return rows;
}

std::string sacct_state(const proto::AcctJob &j, bool batch_step) {
    uint32_t base = j.state() & kJobStateBase;
    if (batch_step) {
        // The batch step of a job killed for its time limit, preempted or requeued was cancelled.
        if (base == DROVER_JOB_TIMEOUT || base == DROVER_JOB_PREEMPTED ||
            base == DROVER_JOB_CANCELLED || requeued_run(j))
            return "CANCELLED";
        return job_state_long(j.state());
    }
    if (base == DROVER_JOB_CANCELLED && j.cancelled_by() != kNoVal)
        return "CANCELLED by " + str_u(j.cancelled_by());
    return job_state_long(j.state());
}

namespace {

// The times of the job's line or its batch step's.
std::optional<std::string> time_value(SacctKind k, const proto::AcctJob &j, bool step,
                                      int64_t now) {
    switch (k) {
    case kSubmit:
        return format_timestamp(j.submit_time());
    case kEligible:
        return format_timestamp(j.eligible_time());
    case kStart:
        return started(j) ? format_timestamp(j.start_time()) : "Unknown";
    case kEnd:
        return active(j) ? "Unknown" : format_timestamp(j.end_time());
    case kElapsed:
        return format_elapsed_hms(elapsed(j, now));
    case kElapsedRaw:
        return str_i(elapsed(j, now));
    case kCpuTime:
        return format_elapsed_hms(elapsed(j, now) * (step ? batch_cpus(j) : j.alloc_cpus()));
    case kCpuTimeRaw:
        return str_i(elapsed(j, now) * (step ? batch_cpus(j) : j.alloc_cpus()));
    case kTimelimit:
        if (step) return "";
        if (j.time_limit_min() == kNoVal) return "Partition_Limit";
        return minutes_hms(j.time_limit_min());
    case kTimelimitRaw:
        if (step) return "";
        if (j.time_limit_min() == kNoVal) return "Partition_Limit";
        if (j.time_limit_min() == kInfinite) return "UNLIMITED";
        return str_u(j.time_limit_min());
    default:
        return std::nullopt;
    }
}

// What the job asked for and was given: CPUs, nodes, memory, TRES.
std::optional<std::string> size_value(SacctKind k, const proto::AcctJob &j, bool step, char units) {
    switch (k) {
    case kAllocCpus:
        return str_u(step ? batch_cpus(j) : j.alloc_cpus());
    case kAllocNodes:
        return step ? "1" : str_u(j.alloc_nodes());
    case kNNodes:
        return step ? "1" : str_u(j.alloc_nodes() ? j.alloc_nodes() : 1);
    case kReqCpus:
        return str_u(step ? batch_cpus(j) : j.req_cpus());
    case kReqMem: // the job's requested memory in all, as Slurm's TRES (steps: blank)
        return step ? "" : sacct_size(j.req_mem_mb() * std::max(j.alloc_nodes(), 1u) << 20, units);
    case kReqNodes:
        return step ? "" : str_u(j.alloc_nodes() ? j.alloc_nodes() : 1);
    case kAllocTres:
        if (!started(j)) return "";
        return step ? tres(batch_cpus(j), j.req_mem_mb(), 1, false)
                    : tres(j.alloc_cpus(), j.req_mem_mb() * j.alloc_nodes(), j.alloc_nodes(), true,
                           sv(j.alloc_gres()));
    case kReqTres:
        return step ? ""
                    : tres(j.req_cpus(), j.req_mem_mb(), j.alloc_nodes() ? j.alloc_nodes() : 1,
                           true);
    default:
        return std::nullopt;
    }
}

} // namespace

std::string sacct_value(const SacctField &f, const SacctRow &row, int64_t now, char units) {
    const proto::AcctJob &j = *row.job;
    if (row.step) return sacct_step_value(f, j, *row.step, now, units);
    bool step = row.batch_step;
    auto kind = static_cast<SacctKind>(f.kind);
    if (auto v = time_value(kind, j, step, now)) return *v;
    if (auto v = size_value(kind, j, step, units)) return *v;
    std::string raw = str_u(j.job_id()) + (step ? ".batch" : "");
    switch (kind) {
    case kUsage:
    case kEmpty:
        return "";
    case kMaxRss:
    case kMaxRssNode:
    case kMaxRssTask:
    case kMaxVmSize:
    case kMaxVmSizeNode:
    case kAveRss:
    case kAveVmSize:
    case kAveCpu:
    case kMinCpu:
    case kTotalCpu:
    case kUserCpu:
    case kSystemCpu:
    case kMaxDiskRead:
    case kMaxDiskReadNode:
    case kMaxDiskWrite:
    case kMaxDiskWriteNode:
    case kAveDiskRead:
    case kAveDiskWrite:
    case kConsumedEnergy:
        return step ? "" : sacct_job_usage(f, j);
    case kJobId: // an array task as "ARRAY_TASK", a het component "LEADER+OFFSET", as Slurm
        return sacct_job_id(j) + (step ? ".batch" : "");
    case kJobIdRaw:
        return raw;
    case kJobName:
        return step ? "batch" : std::string(sv(j.name()));
    case kPartition:
        return step ? "" : std::string(sv(j.partition()));
    case kAccount:
        return std::string(sv(j.account()));
    case kUser:
        return step ? "" : user_name(j.user_id());
    case kUid:
        return step ? "" : str_u(j.user_id());
    case kGroup:
        return step ? "" : group_name(j.group_id());
    case kGid:
        return step ? "" : str_u(j.group_id());
    case kCluster:
        return std::string(sv(j.cluster()));
    case kState:
        return sacct_state(j, step);
    case kExitCode:
        return exit_code_string(j.exit_status());
    case kDerivedExitCode:
        return step ? "" : exit_code_string(sacct_derived_exit(j));
    case kNodeList:
        if (step) return first_node(j);
        return sv(j.node_list()).empty() ? "None assigned" : std::string(sv(j.node_list()));
    case kWorkDir:
        return step ? "" : std::string(sv(j.work_dir()));
    case kReason:
        return step ? "" : "None";
    case kPriority:
        return "";
    case kQos: // none asked for: Slurm's default QOS
        return step ? "" : or_default(sv(j.qos()), "normal");
    case kQosRaw:
        return step ? "" : "1";
    case kComment:
        return step ? "" : std::string(sv(j.comment()));
    case kNTasks:
        return step ? "1" : "";
    case kReserved:
    case kZeroTime:
    case kSuspended:
        return step ? "" : "00:00:00";
    case kFlags:
        return step ? "" : "SchedMain";
    default:
        break;
    }
    return "";
}

std::string sacct_render(const std::vector<SacctField> &fields, const std::vector<SacctRow> &rows,
                         SacctLayout layout, std::string_view delimiter, bool header, int64_t now,
                         char units) {
    std::string out;
    if (header) {
        std::vector<std::string> names;
        std::vector<int> widths;
        for (const auto &f : fields) {
            names.push_back(f.name);
            widths.push_back(f.width);
        }
        append_header(out, names, widths, layout, delimiter);
    }
    for (const auto &r : rows)
        for (std::size_t i = 0; i < fields.size(); ++i)
            append_field(out, sacct_value(fields[i], r, now, units), fields[i].width,
                         i + 1 == fields.size(), layout, delimiter);
    return out;
}

} // namespace drover::cli
