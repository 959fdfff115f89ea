// step_cpus.cpp - TaskPlugin=task/affinity: the CPUs each task of a step is bound to here.
#include <set>

#include <drover/plugin.h>

#include "common/config.hpp"
#include "common/error.hpp"
#include "common/gres.hpp"
#include "common/mem_bind.hpp"
#include "noded/step_env.hpp"

namespace drover::noded {

namespace {

bool has_word(const std::string &list, const std::string &word) {
    std::string l = list;
    for (char &c : l) c = char(std::tolower(static_cast<unsigned char>(c)));
    std::size_t at = 0;
    while ((at = l.find(word, at)) != std::string::npos) {
        bool start = at == 0 || l[at - 1] == ',' || l[at - 1] == '=';
        bool end = at + word.size() == l.size() || l[at + word.size()] == ',';
        if (start && end) return true;
        at += word.size();
    }
    return false;
}

// TaskPluginParam's default binding (Cores, Sockets, Threads, None, Autobind=..., Verbose).
CpuBind default_binding(const std::string &param) {
    CpuBind b;
    b.verbose = has_word(param, "verbose");
    if (has_word(param, "none")) b.kind = CpuBind::none;
    for (auto [word, level] : {std::pair{"sockets", CpuBind::sockets},
                               {"cores", CpuBind::cores},
                               {"threads", CpuBind::threads}})
        if (has_word(param, word)) b.level = level;
    return b;
}

// Slurm's automatic binding: to cores, threads or sockets when the step's tasks here need
// exactly as many of them as it holds; else none.
CpuBind::Level auto_level(const std::vector<CpuPlace> &node, const std::vector<uint32_t> &step,
                          uint32_t want) {
    std::set<uint32_t> mine(step.begin(), step.end()), cores, sockets;
    uint32_t threads = 0;
    for (const CpuPlace &p : node)
        if (mine.empty() || mine.count(p.os))
            ++threads, cores.insert(p.core), sockets.insert(p.socket);
    if (want == cores.size()) return CpuBind::cores;
    if (want == threads) return CpuBind::threads;
    if (want == sockets.size()) return CpuBind::sockets;
    return CpuBind::any;
}

} // namespace

Status bind_task_cpus(const Config &conf, const std::vector<CpuPlace> &topology,
                      const proto::StepCred &cred, const proto::StepLaunchRequest &req,
                      uint32_t node_index, ShepherdSpec &spec) {
    if (!has_word(conf.task_plugin, "task/affinity") || spec.tasks.empty()) return {};
    BindLayout layout{topology,
                      {},
                      uint32_t(spec.tasks.size()),
                      std::max(1u, req.cpus_per_task()),
                      req.socket_distribution() ? req.socket_distribution()->str() : "",
                      req.threads_per_core(),
                      req.ntasks_per_socket()};
    try {
        if (cred.cpu_ids() && node_index < cred.cpu_ids()->size())
            layout.step = parse_index_list(cred.cpu_ids()->Get(node_index)->string_view());
        CpuBind b = default_binding(conf.task_plugin_param);
        if (req.cpu_bind() && req.cpu_bind()->size()) {
            CpuBind asked = parse_cpu_bind(req.cpu_bind()->str());
            asked.verbose = asked.verbose || b.verbose;
            b = asked;
        }
        // --threads-per-core (and --hint) bind to threads unless told otherwise, as Slurm's.
        if (b.kind == CpuBind::unset && b.level == CpuBind::any && layout.threads_per_core)
            b.level = CpuBind::threads;
        // --ntasks-per-core: each task on cores of its own, as Slurm binds it.
        if (b.kind == CpuBind::unset && b.level == CpuBind::any && req.ntasks_per_core())
            b.level = CpuBind::cores;
        if (b.kind == CpuBind::unset && b.level == CpuBind::any)
            b.level = auto_level(topology, layout.step, layout.tasks * layout.cpus_per_task);
        auto sets = task_cpus(b, layout);
        for (std::size_t i = 0; i < spec.tasks.size(); ++i) spec.tasks[i].cpus = sets[i];
        spec.cpu_bind = b;
        if (req.mem_bind() && req.mem_bind()->size()) {
            spec.mem_bind = parse_mem_bind(req.mem_bind()->str());
            auto mems = task_mems(spec.mem_bind, topology, sets);
            for (std::size_t i = 0; i < spec.tasks.size(); ++i) spec.tasks[i].mems = mems[i];
        }
    } catch (const ParseError &e) {
        return {DROVER_EINVAL, e.what()};
    }
    return {};
}

} // namespace drover::noded
