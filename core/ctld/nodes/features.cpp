// features.cpp - per-node evaluation of simple constraints.
#include "ctld/nodes/features.hpp"

#include <cctype>

namespace drover::ctld {

namespace {

bool has_feature(std::string_view features, std::string_view name) {
    std::size_t at = 0;
    while (at <= features.size()) {
        std::size_t end = features.find(',', at);
        if (end == std::string_view::npos) end = features.size();
        if (features.substr(at, end - at) == name) return true;
        at = end + 1;
    }
    return false;
}

} // namespace

bool per_node_constraint(std::string_view c) {
    return c.find_first_of("*[(") == std::string_view::npos;
}

std::vector<std::string> constraint_names(std::string_view c) {
    std::vector<std::string> out;
    std::string cur;
    for (char ch : c) {
        if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.') {
            cur += ch;
        } else {
            if (!cur.empty() && !std::isdigit(static_cast<unsigned char>(cur[0])))
                out.push_back(cur);
            cur.clear();
        }
    }
    if (!cur.empty() && !std::isdigit(static_cast<unsigned char>(cur[0]))) out.push_back(cur);
    return out;
}

bool node_satisfies(std::string_view c, std::string_view features) {
    // An OR of ANDs: "a&b|c" is (a and b) or c.
    std::size_t at = 0;
    while (at <= c.size()) {
        std::size_t end = c.find('|', at);
        if (end == std::string_view::npos) end = c.size();
        std::string_view term = c.substr(at, end - at);
        at = end + 1;
        bool all = !term.empty();
        std::size_t p = 0;
        while (all && p <= term.size()) {
            std::size_t e = term.find_first_of("&,", p); // ',' is an older spelling of '&'
            if (e == std::string_view::npos) e = term.size();
            if (!has_feature(features, term.substr(p, e - p))) all = false;
            p = e + 1;
        }
        if (all) return true;
    }
    return false;
}

} // namespace drover::ctld
