// tres.cpp - TRES lists: parsing, storing and showing.
#include "ctld/policy/tres.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "common/ascii.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"

namespace drover::ctld::policy {

namespace {

// Slurm's TRES ids for the built-in types fix their order; the rest follow by name.
int rank(std::string_view name) {
    static constexpr std::string_view kOrder[] = {"cpu",     "mem",     "energy", "node",
                                                  "billing", "fs/disk", "vmem",   "pages"};
    for (std::size_t i = 0; i < std::size(kOrder); ++i)
        if (kOrder[i] == name) return int(i);
    return int(std::size(kOrder));
}

std::vector<std::pair<std::string, uint64_t>> ordered(const Tres &tres) {
    std::vector<std::pair<std::string, uint64_t>> out(tres.begin(), tres.end());
    std::stable_sort(out.begin(), out.end(),
                     [](const auto &a, const auto &b) { return rank(a.first) < rank(b.first); });
    return out;
}

bool known_name(std::string_view n) {
    if (rank(n) < 8) return true;
    for (std::string_view p : {"gres/", "license/", "bb/", "fs/"})
        if (n.size() > p.size() && n.substr(0, p.size()) == p) return true;
    return false;
}

} // namespace

std::string apply_tres(Tres &tres, std::string_view text, bool minutes) {
    Tres next = tres;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t comma = text.find(',', pos);
        std::string_view item =
            text.substr(pos, comma == std::string_view::npos ? text.npos : comma - pos);
        pos = comma == std::string_view::npos ? text.size() + 1 : comma + 1;
        if (item.empty()) continue;
        auto eq = item.find('=');
        if (eq == std::string_view::npos || eq == 0)
            return " Invalid TRES specification '" + std::string(item) + "'";
        std::string name = ascii_lower(item.substr(0, eq));
        std::string_view val = item.substr(eq + 1);
        if (!known_name(name)) return " Invalid TRES name '" + name + "'";
        if (val == "-1") {
            next.erase(name);
            continue;
        }
        uint64_t n = 0;
        if (name == "mem" && !minutes) {
            try {
                n = parse_size_mb(val);
            } catch (const ParseError &) {
                return " Invalid TRES count '" + std::string(item) + "'";
            }
        } else {
            auto [p, ec] = std::from_chars(val.data(), val.data() + val.size(), n);
            if (ec != std::errc() || p != val.data() + val.size())
                return " Invalid TRES count '" + std::string(item) + "'";
        }
        next[name] = n;
    }
    tres = std::move(next);
    return {};
}

std::string tres_text(const Tres &tres) {
    std::string out;
    for (const auto &[k, v] : ordered(tres)) {
        if (!out.empty()) out += ',';
        out += k + '=' + std::to_string(v);
    }
    return out;
}

Tres parse_stored_tres(std::string_view text) {
    Tres out;
    if (!apply_tres(out, text, /*minutes=*/true).empty()) return {};
    return out;
}

std::string tres_display(const Tres &tres, bool minutes) {
    std::string out;
    for (const auto &[k, v] : ordered(tres)) {
        if (!out.empty()) out += ',';
        out += k + '=' + (k == "mem" && !minutes ? format_size_mb(v) : std::to_string(v));
    }
    return out;
}

} // namespace drover::ctld::policy
