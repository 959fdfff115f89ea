// job_env.cpp - batch job environment and output path expansion.
#include "ctld/jobs/job_env.hpp"

#include <cctype>
#include <unordered_set>

#include "common/cgroup_conf.hpp"
#include "common/config.hpp"
#include "common/gpu_bind.hpp"
#include "common/gres.hpp"
#include "common/hostlist.hpp"
#include "ctld/jobs/job_mgr.hpp"

namespace drover::ctld {

EnvList batch_job_environment(const Job &job, const std::string &node_list,
                              const std::string &batch_host, const Config &conf) {
    const std::string &cluster = conf.cluster_name, &conf_path = conf.path;
    std::string id = std::to_string(job.id);
    std::string nnodes = std::to_string(job.nodes.size());
    uint32_t cpus_here = job.node_cpus.empty() ? 0 : job.node_cpus.front();
    // Tasks are spread over nodes as evenly as possible, the first nodes taking the remainder.
    std::vector<uint32_t> tasks;
    std::size_t n = std::max<std::size_t>(job.nodes.size(), 1);
    for (std::size_t i = 0; i < n; ++i)
        tasks.push_back(job.num_tasks / n + (i < job.num_tasks % n ? 1 : 0));
    EnvList env = {
        {"SLURM_JOB_ID", id},
        {"SLURM_JOBID", id},
        {"SLURM_JOB_NAME", job.name},
        {"SLURM_JOB_NODELIST", node_list},
        {"SLURM_NODELIST", node_list},
        {"SLURM_JOB_NUM_NODES", nnodes},
        {"SLURM_NNODES", nnodes},
        {"SLURM_NTASKS", std::to_string(job.num_tasks)},
        {"SLURM_NPROCS", std::to_string(job.num_tasks)},
        {"SLURM_TASKS_PER_NODE", compress_counts(tasks)},
        {"SLURM_CPUS_ON_NODE", std::to_string(cpus_here)},
        {"SLURM_JOB_CPUS_PER_NODE", compress_counts(job.node_cpus)},
        {"SLURM_SUBMIT_DIR", job.work_dir},
        {"SLURM_SUBMIT_HOST", job.submit_host},
        {"SLURM_JOB_PARTITION", job.partition},
        {"SLURM_CLUSTER_NAME", cluster},
        {"SLURM_JOB_USER", job.user_name},
        {"SLURM_JOB_UID", std::to_string(job.uid)},
        {"SLURM_JOB_GID", std::to_string(job.gid)},

        {"SLURM_GTIDS", "0"},
        {"SLURM_NODEID", "0"},
        {"SLURM_PRIO_PROCESS", "0"},
        {"SLURM_TOPOLOGY_ADDR", batch_host},
        {"SLURM_TOPOLOGY_ADDR_PATTERN", "node"},
        {"SLURM_CONF", conf_path},
        {"ENVIRONMENT", "BATCH"},
    };
    if (!job.account.empty()) env.push_back({"SLURM_JOB_ACCOUNT", job.account});
    // Set once the job was requeued (a node failure, scontrol requeue, RequeueExit), as Slurm.
    if (job.restart_count)
        env.push_back({"SLURM_RESTART_COUNT", std::to_string(job.restart_count)});
    if (job.array_job_id && job.array_task_id != DROVER_NO_VAL) {
        env.push_back({"SLURM_ARRAY_JOB_ID", std::to_string(job.array_job_id)});
        env.push_back({"SLURM_ARRAY_TASK_ID", std::to_string(job.array_task_id)});
        if (job.array_meta) {
            env.push_back({"SLURM_ARRAY_TASK_COUNT", std::to_string(job.array_meta->count)});
            env.push_back({"SLURM_ARRAY_TASK_MIN", std::to_string(job.array_meta->min_task)});
            env.push_back({"SLURM_ARRAY_TASK_MAX", std::to_string(job.array_meta->max_task)});
            env.push_back({"SLURM_ARRAY_TASK_STEP", std::to_string(job.array_meta->step)});
        }
    }
    // GPUs held on the batch host: "gpu:0-1,nic:0" -> "0,1".
    if (!job.node_alloc.empty()) {
        std::string list = gpu_indexes(job.node_alloc.front().gres);
        if (!list.empty()) {
            // The script sees its GPUs as an unbound task does: from 0 under ConstrainDevices.
            std::string visible = task_gpus(GpuBind{}, gpu_index_list(job.node_alloc.front().gres),
                                            0, devices_constrained(conf))
                                      .visible;
            env.push_back({"SLURM_JOB_GPUS", list});
            env.push_back({"CUDA_VISIBLE_DEVICES", visible});
            env.push_back({"GPU_DEVICE_ORDINAL", visible});
        }
    }
    // What sbatch was asked for, so that srun in the script asks its steps for the same.
    if (const JobExtra &x = job.ext(); x.gpus || x.gpus_per_node || x.gpus_per_task) {
        if (x.gpus) env.push_back({"SLURM_GPUS", std::to_string(x.gpus)});
        if (x.gpus_per_node)
            env.push_back({"SLURM_GPUS_PER_NODE", std::to_string(x.gpus_per_node)});
        if (x.gpus_per_task)
            env.push_back({"SLURM_GPUS_PER_TASK", std::to_string(x.gpus_per_task)});
    }
    if (!job.ext().gpu_bind.empty()) env.push_back({"SLURM_GPU_BIND", job.ext().gpu_bind});
    if (job.cpus_per_task > 1)
        env.push_back({"SLURM_CPUS_PER_TASK", std::to_string(job.cpus_per_task)});
    if (job.ext().overcommit) env.push_back({"SLURM_OVERCOMMIT", "1"});
    if (job.mem_per_node_mb)
        env.push_back({"SLURM_MEM_PER_NODE", std::to_string(job.mem_per_node_mb)});
    return env;
}

EnvList het_job_environment(const std::vector<Job *> &parts,
                            const std::function<std::string(const std::vector<uint32_t> &)> &names,
                            const Config &conf) {
    if (parts.size() < 2) return {};
    // What describes one node of the job (or this host) is not repeated per component.
    static const std::unordered_set<std::string> kNodeLocal = {
        "SLURM_CPUS_ON_NODE",          "SLURM_GTIDS",         "SLURM_NODEID",
        "SLURM_PRIO_PROCESS",          "SLURM_TOPOLOGY_ADDR", "SLURM_CONF",
        "SLURM_TOPOLOGY_ADDR_PATTERN", "ENVIRONMENT",         "CUDA_VISIBLE_DEVICES",
        "GPU_DEVICE_ORDINAL"};
    EnvList env = {{"SLURM_HET_SIZE", std::to_string(parts.size())}};
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const Job &c = *parts[k];
        const std::string host = c.nodes.empty() ? std::string() : names({c.nodes.front()});
        for (auto &[key, value] : batch_job_environment(c, names(c.nodes), host, conf))
            if (!kNodeLocal.count(key))
                env.push_back({key + "_HET_GROUP_" + std::to_string(k), std::move(value)});
    }
    return env;
}

std::string expand_output_path(const std::string &pattern, const Job &job,
                               const std::string &node_name) {
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        char c = pattern[i];
        if (c == '\\' && i + 1 < pattern.size()) { // "\%" keeps a literal per Slurm's rules
            out += pattern[++i];
            continue;
        }
        if (c != '%' || i + 1 >= pattern.size()) {
            out += c;
            continue;
        }
        std::size_t j = i + 1;
        int width = 0;
        while (j < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[j])))
            width = width * 10 + (pattern[j++] - '0');
        if (j >= pattern.size()) {
            out += pattern.substr(i);
            break;
        }
        auto num = [&](uint64_t v) {
            std::string s = std::to_string(v);
            if (int(s.size()) < width) s.insert(0, std::size_t(width) - s.size(), '0');
            return s;
        };
        switch (pattern[j]) {
        case '%':
            out += '%';
            break;
        case 'j':
            out += num(job.id);
            break;
        case 'A':
            out += num(job.array_job_id ? job.array_job_id : job.id);
            break;
        case 'a': // a job that is not an array task gets 4294967294, as Slurm writes it
            out += num(job.array_job_id && job.array_task_id != DROVER_NO_VAL ? job.array_task_id
                                                                              : 4294967294u);
            break;
        case 'x':
            out += job.name;
            break;
        case 'u':
            out += job.user_name;
            break;
        case 'N':
            out += node_name;
            break;
        case 'n':
        case 't':
            out += num(0);
            break;
        case 's':
            out += "batch";
            break;
        default:
            out += pattern.substr(i, j - i + 1);
            break;
        }
        i = j;
    }
    if (!out.empty() && out.front() != '/' && out != "/dev/null") out = job.work_dir + "/" + out;
    return out;
}

} // namespace drover::ctld
