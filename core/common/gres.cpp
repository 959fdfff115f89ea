// gres.cpp - gres.conf, Gres= strings, --gres requests and index lists.
#include "common/gres.hpp"

#include "common/config_parse.hpp"

#include <cctype>
#include <dirent.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>

#include "common/error.hpp"
#include "common/gres_nvml.hpp"
#include "common/hostlist.hpp"

namespace drover {

namespace {

// Names a single gres.conf line or value may expand to; more is certainly a mistake.
constexpr std::size_t kMaxExpand = 1u << 16;

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string to_lower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = lower(c);
    return out;
}

// At most 60 characters of s, for messages.
std::string shown(std::string_view s) {
    if (s.size() <= 60) return std::string(s);
    return std::string(s.substr(0, 60)) + "...";
}

bool valid_name(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), is_gres_name_char);
}

// "12", "4G" (powers of 1024 for K M G T P). False if s is not a count, or it overflows or
// reaches the two highest values (Slurm's NO_VAL64 and INFINITE64, which no count may be).
bool parse_count(std::string_view s, uint64_t &out) {
    if (s.empty() || !is_digit(s.front())) return false;
    uint64_t mult = 1;
    char last = lower(s.back());
    if (!is_digit(last)) {
        const char *units = "kmgtp";
        const char *u = std::strchr(units, last);
        if (u == nullptr || *u == '\0') return false;
        for (const char *p = units; p <= u; ++p) mult *= 1024;
        s.remove_suffix(1);
    }
    if (s.empty()) return false;
    uint64_t v = 0;
    for (char c : s) {
        if (!is_digit(c)) return false;
        uint64_t d = static_cast<uint64_t>(c - '0');
        if (v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    if (v != 0 && mult > UINT64_MAX / v) return false;
    if (v * mult >= UINT64_MAX - 1) return false;
    out = v * mult;
    return true;
}

// Digits with at most one letter after them, maybe signed ("-1", "+2"): meant as a count even
// when parse_count refuses it, so never read as a type.
bool looks_like_count(std::string_view s) {
    if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
    if (!s.empty() && !is_digit(s.back())) s.remove_suffix(1);
    return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

// Splits on ',' outside parentheses; false if they are unbalanced.
bool split_items(std::string_view s, std::vector<std::string_view> &out) {
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '(') {
            ++depth;
        } else if (s[i] == ')') {
            if (--depth < 0) return false;
        } else if (s[i] == ',' && depth == 0) {
            out.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    }
    if (depth != 0) return false;
    out.push_back(s.substr(start));
    return true;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

// Parses a list of name[:type][:count][(affinity)] items; fail(what) throws.
template <class Fail>
std::vector<GresCount> parse_items(std::string_view spec, bool allow_affinity,
                                   bool strip_gres_prefix, Fail fail) {
    std::vector<GresCount> out;
    spec = trim(spec);
    if (spec.empty() || to_lower(spec) == "none") return out;
    std::vector<std::string_view> items;
    if (!split_items(spec, items)) fail("unbalanced parentheses");
    for (std::string_view item : items) {
        item = trim(item);
        if (item.empty()) fail("empty item");
        GresCount g;
        if (item.back() == ')') {
            std::size_t open = item.find('(');
            if (!allow_affinity) fail("'(' is not allowed here");
            g.affinity = std::string(item.substr(open + 1, item.size() - open - 2));
            if (g.affinity.empty() || g.affinity.find_first_of("()") != std::string::npos)
                fail("bad affinity in '" + shown(item) + "'");
            item = item.substr(0, open);
        } else if (item.find_first_of("()") != std::string_view::npos) {
            fail("'(' must close at the end of '" + shown(item) + "'");
        }
        if (strip_gres_prefix) {
            std::string low = to_lower(item.substr(0, 5));
            if (low == "gres/" || low == "gres:") item.remove_prefix(5);
        }
        std::vector<std::string_view> fields;
        std::size_t start = 0;
        for (std::size_t i = 0; i <= item.size(); ++i) {
            if (i == item.size() || item[i] == ':') {
                fields.push_back(item.substr(start, i - start));
                start = i + 1;
            }
        }
        if (fields.size() > 3) fail("too many ':' in '" + shown(item) + "'");
        if (!valid_name(fields[0])) fail("bad name '" + shown(fields[0]) + "'");
        g.name = std::string(fields[0]);
        g.count = 1;
        if (fields.size() == 2) {
            if (!parse_count(fields[1], g.count)) {
                if (!valid_name(fields[1]) || looks_like_count(fields[1]))
                    fail("bad type or count '" + shown(fields[1]) + "'");
                g.type = std::string(fields[1]);
                g.count = 1;
            }
        } else if (fields.size() == 3) {
            if (!valid_name(fields[1])) fail("bad type '" + shown(fields[1]) + "'");
            g.type = std::string(fields[1]);
            if (!parse_count(fields[2], g.count)) fail("bad count '" + shown(fields[2]) + "'");
        }
        out.push_back(std::move(g));
    }
    return out;
}

std::vector<std::string> expand(std::string_view expr, const std::string &loc, const char *what) {
    try {
        return hostlist_expand(expr, kMaxExpand);
    } catch (const ParseError &e) {
        throw ParseError(loc + ": bad " + what + ": " + e.what());
    }
}

// A Cores= value: an index list, optionally in brackets.
bool valid_cores(std::string_view s) {
    if (s.size() >= 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
    try {
        (void)parse_index_list(s);
        return !s.empty();
    } catch (const ParseError &) {
        return false;
    }
}

bool applies(const std::vector<std::string> &nodes, const std::string &node) {
    return nodes.empty() || std::find(nodes.begin(), nodes.end(), node) != nodes.end();
}

void parse_line(GresConf &conf, std::string_view text, const std::string &loc, unsigned lineno) {
    auto fail = [&](const std::string &what) { throw ParseError(loc + ": " + what); };
    std::vector<detail::ConfPair> pairs = detail::split_pairs(text, loc);
    if (pairs.empty()) return;
    bool has_nodes = false, has_name = false, has_auto = false, has_count = false,
         has_files = false;
    std::string nodes_expr, auto_mode, count_text, files_expr;
    GresConfEntry e;
    e.line = lineno;
    for (const detail::ConfPair &p : pairs) {
        if (p.lkey == "nodename") {
            has_nodes = true;
            nodes_expr = p.value;
        } else if (p.lkey == "name") {
            has_name = true;
            if (!valid_name(p.value)) fail("bad Name '" + shown(p.value) + "'");
            e.device.name = p.value;
        } else if (p.lkey == "type") {
            if (!valid_name(p.value)) fail("bad Type '" + shown(p.value) + "'");
            e.device.type = p.value;
        } else if (p.lkey == "file" || p.lkey == "multiplefiles") {
            has_files = true;
            files_expr = p.value;
        } else if (p.lkey == "count") {
            has_count = true;
            count_text = p.value;
        } else if (p.lkey == "cores" || p.lkey == "cpus") {
            if (!valid_cores(p.value))
                fail("bad " + std::string(p.lkey == "cores" ? "Cores" : "CPUs") + " '" +
                     shown(p.value) + "'");
            e.device.cores = p.value;
        } else if (p.lkey == "autodetect") {
            has_auto = true;
            auto_mode = to_lower(p.value);
        } else if (p.lkey == "links" || p.lkey == "flags") {
            // Accepted; Drover does not use them.
        } else {
            fail("unknown key '" + shown(p.lkey) + "'");
        }
    }
    std::vector<std::string> nodes;
    if (has_nodes) {
        nodes = expand(nodes_expr, loc, "NodeName");
        if (nodes.empty()) fail("empty NodeName");
    }
    if (has_auto) {
        GresAutoDetect a;
        a.nodes = nodes;
        a.line = lineno;
        if (auto_mode == "off" || auto_mode == "nvml" || auto_mode == "nvidia") {
            a.mode = auto_mode;
        } else if (!auto_mode.empty() &&
                   std::all_of(auto_mode.begin(), auto_mode.end(), is_gres_name_char)) {
            a.mode = "off";
            conf.warnings.push_back(loc + ": AutoDetect=" + auto_mode +
                                    " is not supported (off, nvml or nvidia); read as off");
        } else {
            fail("bad AutoDetect '" + shown(auto_mode) + "'");
        }
        conf.autodetect.push_back(std::move(a));
    }
    if (!has_name) {
        if (has_auto && !has_files && !has_count && e.device.type.empty() && e.device.cores.empty())
            return;
        fail("a record needs Name=");
    }
    e.nodes = std::move(nodes);
    if (has_files) {
        e.device.files = expand(files_expr, loc, "File");
        if (e.device.files.empty()) fail("empty File");
    }
    if (has_count) {
        if (!parse_count(count_text, e.device.count)) fail("bad Count '" + shown(count_text) + "'");
        if (has_files && e.device.count != e.device.files.size())
            fail("Count=" + count_text + " but File names " +
                 std::to_string(e.device.files.size()) + " file(s)");
    } else {
        e.device.count = has_files ? e.device.files.size() : 1;
    }
    conf.entries.push_back(std::move(e));
}

// "nvidia12" -> 12; -1 if the name is not nvidia<digits>.
long nvidia_number(const char *name) {
    if (std::strncmp(name, "nvidia", 6) != 0) return -1;
    const char *d = name + 6;
    if (*d == '\0' || std::strlen(d) > 6) return -1;
    long v = 0;
    for (; *d; ++d) {
        if (!is_digit(*d)) return -1;
        v = v * 10 + (*d - '0');
    }
    return v;
}

// The GPUs AutoDetect=mode finds: NVML's for nvml (the /dev scan, with a warning, when NVML
// cannot be used), the /dev scan's for nvidia.
std::vector<GresDevice> autodetect_gpus(const std::string &mode, const std::string &dev_dir,
                                        std::vector<std::string> *warnings,
                                        const std::string &nvml_library) {
    if (mode == "nvml") {
        NvmlDetection nvml = gres_detect_nvml(nvml_library);
        if (warnings) warnings->insert(warnings->end(), nvml.warnings.begin(), nvml.warnings.end());
        if (nvml.gpus) return std::move(*nvml.gpus);
        if (warnings)
            warnings->push_back("AutoDetect=nvml: " + nvml.error + "; looking for " + dev_dir +
                                "/nvidia<N> device files instead");
    }
    return gres_detect_nvidia(dev_dir);
}

} // namespace

bool is_gres_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' ||
           c == '-' || c == '.' || c == '+';
}

GresConf parse_gres_conf(std::string_view text, const std::string &name) {
    GresConf conf;
    std::string logical;
    unsigned first_line = 0;
    unsigned lineno = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t nl = text.find('\n', pos);
        std::string_view line =
            text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
        ++lineno;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (logical.empty()) first_line = lineno;
        if (!line.empty() && line.back() == '\\') {
            logical.append(line.substr(0, line.size() - 1));
            logical.push_back(' ');
            if (pos <= text.size()) continue;
        } else {
            logical.append(line);
        }
        parse_line(conf, logical, name + ":" + std::to_string(first_line), first_line);
        logical.clear();
    }
    return conf;
}

GresConf load_gres_conf(const std::string &path) {
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) throw ParseError(path + ": cannot read: " + std::strerror(errno));
    std::string text;
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    bool bad = std::ferror(f) != 0;
    int err = errno;
    std::fclose(f);
    if (bad) throw ParseError(path + ": cannot read: " + std::strerror(err));
    if (text.find('\0') != std::string::npos) throw ParseError(path + ": not a text file");
    return parse_gres_conf(text, path);
}

std::vector<GresDevice> gres_for_node(const GresConf &conf, const std::string &node) {
    std::vector<GresDevice> out;
    for (const GresConfEntry &e : conf.entries)
        if (applies(e.nodes, node)) out.push_back(e.device);
    return out;
}

std::string gres_autodetect_mode(const GresConf &conf, const std::string &node) {
    std::string mode = "off";
    for (const GresAutoDetect &a : conf.autodetect)
        if (applies(a.nodes, node)) mode = a.mode;
    return mode;
}

std::vector<GresDevice> gres_detect_nvidia(const std::string &dev_dir) {
    std::vector<std::pair<long, std::string>> found;
    if (DIR *d = ::opendir(dev_dir.c_str())) {
        while (const dirent *ent = ::readdir(d)) {
            long n = nvidia_number(ent->d_name);
            if (n >= 0) found.emplace_back(n, dev_dir + "/" + ent->d_name);
        }
        ::closedir(d);
    }
    std::sort(found.begin(), found.end());
    std::vector<GresDevice> out;
    for (auto &[n, path] : found) {
        GresDevice g;
        g.name = "gpu";
        g.count = 1;
        g.files.push_back(std::move(path));
        out.push_back(std::move(g));
    }
    return out;
}

std::vector<GresDevice> gres_for_this_node(const GresConf &conf, const std::string &node,
                                           const std::string &dev_dir,
                                           std::vector<std::string> *warnings,
                                           const std::string &nvml_library) {
    std::vector<GresDevice> out = gres_for_node(conf, node);
    std::string mode = gres_autodetect_mode(conf, node);
    if (mode != "nvml" && mode != "nvidia") return out;
    std::set<std::string> named;
    for (const GresDevice &g : out) named.insert(g.files.begin(), g.files.end());
    for (GresDevice &g : autodetect_gpus(mode, dev_dir, warnings, nvml_library))
        if (!named.count(g.files.front())) out.push_back(std::move(g));
    return out;
}

std::vector<GresCount> parse_node_gres(std::string_view spec) {
    auto fail = [&](const std::string &what) {
        throw ParseError("bad Gres '" + shown(spec) + "': " + what);
    };
    return parse_items(spec, true, false, fail);
}

std::vector<GresCount> parse_gres_request(std::string_view spec) {
    auto fail = [&](const std::string &what) {
        throw ParseError("invalid --gres '" + shown(spec) + "': " + what);
    };
    std::vector<GresCount> items = parse_items(spec, false, true, fail);
    items.erase(
        std::remove_if(items.begin(), items.end(), [](const GresCount &g) { return g.count == 0; }),
        items.end());
    return items;
}

bool valid_gres_request(std::string_view spec) {
    try {
        (void)parse_gres_request(spec);
        return true;
    } catch (const ParseError &) {
        return false;
    }
}

uint64_t gres_total(const std::vector<GresCount> &items, std::string_view name) {
    uint64_t total = 0;
    for (const GresCount &g : items)
        if (g.name == name) total += g.count;
    return total;
}

std::string format_gres(const std::vector<GresCount> &items) {
    std::string out;
    for (const GresCount &g : items) {
        if (!out.empty()) out.push_back(',');
        out += g.name;
        if (!g.type.empty()) out += ":" + g.type;
        out += ":" + std::to_string(g.count);
        if (!g.affinity.empty()) out += "(" + g.affinity + ")";
    }
    return out;
}

std::string format_index_list(std::vector<uint32_t> indexes) {
    std::sort(indexes.begin(), indexes.end());
    indexes.erase(std::unique(indexes.begin(), indexes.end()), indexes.end());
    std::string out;
    for (std::size_t i = 0; i < indexes.size();) {
        std::size_t j = i;
        while (j + 1 < indexes.size() && indexes[j + 1] == indexes[j] + 1) ++j;
        if (!out.empty()) out.push_back(',');
        out += std::to_string(indexes[i]);
        if (j > i) out += "-" + std::to_string(indexes[j]);
        i = j + 1;
    }
    return out;
}

std::vector<uint32_t> parse_index_list(std::string_view text) {
    auto fail = [&](const std::string &what) {
        throw ParseError("bad index list '" + shown(text) + "': " + what);
    };
    auto number = [&](std::string_view s) -> uint32_t {
        if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), is_digit))
            fail("not a number");
        uint32_t v = 0;
        for (char c : s) v = v * 10 + static_cast<uint32_t>(c - '0');
        return v;
    };
    std::vector<uint32_t> out;
    if (text.empty()) return out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] != ',') continue;
        std::string_view part = text.substr(start, i - start);
        start = i + 1;
        std::size_t dash = part.find('-');
        uint32_t lo = number(part.substr(0, dash));
        uint32_t hi = dash == std::string_view::npos ? lo : number(part.substr(dash + 1));
        if (hi < lo) fail("range ends before it starts");
        if (out.size() + (hi - lo) >= kMaxExpand) fail("too many indexes");
        for (uint32_t v = lo; v <= hi; ++v) out.push_back(v);
    }
    return out;
}

std::vector<HeldGres> parse_held_gres(std::string_view g) {
    std::vector<HeldGres> out;
    for (std::size_t at = 0; at < g.size();) {
        std::size_t end = g.find(',', at);
        while (end != std::string::npos && end + 1 < g.size() &&
               std::isdigit(static_cast<unsigned char>(g[end + 1])))
            end = g.find(',', end + 1); // commas inside an index list belong to it
        std::string_view item = g.substr(at, end == std::string::npos ? g.npos : end - at);
        at = end == std::string::npos ? g.size() : end + 1;
        auto colon = item.rfind(':');
        if (colon == std::string::npos) continue;
        try {
            out.push_back(
                {std::string(item.substr(0, colon)), parse_index_list(item.substr(colon + 1))});
        } catch (const ParseError &) {
            // a count rather than indexes: nothing to name
        }
    }
    return out;
}

std::vector<uint32_t> gpu_index_list(std::string_view g) {
    std::vector<uint32_t> ids;
    for (const HeldGres &h : parse_held_gres(g))
        if (h.name.rfind("gpu", 0) == 0) ids.insert(ids.end(), h.indexes.begin(), h.indexes.end());
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

std::string gpu_indexes(const std::string &g) {
    std::string list;
    for (uint32_t idx : gpu_index_list(g)) list += (list.empty() ? "" : ",") + std::to_string(idx);
    return list;
}

std::string gres_as_tres(std::string_view totals) {
    std::string out;
    for (std::size_t at = 0; at < totals.size();) {
        std::size_t end = std::min(totals.find(',', at), totals.size());
        std::string_view item = totals.substr(at, end - at);
        at = end + 1;
        if (auto colon = item.rfind(':'); colon != std::string_view::npos)
            out += std::string(out.empty() ? "" : ",") + "gres/" +
                   std::string(item.substr(0, colon)) + "=" + std::string(item.substr(colon + 1));
    }
    return out;
}

std::string held_gres_totals(const std::vector<std::string> &per_node) {
    std::vector<GresCount> totals;
    for (const std::string &held : per_node)
        for (const HeldGres &h : parse_held_gres(held)) {
            auto it = std::find_if(totals.begin(), totals.end(),
                                   [&](const GresCount &t) { return t.name == h.name; });
            if (it == totals.end()) it = totals.insert(totals.end(), GresCount{h.name, "", 0, ""});
            it->count += h.indexes.size();
        }
    return format_gres(totals);
}

} // namespace drover
