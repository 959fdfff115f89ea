// acct_calls.cpp - AcctCalls: NULL checks, struct_size, typed streams and Status for accounting.
#include "plugin/acct_calls.hpp"

#include <vector>

namespace drover::plugin {

namespace {
// The C emit functions: arg is the typed callback; 0 = go on (the core always reads all).
template <class Row>
int emit_to(void *arg, const Row *row) {
    (*static_cast<const std::function<void(const Row &)> *>(arg))(*row);
    return 0;
}
// What the ops take as their void* argument: a callback they hand back to emit_to.
template <class Fn>
void *arg_of(const Fn &fn) {
    return const_cast<Fn *>(&fn);
}
// The pointer arrays assoc_update takes, each record with its struct_size set.
struct AssocPointers {
    std::vector<drover_acct_assoc> recs;
    std::vector<const drover_acct_assoc *> ptrs;
    explicit AssocPointers(std::span<const drover_acct_assoc> in) : recs(in.begin(), in.end()) {
        for (auto &r : recs) {
            r.struct_size = sizeof r;
            ptrs.push_back(&r);
        }
    }
};
} // namespace

Status AcctCalls::job_event(int event, drover_acct_job job) const {
    if (!ops().job_event) return {};
    job.struct_size = sizeof job;
    drover_error err{};
    const auto timing = timed("job_event");
    return status(ops().job_event(state(), event, &job, &err), err, "job_event");
}

Status AcctCalls::step_event(int event, drover_acct_step step) const {
    if (!ops().step_event) return {};
    step.struct_size = sizeof step;
    drover_error err{};
    const auto timing = timed("step_event");
    return status(ops().step_event(state(), event, &step, &err), err, "step_event");
}

Status AcctCalls::node_event(drover_acct_node_event ev) const {
    if (!ops().node_event) return {};
    ev.struct_size = sizeof ev;
    drover_error err{};
    const auto timing = timed("node_event");
    return status(ops().node_event(state(), &ev, &err), err, "node_event");
}

bool AcctCalls::answers_job_query(bool with_steps) const {
    return ops().job_query || (with_steps && ops().job_step_query);
}

Status AcctCalls::job_query(drover_acct_query q, bool with_steps, const OnJob &on_job,
                            const OnStep &on_step) const {
    if (!answers_job_query(with_steps)) return absent("job_query");
    q.struct_size = sizeof q;
    // job_step_query (ABI 1.3) streams each job's steps after it; job_query only jobs. Both
    // callbacks travel in one argument, as the two C emit functions share it.
    struct Both {
        const OnJob &job;
        const OnStep &step;
    } both{on_job, on_step};
    auto job = [](void *arg, const drover_acct_job *j) -> int {
        static_cast<Both *>(arg)->job(*j);
        return 0;
    };
    auto step = [](void *arg, const drover_acct_step *s) -> int {
        static_cast<Both *>(arg)->step(*s);
        return 0;
    };
    drover_error err{};
    if (with_steps && ops().job_step_query) {
        const auto timing = timed("job_step_query");
        return status(ops().job_step_query(state(), &q, job, step, &both, &err), err,
                      "job_step_query");
    }
    const auto timing = timed("job_query");
    return status(ops().job_query(state(), &q, job, &both, &err), err, "job_query");
}

bool AcctCalls::keeps_assocs() const {
    return ops().assoc_update && ops().assoc_list;
}

Status AcctCalls::assoc_update(std::span<const drover_acct_assoc> puts,
                               std::span<const drover_acct_assoc> removes) const {
    if (!ops().assoc_update) return absent("assoc_update");
    AssocPointers p(puts), r(removes);
    drover_error err{};
    const auto timing = timed("assoc_update");
    int rc = ops().assoc_update(state(), p.ptrs.data(), uint32_t(p.ptrs.size()), r.ptrs.data(),
                                uint32_t(r.ptrs.size()), &err);
    return status(rc, err, "assoc_update");
}

Status AcctCalls::assoc_list(const OnAssoc &on_assoc) const {
    if (!ops().assoc_list) return absent("assoc_list");
    drover_error err{};
    const auto timing = timed("assoc_list");
    return status(ops().assoc_list(state(), emit_to<drover_acct_assoc>, arg_of(on_assoc), &err),
                  err, "assoc_list");
}

bool AcctCalls::keeps_node_events() const {
    return ops().node_event_query != nullptr;
}

Status AcctCalls::node_event_query(drover_acct_event_query q, const OnNodeEvent &on_event) const {
    if (!ops().node_event_query) return absent("node_event_query");
    q.struct_size = sizeof q;
    drover_error err{};
    const auto timing = timed("node_event_query");
    int rc = ops().node_event_query(state(), &q, emit_to<drover_acct_node_event>, arg_of(on_event),
                                    &err);
    return status(rc, err, "node_event_query");
}

} // namespace drover::plugin
