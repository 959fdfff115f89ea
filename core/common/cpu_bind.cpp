// cpu_bind.cpp - --cpu-bind parsed, and the CPUs each task of a step is bound to on a node.
#include "common/cpu_bind.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>

#include "common/error.hpp"

namespace drover {

namespace {

constexpr uint64_t kMaxCpuId = 1u << 16;    // no node has more CPUs
constexpr std::size_t kMaxListItems = 4096; // a map or mask per task of a node, at most

std::string lower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// A list item of map_*/mask_*: hex digits (0x optional), or decimal, then "*N" to repeat it.
bool is_value(std::string_view tok) {
    std::string_view v = tok.substr(0, tok.find('*'));
    if (v.size() > 2 && (v.substr(0, 2) == "0x" || v.substr(0, 2) == "0X")) v.remove_prefix(2);
    if (v.empty()) return false;
    for (char c : v)
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    std::string_view rep =
        tok.find('*') == std::string_view::npos ? "" : tok.substr(tok.find('*') + 1);
    for (char c : rep)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return tok.find('*') == std::string_view::npos || !rep.empty();
}

std::vector<uint32_t> mask_bits(std::string_view hex) {
    if (hex.size() > 2 && (hex.substr(0, 2) == "0x" || hex.substr(0, 2) == "0X"))
        hex.remove_prefix(2);
    std::vector<uint32_t> ids;
    uint32_t base = 0;
    for (auto it = hex.rbegin(); it != hex.rend(); ++it, base += 4) {
        int v = std::isdigit(static_cast<unsigned char>(*it)) ? *it - '0'
                                                              : std::tolower(*it) - 'a' + 10;
        for (int b = 0; b < 4; ++b)
            if (v >> b & 1) ids.push_back(base + uint32_t(b));
    }
    return ids;
}

// A map_* item: a decimal id, or a hex one after 0x.
uint32_t map_id(std::string_view v) {
    bool hex = v.size() > 2 && (v.substr(0, 2) == "0x" || v.substr(0, 2) == "0X");
    if (hex) v.remove_prefix(2);
    uint64_t id = 0;
    for (char c : v) {
        int d = std::isdigit(static_cast<unsigned char>(c))           ? c - '0'
                : hex && std::isxdigit(static_cast<unsigned char>(c)) ? std::tolower(c) - 'a' + 10
                                                                      : -1;
        if (d < 0) throw ParseError("unrecognized --cpu-bind argument \"" + std::string(v) + "\"");
        id = id * (hex ? 16 : 10) + uint64_t(d);
        if (id > kMaxCpuId) throw ParseError("--cpu-bind: CPU id " + std::string(v) + " too large");
    }
    return uint32_t(id);
}

// "LIST" of map_*/mask_*: items, each repeated by "*N".
std::vector<std::vector<uint32_t>> parse_list(std::string_view list, bool mask, const char *what) {
    std::vector<std::vector<uint32_t>> out;
    std::size_t at = 0;
    while (at <= list.size()) {
        std::size_t end = std::min(list.find(',', at), list.size());
        std::string_view item = list.substr(at, end - at);
        at = end + 1;
        if (!is_value(item) || item.size() > 1024)
            throw ParseError(std::string("missing list for \"--cpu-bind=") + what + ":<list>\"");
        std::size_t star = item.find('*');
        uint32_t times =
            star == std::string_view::npos ? 1 : std::min(4096u, map_id(item.substr(star + 1)));
        if (times == 0)
            throw ParseError(std::string("--cpu-bind=") + what + ": an item repeated 0 times");
        std::string_view v = item.substr(0, star);
        std::vector<uint32_t> ids = mask ? mask_bits(v) : std::vector<uint32_t>{map_id(v)};
        for (uint32_t i = 0; i < times; ++i) out.push_back(ids);
        if (out.size() > kMaxListItems)
            throw ParseError(std::string("--cpu-bind=") + what + ": more than 4096 items");
    }
    return out;
}

// Tokens: ',' separates them unless a list item follows (map_cpu:0,1 stays one token).
std::vector<std::string> tokens(std::string_view text) {
    std::vector<std::string> out{""};
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == ',') {
            std::size_t end = std::min(text.find(',', i + 1), text.size());
            if (!is_value(text.substr(i + 1, end - i - 1))) {
                out.emplace_back();
                continue;
            }
        }
        out.back().push_back(text[i]);
    }
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
    for (const std::string &tok : tokens(text)) {
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
            b.lists = parse_list(std::string_view(tok).substr(sep + 1), mask, t.c_str());
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
                out.push_back({uint32_t(out.size()), s, s * cores + c});
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
