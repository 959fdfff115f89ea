// job_codec.cpp - the copies JobCodec's lines describe, one loop over the table for each side.
#include "ctld/jobs/job_codec.hpp"

#include "common/gres.hpp"

namespace drover::ctld::codec {

namespace {

template <auto P>
constexpr bool has = !std::is_null_pointer_v<decltype(P)>;

template <auto P>
constexpr bool in_extra = false;
template <class T, T JobExtra::*P>
constexpr bool in_extra<P> = true;

// The member a field names, in the job or in its JobExtra.
template <class T>
const T &get(const Job &j, T Job::*m) {
    return j.*m;
}
template <class T>
const T &get(const Job &j, T JobExtra::*m) {
    return j.ext().*m;
}
template <class T>
T &ref(Job &j, JobExtra &, T Job::*m) {
    return j.*m;
}
template <class T>
T &ref(Job &, JobExtra &x, T JobExtra::*m) {
    return x.*m;
}

using plugin::convert;

// Copies the table's fields from one side (Side of the field: where in `in`) to the job.
template <class In, class Pick>
bool fill_job(const In &in, Job &job, JobExtra &extra, Pick pick) {
    bool any_extra = false;
    JobCodec::each([&](auto f) {
        using F = decltype(f);
        constexpr auto side = pick(F{});
        if constexpr (has<side>) {
            const auto &v = in.*side;
            convert(v, ref(job, extra, F::member));
            if constexpr (in_extra<F::member>)
                any_extra = any_extra || !(v == std::remove_cvref_t<decltype(v)>{});
        }
    });
    return any_extra;
}

// Copies the table's fields from the job to one side.
template <class Out, class Pick>
void fill_side(const Job &job, Out &out, Pick pick) {
    JobCodec::each([&](auto f) {
        using F = decltype(f);
        constexpr auto side = pick(F{});
        if constexpr (has<side>) convert(get(job, F::member), out.*side);
    });
}

} // namespace

void to_info(const Job &job, JobInfoT &out) {
    fill_side(job, out, [](auto f) { return decltype(f)::info; });
}

bool from_info(const JobInfoT &in, Job &job, JobExtra &extra) {
    return fill_job(in, job, extra, [](auto f) { return decltype(f)::info; });
}

bool from_desc(const JobDescT &in, Job &job, JobExtra &extra) {
    return fill_job(in, job, extra, [](auto f) { return decltype(f)::desc; });
}

void to_desc(const Job &job, JobDescT &out) {
    fill_side(job, out, [](auto f) { return decltype(f)::desc; });
}

AcctRecord acct_record(const Job &j, std::string node_list) {
    AcctRecord r;
    fill_side(j, r, [](auto f) { return decltype(f)::acct; });
    r.node_list = std::move(node_list);
    r.alloc_nodes = uint32_t(j.nodes.size());
    r.req_cpus = alloc_tasks(j) * j.cpus_per_task;
    // The array's own record too (its task id NO_VAL while tasks wait in it): so a store finds an
    // array's tasks by its id (sacct -j A) before its last task has started.
    r.array_job_id = j.array_job_id;
    std::vector<std::string> held;
    for (const auto &a : j.node_alloc) held.push_back(a.gres);
    r.alloc_gres = held_gres_totals(held);
    return r;
}

drover_job_view job_view(const Job &j) {
    drover_job_view v{};
    v.struct_size = sizeof v;
    fill_side(j, v, [](auto f) { return decltype(f)::view; });
    v.exclusive = j.share == DROVER_SHARE_EXCLUSIVE;
    const JobExtra &x = j.ext();
    if (x.overcommit) { // the select plugin sizes the allocation for one task per node
        v.num_tasks = alloc_tasks(j);
        v.ntasks_per_node = 0;
    }
    if (x.req_bits.size()) v.required_nodes = {x.req_bits.words(), uint32_t(x.req_bits.size())};
    if (x.exc_bits.size()) v.excluded_nodes = {x.exc_bits.words(), uint32_t(x.exc_bits.size())};
    v.reservation = {x.reservation.data(), x.reservation.size()};
    v.account = {j.account.data(), j.account.size()};
    v.start_time = j.running() ? j.start_time : 0;
    // A suspended job's end is not known (its clock is stopped until it is resumed).
    int64_t limit_end = j.running() ? job_limit_end(j) : INT64_MAX;
    v.end_time = limit_end == INT64_MAX ? 0 : limit_end;
    v.nice = uint32_t(int64_t(DROVER_NICE_OFFSET) + j.nice);
    return v;
}

} // namespace drover::ctld::codec
