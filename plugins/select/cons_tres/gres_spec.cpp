// gres_spec.cpp - name[:type][:count] lists.
#include "gres_spec.hpp"

#include <cctype>
#include <stdexcept>

namespace cons_tres {

namespace {

bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
           c == '+';
}

bool valid_name(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!name_char(c)) return false;
    return true;
}

bool parse_count(std::string_view s, uint64_t &out) {
    if (s.empty() || !std::isdigit(static_cast<unsigned char>(s.front()))) return false;
    uint64_t mult = 1;
    char last = static_cast<char>(std::tolower(static_cast<unsigned char>(s.back())));
    if (last == 'k' || last == 'm' || last == 'g') {
        mult = last == 'k' ? 1024u : last == 'm' ? 1024u * 1024u : 1024u * 1024u * 1024u;
        s.remove_suffix(1);
    }
    if (s.empty() || s.size() > 12) return false;
    uint64_t v = 0;
    for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    out = v * mult;
    return true;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

} // namespace

std::vector<GresItem> parse_gres_list(std::string_view spec) {
    std::vector<GresItem> out;
    spec = trim(spec);
    if (spec.empty() || spec == "none" || spec == "NONE" || spec == "(null)") return out;
    size_t start = 0;
    int depth = 0;
    for (size_t i = 0; i <= spec.size(); ++i) {
        if (i < spec.size()) {
            if (spec[i] == '(')
                ++depth;
            else if (spec[i] == ')')
                --depth;
            if (spec[i] != ',' || depth > 0) continue;
        }
        std::string_view item = trim(spec.substr(start, i - start));
        start = i + 1;
        const std::string shown(item);
        if (size_t paren = item.find('('); paren != std::string_view::npos) {
            if (item.back() != ')') throw std::invalid_argument("bad gres '" + shown + "'");
            item = item.substr(0, paren);
        }
        std::vector<std::string_view> f;
        size_t fs = 0;
        for (size_t j = 0; j <= item.size(); ++j)
            if (j == item.size() || item[j] == ':') {
                f.push_back(item.substr(fs, j - fs));
                fs = j + 1;
            }
        GresItem g;
        bool ok = f.size() <= 3 && valid_name(f[0]);
        if (ok && f.size() == 2 && !parse_count(f[1], g.count)) {
            ok = valid_name(f[1]);
            g.type = std::string(f[1]);
        } else if (ok && f.size() == 3) {
            ok = valid_name(f[1]) && parse_count(f[2], g.count);
            g.type = std::string(f[1]);
        }
        if (!ok) throw std::invalid_argument("bad gres '" + shown + "'");
        g.name = std::string(f[0]);
        out.push_back(std::move(g));
    }
    return out;
}

} // namespace cons_tres
