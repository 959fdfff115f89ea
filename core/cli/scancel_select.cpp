// scancel_select.cpp - the jobs scancel chooses itself: filters, specs, -i and the -v line.
#include "cli/scancel_select.hpp"

#include <drover/views.h>
#include <unistd.h>

#include <algorithm>
#include <set>

#include "cli/job_states.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "proto/fb_read.hpp"

namespace drover::cli {

namespace {

using proto::sv;

// Jobs a cancel can still reach, as Slurm's scancel keeps them.
bool cancellable(const proto::JobInfo &job) {
    uint32_t s = job.state();
    return s == DROVER_JOB_PENDING || s == DROVER_JOB_RUNNING || s == DROVER_JOB_SUSPENDED;
}

bool named_by_ids(const ScancelArgs &a, const proto::JobInfo &job) {
    return a.jobs.empty() || std::any_of(a.jobs.begin(), a.jobs.end(),
                                         [&](const JobSpec &s) { return s.matches(job); });
}

bool on_nodes(const std::vector<std::string> &wanted, const proto::JobInfo &job) {
    std::vector<std::string> held;
    try {
        held = hostlist_expand(sv(job.node_list()));
    } catch (const ParseError &) {
        return false;
    }
    return std::any_of(held.begin(), held.end(), [&](const std::string &n) {
        return std::find(wanted.begin(), wanted.end(), n) != wanted.end();
    });
}

// Every filter of a but the ids. Accounts and QOS compare without case (scancel lowercases
// them, as Slurm's does); a job asked for no QOS runs under "normal".
bool passes_filters(const ScancelArgs &a, std::optional<uint32_t> uid,
                    const std::vector<std::string> &nodes, const proto::JobInfo &job) {
    std::string_view qos = sv(job.qos()).empty() ? "normal" : sv(job.qos());
    if (a.account && !iequals(sv(job.account()), *a.account)) return false;
    if (a.name && sv(job.name()) != *a.name) return false;
    if (a.partition && sv(job.partition()) != *a.partition) return false;
    if (a.qos && !iequals(qos, *a.qos)) return false;
    if (a.reservation && sv(job.reservation()) != *a.reservation) return false;
    if (!a.states.empty() &&
        std::find(a.states.begin(), a.states.end(), job.state()) == a.states.end())
        return false;
    if (uid && job.user_id() != *uid) return false;
    if (a.nodelist && !on_nodes(nodes, job)) return false;
    return true;
}

} // namespace

std::vector<const proto::JobInfo *> scancel_select(const ScancelArgs &a,
                                                   std::optional<uint32_t> uid,
                                                   std::span<const proto::JobInfo *const> jobs) {
    std::vector<std::string> nodes;
    if (a.nodelist) nodes = hostlist_expand(*a.nodelist);
    std::vector<const proto::JobInfo *> out;
    for (const auto *j : jobs)
        if (cancellable(*j) && passes_filters(a, uid, nodes, *j) && named_by_ids(a, *j))
            out.push_back(j);
    // A heterogeneous job's component goes with its leader when that is chosen too: the leader's
    // cancel ends every component (and a pending component alone would be refused).
    std::set<uint32_t> chosen;
    for (const auto *j : out) chosen.insert(j->job_id());
    std::erase_if(out, [&](const proto::JobInfo *j) {
        return j->het_job_id() && j->het_job_id() != j->job_id() && chosen.count(j->het_job_id());
    });
    return out;
}

std::vector<std::string> scancel_unknown_ids(const ScancelArgs &a,
                                             std::span<const proto::JobInfo *const> jobs) {
    std::vector<std::string> out;
    for (const auto &spec : a.jobs) {
        bool found = std::any_of(jobs.begin(), jobs.end(), [&](const proto::JobInfo *j) {
            return cancellable(*j) && spec.matches(*j);
        });
        if (!found) out.push_back(spec.text);
    }
    return out;
}

std::vector<std::string> scancel_specs_for(const ScancelArgs &a, const proto::JobInfo &job) {
    std::vector<std::string> out;
    bool pending_record = job.array_job_id() != 0 && job.array_task_id() == DROVER_NO_VAL;
    // Ids with a step, or with tasks of a pending record, go as written: they name less than the
    // whole record.
    for (const auto &s : a.jobs)
        if (s.matches(job) && (s.step_id != DROVER_NO_VAL || (pending_record && s.has_tasks)))
            out.push_back(s.text);
    if (!out.empty()) return out;
    if (job.array_job_id() != 0 && job.array_task_id() != DROVER_NO_VAL)
        return {str_u(job.array_job_id()) + "_" + str_u(job.array_task_id())};
    if (pending_record && !sv(job.array_tasks()).empty())
        return {str_u(job.array_job_id()) + "_[" + std::string(sv(job.array_tasks())) + "]"};
    return {str_u(job.job_id())};
}

std::string scancel_no_match_message(const ScancelArgs &a) {
    std::string filters;
    auto add = [&](const char *key, const std::optional<std::string> &v) {
        if (v) filters += std::string(key) + "=" + *v + " ";
    };
    add("account", a.account);
    add("job_name", a.name);
    add("nodelist", a.nodelist);
    add("partition", a.partition);
    add("qos", a.qos);
    add("reservation", a.reservation);
    if (!a.states.empty()) {
        std::string names;
        for (uint32_t s : a.states)
            names += (names.empty() ? "" : ",") + std::string(job_state_long(s));
        filters += "state=" + names + " ";
    }
    // --me is the user's uid, as Slurm's scancel writes it.
    add("user_name", a.user ? a.user : a.me ? std::optional(str_u(::getuid())) : std::nullopt);
    return "No active jobs match ALL job filters, including: " + filters;
}

bool scancel_confirm(const proto::JobInfo &job, std::FILE *in, std::FILE *out) {
    std::string id = job.array_task_id() == DROVER_NO_VAL
                         ? str_u(job.job_id())
                         : str_u(job.array_job_id()) + "_" + str_u(job.array_task_id());
    std::string question = "Cancel job_id=" + id + " name=" + std::string(sv(job.name())) +
                           " partition=" + std::string(sv(job.partition())) + " [y/n]? ";
    char line[128];
    for (;;) {
        std::fputs(question.c_str(), out);
        std::fflush(out);
        // Slurm's scancel asks again at the end of input; an answer that never comes is a no.
        if (!std::fgets(line, sizeof line, in)) return false;
        if (line[0] == 'y' || line[0] == 'Y') return true;
        if (line[0] == 'n' || line[0] == 'N') return false;
    }
}

} // namespace drover::cli
