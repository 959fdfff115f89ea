// select_calls.cpp - SelectCalls: NULL checks, bitmap views and Status for the select plugin.
#include "plugin/select_calls.hpp"

namespace drover::plugin {

namespace {
drover_bitmap_view view_of(const Bitmap &b) {
    return {b.words(), uint32_t(b.size())};
}
} // namespace

Status SelectCalls::node_init(std::span<const drover_node_view> nodes) const {
    if (!ops().node_init) return absent("node_init");
    drover_error err{};
    const auto timing = timed("node_init");
    return status(ops().node_init(state(), nodes.data(), uint32_t(nodes.size()), &err), err,
                  "node_init");
}

Status SelectCalls::job_test(const drover_job_view &job, const Bitmap &usable, int mode,
                             Bitmap *picked) const {
    *picked = Bitmap(usable.size());
    if (!ops().job_test) return absent("job_test");
    drover_bitmap out{picked->words(), uint32_t(picked->size())};
    drover_error err{};
    const auto timing = timed("job_test");
    return status(ops().job_test(state(), &job, view_of(usable), mode, &out, &err), err,
                  "job_test");
}

Status SelectCalls::job_begin(const drover_job_view &job, const Bitmap &nodes) const {
    if (!ops().job_begin) return absent("job_begin");
    drover_error err{};
    const auto timing = timed("job_begin");
    return status(ops().job_begin(state(), &job, view_of(nodes), &err), err, "job_begin");
}

Status SelectCalls::job_fini(const drover_job_view &job) const {
    if (!ops().job_fini) return {};
    drover_error err{};
    const auto timing = timed("job_fini");
    return status(ops().job_fini(state(), &job, &err), err, "job_fini");
}

uint32_t SelectCalls::cpus_on_node(uint32_t job_id, uint32_t node, uint32_t all_cpus) const {
    if (!ops().job_cpus_on_node) return all_cpus;
    const auto timing = timed("job_cpus_on_node");
    return ops().job_cpus_on_node(state(), job_id, node);
}

std::optional<drover_node_alloc> SelectCalls::alloc_detail(uint32_t job_id, uint32_t node) const {
    if (!ops().job_alloc_detail) return std::nullopt;
    drover_node_alloc a{};
    a.struct_size = sizeof a;
    const auto timing = timed("job_alloc_detail");
    if (ops().job_alloc_detail(state(), job_id, node, &a) != DROVER_OK) return std::nullopt;
    return a;
}

Status SelectCalls::job_suspend(const drover_job_view &job) const {
    if (!ops().job_suspend || !ops().job_resume) return {};
    drover_error err{};
    const auto timing = timed("job_suspend");
    return status(ops().job_suspend(state(), &job, &err), err, "job_suspend");
}

Status SelectCalls::job_resume(const drover_job_view &job) const {
    if (!ops().job_suspend || !ops().job_resume) return {};
    drover_error err{};
    const auto timing = timed("job_resume");
    return status(ops().job_resume(state(), &job, &err), err, "job_resume");
}

} // namespace drover::plugin
