// json_records.cpp - jobs, nodes, partitions, sinfo lines and accounting records as JSON.
#include "cli/json_records.hpp"

#include <drover/views.h>

#include "cli/job_states.hpp"
#include "cli/json_document.hpp"
#include "cli/json_steps.hpp"
#include "cli/node_states.hpp"
#include "cli/squeue_fields.hpp"
#include "cli/text.hpp"
#include "cli/users.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "common/power_conf.hpp"
#include "common/timefmt.hpp"
#include "proto/fb_read.hpp"

namespace drover::cli {

namespace {

using proto::sv;

void time_obj(JsonWriter &w, std::string_view key, int64_t t) {
    w.kv_number_obj(key, t > 0 ? uint64_t(t) : 0, t > 0, false);
}

void limit_obj(JsonWriter &w, std::string_view key, uint32_t minutes) {
    w.kv_number_obj(key, minutes, minutes != kNoVal, minutes == kInfinite);
}

// A partition's power saving time: not set when GLOBAL (the cluster's applies), or INFINITE.
void power_obj(JsonWriter &w, std::string_view key, int64_t secs) {
    w.kv_number_obj(key, secs > 0 ? uint64_t(secs) : 0, secs != kPowerGlobal,
                    secs == kPowerInfinite);
}

// "state": ["UP"]: the partition's state in capitals, UP when it has none.
void partition_state(JsonWriter &w, const proto::PartitionInfo &p) {
    w.kv_str_list("state", {sv(p.state()).empty() ? std::string("UP") : to_upper(sv(p.state()))});
}

void job(JsonWriter &w, const proto::JobInfo &j, int64_t now) {
    bool active = job_is_active(j.state());
    std::string user =
        sv(j.user_name()).empty() ? user_name(j.user_id()) : std::string(sv(j.user_name()));
    w.begin_object();
    w.kv("account", sv(j.account()));
    w.kv_number_obj("array_job_id", j.array_job_id(), true, false);
    w.kv_number_obj("array_max_tasks", j.array_max_running(), true, false);
    w.kv_number_obj("array_task_id", j.array_task_id() == kNoVal ? 0 : j.array_task_id(),
                    j.array_task_id() != kNoVal, false);
    w.kv("array_task_string", array_task_string(j));
    w.kv("batch_host", sv(j.batch_host()));
    w.kv_bool("batch_flag", true);
    w.kv("cluster", sv(j.cluster()));
    w.kv("command", sv(j.command()));
    w.kv("comment", sv(j.comment()));
    w.kv_number_obj("cpus", j.num_cpus(), true, false);
    w.kv_number_obj("cpus_per_task", j.cpus_per_task() ? j.cpus_per_task() : 1, true, false);
    w.kv("current_working_directory", sv(j.work_dir()));
    w.kv("dependency", sv(j.dependency()).empty() ? std::string() : dependency_text(j));
    time_obj(w, "eligible_time", j.eligible_time());
    time_obj(w, "end_time", job_end_time(j));
    json_exit_code(w, j.exit_status(), active);
    w.kv("features", sv(j.constraint()));
    w.kv_num("group_id", j.group_id());
    w.kv("group_name", group_name(j.group_id()));
    // Slurm's controller keeps 0 in both for a job that is not heterogeneous.
    bool het = j.het_job_id() != 0;
    w.kv_number_obj("het_job_id", j.het_job_id(), true, false);
    w.kv("het_job_id_set", het_job_id_set(j));
    w.kv_number_obj("het_job_offset", het ? j.het_job_offset() : 0, true, false);
    w.kv_bool("hold", j.held() != 0);
    w.kv_num("job_id", j.job_id());
    w.kv_str_list("job_state", {job_state_long(j.state())});
    w.kv_number_obj("memory_per_node", j.mem_per_node_mb(), j.mem_per_node_mb() != 0, false);
    w.kv("name", sv(j.name()));
    w.kv_num("nice", j.nice());
    w.kv_number_obj("node_count", job_node_count(j), true, false);
    w.kv("nodes", sv(j.node_list()));
    w.kv("partition", sv(j.partition()));
    w.kv_number_obj("priority", j.priority(), true, false);
    w.kv_bool("requeue", j.requeue());
    w.kv_num("restart_cnt", j.restart_count());
    w.kv_bool("shared", !j.exclusive());
    w.kv("standard_error", sv(j.std_err()).empty() ? sv(j.std_out()) : sv(j.std_err()));
    w.kv("standard_input", sv(j.std_in()).empty() ? std::string_view("/dev/null") : sv(j.std_in()));
    w.kv("standard_output", sv(j.std_out()));
    time_obj(w, "start_time", j.start_time());
    // A reason with details ("ReqNodeNotAvail, UnavailableNodes:n2") is Slurm's reason code
    // followed by its description.
    std::string_view reason = sv(j.state_reason()).empty() ? "None" : sv(j.state_reason());
    w.kv("state_description", reason.find(", ") == std::string_view::npos ? "" : reason);
    w.kv("state_reason", reason.substr(0, reason.find(", ")));
    w.kv("submit_host", sv(j.submit_host()));
    time_obj(w, "submit_time", j.submit_time());
    w.kv_number_obj("tasks", j.num_tasks() ? j.num_tasks() : 1, true, false);
    limit_obj(w, "time_limit", j.time_limit_min());
    w.kv_num("time_used", job_time_used(j, now));
    w.kv_num("user_id", j.user_id());
    w.kv("user_name", user);
    w.end_object();
}

void node(JsonWriter &w, const proto::NodeInfo &n) {
    std::vector<std::string> states = split(node_state_complete(n.state(), n.flags()), '+');
    w.begin_object();
    w.kv("name", sv(n.name()));
    w.kv("address", sv(n.addr()).empty() ? sv(n.name()) : sv(n.addr()));
    w.kv("hostname", sv(n.name()));
    w.kv_num("port", n.port());
    w.kv_str_list("state", states);
    w.kv("reason", sv(n.reason()));
    time_obj(w, "reason_changed_at", n.reason_time());
    w.kv("reason_set_by_user", n.reason_uid() == kNoVal || sv(n.reason()).empty()
                                   ? std::string()
                                   : user_name(n.reason_uid()));
    w.kv_num("cpus", n.cpus());
    w.kv_num("alloc_cpus", n.alloc_cpus());
    w.kv_num("alloc_idle_cpus", n.cpus() > n.alloc_cpus() ? n.cpus() - n.alloc_cpus() : 0);
    w.kv_num("sockets", n.sockets());
    w.kv_num("cores", n.cores_per_socket());
    w.kv_num("threads", n.threads_per_core());
    w.kv_num("real_memory", int64_t(n.real_memory_mb()));
    w.kv_num("alloc_memory", int64_t(n.alloc_memory_mb()));
    w.kv_num("tmp_disk", int64_t(n.tmp_disk_mb()));
    w.kv_num("weight", n.weight());
    w.kv_str_list("features", split(sv(n.features()), ','));
    w.kv_str_list("active_features",
                  split(sv(n.active_features() ? n.active_features() : n.features()), ','));
    std::vector<std::string> parts;
    if (n.partitions())
        for (const auto *p : *n.partitions()) parts.push_back(p->str());
    w.kv_str_list("partitions", parts);
    time_obj(w, "boot_time", n.boot_time());
    time_obj(w, "last_busy", n.last_busy());
    w.kv("operating_system", sv(n.os()));
    w.kv("version", sv(n.version()));
    w.end_object();
}

void partition(JsonWriter &w, const proto::PartitionInfo &p) {
    w.begin_object();
    w.kv("name", sv(p.name()));
    w.key("nodes").begin_object();
    w.kv("configured", sv(p.nodes()));
    w.kv_num("total", p.total_nodes());
    w.end_object();
    w.key("cpus").begin_object().kv_num("total", p.total_cpus()).end_object();
    w.key("partition").begin_object();
    partition_state(w, p);
    w.end_object();
    w.key("groups").begin_object().kv("allowed", sv(p.allow_groups())).end_object();
    w.key("maximums").begin_object();
    limit_obj(w, "time", p.max_time_min());
    w.kv_number_obj("nodes", p.max_nodes(), true, p.max_nodes() == kInfinite);
    w.kv("oversubscribe", sv(p.oversubscribe()));
    w.end_object();
    w.key("minimums").begin_object().kv_num("nodes", p.min_nodes()).end_object();
    w.key("defaults").begin_object();
    limit_obj(w, "time", p.default_time_min());
    w.end_object();
    w.key("priority").begin_object().kv_num("tier", p.priority_tier()).end_object();
    w.key("timeouts").begin_object();
    power_obj(w, "resume", p.resume_timeout());
    power_obj(w, "suspend", p.suspend_timeout());
    w.end_object();
    power_obj(w, "suspend_time", p.suspend_time());
    w.kv_bool("default", p.is_default());
    w.end_object();
}

// One (partition, state) line: its nodes and CPUs counted by use.
void sinfo_entry(JsonWriter &w, const SinfoRow &r) {
    uint64_t a = 0, i = 0, o = 0, ca = 0, ci = 0, co = 0, ct = 0;
    std::vector<std::string> names;
    for (const auto *n : r.nodes) {
        names.emplace_back(sv(n->name()));
        uint64_t alloc = n->alloc_cpus() < n->cpus() ? n->alloc_cpus() : n->cpus();
        ca += alloc;
        ct += n->cpus();
        if (node_is_unavailable(n->state(), n->flags())) {
            ++o;
            co += n->cpus() - alloc;
        } else {
            (n->state() == DROVER_NODE_IDLE                                             ? i
             : (n->state() == DROVER_NODE_ALLOCATED || n->state() == DROVER_NODE_MIXED) ? a
                                                                                        : o) += 1;
            ci += n->cpus() - alloc;
        }
    }
    w.begin_object();
    w.key("node").begin_object();
    std::vector<std::string> state;
    if (!r.nodes.empty())
        state = split(node_state_complete(r.nodes.front()->state(), r.nodes.front()->flags()), '+');
    w.kv_str_list("state", state);
    w.end_object();
    w.key("nodes").begin_object();
    w.kv_num("allocated", int64_t(a)).kv_num("idle", int64_t(i)).kv_num("other", int64_t(o));
    w.kv_num("total", int64_t(r.nodes.size()));
    w.kv_str_list("nodes", names);
    w.end_object();
    w.key("cpus").begin_object();
    w.kv_num("allocated", int64_t(ca)).kv_num("idle", int64_t(ci)).kv_num("other", int64_t(co));
    w.kv_num("total", int64_t(ct));
    w.end_object();
    w.key("partition").begin_object();
    if (r.part) {
        w.kv("name", sv(r.part->name()));
        w.kv_bool("default", r.part->is_default());
        partition_state(w, *r.part);
        limit_obj(w, "time_limit", r.part->max_time_min());
    }
    w.end_object();
    w.end_object();
}

// An accounting record, with its recorded steps.
void acct_job(JsonWriter &w, const proto::AcctJob &j, int64_t now) {
    bool active = job_is_active(j.state());
    w.begin_object();
    w.kv("account", sv(j.account()));
    w.kv("cluster", sv(j.cluster()));
    json_exit_code(w, j.exit_status(), active);
    w.kv("group", group_name(j.group_id()));
    w.kv_num("job_id", j.job_id());
    w.kv("name", sv(j.name()));
    w.kv("nodes", sv(j.node_list()));
    w.kv("partition", sv(j.partition()));
    w.key("state").begin_object();
    w.kv_str_list("current", {job_state_long(j.state())});
    w.kv("reason", "None");
    w.end_object();
    w.key("time").begin_object();
    int64_t elapsed = 0;
    if (j.start_time() && (j.state() & kJobStateBase) != DROVER_JOB_PENDING)
        elapsed = (active || j.end_time() == 0 ? now : j.end_time()) - j.start_time();
    w.kv_num("elapsed", elapsed < 0 ? 0 : elapsed);
    w.kv_num("eligible", j.eligible_time());
    w.kv_num("end", active ? 0 : j.end_time());
    w.kv_num("start", j.start_time());
    w.kv_num("submission", j.submit_time());
    limit_obj(w, "limit", j.time_limit_min());
    w.end_object();
    w.kv("user", user_name(j.user_id()));
    w.kv("working_directory", sv(j.work_dir()));
    w.key("required").begin_object();
    w.kv_num("CPUs", j.req_cpus());
    w.kv_number_obj("memory_per_node", j.req_mem_mb(), j.req_mem_mb() != 0, false);
    w.end_object();
    json_acct_steps(w, j, now);
    w.end_object();
}

} // namespace

std::string jobs_json(const std::vector<const proto::JobInfo *> &jobs, int64_t now) {
    return json_document("jobs", JsonStamps::last_backfill_and_update, now, [&](JsonWriter &w) {
        for (const auto *j : jobs) job(w, *j, now);
    });
}

std::string nodes_json(const std::vector<const proto::NodeInfo *> &nodes, int64_t now) {
    return json_document("nodes", JsonStamps::last_update, now, [&](JsonWriter &w) {
        for (const auto *n : nodes) node(w, *n);
    });
}

std::string partitions_json(const std::vector<const proto::PartitionInfo *> &parts, int64_t now) {
    return json_document("partitions", JsonStamps::last_update, now, [&](JsonWriter &w) {
        for (const auto *p : parts) partition(w, *p);
    });
}

std::string sinfo_json(const std::vector<SinfoRow> &rows, int64_t now) {
    return json_document("sinfo", JsonStamps::none, now, [&](JsonWriter &w) {
        for (const auto &r : rows) sinfo_entry(w, r);
    });
}

std::string acct_jobs_json(const std::vector<const proto::AcctJob *> &jobs, int64_t now) {
    return json_document("jobs", JsonStamps::none, now, [&](JsonWriter &w) {
        for (const auto *j : jobs) acct_job(w, *j, now);
    });
}

} // namespace drover::cli
