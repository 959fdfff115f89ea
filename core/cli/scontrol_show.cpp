// scontrol_show.cpp - the "scontrol show" layouts, line by line as Slurm prints them.
#include "cli/scontrol_show.hpp"

#include <drover/views.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "cli/job_states.hpp"
#include "cli/node_states.hpp"
#include "cli/squeue_fields.hpp"
#include "cli/text.hpp"
#include "cli/users.hpp"
#include "common/error.hpp"
#include "common/gres.hpp"
#include "common/hostlist.hpp"
#include "common/power_conf.hpp"
#include "common/timefmt.hpp"
#include "proto/fb_read.hpp"

namespace drover::cli {

namespace {

using proto::sv;
std::string nul(const flatbuffers::String *s) {
    return or_null(sv(s));
}

// Joins a record's lines the way scontrol does.
std::string record(const std::vector<std::string> &lines, bool one_liner) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i) out += one_liner ? " " : "\n   ";
        out += lines[i];
    }
    out += one_liner ? "\n" : "\n\n";
    return out;
}

std::string when(int64_t t) {
    return format_timestamp(t);
}

std::string limit_or(uint32_t v) {
    return v == kInfinite ? "UNLIMITED" : str_u(v);
}

// A partition's power saving time: its seconds, GLOBAL (the cluster's applies) or INFINITE.
std::string power_secs(int64_t v) {
    return v == kPowerGlobal ? "GLOBAL" : v < 0 ? "INFINITE" : std::to_string(v);
}

// The job's id, name, owner, priority and state.
void job_identity_lines(const proto::JobInfo &j, bool details, std::optional<uint32_t> task,
                        std::vector<std::string> &l) {
    std::string first = "JobId=" + str_u(j.job_id()) + " ";
    if (j.array_job_id()) {
        std::string tasks = !is_array_record(j) ? str_u(j.array_task_id())
                            : task              ? str_u(*task)
                                                : array_task_string(j);
        first += "ArrayJobId=" + str_u(j.array_job_id()) + " ArrayTaskId=" + tasks + " ";
        if (j.array_max_running())
            first += "ArrayTaskThrottle=" + str_u(j.array_max_running()) + " ";
    } else if (j.het_job_id()) {
        first += "HetJobId=" + str_u(j.het_job_id()) +
                 " HetJobOffset=" + str_u(j.het_job_offset()) + " ";
    }
    l.push_back(first + "JobName=" + std::string(sv(j.name())));
    // Every component of a heterogeneous job lists the ids of all of them on a line of its own.
    if (j.het_job_id()) l.push_back("HetJobIdSet=" + het_job_id_set(j));

    std::string user =
        sv(j.user_name()).empty() ? user_name(j.user_id()) : std::string(sv(j.user_name()));
    l.push_back("UserId=" + user + "(" + str_u(j.user_id()) + ") GroupId=" +
                group_name(j.group_id()) + "(" + str_u(j.group_id()) + ") MCS_label=N/A");
    l.push_back("Priority=" + str_u(j.priority()) + " Nice=" + str_i(j.nice()) +
                " Account=" + nul(j.account()) + " QOS=" + or_default(sv(j.qos()), "normal"));

    std::string reason = sv(j.state_reason()).empty() ? "None" : std::string(sv(j.state_reason()));
    for (char &c : reason)
        if (c == ' ' || c == '\t' || c == '\n') c = '_';
    l.push_back(std::string("JobState=") + job_state_long(j.state()) + " Reason=" + reason +
                " Dependency=" + dependency_text(j));
    l.push_back("Requeue=" + std::string(j.requeue() ? "1" : "0") +
                " Restarts=" + str_u(j.restart_count()) +
                // An allocation (salloc, srun, job/allocate) has no batch script: BatchFlag=0.
                " BatchFlag=" + std::string(j.interactive() ? "0" : "1") +
                " Reboot=0 ExitCode=" + exit_code_string(j.exit_status()));
    if (details) l.push_back("DerivedExitCode=" + exit_code_string(j.derived_exit_status()));
}

// Its run time, limit and the times of its life, and where it was submitted from.
void job_time_lines(const proto::JobInfo &j, int64_t now, std::vector<std::string> &l) {
    bool pending = (j.state() & kJobStateBase) == DROVER_JOB_PENDING;
    std::string limit =
        j.time_limit_min() == kNoVal ? "Partition_Limit" : minutes_hms(j.time_limit_min());
    bool limited = j.time_limit_min() != kNoVal && j.time_limit_min() != kInfinite;
    l.push_back("RunTime=" + format_elapsed_hms(job_time_used(j, now)) + " TimeLimit=" + limit +
                " TimeMin=N/A");
    l.push_back("SubmitTime=" + when(j.submit_time()) + " EligibleTime=" + when(j.eligible_time()));
    l.push_back("AccrueTime=" + when(j.eligible_time()));
    int64_t end_time = job_end_time(j);
    // A pending job's start is the scheduler's forecast; its end follows from the limit.
    if (pending && j.start_time() && limited)
        end_time = j.start_time() + int64_t(j.time_limit_min()) * 60;
    std::string end = (j.time_limit_min() == kInfinite && end_time > now) || end_time == 0
                          ? std::string("Unknown")
                          : when(end_time);
    l.push_back("StartTime=" + when(j.start_time()) + " EndTime=" + end +
                " Deadline=" + (j.deadline() ? when(j.deadline()) : std::string("N/A")));
    l.push_back("SuspendTime=" + (j.suspend_time() ? when(j.suspend_time()) : "None") +
                " SecsPreSuspend=" + std::to_string(j.pre_suspend_secs()) + " LastSchedEval=" +
                when(j.start_time() && !pending ? j.start_time() : j.submit_time()) +
                " Scheduler=Main");
    l.push_back(
        "Partition=" + std::string(sv(j.partition())) + " AllocNode:Sid=" +
        (sv(j.submit_host()).empty() ? std::string("(null)") : std::string(sv(j.submit_host()))) +
        ":0");
    l.push_back("ReqNodeList=" + nul(j.req_nodes()) + " ExcNodeList=" + nul(j.exc_nodes()));
    std::string nodelist = "NodeList=" + nul(j.node_list());
    if (!sv(j.sched_nodes()).empty())
        nodelist += " SchedNodeList=" + std::string(sv(j.sched_nodes()));
    l.push_back(nodelist);
    if (!sv(j.batch_host()).empty()) l.push_back("BatchHost=" + std::string(sv(j.batch_host())));
}

// The size of the allocation: nodes, CPUs, tasks and its TRES.
void job_size_lines(const proto::JobInfo &j, std::vector<std::string> &l) {
    bool pending = (j.state() & kJobStateBase) == DROVER_JOB_PENDING;
    uint32_t nodes = job_node_count(j);
    std::string num_nodes = str_u(nodes);
    if (pending && j.max_nodes() && j.max_nodes() != kInfinite && j.max_nodes() > nodes)
        num_nodes += "-" + str_u(j.max_nodes());
    uint32_t cpt = j.cpus_per_task() ? j.cpus_per_task() : 1;
    l.push_back("NumNodes=" + num_nodes + " NumCPUs=" + str_u(j.num_cpus()) +
                " NumTasks=" + str_u(j.num_tasks() ? j.num_tasks() : 1) +
                " CPUs/Task=" + str_u(cpt) + " ReqB:S:C:T=0:0:*:*");
    std::string tres = "cpu=" + str_u(j.num_cpus());
    if (j.mem_per_cpu_mb())
        tres += ",mem=" + format_size_mb(j.mem_per_cpu_mb() * j.num_cpus());
    else if (j.mem_per_node_mb())
        tres += ",mem=" + format_size_mb(j.mem_per_node_mb() * nodes);
    tres += ",node=" + str_u(nodes) + ",billing=" + str_u(j.num_cpus());
    if (j.node_alloc()) { // what it holds: ",gres/gpu=2"
        std::vector<std::string> held;
        for (const auto *a : *j.node_alloc()) held.emplace_back(sv(a->gres()));
        if (std::string g = gres_as_tres(held_gres_totals(held)); !g.empty()) tres += "," + g;
    }
    l.push_back("TRES=" + tres);
    l.push_back("Socks/Node=* NtasksPerN:B:S:C=" + str_u(j.ntasks_per_node()) +
                ":0:*:* CoreSpec=*");
}

// JOB_GRES: what the job holds in all, by name ("gpu:2").
std::string job_gres(const flatbuffers::Vector<flatbuffers::Offset<proto::NodeAlloc>> &na) {
    std::vector<std::string> per_node;
    for (const auto *a : na) per_node.emplace_back(sv(a->gres()));
    std::string out = held_gres_totals(per_node);
    return out.empty() ? std::string("(null)") : out;
}

// -d: what the job holds on each node.
void node_alloc_lines(const proto::JobInfo &j, bool one_liner, std::vector<std::string> &l) {
    const auto &na = *j.node_alloc();
    l.push_back("JOB_GRES=" + job_gres(na));
    // Nodes holding the same, one after another, share a line.
    for (uint32_t i = 0; i < na.size();) {
        const proto::NodeAlloc *a = na.Get(i);
        std::vector<std::string> names{std::string(sv(a->node()))};
        uint32_t k = i + 1;
        for (; k < na.size(); ++k) {
            const proto::NodeAlloc *b = na.Get(k);
            if (sv(b->cpu_ids()) != sv(a->cpu_ids()) || b->mem_mb() != a->mem_mb() ||
                sv(b->gres()) != sv(a->gres()))
                break;
            names.push_back(std::string(sv(b->node())));
        }
        std::string hosts;
        try {
            hosts = hostlist_compress(names);
        } catch (const ParseError &) {
            for (const auto &n : names) hosts += (hosts.empty() ? "" : ",") + n;
        }
        l.push_back(std::string(one_liner ? "" : "  ") + "Nodes=" + hosts +
                    " CPU_IDs=" + std::string(sv(a->cpu_ids())) + " Mem=" + str_u(a->mem_mb()) +
                    " GRES=" + gres_with_indexes(sv(a->gres())));
        i = k;
    }
}

} // namespace

std::string show_step(const proto::StepInfo &st, bool one_liner) {
    std::string sep = one_liner ? " " : "\n   ";
    auto s = [](const flatbuffers::String *v) {
        return v && v->size() ? v->str() : std::string("(null)");
    };
    std::string id = std::to_string(st.job_id()) + ".";
    id += st.step_id() == 0xfffffffbu   ? "batch"
          : st.step_id() == 0xfffffffcu ? "extern"
                                        : std::to_string(st.step_id());
    std::string out = "StepId=" + id + " UserId=" + std::to_string(st.user_id()) +
                      " StartTime=" + format_timestamp(st.start_time()) +
                      " TimeLimit=" + minutes_hms(st.time_limit_min());
    out += sep + "State=RUNNING Partition=" + s(st.partition()) + " NodeList=" + s(st.node_list());
    out += sep + "Nodes=" + std::to_string(st.num_nodes()) +
           " CPUs=" + std::to_string(st.num_cpus()) + " Tasks=" + std::to_string(st.num_tasks()) +
           " Name=" + s(st.name()) + " Network=(null)";
    out += sep + "TRES=" + s(st.tres());
    out += sep + "ResvPorts=(null)";
    out += sep + "CPUFreqReq=Default Dist=Block";
    out += sep + "SrunHost:Pid=" + s(st.submit_host()) + ":0";
    return out + (one_liner ? "\n" : "\n\n");
}

std::string minutes_hms(uint32_t minutes) {
    if (minutes == kInfinite) return "UNLIMITED";
    if (minutes == kNoVal) return "NONE";
    return format_elapsed_hms(int64_t(minutes) * 60);
}

std::string gres_with_indexes(std::string_view held) {
    std::string out;
    for (const auto &item : split(held, ',')) {
        if (!out.empty()) out += ",";
        std::size_t colon = item.rfind(':');
        if (colon == std::string::npos) {
            out += item;
            continue;
        }
        std::vector<uint32_t> idx;
        try {
            idx = parse_index_list(std::string_view(item).substr(colon + 1));
        } catch (const ParseError &) {
            out += item;
            continue;
        }
        out += item.substr(0, colon) + ":" + str_u(idx.size()) + "(IDX:" + item.substr(colon + 1) +
               ")";
    }
    return out;
}

std::string show_job(const proto::JobInfo &j, int64_t now, bool one_liner, bool details,
                     std::optional<uint32_t> task) {
    std::vector<std::string> l;
    job_identity_lines(j, details, task, l);
    job_time_lines(j, now, l);
    job_size_lines(j, l);
    if (details && j.node_alloc() && j.node_alloc()->size()) node_alloc_lines(j, one_liner, l);
    uint32_t cpt = j.cpus_per_task() ? j.cpus_per_task() : 1;
    std::string mem = j.mem_per_cpu_mb() ? "MinMemoryCPU=" + format_size_mb(j.mem_per_cpu_mb())
                                         : "MinMemoryNode=" + format_size_mb(j.mem_per_node_mb());
    l.push_back("MinCPUsNode=" + str_u(std::max(cpt, j.min_cpus_per_node())) + " " + mem +
                " MinTmpDiskNode=" + format_size_mb(j.tmp_disk_mb()));
    l.push_back("Features=" + nul(j.constraint()) + " DelayBoot=00:00:00");
    if (!sv(j.reservation()).empty())
        l.push_back("Reservation=" + std::string(sv(j.reservation())));
    std::string share = j.exclusive() || j.share() == DROVER_SHARE_EXCLUSIVE ? "NO"
                        : j.share() == DROVER_SHARE_OVERSUB                  ? "YES"
                                                                             : "OK";
    l.push_back("OverSubscribe=" + share + " Contiguous=" + (j.contiguous() ? "1" : "0") +
                " Licenses=" + nul(j.licenses()) + " Network=(null)");
    l.push_back("Command=" + nul(j.command()));
    l.push_back("WorkDir=" + std::string(sv(j.work_dir())));
    if (!sv(j.comment()).empty()) l.push_back("Comment=" + std::string(sv(j.comment())));
    l.push_back("StdErr=" +
                std::string(sv(j.std_err()).empty() ? sv(j.std_out()) : sv(j.std_err())));
    l.push_back("StdIn=" +
                (sv(j.std_in()).empty() ? std::string("/dev/null") : std::string(sv(j.std_in()))));
    l.push_back("StdOut=" + std::string(sv(j.std_out())));
    l.push_back("Power=");
    if (auto t = tres_per_job(j); !t.empty()) l.push_back("TresPerJob=" + t);
    if (auto t = tres_per_node(j); !t.empty()) l.push_back("TresPerNode=" + t);
    if (auto t = tres_per_task(j); !t.empty()) l.push_back("TresPerTask=" + t);
    return record(l, one_liner);
}

std::string show_node(const proto::NodeInfo &n, bool one_liner) {
    std::vector<std::string> l;
    std::string name(sv(n.name()));
    l.push_back("NodeName=" + name + " Arch=(null) CoresPerSocket=" + str_u(n.cores_per_socket()));
    l.push_back("CPUAlloc=" + str_u(n.alloc_cpus()) + " CPUEfctv=" + str_u(n.cpus()) +
                " CPUTot=" + str_u(n.cpus()) + " CPULoad=N/A");
    l.push_back("AvailableFeatures=" + nul(n.features()));
    l.push_back("ActiveFeatures=" + nul(n.active_features() ? n.active_features() : n.features()));
    l.push_back("Gres=" + nul(n.gres()));
    std::string addr = sv(n.addr()).empty() ? name : std::string(sv(n.addr()));
    std::string host = sv(n.hostname()).empty() ? name : std::string(sv(n.hostname()));
    l.push_back("NodeAddr=" + addr + " NodeHostName=" + host + " Version=" +
                (sv(n.version()).empty() ? std::string("N/A") : std::string(sv(n.version()))));
    l.push_back("OS=" + (sv(n.os()).empty() ? std::string("N/A") : std::string(sv(n.os()))));
    l.push_back("RealMemory=" + str_u(n.real_memory_mb()) +
                " AllocMem=" + str_u(n.alloc_memory_mb()) +
                " FreeMem=N/A Sockets=" + str_u(n.sockets()) + " Boards=1");
    l.push_back(
        "State=" + node_state_complete(n.state(), n.flags()) +
        " ThreadsPerCore=" + str_u(n.threads_per_core()) + " TmpDisk=" + str_u(n.tmp_disk_mb()) +
        " Weight=" + str_u(n.weight()) + " Owner=N/A MCS_label=N/A" +
        (sv(n.reboot_next()).empty() ? "" : " NextState=" + std::string(sv(n.reboot_next()))));
    std::string parts;
    if (n.partitions())
        for (const auto *p : *n.partitions()) {
            if (!parts.empty()) parts += ",";
            parts += p->str();
        }
    if (!parts.empty()) l.push_back("Partitions=" + parts + " ");
    l.push_back("BootTime=" + format_timestamp(n.boot_time(), true) +
                " SlurmdStartTime=" + format_timestamp(n.boot_time(), true));
    l.push_back("LastBusyTime=" + format_timestamp(n.last_busy(), true) + " ResumeAfterTime=None");
    l.push_back("CfgTRES=cpu=" + str_u(n.cpus()) + ",mem=" + format_size_mb(n.real_memory_mb()) +
                ",billing=" + str_u(n.cpus()));
    std::string alloc;
    if (n.alloc_cpus()) alloc = "cpu=" + str_u(n.alloc_cpus());
    if (n.alloc_memory_mb())
        alloc +=
            (alloc.empty() ? "" : ",") + std::string("mem=") + format_size_mb(n.alloc_memory_mb());
    l.push_back("AllocTRES=" + alloc);
    l.push_back("CapWatts=n/a");
    l.push_back("CurrentWatts=0 AveWatts=0");
    l.push_back("ExtSensorsJoules=n/s ExtSensorsWatts=0 ExtSensorsTemp=n/s");
    if (!sv(n.reason()).empty()) {
        std::string who =
            n.reason_uid() == kNoVal ? std::string("Unknown") : user_name(n.reason_uid());
        l.push_back("Reason=" + std::string(sv(n.reason())) + " [" + who + "@" +
                    format_timestamp(n.reason_time()) + "]");
    }
    return record(l, one_liner);
}

std::string show_partition(const proto::PartitionInfo &p, bool one_liner) {
    std::vector<std::string> l;
    l.push_back("PartitionName=" + std::string(sv(p.name())));
    std::string groups = sv(p.allow_groups()).empty() ? "ALL" : std::string(sv(p.allow_groups()));
    std::string accounts = or_default(sv(p.allow_accounts()), "ALL");
    l.push_back("AllowGroups=" + groups + " AllowAccounts=" + accounts + " AllowQos=ALL");
    l.push_back(std::string("AllocNodes=ALL Default=") + (p.is_default() ? "YES" : "NO") +
                " QoS=" + or_default(sv(p.qos()), "N/A"));
    l.push_back("DefaultTime=" + minutes_hms(p.default_time_min()) +
                " DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO");
    l.push_back("MaxNodes=" + limit_or(p.max_nodes()) +
                " MaxTime=" + minutes_hms(p.max_time_min()) + " MinNodes=" + str_u(p.min_nodes()) +
                " LLN=NO MaxCPUsPerNode=UNLIMITED");
    l.push_back("Nodes=" + nul(p.nodes()));
    std::string over = sv(p.oversubscribe()).empty() ? "NO" : to_upper(sv(p.oversubscribe()));
    l.push_back("PriorityJobFactor=" + str_u(p.priority_job_factor()) + " PriorityTier=" +
                str_u(p.priority_tier()) + " RootOnly=NO ReqResv=NO OverSubscribe=" + over);
    l.push_back("OverTimeLimit=NONE PreemptMode=" +
                or_default(to_upper(sv(p.preempt_mode())), "OFF"));
    std::string state = sv(p.state()).empty() ? "UP" : to_upper(sv(p.state()));
    l.push_back("State=" + state + " TotalCPUs=" + str_u(p.total_cpus()) +
                " TotalNodes=" + str_u(p.total_nodes()) + " SelectTypeParameters=NONE");
    l.push_back("JobDefaults=(null)");
    l.push_back("DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED");
    l.push_back("TRES=cpu=" + str_u(p.total_cpus()) + ",node=" + str_u(p.total_nodes()) +
                ",billing=" + str_u(p.total_cpus()));
    l.push_back("ResumeTimeout=" + power_secs(p.resume_timeout()) + " SuspendTimeout=" +
                power_secs(p.suspend_timeout()) + " SuspendTime=" + power_secs(p.suspend_time()) +
                " PowerDownOnIdle=" + (p.power_down_on_idle() ? "YES" : "NO"));
    return record(l, one_liner);
}

std::string show_config(const proto::ConfigResponse &conf, int64_t now) {
    std::string out = "Configuration data as of " + format_timestamp(now) + "\n";
    if (conf.entries()) {
        for (const auto *kv : *conf.entries()) {
            std::string key(sv(kv->key()));
            if (key.size() < 23) key.append(23 - key.size(), ' ');
            out += key + " = " + std::string(sv(kv->value())) + "\n";
        }
    }
    return out;
}

} // namespace drover::cli
