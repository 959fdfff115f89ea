// request.cpp - a job's view as a Request.
#include "request.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include <drover/plugin.hpp>

#include "gres_spec.hpp"

namespace cons_tres {

namespace {

uint32_t count_or_one(uint32_t v) {
    return v == 0 || v == DROVER_NO_VAL ? 1 : v;
}
uint32_t count_or_zero(uint32_t v) {
    return v == DROVER_NO_VAL || v == DROVER_INFINITE ? 0 : v;
}
uint64_t size_or_zero(uint64_t v) {
    return v == DROVER_NO_VAL || v == ~uint64_t{0} ? 0 : v;
}

std::vector<uint32_t> indexes(drover_bitmap_view b, uint32_t node_count) {
    std::vector<uint32_t> out;
    if (!b.words) return out;
    const uint32_t n = std::min(b.nbits, node_count);
    for (uint32_t i = 0; i < n; ++i)
        if ((b.words[i / 64] >> (i % 64)) & 1u) out.push_back(i);
    return out;
}

GresNeed &need_for(std::vector<GresNeed> &needs, const std::string &name, const std::string &type) {
    for (GresNeed &n : needs)
        if (n.name == name && n.type == type) return n;
    needs.push_back(GresNeed{name, type, 0, 0});
    return needs.back();
}

} // namespace

bool Request::is_excluded(uint32_t node) const {
    return std::binary_search(excluded.begin(), excluded.end(), node);
}

Request make_request(const drover_job_view &job, const Options &opt, uint32_t node_count,
                     std::string *lenient) {
#define HAS(f) DROVER_HAS(drover_job_view, &job, f)
    Request r;
    r.job_id = job.job_id;
    r.cpus_per_task = count_or_one(job.cpus_per_task);
    r.tasks = count_or_one(job.num_tasks);
    r.min_nodes = count_or_one(job.min_nodes);
    r.max_nodes =
        job.max_nodes == 0 || job.max_nodes == DROVER_NO_VAL ? DROVER_INFINITE : job.max_nodes;
    r.share = job.exclusive ? DROVER_SHARE_EXCLUSIVE : DROVER_SHARE_CORES;
    uint64_t mem_per_cpu = 0;
    if (HAS(nice)) { // every ABI 1.1 member is there
        mem_per_cpu = size_or_zero(job.mem_per_cpu_mb);
        r.ntasks_per_node = count_or_zero(job.ntasks_per_node);
        r.min_cpus = count_or_zero(job.min_cpus_per_node);
        r.tmp_mb = size_or_zero(job.tmp_disk_mb);
        try {
            for (const GresItem &g : parse_gres_list(drover::sdk::to_view(job.gres)))
                if (g.count) need_for(r.gres, g.name, g.type).per_node += g.count;
        } catch (const std::invalid_argument &e) {
            if (!lenient) throw;
            *lenient = e.what();
            r.gres.clear();
        }
        if (uint32_t gpn = count_or_zero(job.gpus_per_node)) {
            GresNeed &n = need_for(r.gres, "gpu", "");
            n.per_node = std::max<uint64_t>(n.per_node, gpn);
        }
        if (uint32_t gpt = count_or_zero(job.gpus_per_task))
            need_for(r.gres, "gpu", "").per_task = gpt;
        r.gpus_total = count_or_zero(job.gpus);
        try {
            r.constraint = Constraint::parse(drover::sdk::to_view(job.constraint));
        } catch (const std::invalid_argument &e) {
            if (!lenient) throw;
            *lenient = e.what();
        }
        r.required = indexes(job.required_nodes, node_count);
        r.excluded = indexes(job.excluded_nodes, node_count);
        r.contiguous = job.contiguous != 0;
        if (job.share <= DROVER_SHARE_OVERSUB && !job.exclusive) r.share = job.share;
    }
#undef HAS
    r.min_nodes = std::max<uint32_t>(r.min_nodes, static_cast<uint32_t>(r.required.size()));
    if (r.ntasks_per_node && job.num_tasks == 0) r.tasks = r.ntasks_per_node * r.min_nodes;
    r.tasks = std::max(r.tasks, r.min_nodes);
    // As in Slurm, --ntasks-per-node also asks for that many tasks' CPUs on every node.
    if (r.ntasks_per_node)
        r.min_cpus = static_cast<uint32_t>(std::min<uint64_t>(
            std::max<uint64_t>(r.min_cpus, uint64_t{r.ntasks_per_node} * r.cpus_per_task),
            DROVER_NO_VAL));

    const uint64_t mem_per_node = size_or_zero(job.mem_per_node_mb);
    if (mem_per_node) {
        r.mem_kind = MemKind::PerNode, r.mem_mb = mem_per_node;
    } else if (mem_per_cpu) {
        r.mem_kind = MemKind::PerCpu, r.mem_mb = mem_per_cpu;
    } else if (!opt.mem_consumable) {
        r.mem_kind = MemKind::None;
    } else if (opt.def_mem_per_cpu) {
        r.mem_kind = MemKind::PerCpu, r.mem_mb = opt.def_mem_per_cpu;
    } else if (opt.def_mem_per_node) {
        r.mem_kind = MemKind::PerNode, r.mem_mb = opt.def_mem_per_node;
    } else {
        r.mem_kind = MemKind::WholeNode;
    }
    return r;
}

} // namespace cons_tres
