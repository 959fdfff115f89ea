// cpu_bind.cpp - --cpu-bind parsed, and the CPUs each task of a step is bound to on a node.
#include "common/cpu_bind.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>

#include "common/bind_list.hpp"
#include "common/error.hpp"

namespace drover {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

CpuBind parse_cpu_bind(std::string_view text) {
    CpuBind b;
    const std::map<std::string, CpuBind::Level> levels{
        {"socket", CpuBind::sockets}, {"sockets", CpuBind::sockets}, {"core", CpuBind::cores},
        {"cores", CpuBind::cores},    {"thread", CpuBind::threads},  {"threads", CpuBind::threads},
        {"ldom", CpuBind::ldoms},     {"ldoms", CpuBind::ldoms}};
    const std::map<std::string, std::pair<CpuBind::Kind, bool>> lists{
        {"map_cpu", {CpuBind::map_cpu, false}},
        {"mask_cpu", {CpuBind::mask_cpu, true}},
        {"map_ldom", {CpuBind::map_ldom, false}},
        {"mask_ldom", {CpuBind::mask_ldom, true}}};
    for (const std::string &tok : bind_tokens(text)) {
        std::string t = lower(tok.substr(0, tok.find_first_of(":=")));
        if (t == "q" || t == "quiet") {
            b.verbose = false;
        } else if (t == "v" || t == "verbose") {
            b.verbose = true;
        } else if (t == "no" || t == "none" || t == "rank" || t == "rank_ldom") {
            b.kind = t == "rank"        ? CpuBind::rank
                     : t == "rank_ldom" ? CpuBind::rank_ldom
                                        : CpuBind::none;
            b.lists.clear();
        } else if (levels.count(t)) {
            b.level = levels.at(t);
        } else if (lists.count(t)) {
            auto [kind, mask] = lists.at(t);
            std::size_t sep = tok.find_first_of(":=");
            if (sep == std::string::npos || sep + 1 == tok.size())
                throw ParseError("missing list for \"--cpu-bind=" + t + ":<list>\"");
            b.kind = kind;
            b.lists = parse_bind_list(std::string_view(tok).substr(sep + 1), mask, "--cpu-bind", t);
        } else {
            throw ParseError("unrecognized --cpu-bind argument \"" + tok + "\"");
        }
    }
    return b;
}

std::vector<CpuPlace> uniform_topology(uint32_t sockets, uint32_t cores, uint32_t threads) {
    std::vector<CpuPlace> out;
    for (uint32_t s = 0; s < sockets; ++s)
        for (uint32_t c = 0; c < cores; ++c)
            for (uint32_t t = 0; t < threads; ++t)
                out.push_back({uint32_t(out.size()), s, s * cores + c, 0});
    return out;
}

std::string cpu_mask_hex(const std::vector<uint32_t> &cpus) {
    uint32_t top = 0;
    for (uint32_t c : cpus) top = std::max(top, c);
    std::string out;
    for (int64_t base = int64_t(top / 4) * 4; base >= 0; base -= 4) {
        int v = 0;
        for (uint32_t c : cpus)
            if (c >= base && c < base + 4) v |= 1 << (c - base);
        out.push_back("0123456789abcdef"[v]);
    }
    return "0x" + out;
}

std::string cpu_bind_verbose_line(const CpuBind &bind, const std::string &node, uint32_t task,
                                  uint32_t local, long pid, const std::vector<uint32_t> &cpus) {
    static const char *kLevels[] = {"", "-sockets", "-cores", "-threads", "-ldoms"};
    static const char *kKinds[] = {"MASK", "NONE",   "RANK",  "MAP",
                                   "MASK", "LDRANK", "LDMAP", "LDMASK"};
    bool automatic = bind.kind == CpuBind::unset;
    char ids[64];
    std::snprintf(ids, sizeof ids, "task %2u %2u [%ld]", task, local, pid);
    return std::string("cpu-bind") + (automatic ? kLevels[bind.level] : "") + "=" +
           kKinds[bind.kind] + " - " + node + ", " + ids + ": mask " + cpu_mask_hex(cpus) + " set";
}

} // namespace drover
