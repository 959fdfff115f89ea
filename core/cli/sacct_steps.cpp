// sacct_steps.cpp - the values of a recorded step's line and the formats of usage figures.
#include "cli/sacct_steps.hpp"

#include <drover/proctrack.h>
#include <drover/views.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/job_states.hpp"
#include "cli/sacct_fields.hpp"
#include "cli/text.hpp"
#include "common/exit_status.hpp"
#include "common/timefmt.hpp"
#include "proto/fb_read.hpp"

namespace drover::cli {

namespace {

using proto::sv;

// Batch first, then extern, then numbered steps in id order.
uint64_t order(uint32_t id) {
    if (id == DROVER_STEP_BATCH) return 0;
    if (id == DROVER_STEP_EXTERN) return 1;
    return uint64_t{id} + 2;
}

bool ended(const proto::AcctStep &s) {
    return !job_is_active(s.state()) && s.end_time() != 0;
}

int64_t elapsed(const proto::AcctStep &s, int64_t now) {
    if (s.start_time() == 0) return 0;
    int64_t end = ended(s) ? s.end_time() : now;
    return end > s.start_time() ? end - s.start_time() : 0;
}

std::string step_state(const proto::AcctStep &s) {
    if ((s.state() & kJobStateBase) == DROVER_JOB_CANCELLED && s.cancelled_by() != kNoVal)
        return "CANCELLED by " + str_u(s.cancelled_by());
    return job_state_long(s.state());
}

} // namespace

std::string sacct_job_id(const proto::AcctJob &j) {
    if (j.array_job_id() && j.array_task_id() != kNoVal)
        return str_u(j.array_job_id()) + "_" + str_u(j.array_task_id());
    // A heterogeneous job's component: "LEADER+OFFSET", as Slurm's sacct reports it.
    if (j.het_job_id() && j.het_job_offset() != kNoVal)
        return str_u(j.het_job_id()) + "+" + str_u(j.het_job_offset());
    return str_u(j.job_id());
}

std::string sacct_step_name(uint32_t step_id) {
    if (step_id == DROVER_STEP_BATCH) return "batch";
    if (step_id == DROVER_STEP_EXTERN) return "extern";
    return str_u(step_id);
}

std::vector<const proto::AcctStep *> sacct_steps(const proto::AcctJob &job) {
    std::vector<const proto::AcctStep *> out;
    if (!job.steps()) return out;
    for (const auto *s : *job.steps()) out.push_back(s);
    std::stable_sort(out.begin(), out.end(), [](const auto *a, const auto *b) {
        return order(a->step_id()) < order(b->step_id());
    });
    return out;
}

std::string sacct_size(uint64_t bytes, char units) {
    static constexpr const char kUnits[] = "\0KMGTP";
    if (bytes == 0) return "0";
    double num = double(bytes);
    int unit = 0;
    if (units) { // --units: exactly that unit
        const char *at = std::find(kUnits + 1, kUnits + 6, units);
        int want = at == kUnits + 6 ? 0 : int(at - kUnits);
        for (; unit < want; ++unit) num /= 1024;
    } else { // convert while the figure stays whole or a half
        while (num >= 1024 && std::fmod(num, 512) == 0) {
            num /= 1024;
            ++unit;
        }
    }
    char buf[64];
    if (num == std::floor(num))
        std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(num));
    else
        std::snprintf(buf, sizeof buf, "%.2f", num);
    std::string out = buf;
    if (unit) out += kUnits[unit];
    return out;
}

std::string sacct_cpu_time(uint64_t usec, bool whole_seconds) {
    uint64_t secs = usec / 1000000, msec = whole_seconds ? 0 : usec % 1000000 / 1000;
    uint64_t days = secs / 86400, hours = secs / 3600 % 24, minutes = secs / 60 % 60, s = secs % 60;
    char buf[64];
    if (days)
        std::snprintf(buf, sizeof buf, "%llu-%02llu:%02llu:%02llu", (unsigned long long)days,
                      (unsigned long long)hours, (unsigned long long)minutes,
                      (unsigned long long)s);
    else if (hours)
        std::snprintf(buf, sizeof buf, "%02llu:%02llu:%02llu", (unsigned long long)hours,
                      (unsigned long long)minutes, (unsigned long long)s);
    else if (msec)
        std::snprintf(buf, sizeof buf, "%02llu:%02llu.%03llu", (unsigned long long)minutes,
                      (unsigned long long)s, (unsigned long long)msec);
    else
        std::snprintf(buf, sizeof buf, "00:%02llu:%02llu", (unsigned long long)minutes,
                      (unsigned long long)s);
    return buf;
}

int32_t sacct_derived_exit(const proto::AcctJob &job) {
    int32_t worst = 0;
    if (!job.steps()) return worst;
    for (const auto *s : *job.steps()) {
        if (s->step_id() == DROVER_STEP_BATCH || s->step_id() == DROVER_STEP_EXTERN) continue;
        worst = higher_exit_status(worst, s->exit_status());
    }
    return worst;
}

std::string sacct_job_usage(const SacctField &f, const proto::AcctJob &job) {
    auto kind = static_cast<SacctKind>(f.kind);
    if (kind != kTotalCpu && kind != kUserCpu && kind != kSystemCpu) return "";
    if (!job.steps() || job.steps()->size() == 0) return "";
    uint64_t user = 0, sys = 0;
    for (const auto *s : *job.steps()) {
        if (!ended(*s)) continue; // its figures come when it ends
        user += s->user_cpu_usec();
        sys += s->sys_cpu_usec();
    }
    return sacct_cpu_time(kind == kUserCpu ? user : kind == kSystemCpu ? sys : user + sys);
}

std::string sacct_step_value(const SacctField &f, const proto::AcctJob &j, const proto::AcctStep &s,
                             int64_t now, char units) {
    const std::string suffix = "." + sacct_step_name(s.step_id());
    const bool done = ended(s);
    // Usage is known once the step has ended (sstat reports it while it runs).
    auto size = [&](uint64_t v) { return done ? sacct_size(v, units) : std::string(); };
    auto cpu = [&](uint64_t v, bool whole) {
        return done ? sacct_cpu_time(v, whole) : std::string();
    };
    auto text = [&](const flatbuffers::String *v) {
        return done ? std::string(sv(v)) : std::string();
    };
    switch (static_cast<SacctKind>(f.kind)) {
    case kJobId:
        return sacct_job_id(j) + suffix;
    case kJobIdRaw:
        return str_u(j.job_id()) + suffix;
    case kJobName:
        return std::string(sv(s.name()));
    case kAccount:
        return std::string(sv(j.account()));
    case kCluster:
        return std::string(sv(j.cluster()));
    case kAllocCpus:
    case kReqCpus:
        return str_u(s.cpus());
    case kAllocNodes:
    case kNNodes:
        return str_u(s.nodes());
    case kNTasks:
        return str_u(s.tasks());
    case kAllocTres:
        return std::string(sv(s.tres_alloc()));
    case kState:
        return step_state(s);
    case kExitCode:
        return exit_code_string(s.exit_status());
    case kSubmit:
    case kEligible:
    case kStart:
        return s.start_time() ? format_timestamp(s.start_time()) : "Unknown";
    case kEnd:
        return done ? format_timestamp(s.end_time()) : "Unknown";
    case kElapsed:
        return format_elapsed_hms(elapsed(s, now));
    case kElapsedRaw:
        return str_i(elapsed(s, now));
    case kCpuTime:
        return format_elapsed_hms(elapsed(s, now) * s.cpus());
    case kCpuTimeRaw:
        return str_i(elapsed(s, now) * s.cpus());
    case kNodeList:
        return std::string(sv(s.node_list()));
    case kMaxRss:
        return size(s.max_rss());
    case kMaxRssNode:
        return text(s.max_rss_node());
    case kMaxRssTask:
        return done ? str_u(s.max_rss_task()) : "";
    case kMaxVmSize:
        return size(s.max_vsize());
    case kMaxVmSizeNode:
        return text(s.max_vsize_node());
    case kAveRss:
        return size(s.ave_rss());
    case kAveVmSize:
        return size(s.ave_vsize());
    case kAveCpu:
        return cpu(s.ave_cpu_usec(), true);
    case kMinCpu:
        return cpu(s.min_cpu_usec(), true);
    case kTotalCpu:
        return cpu(s.user_cpu_usec() + s.sys_cpu_usec(), false);
    case kUserCpu:
        return cpu(s.user_cpu_usec(), false);
    case kSystemCpu:
        return cpu(s.sys_cpu_usec(), false);
    case kMaxDiskRead:
        return size(s.max_disk_read());
    case kMaxDiskReadNode:
        return text(s.max_disk_read_node());
    case kMaxDiskWrite:
        return size(s.max_disk_write());
    case kMaxDiskWriteNode:
        return text(s.max_disk_write_node());
    case kAveDiskRead:
        return size(s.ave_disk_read());
    case kAveDiskWrite:
        return size(s.ave_disk_write());
    case kConsumedEnergy:
        return done ? "0" : "";
    default:
        return ""; // the job's own fields (user, partition, limits, ...) are blank on steps
    }
}

} // namespace drover::cli
