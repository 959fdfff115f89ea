// options.cpp - SelectTypeParameters and the memory defaults.
#include "options.hpp"

#include <algorithm>
#include <cctype>

namespace cons_tres {

namespace {

std::string upper(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// "2048", "2G", "UNLIMITED" (0). nullopt when unreadable.
std::optional<uint64_t> parse_mb(std::string_view s) {
    s = trim(s);
    std::string u = upper(s);
    if (u == "UNLIMITED" || u == "INFINITE") return 0;
    uint64_t mult = 1;
    if (!u.empty() && (u.back() == 'M' || u.back() == 'G' || u.back() == 'T')) {
        mult = u.back() == 'M' ? 1 : u.back() == 'G' ? 1024 : 1024 * 1024;
        u.pop_back();
    }
    if (u.empty() || u.size() > 15 ||
        !std::all_of(u.begin(), u.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return std::stoull(u) * mult;
}

} // namespace

Options parse_options(std::optional<std::string_view> select_type_parameters,
                      std::optional<std::string_view> def_mem_per_cpu,
                      std::optional<std::string_view> def_mem_per_node) {
    Options o;
    bool have_base = false;
    std::string_view rest = select_type_parameters.value_or("");
    while (!rest.empty()) {
        size_t comma = rest.find(',');
        std::string_view tok = trim(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        if (tok.empty()) continue;
        std::string t = upper(tok);
        bool base = true;
        if (t == "CR_CPU") {
            o.cpu_unit = true, o.cpus_consumable = true, o.mem_consumable = false;
        } else if (t == "CR_CPU_MEMORY") {
            o.cpu_unit = true, o.cpus_consumable = true, o.mem_consumable = true;
        } else if (t == "CR_CORE" || t == "CR_SOCKET" || t == "CR_BOARD") {
            o.cpu_unit = false, o.cpus_consumable = true, o.mem_consumable = false;
        } else if (t == "CR_CORE_MEMORY" || t == "CR_SOCKET_MEMORY") {
            o.cpu_unit = false, o.cpus_consumable = true, o.mem_consumable = true;
        } else if (t == "CR_MEMORY") {
            o.cpu_unit = false, o.cpus_consumable = false, o.mem_consumable = true;
        } else {
            base = false;
            o.warnings.push_back("SelectTypeParameters: " + std::string(tok) +
                                 " is not used by select/cons_tres; ignored");
        }
        if (!base) continue;
        if (have_base)
            o.warnings.push_back("SelectTypeParameters: more than one CR_ mode; " +
                                 std::string(tok) + " wins");
        if (t == "CR_SOCKET" || t == "CR_BOARD" || t == "CR_SOCKET_MEMORY")
            o.warnings.push_back("SelectTypeParameters: " + std::string(tok) +
                                 " allocates whole cores in Drover, as CR_Core does");
        have_base = true;
        o.base = std::string(tok);
    }
    auto mem = [&](std::optional<std::string_view> v, const char *key, uint64_t &out) {
        if (!v) return;
        if (auto mb = parse_mb(*v))
            out = *mb;
        else
            o.warnings.push_back(std::string(key) + "=" + std::string(*v) +
                                 " is not a size in MB; ignored");
    };
    mem(def_mem_per_cpu, "DefMemPerCPU", o.def_mem_per_cpu);
    mem(def_mem_per_node, "DefMemPerNode", o.def_mem_per_node);
    return o;
}

} // namespace cons_tres
