// sampler.cpp - per-task usage of a step from /proc, folded with wait4 and cgroup figures.
#include "noded/sampler.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <string_view>

namespace drover::noded {

namespace {

// A small /proc file, or "" when it cannot be read.
std::string slurp(const std::string &path) {
    std::string out;
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return out;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
    ::close(fd);
    return out;
}

uint64_t to_u64(std::string_view s) {
    uint64_t v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
}

uint64_t usec_of(const timeval &tv) {
    return static_cast<uint64_t>(tv.tv_sec) * 1000000u + static_cast<uint64_t>(tv.tv_usec);
}

// The value of "key: N" in /proc/<pid>/io text, or 0.
uint64_t io_field(std::string_view text, std::string_view key) {
    size_t at = 0;
    while ((at = text.find(key, at)) != std::string_view::npos) {
        if ((at == 0 || text[at - 1] == '\n') && text.substr(at + key.size(), 1) == ":") {
            size_t v = at + key.size() + 1;
            while (v < text.size() && text[v] == ' ') ++v;
            return to_u64(text.substr(v));
        }
        at += key.size();
    }
    return 0;
}

} // namespace

struct StepSampler::Reading {
    int32_t ppid = 0;
    uint64_t start = 0;
    uint64_t user = 0, sys = 0;  // usec
    uint64_t vsize = 0, rss = 0; // bytes
    uint64_t read = 0, write = 0;
};

StepSampler::StepSampler(std::vector<std::pair<uint32_t, int32_t>> tasks, std::string proc_dir)
    : proc_dir_(std::move(proc_dir)) {
    for (const auto &[id, pid] : tasks) {
        tasks_[id].pid = pid;
        task_by_pid_[pid] = id;
    }
    container_.struct_size = sizeof container_;
}

uint32_t StepSampler::owner_of(int32_t pid, const std::map<int32_t, Reading> &now) const {
    int32_t p = pid;
    for (int depth = 0; depth < 256 && p > 1; ++depth) {
        if (auto t = task_by_pid_.find(p); t != task_by_pid_.end()) return t->second;
        // An ancestor charged in an earlier sample (its own parent may have gone since).
        if (auto known = procs_.find(p); known != procs_.end() && p != pid)
            return known->second.task;
        auto r = now.find(p);
        if (r == now.end()) break;
        p = r->second.ppid;
    }
    return tasks_.empty() ? 0 : tasks_.begin()->first; // the lowest task id of this node
}

void StepSampler::retire(const Proc &p) {
    auto t = tasks_.find(p.task);
    if (t == tasks_.end()) return;
    t->second.gone_user += p.user;
    t->second.gone_sys += p.sys;
    t->second.gone_read += p.read;
    t->second.gone_write += p.write;
}

void StepSampler::sample(std::span<const int32_t> pids) {
    static const uint64_t hz = static_cast<uint64_t>(::sysconf(_SC_CLK_TCK));
    static const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    std::map<int32_t, Reading> now;
    for (int32_t pid : pids) {
        const std::string dir = proc_dir_ + "/" + std::to_string(pid);
        const std::string stat = slurp(dir + "/stat");
        // The command name (field 2) may hold spaces and parentheses: fields follow its last ')'.
        size_t paren = stat.rfind(')');
        if (paren == std::string::npos) continue;
        std::vector<std::string_view> f;
        std::string_view rest = std::string_view(stat).substr(paren + 1);
        while (!rest.empty()) {
            size_t s = rest.find_first_not_of(" \n");
            if (s == std::string_view::npos) break;
            size_t e = rest.find_first_of(" \n", s);
            f.push_back(rest.substr(s, e == std::string_view::npos ? rest.npos : e - s));
            if (e == std::string_view::npos) break;
            rest.remove_prefix(e);
        }
        if (f.size() < 22) continue; // f[0] is field 3 (state): field N is f[N - 3]
        Reading r;
        r.ppid = static_cast<int32_t>(to_u64(f[1]));
        r.user = to_u64(f[11]) * 1000000 / hz;
        r.sys = to_u64(f[12]) * 1000000 / hz;
        r.start = to_u64(f[19]);
        r.vsize = to_u64(f[20]);
        r.rss = to_u64(f[21]) * page;
        const std::string io = slurp(dir + "/io"); // unreadable: no figures, silently
        r.read = io_field(io, "read_bytes");
        r.write = io_field(io, "write_bytes");
        now.emplace(pid, r);
    }

    // Processes gone since the last sample (or whose pid now names another) keep what they used.
    for (auto it = procs_.begin(); it != procs_.end();) {
        auto r = now.find(it->first);
        if (r != now.end() && r->second.start == it->second.start) {
            ++it;
            continue;
        }
        retire(it->second);
        it = procs_.erase(it);
    }

    std::map<int32_t, uint32_t> owners;
    for (const auto &[pid, r] : now) {
        auto known = procs_.find(pid);
        owners[pid] = known != procs_.end() ? known->second.task : owner_of(pid, now);
    }
    struct Sum {
        bool any = false;
        uint64_t rss = 0, vsize = 0, user = 0, sys = 0, read = 0, write = 0;
    };
    std::map<uint32_t, Sum> sums;
    for (const auto &[pid, r] : now) {
        const uint32_t task = owners[pid];
        procs_[pid] = Proc{r.start, task, r.user, r.sys, r.read, r.write};
        Sum &s = sums[task];
        s.any = true;
        s.rss += r.rss;
        s.vsize += r.vsize;
        s.user += r.user;
        s.sys += r.sys;
        s.read += r.read;
        s.write += r.write;
    }
    for (auto &[id, t] : tasks_) {
        const Sum &s = sums[id];
        t.live_user = s.user;
        t.live_sys = s.sys;
        t.live_read = s.read;
        t.live_write = s.write;
        if (!s.any) continue;
        ++t.samples;
        t.rss_sum += s.rss;
        t.vsize_sum += s.vsize;
        t.max_rss = std::max(t.max_rss, s.rss);
        t.max_vsize = std::max(t.max_vsize, s.vsize);
    }
}

void StepSampler::task_ended(uint32_t task_id, const rusage &ru) {
    auto it = tasks_.find(task_id);
    if (it == tasks_.end()) return;
    Task &t = it->second;
    t.final_user = std::max(t.final_user, usec_of(ru.ru_utime));
    t.final_sys = std::max(t.final_sys, usec_of(ru.ru_stime));
    t.max_rss = std::max(t.max_rss, static_cast<uint64_t>(ru.ru_maxrss) * 1024);
}

void StepSampler::add_container(const drover_cont_usage &u) {
    // The kernel's counters only grow while the container lives: keep the largest seen.
    if (DROVER_HAS(drover_cont_usage, &u, max_mem_bytes))
        container_.max_mem_bytes =
            std::max({container_.max_mem_bytes, u.max_mem_bytes, u.mem_bytes});
    if (DROVER_HAS(drover_cont_usage, &u, cpu_sys_usec)) {
        container_.cpu_user_usec = std::max(container_.cpu_user_usec, u.cpu_user_usec);
        container_.cpu_sys_usec = std::max(container_.cpu_sys_usec, u.cpu_sys_usec);
    }
    if (DROVER_HAS(drover_cont_usage, &u, oom_kills))
        container_.oom_kills = std::max(container_.oom_kills, u.oom_kills);
}

StepUsageSummary StepSampler::summary(const std::string &node_name) const {
    StepUsageSummary out;
    if (tasks_.empty()) return out;
    out.tasks = static_cast<uint32_t>(tasks_.size());
    uint64_t rss_aves = 0, vsize_aves = 0, read_total = 0, write_total = 0;
    bool first = true;
    for (const auto &[id, t] : tasks_) {
        const uint64_t user = std::max(t.gone_user + t.live_user, t.final_user);
        const uint64_t sys = std::max(t.gone_sys + t.live_sys, t.final_sys);
        const uint64_t read = t.gone_read + t.live_read;
        const uint64_t write = t.gone_write + t.live_write;
        auto keep = [&](uint64_t v, uint64_t &max, uint32_t &task) {
            if (first || v > max) {
                max = v;
                task = id;
            }
        };
        keep(t.max_rss, out.max_rss, out.max_rss_task);
        keep(t.max_vsize, out.max_vsize, out.max_vsize_task);
        keep(read, out.max_disk_read, out.max_disk_read_task);
        keep(write, out.max_disk_write, out.max_disk_write_task);
        if (first || user + sys < out.min_cpu_usec) {
            out.min_cpu_usec = user + sys;
            out.min_cpu_task = id;
        }
        first = false;
        rss_aves += t.samples ? t.rss_sum / t.samples : t.max_rss;
        vsize_aves += t.samples ? t.vsize_sum / t.samples : t.max_vsize;
        read_total += read;
        write_total += write;
        out.user_cpu_usec += user;
        out.sys_cpu_usec += sys;
    }
    // At the container's peak some task held at least its share of it.
    out.max_rss = std::max(out.max_rss, container_.max_mem_bytes / out.tasks);
    out.user_cpu_usec = std::max(out.user_cpu_usec, container_.cpu_user_usec);
    out.sys_cpu_usec = std::max(out.sys_cpu_usec, container_.cpu_sys_usec);
    out.ave_rss = rss_aves / out.tasks;
    out.ave_vsize = vsize_aves / out.tasks;
    out.ave_cpu_usec = (out.user_cpu_usec + out.sys_cpu_usec) / out.tasks;
    out.ave_disk_read = read_total / out.tasks;
    out.ave_disk_write = write_total / out.tasks;
    out.oom_kills = container_.oom_kills;
    out.max_rss_node = out.max_vsize_node = out.min_cpu_node = node_name;
    out.max_disk_read_node = out.max_disk_write_node = node_name;
    return out;
}

} // namespace drover::noded
