// job_ids.cpp - comma-separated job id lists and array job specs.
#include "cli/job_ids.hpp"

#include <algorithm>
#include <string>

#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"

namespace drover::cli {

std::vector<uint32_t> parse_job_id_list(std::string_view list, std::string_view error_prefix) {
    std::vector<uint32_t> ids;
    for (const auto &item : split(list, ',')) {
        auto id = parse_u32(trim(item));
        if (!id || *id == 0) throw ParseError(std::string(error_prefix) + item);
        ids.push_back(*id);
    }
    if (ids.empty()) throw ParseError(std::string(error_prefix) + std::string(list));
    return ids;
}

std::optional<std::vector<TaskRange>> parse_task_ranges(std::string_view text) {
    std::vector<TaskRange> out;
    for (const auto &item : split(text, ',', /*keep_empty=*/true)) {
        std::string_view part = trim(item);
        std::size_t dash = part.find('-');
        auto lo = parse_u32(part.substr(0, dash));
        auto hi = dash == std::string_view::npos ? lo : parse_u32(part.substr(dash + 1));
        if (!lo || !hi || *hi < *lo || *hi >= kNoVal) return std::nullopt;
        out.push_back({*lo, *hi});
    }
    if (out.empty()) return std::nullopt;
    return out;
}

bool task_in(const std::vector<TaskRange> &ranges, uint32_t task) {
    for (const auto &r : ranges)
        if (task >= r.lo && task <= r.hi) return true;
    return false;
}

std::optional<std::vector<uint32_t>> expand_tasks(const std::vector<TaskRange> &ranges,
                                                  std::size_t limit) {
    std::vector<uint32_t> out;
    for (const auto &r : ranges) {
        if (uint64_t(r.hi) - r.lo + 1 > limit) return std::nullopt;
        for (uint64_t t = r.lo; t <= r.hi; ++t) {
            out.push_back(uint32_t(t));
            if (out.size() > limit * 2) { // duplicates may be dropped below; bound the work
                std::sort(out.begin(), out.end());
                out.erase(std::unique(out.begin(), out.end()), out.end());
                if (out.size() > limit) return std::nullopt;
            }
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (out.size() > limit) return std::nullopt;
    return out;
}

bool JobSpec::matches(const proto::JobInfo &job) const {
    if (het_offset != kNoVal) return job.job_id() == job_id; // "L+K": that component alone
    // A bare id names every task of its array and every component of its heterogeneous job.
    if (!has_tasks)
        return job.job_id() == job_id || (job.array_job_id() && job.array_job_id() == job_id) ||
               (job.het_job_id() && job.het_job_id() == job_id);
    if (job.array_job_id() != job_id) return false;
    if (job.array_task_id() != kNoVal) return task_in(tasks, job.array_task_id());
    // The pending record: named when it still holds one of the tasks.
    if (!job.array_tasks()) return false;
    auto waiting = parse_task_ranges(job.array_tasks()->string_view());
    if (!waiting) return false;
    for (const auto &w : *waiting)
        for (const auto &t : tasks)
            if (t.lo <= w.hi && w.lo <= t.hi) return true;
    return false;
}

namespace {

// The step after the last '.' outside brackets ("12.4", "12_[1,3].batch"), taken off t; false
// when that step is malformed. Leaves s.step_id as it is when t names no step.
bool take_step(std::string_view &t, JobSpec &s) {
    auto dot = t.rfind('.');
    if (dot == std::string_view::npos || t.find(']', dot) != std::string_view::npos) return true;
    std::string_view step = t.substr(dot + 1);
    if (step == "batch")
        s.step_id = 0xfffffffbu;
    else if (step == "extern")
        s.step_id = 0xfffffffcu;
    else if (auto v = parse_u32(step); v && *v < 0xfffffff0u)
        s.step_id = *v;
    else
        return false;
    t = t.substr(0, dot);
    return true;
}

// "L+K", as Slurm writes a heterogeneous job's component K: since the components of leader L
// have the consecutive ids L, L+1, ..., it names job L+K. Both parts plain numbers (no array
// task), L not 0, and the sum a valid job id.
std::optional<JobSpec> het_spec(std::string_view t, std::size_t plus, JobSpec s) {
    auto leader = parse_u32(t.substr(0, plus));
    auto offset = parse_u32(t.substr(plus + 1));
    if (!leader || !offset || *leader == 0) return std::nullopt;
    uint64_t id = uint64_t(*leader) + *offset;
    if (id >= kNoVal) return std::nullopt;
    s.job_id = uint32_t(id);
    s.het_offset = *offset;
    return s;
}

} // namespace

std::optional<JobSpec> parse_job_spec(std::string_view text) {
    JobSpec s;
    std::string_view t = trim(text);
    s.text = std::string(t);
    if (!take_step(t, s)) return std::nullopt;
    if (auto plus = t.find('+'); plus != std::string_view::npos)
        return het_spec(t, plus, std::move(s));
    std::size_t us = t.find('_');
    auto id = parse_u32(t.substr(0, us));
    if (!id || *id == 0 || *id >= kNoVal) return std::nullopt;
    s.job_id = *id;
    if (us == std::string_view::npos) return s;
    std::string_view tasks = t.substr(us + 1);
    if (tasks.starts_with('[')) {
        if (!tasks.ends_with(']') || tasks.size() < 3) return std::nullopt;
        tasks = tasks.substr(1, tasks.size() - 2);
        if (auto pct = tasks.find('%'); pct != std::string_view::npos) {
            if (!parse_u32(tasks.substr(pct + 1))) return std::nullopt;
            tasks = tasks.substr(0, pct);
        }
    } else if (tasks.find_first_of(",-") != std::string_view::npos) {
        return std::nullopt; // a list or range needs brackets: "12_[1-3]"
    }
    auto ranges = parse_task_ranges(tasks);
    if (!ranges) return std::nullopt;
    s.has_tasks = true;
    s.tasks = std::move(*ranges);
    return s;
}

std::vector<std::string> split_job_specs(std::string_view list) {
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    for (char c : list) {
        if (c == '[') ++depth;
        if (c == ']' && depth > 0) --depth;
        if (c == ',' && depth == 0) {
            if (!trim(cur).empty()) out.push_back(std::string(trim(cur)));
            cur.clear();
            continue;
        }
        cur.push_back(c);
    }
    if (!trim(cur).empty()) out.push_back(std::string(trim(cur)));
    return out;
}

std::vector<JobSpec> parse_job_spec_list(std::string_view list, std::string_view error_prefix) {
    std::vector<JobSpec> out;
    for (const auto &item : split_job_specs(list)) {
        auto s = parse_job_spec(item);
        if (!s) throw ParseError(std::string(error_prefix) + item);
        out.push_back(std::move(*s));
    }
    if (out.empty()) throw ParseError(std::string(error_prefix) + std::string(list));
    return out;
}

std::vector<uint32_t> spec_job_ids(const std::vector<JobSpec> &specs) {
    std::vector<uint32_t> ids;
    for (const auto &s : specs)
        if (std::find(ids.begin(), ids.end(), s.job_id) == ids.end()) ids.push_back(s.job_id);
    return ids;
}

} // namespace drover::cli
