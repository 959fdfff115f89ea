// mem_bind.cpp - --mem-bind parsed, and the NUMA nodes of each task.
#include "common/mem_bind.hpp"

#include <cctype>
#include <cstdio>
#include <set>

#include "common/bind_list.hpp"
#include "common/error.hpp"

namespace drover {

MemBind parse_mem_bind(std::string_view text) {
    MemBind b;
    for (const std::string &tok : bind_tokens(text)) {
        std::string t = tok.substr(0, tok.find_first_of(":="));
        for (char &c : t) c = char(std::tolower(static_cast<unsigned char>(c)));
        if (t == "q" || t == "quiet") {
            b.verbose = false;
        } else if (t == "v" || t == "verbose") {
            b.verbose = true;
        } else if (t == "p" || t == "prefer") {
            b.prefer = true;
        } else if (t == "sort" || t == "nosort") {
        } else if (t == "no" || t == "none" || t == "local" || t == "rank") {
            b.kind = t == "local" ? MemBind::local : t == "rank" ? MemBind::rank : MemBind::none;
            b.lists.clear();
        } else if (t == "map_mem" || t == "mask_mem") {
            std::size_t sep = tok.find_first_of(":=");
            if (sep == std::string::npos || sep + 1 == tok.size())
                throw ParseError("missing list for \"--mem-bind=" + t + ":<list>\"");
            b.kind = t == "map_mem" ? MemBind::map_mem : MemBind::mask_mem;
            b.lists = parse_bind_list(std::string_view(tok).substr(sep + 1), t == "mask_mem",
                                      "--mem-bind", t);
        } else {
            throw ParseError("unrecognized --mem-bind argument \"" + tok + "\"");
        }
    }
    return b;
}

std::vector<std::vector<uint32_t>> task_mems(const MemBind &bind, const std::vector<CpuPlace> &node,
                                             const std::vector<std::vector<uint32_t>> &task_cpus) {
    std::set<uint32_t> all;
    for (const CpuPlace &p : node) all.insert(p.numa);
    std::vector<uint32_t> numa(all.begin(), all.end());
    std::vector<std::vector<uint32_t>> out(task_cpus.size());
    for (std::size_t local = 0; local < out.size(); ++local) {
        std::set<uint32_t> mine;
        if (bind.kind == MemBind::local) { // the nodes of its CPUs (an unbound task: none)
            std::set<uint32_t> cpus(task_cpus[local].begin(), task_cpus[local].end());
            for (const CpuPlace &p : node)
                if (cpus.count(p.os)) mine.insert(p.numa);
        } else if (bind.kind == MemBind::rank && !numa.empty())
            mine.insert(numa[local % numa.size()]);
        else if (bind.kind == MemBind::map_mem || bind.kind == MemBind::mask_mem)
            for (uint32_t n : bind.lists[local % bind.lists.size()]) {
                if (!all.count(n))
                    throw ParseError("--mem-bind: NUMA node " + std::to_string(n) +
                                     " is not on this node");
                mine.insert(n);
            }
        out[local].assign(mine.begin(), mine.end());
    }
    return out;
}

std::string mem_bind_verbose_line(const MemBind &bind, const std::string &node, uint32_t task,
                                  uint32_t local, long pid, const std::vector<uint32_t> &mems) {
    static const char *kKinds[] = {"NULL", "NONE", "LOC", "RANK", "MAP", "MASK"};
    char ids[64];
    std::snprintf(ids, sizeof ids, "task %2u %2u [%ld]", task, local, pid);
    // " set" only when a policy was set.
    bool set = bind.kind != MemBind::none && bind.kind != MemBind::unset && !mems.empty();
    return std::string("mem-bind") + (bind.prefer ? " PREFER " : "=") + kKinds[bind.kind] + " - " +
           node + ", " + ids + ": mask " + cpu_mask_hex(mems) + (set ? " set" : "");
}

} // namespace drover
