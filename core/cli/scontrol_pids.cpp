// scontrol_pids.cpp - scontrol listpids: one node daemon's steps and their processes.
#include "cli/scontrol_pids.hpp"

#include <algorithm>
#include <cstdio>

#include "cli/text.hpp"
#include "common/error.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

namespace {

constexpr uint32_t kNoVal = 0xfffffffeu, kBatch = 0xfffffffbu;

std::string step_text(uint32_t step) {
    return step == kBatch ? std::string("batch") : std::to_string(step);
}

uint32_t number(const std::string &text, const char *what) {
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos)
        throw ParseError("\"" + text + "\" does not look like a " + what);
    return uint32_t(std::stoul(text));
}

// One row in Slurm's widths; a task id of NO_VAL prints "-".
std::string row(int32_t pid, uint32_t job, uint32_t step, uint32_t local, uint32_t global) {
    char buf[128];
    auto id = [](uint32_t v, int width) {
        char b[16];
        if (v == kNoVal)
            std::snprintf(b, sizeof b, "%-*s", width, "-");
        else
            std::snprintf(b, sizeof b, "%-*u", width, v);
        return std::string(b);
    };
    std::snprintf(buf, sizeof buf, "%-8d %-8u %-8s ", pid, job, step_text(step).c_str());
    return buf + id(local, 7) + " " + id(global, 8) + " \n";
}

} // namespace

PidsTarget parse_pids_target(const std::string &spec) {
    PidsTarget t;
    if (spec.empty() || spec == "*") return t;
    auto dot = spec.find('.');
    t.job_id = number(spec.substr(0, dot), "jobid");
    if (dot != std::string::npos) {
        std::string step = spec.substr(dot + 1);
        t.step_id = step == "batch" ? kBatch : number(step, "stepid");
    }
    return t;
}

std::string listpids_text(const proto::StepPidsResponse &r) {
    std::string out = "PID      JOBID    STEPID   LOCALID GLOBALID\n";
    if (!r.steps()) return out;
    std::vector<const proto::StepPids *> steps(r.steps()->begin(), r.steps()->end());
    std::sort(steps.begin(), steps.end(), [](const auto *a, const auto *b) {
        return a->job_id() != b->job_id() ? a->job_id() < b->job_id() : a->step_id() < b->step_id();
    });
    for (const auto *s : steps) {
        std::vector<int32_t> shown;
        const auto n = s->tasks() && s->task_pids()
                           ? std::min(s->tasks()->size(), s->task_pids()->size())
                           : 0u;
        for (uint32_t i = 0; i < n; ++i) {
            int32_t pid = s->task_pids()->Get(i);
            if (pid <= 0) continue; // the task has ended
            out += row(pid, s->job_id(), s->step_id(), i, s->tasks()->Get(i));
            shown.push_back(pid);
        }
        std::vector<int32_t> others;
        if (s->pids())
            for (int32_t pid : *s->pids())
                if (std::find(shown.begin(), shown.end(), pid) == shown.end())
                    others.push_back(pid);
        std::sort(others.begin(), others.end());
        for (int32_t pid : others) out += row(pid, s->job_id(), s->step_id(), kNoVal, kNoVal);
    }
    return out;
}

std::optional<std::string> listpids_empty(const proto::StepPidsResponse &r, const PidsTarget &t,
                                          const std::string &node) {
    if (r.steps() && r.steps()->size()) return std::nullopt;
    if (t.job_id == kNoVal) return "No job steps exist on this node.";
    if (t.step_id == kNoVal)
        return "There are no steps for job " + std::to_string(t.job_id) + " on node " + node + ".";
    return "StepId=" + std::to_string(t.job_id) + "." + step_text(t.step_id) +
           " does not exist on node " + node + ".";
}

} // namespace drover::cli
