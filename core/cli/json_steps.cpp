// json_steps.cpp - a job's recorded steps as sacct --json writes them.
#include "cli/json_steps.hpp"

#include <drover/views.h>
#include <sys/wait.h>

#include <string>
#include <string_view>
#include <vector>

#include "cli/job_states.hpp"
#include "cli/sacct_steps.hpp"
#include "cli/text.hpp"
#include "cli/users.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "common/timefmt.hpp"
#include "proto/fb_read.hpp"

namespace drover::cli {

namespace {

using proto::sv;

// One TRES entry; node and task are the ones that had a "max" figure (task < 0: none).
struct Tres {
    std::string type, name;
    int id = 0;
    uint64_t count = 0;
    std::string_view node;
    int64_t task = -1;
};

// Slurm's TRES ids for the types Drover records; others (gres, license) go by name.
int tres_id(std::string_view type) {
    if (type == "cpu") return 1;
    if (type == "mem") return 2;
    if (type == "energy") return 3;
    if (type == "node") return 4;
    if (type == "billing") return 5;
    if (type == "fs") return 6;
    if (type == "vmem") return 7;
    return 0;
}

void tres_list(JsonWriter &w, std::string_view key, const std::vector<Tres> &list) {
    w.key(key).begin_array();
    for (const auto &t : list) {
        w.begin_object();
        w.kv("type", t.type).kv("name", t.name).kv_num("id", t.id).kv_unum("count", t.count);
        if (!t.node.empty()) w.kv("node", t.node);
        if (t.task >= 0) w.kv_num("task", t.task);
        w.end_object();
    }
    w.end_array();
}

// The step's allocation ("cpu=4,mem=1G,node=1,gres/gpu=2"); memory in megabytes, as Slurm's.
std::vector<Tres> allocated(std::string_view tres) {
    std::vector<Tres> out;
    for (const auto &item : split(tres, ',')) {
        auto eq = item.find('=');
        if (eq == std::string::npos) continue;
        std::string type = item.substr(0, eq), name;
        if (auto slash = type.find('/'); slash != std::string::npos) {
            name = type.substr(slash + 1);
            type.resize(slash);
        }
        const std::string value = item.substr(eq + 1);
        uint64_t count = 0;
        try {
            count = type == "mem" ? parse_size_mb(value) : std::stoull(value);
        } catch (const std::exception &) {
            continue; // a figure this version cannot read is left out rather than guessed
        }
        out.push_back({type, name, tres_id(type), count});
    }
    return out;
}

void seconds_obj(JsonWriter &w, std::string_view key, uint64_t usec) {
    w.key(key).begin_object();
    w.kv_unum("seconds", usec / 1000000).kv_unum("microseconds", usec % 1000000);
    w.end_object();
}

void step(JsonWriter &w, const proto::AcctJob &j, const proto::AcctStep &s, int64_t now) {
    const bool active = job_is_active(s.state()) || s.end_time() == 0;
    // Usage is in the record once the step has ended, as sacct's text shows it.
    const bool done = !active;
    const int64_t end = active ? now : s.end_time();
    const int64_t elapsed = s.start_time() && end > s.start_time() ? end - s.start_time() : 0;
    w.begin_object();
    json_exit_code(w, s.exit_status(), active);
    const bool cancelled =
        (s.state() & kJobStateBase) == DROVER_JOB_CANCELLED && s.cancelled_by() != kNoVal;
    w.kv("kill_request_user", cancelled ? user_name(s.cancelled_by()) : std::string());
    std::vector<std::string> names;
    try {
        names = hostlist_expand(sv(s.node_list()));
    } catch (const ParseError &) {}
    w.key("nodes").begin_object();
    w.kv_num("count", s.nodes()).kv("range", sv(s.node_list()));
    w.key("list").begin_array();
    for (const auto &n : names) w.str(n);
    w.end_array();
    w.end_object();
    w.key("state").begin_array().str(job_state_long(s.state())).end_array();
    w.key("statistics").begin_object();
    w.key("CPU").begin_object().kv_num("actual_frequency", 0).end_object();
    w.key("energy").begin_object();
    w.kv_number_obj("consumed", 0, done, false);
    w.end_object();
    w.end_object();
    w.key("step").begin_object();
    w.kv("id", str_u(j.job_id()) + "." + sacct_step_name(s.step_id()));
    w.kv("name", sv(s.name()));
    w.end_object();
    w.key("tasks").begin_object().kv_num("count", s.tasks()).end_object();
    w.key("time").begin_object();
    w.kv_num("elapsed", elapsed);
    w.kv_num("end", done ? s.end_time() : 0);
    w.kv_num("start", s.start_time());
    w.kv_num("suspended", 0);
    seconds_obj(w, "system", done ? s.sys_cpu_usec() : 0);
    seconds_obj(w, "total", done ? s.user_cpu_usec() + s.sys_cpu_usec() : 0);
    seconds_obj(w, "user", done ? s.user_cpu_usec() : 0);
    w.end_object();
    // TRES usage: CPU time in milliseconds and sizes in bytes, as Slurm's records keep them.
    std::vector<Tres> in_max, in_min, in_ave, in_total, out_max, out_ave;
    if (done) {
        in_max = {{"mem", "", 2, s.max_rss(), sv(s.max_rss_node()), s.max_rss_task()},
                  {"vmem", "", 7, s.max_vsize(), sv(s.max_vsize_node())},
                  {"fs", "disk", 6, s.max_disk_read(), sv(s.max_disk_read_node())}};
        in_min = {{"cpu", "", 1, s.min_cpu_usec() / 1000}};
        in_ave = {{"cpu", "", 1, s.ave_cpu_usec() / 1000},
                  {"mem", "", 2, s.ave_rss()},
                  {"vmem", "", 7, s.ave_vsize()},
                  {"fs", "disk", 6, s.ave_disk_read()}};
        in_total = {{"cpu", "", 1, (s.user_cpu_usec() + s.sys_cpu_usec()) / 1000}};
        out_max = {{"fs", "disk", 6, s.max_disk_write(), sv(s.max_disk_write_node())}};
        out_ave = {{"fs", "disk", 6, s.ave_disk_write()}};
    }
    w.key("tres").begin_object();
    tres_list(w, "allocated", allocated(sv(s.tres_alloc())));
    w.key("consumed").begin_object();
    tres_list(w, "average", out_ave);
    tres_list(w, "max", out_max);
    tres_list(w, "min", {});
    tres_list(w, "total", {});
    w.end_object();
    w.key("requested").begin_object();
    tres_list(w, "average", in_ave);
    tres_list(w, "max", in_max);
    tres_list(w, "min", in_min);
    tres_list(w, "total", in_total);
    w.end_object();
    w.end_object();
    w.end_object();
}

} // namespace

void json_exit_code(JsonWriter &w, int32_t raw, bool active) {
    int status = static_cast<int>(raw);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    const char *what = active ? "PENDING" : sig ? "SIGNALED" : code ? "ERROR" : "SUCCESS";
    w.key("exit_code").begin_object();
    w.kv_str_list("status", {what});
    w.kv_number_obj("return_code", uint64_t(code), !active, false);
    w.key("signal").begin_object();
    w.kv_number_obj("id", uint64_t(sig), sig != 0, false);
    w.kv("name", "");
    w.end_object();
    w.end_object();
}

void json_acct_steps(JsonWriter &w, const proto::AcctJob &job, int64_t now) {
    w.key("steps").begin_array();
    for (const auto *s : sacct_steps(job)) step(w, job, *s, now);
    w.end_array();
}

} // namespace drover::cli
