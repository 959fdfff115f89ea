// bind_list.cpp - the lists of --cpu-bind and --mem-bind (map_*, mask_*) and their tokens.
#include "common/bind_list.hpp"

#include <algorithm>
#include <cctype>

#include "common/error.hpp"

namespace drover {

namespace {

constexpr uint64_t kMaxCpuId = 1u << 16;    // no node has more CPUs
constexpr std::size_t kMaxListItems = 4096; // a map or mask per task of a node, at most

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
uint32_t map_id(std::string_view v, const std::string &option) {
    bool hex = v.size() > 2 && (v.substr(0, 2) == "0x" || v.substr(0, 2) == "0X");
    if (hex) v.remove_prefix(2);
    uint64_t id = 0;
    for (char c : v) {
        int d = std::isdigit(static_cast<unsigned char>(c))           ? c - '0'
                : hex && std::isxdigit(static_cast<unsigned char>(c)) ? std::tolower(c) - 'a' + 10
                                                                      : -1;
        if (d < 0)
            throw ParseError("unrecognized " + option + " argument \"" + std::string(v) + "\"");
        id = id * (hex ? 16 : 10) + uint64_t(d);
        if (id > kMaxCpuId)
            throw ParseError(option + (option == "--cpu-bind" ? ": CPU id " : ": NUMA node id ") +
                             std::string(v) + " too large");
    }
    return uint32_t(id);
}

} // namespace

std::vector<std::vector<uint32_t>> parse_bind_list(std::string_view list, bool mask,
                                                   const std::string &option,
                                                   const std::string &what) {
    std::string flag = option + "=" + what;
    std::vector<std::vector<uint32_t>> out;
    std::size_t at = 0;
    while (at <= list.size()) {
        std::size_t end = std::min(list.find(',', at), list.size());
        std::string_view item = list.substr(at, end - at);
        at = end + 1;
        if (!is_value(item) || item.size() > 1024)
            throw ParseError("missing list for \"" + flag + ":<list>\"");
        std::size_t star = item.find('*');
        uint32_t times = star == std::string_view::npos
                             ? 1
                             : std::min(4096u, map_id(item.substr(star + 1), option));
        if (times == 0) throw ParseError(flag + ": an item repeated 0 times");
        std::string_view v = item.substr(0, star);
        std::vector<uint32_t> ids = mask ? mask_bits(v) : std::vector<uint32_t>{map_id(v, option)};
        for (uint32_t i = 0; i < times; ++i) out.push_back(ids);
        if (out.size() > kMaxListItems) throw ParseError(flag + ": more than 4096 items");
    }
    return out;
}

std::vector<std::string> bind_tokens(std::string_view text) {
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

} // namespace drover
