// step_env.cpp - task environment for a step.
#include "noded/step_env.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <drover/plugin.h>

#include "common/error.hpp"
#include "common/gpu_bind.hpp"
#include "common/gres.hpp"
#include "common/hostlist.hpp"

namespace drover::noded {

std::vector<std::string> step_environment(const proto::StepCred &cred,
                                          const proto::StepLaunchRequest &req, uint32_t node_index,
                                          const std::string &node,
                                          const std::vector<uint32_t> &tasks) {
    std::map<std::string, std::string> env;
    if (req.environment())
        for (const auto *kv : *req.environment())
            if (kv->key()) env[kv->key()->str()] = kv->value() ? kv->value()->str() : "";
    std::vector<std::string> nodes;
    for (const auto *n : *cred.nodes()) nodes.push_back(n->str());
    std::string step_nodes = hostlist_compress(nodes);
    std::string job = std::to_string(cred.job_id()), step = std::to_string(cred.step_id());
    std::string gtids;
    for (uint32_t t : tasks) gtids += (gtids.empty() ? "" : ",") + std::to_string(t);
    uint32_t cpus_here = cred.cpus_per_node() && node_index < cred.cpus_per_node()->size()
                             ? cred.cpus_per_node()->Get(node_index)
                             : 0;
    auto set = [&env](const std::string &k, const std::string &v) { env[k] = v; };
    set("SLURM_JOB_ID", job);
    set("SLURM_JOBID", job);
    set("SLURM_STEP_ID", step);
    set("SLURM_STEPID", step);
    set("SLURM_STEP_NODELIST", step_nodes);
    set("SLURM_NODELIST", step_nodes);
    set("SLURM_STEP_NUM_NODES", std::to_string(nodes.size()));
    set("SLURM_NNODES", std::to_string(nodes.size()));
    set("SLURM_STEP_NUM_TASKS", std::to_string(req.num_tasks()));
    set("SLURM_NTASKS", std::to_string(req.num_tasks()));
    set("SLURM_NPROCS", std::to_string(req.num_tasks()));
    set("SLURM_STEP_TASKS_PER_NODE", req.tasks_per_node() ? req.tasks_per_node()->str() : "");
    set("SLURM_TASKS_PER_NODE", req.tasks_per_node() ? req.tasks_per_node()->str() : "");
    set("SLURM_NODEID", std::to_string(node_index));
    set("SLURMD_NODENAME", node);
    set("SLURM_TOPOLOGY_ADDR", node);
    set("SLURM_TOPOLOGY_ADDR_PATTERN", "node");
    set("SLURM_GTIDS", gtids);
    set("SLURM_CPUS_ON_NODE", std::to_string(cpus_here));
    set("SLURM_JOB_UID", std::to_string(cred.uid()));
    set("SLURM_JOB_GID", std::to_string(cred.gid()));
    set("SLURM_JOB_USER", cred.user_name() ? cred.user_name()->str() : "");
    if (cred.job_node_list()) set("SLURM_JOB_NODELIST", cred.job_node_list()->str());
    if (cred.partition()) set("SLURM_JOB_PARTITION", cred.partition()->str());
    if (req.io_host()) {
        set("SLURM_LAUNCH_NODE_IPADDR", req.io_host()->str());
        set("SLURM_SRUN_COMM_HOST", req.io_host()->str());
    }
    set("SLURM_SRUN_COMM_PORT", std::to_string(req.io_port()));
    // GPUs the step holds here (each task's CUDA_VISIBLE_DEVICES is bind_task_gpus').
    if (cred.gres() && node_index < cred.gres()->size()) {
        std::string gpus = gpu_indexes(cred.gres()->Get(node_index)->str());
        if (!gpus.empty()) set("SLURM_STEP_GPUS", gpus);
    }
    std::vector<std::string> out;
    out.reserve(env.size());
    for (auto &[k, v] : env) out.push_back(k + "=" + v);
    return out;
}

std::vector<std::vector<uint32_t>> ranks_by_node(const proto::StepLaunchRequest &req) {
    std::vector<std::vector<uint32_t>> out;
    uint32_t at = 0, total = req.task_ids() ? req.task_ids()->size() : 0;
    for (uint32_t n = 0; req.node_task_counts() && n < req.node_task_counts()->size(); ++n) {
        out.emplace_back();
        for (uint32_t k = 0; k < req.node_task_counts()->Get(n) && at < total; ++k)
            out.back().push_back(req.task_ids()->Get(at++));
    }
    return out;
}

Status bind_task_gpus(const proto::StepCred &cred, const proto::StepLaunchRequest &req,
                      uint32_t node_index, bool relative, const std::vector<CpuPlace> &topology,
                      const std::vector<std::string> &gpu_cores, std::vector<ShepherdTask> &tasks) {
    if (!cred.gres() || node_index >= cred.gres()->size()) return {};
    std::vector<uint32_t> step_gpus = gpu_index_list(cred.gres()->Get(node_index)->string_view());
    if (step_gpus.empty()) return {};
    GpuBind bind;
    try {
        if (req.gpu_bind()) bind = parse_gpu_bind(req.gpu_bind()->str());
    } catch (const ParseError &e) {
        return {DROVER_EINVAL, e.what()};
    }
    for (ShepherdTask &t : tasks) {
        std::vector<uint32_t> near;
        if (bind.kind == GpuBind::Kind::Closest) {
            std::set<uint32_t> cores;
            for (const CpuPlace &p : topology)
                if (std::find(t.cpus.begin(), t.cpus.end(), p.os) != t.cpus.end())
                    cores.insert(p.core);
            near = gpus_near(step_gpus, gpu_cores, {cores.begin(), cores.end()});
        }
        TaskGpus g = task_gpus(bind, step_gpus, t.local_id, relative, near);
        t.env.push_back("CUDA_VISIBLE_DEVICES=" + g.visible);
        t.env.push_back("GPU_DEVICE_ORDINAL=" + g.visible);
        if (bind.verbose) t.note = gpu_bind_verbose_line(g, step_gpus, t.local_id) + "\n";
        if (g.outside_step)
            t.note += "gpu-bind: task " + std::to_string(t.task_id) +
                      " names no GPU of the step: bound to its first\n";
    }
    return {};
}

} // namespace drover::noded
