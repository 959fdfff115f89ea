// config.cpp - slurm.conf reading: files, Includes, line splitting into Key=Value pairs, and the
// Config lookup helpers. The meaning of each key lives in config_keys.cpp.
#include "common/config.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <glob.h>

#include "common/config_parse.hpp"
#include "common/error.hpp"

namespace drover {

namespace detail {

namespace {
char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
} // namespace

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

std::string to_lower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = lower(c);
    return out;
}

std::string to_upper(std::string_view s) {
    std::string out(s);
    for (char &c : out)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return out;
}

} // namespace detail

namespace {

using detail::ConfigBuilder;
using detail::ConfPair;

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
bool is_key_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.';
}

std::string shown(std::string_view s) {
    std::string out(s.substr(0, 60));
    if (s.size() > 60) out += "...";
    return out;
}

} // namespace

namespace detail {

// Reads one value starting at line[i]: up to whitespace or '#', with "..." quoting anywhere in it
// (the quotes are dropped) and \# for a literal '#'.
std::string read_value(std::string_view line, std::size_t &i, const std::string &loc) {
    std::string v;
    bool quoted = false;
    while (i < line.size()) {
        char c = line[i];
        if (c == '"') {
            quoted = !quoted;
            ++i;
            continue;
        }
        if (!quoted && (is_space(c) || c == '#')) break;
        if (c == '\\' && i + 1 < line.size() && line[i + 1] == '#') {
            v.push_back('#');
            i += 2;
            continue;
        }
        v.push_back(c);
        ++i;
    }
    if (quoted) throw ParseError(loc + ": unbalanced '\"'");
    return v;
}

void skip_space(std::string_view line, std::size_t &i) {
    while (i < line.size() && is_space(line[i])) ++i;
}

// Splits a logical line into Key=Value pairs; spaces around '=' are allowed, as Slurm allows.
std::vector<ConfPair> split_pairs(std::string_view line, const std::string &loc) {
    std::vector<ConfPair> pairs;
    std::size_t i = 0;
    while (true) {
        skip_space(line, i);
        if (i >= line.size() || line[i] == '#') break;
        std::size_t ks = i;
        while (i < line.size() && is_key_char(line[i])) ++i;
        std::string_view key = line.substr(ks, i - ks);
        if (key.empty()) {
            if (line[i] == '=') throw ParseError(loc + ": empty key before '='");
            throw ParseError(loc + ": expected Key=Value, found '" + shown(line.substr(ks)) + "'");
        }
        skip_space(line, i);
        if (i >= line.size() || line[i] != '=')
            throw ParseError(loc + ": expected Key=Value, found '" + shown(line.substr(ks)) + "'");
        ++i;
        skip_space(line, i);
        ConfPair p;
        p.key = std::string(key);
        p.lkey = detail::to_lower(key);
        p.value = read_value(line, i, loc);
        pairs.push_back(std::move(p));
    }
    return pairs;
}

} // namespace detail

namespace detail {

bool read_text_file(const std::string &path, std::string &out, std::string &err) {
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) {
        err = std::strerror(errno);
        return false;
    }
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    bool ok = !std::ferror(f);
    if (!ok) err = std::strerror(errno);
    std::fclose(f);
    if (ok && out.find('\0') != std::string::npos) {
        err = "not a text file";
        return false;
    }
    return ok;
}

void for_each_line(std::string_view text, const std::string &name,
                   const std::function<void(std::string_view, const std::string &)> &fn) {
    int lineno = 0;
    std::size_t pos = 0;
    std::string logical;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        std::string_view raw =
            text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        ++lineno;
        int first = lineno;
        logical.assign(raw);
        // A backslash at the end of a line continues it on the next.
        while (true) {
            while (!logical.empty() && logical.back() == '\r') logical.pop_back();
            if (logical.empty() || logical.back() != '\\' || pos >= text.size()) break;
            logical.pop_back();
            nl = text.find('\n', pos);
            logical.append(text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos));
            pos = nl == std::string_view::npos ? text.size() : nl + 1;
            ++lineno;
        }
        fn(logical, name + ":" + std::to_string(first));
    }
}

} // namespace detail

namespace {

using detail::read_value;
using detail::skip_space;
using detail::split_pairs;

std::string dir_of(const std::string &path) {
    std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

class Reader {
  public:
    Reader(ConfigBuilder &b, const ConfigParseOptions &opts) : b_(b), opts_(opts) {}

    void parse(std::string_view text, const std::string &name, const std::string &dir,
               std::size_t depth) {
        detail::for_each_line(text, name, [&](std::string_view logical, const std::string &loc) {
            line(logical, loc, dir, depth);
        });
    }

  private:
    void line(std::string_view text, const std::string &loc, const std::string &dir,
              std::size_t depth) {
        std::size_t i = 0;
        skip_space(text, i);
        // "Include PATH" (Slurm's form) and "Include=PATH".
        if (text.size() - i > 7 && detail::iequals(text.substr(i, 7), "include") &&
            is_space(text[i + 7])) {
            i += 7;
            skip_space(text, i);
            if (i < text.size() && text[i] == '=') {
                ++i;
                skip_space(text, i);
            }
            std::string path = read_value(text, i, loc);
            skip_space(text, i);
            if (i < text.size() && text[i] != '#')
                throw ParseError(loc + ": Include takes one path");
            include(path, loc, dir, depth);
            return;
        }
        std::vector<ConfPair> pairs = split_pairs(text, loc);
        if (pairs.empty()) return;
        if (pairs.size() == 1 && pairs[0].lkey == "include") {
            include(pairs[0].value, loc, dir, depth);
            return;
        }
        b_.add_line(loc, pairs);
    }

    void include(const std::string &pattern, const std::string &loc, const std::string &dir,
                 std::size_t depth) {
        if (!opts_.allow_include) throw ParseError(loc + ": Include is not allowed here");
        if (pattern.empty()) throw ParseError(loc + ": Include needs a path");
        if (depth + 1 > opts_.max_include_depth)
            throw ParseError(loc + ": Includes nested more than " +
                             std::to_string(opts_.max_include_depth) +
                             " deep (does a file include itself?)");
        std::string full = pattern[0] == '/' ? pattern : dir + "/" + pattern;
        std::vector<std::string> files;
        if (full.find_first_of("*?[") != std::string::npos) {
            glob_t g{};
            int rc = ::glob(full.c_str(), 0, nullptr, &g);
            if (rc == 0) {
                for (std::size_t k = 0; k < g.gl_pathc; ++k) files.emplace_back(g.gl_pathv[k]);
            }
            ::globfree(&g);
            if (rc != 0 && rc != GLOB_NOMATCH)
                throw ParseError(loc + ": cannot read Include '" + pattern + "'");
        } else {
            files.push_back(full);
        }
        for (const std::string &f : files) {
            std::string text, err;
            if (!detail::read_text_file(f, text, err))
                throw ParseError(loc + ": cannot read Include '" + f + "': " + err);
            parse(text, f, dir_of(f), depth + 1);
        }
    }

    ConfigBuilder &b_;
    const ConfigParseOptions &opts_;
};

} // namespace

Config parse_config(std::string_view text, const std::string &name, const std::string &dir,
                    const ConfigParseOptions &opts) {
    ConfigBuilder b(opts);
    Reader(b, opts).parse(text, name, dir, 0);
    return b.finish(name);
}

Config parse_config(std::string_view text, const std::string &name, const std::string &dir) {
    return parse_config(text, name, dir, ConfigParseOptions{});
}

Config load_config(const std::string &path, const ConfigParseOptions &opts) {
    std::string text, err;
    if (!detail::read_text_file(path, text, err)) throw ParseError(path + ": cannot read: " + err);
    Config conf = parse_config(text, path, dir_of(path), opts);
    load_cgroup_conf(dir_of(path), conf);
    return conf;
}

Config load_config(const std::string &path) {
    return load_config(path, ConfigParseOptions{});
}

std::string find_config_path(const std::optional<std::string> &cli_path) {
    if (cli_path && !cli_path->empty()) return *cli_path;
    for (const char *var : {"DROVER_CONF", "SLURM_CONF"}) {
        const char *v = std::getenv(var);
        if (v != nullptr && *v != '\0') return v;
    }
    return kDefaultConfigPath;
}

void Config::rebuild_node_index() const {
    node_index_.clear();
    node_index_.reserve(nodes.size());
    auto name_at = [this](uint32_t i) -> const std::string & { return nodes[i].name; };
    for (std::size_t i = 0; i < nodes.size(); ++i)
        node_index_.insert(nodes[i].name, uint32_t(i), name_at);
    node_index_size_ = nodes.size();
}

const NodeConf *Config::find_node(std::string_view name) const {
    if (node_index_size_ != nodes.size()) rebuild_node_index();
    uint32_t at =
        node_index_.find(name, [this](uint32_t i) -> const std::string & { return nodes[i].name; });
    if (at == NameIndex::npos) return nullptr;
    return &nodes[at];
}

const PartitionConf *Config::find_partition(std::string_view name) const {
    for (const PartitionConf &p : partitions)
        if (p.name == name) return &p;
    return nullptr;
}

const PartitionConf *Config::default_partition() const {
    for (const PartitionConf &p : partitions)
        if (p.is_default) return &p;
    return partitions.empty() ? nullptr : &partitions.front();
}

int64_t Config::cred_lifetime() const {
    constexpr int64_t kDefault = 120; // Slurm's
    auto v = auth_option("cred_expire");
    if (!v) return kDefault;
    try {
        long secs = std::stol(*v);
        return secs > 0 ? secs : kDefault;
    } catch (const std::exception &) {
        return kDefault;
    }
}

namespace {

// NAME's value in a comma-separated "key=value" list ("" for a key without "=value").
std::optional<std::string> list_option(std::string_view s, std::string_view name) {
    while (!s.empty()) {
        std::size_t comma = s.find(',');
        std::string_view item = s.substr(0, comma);
        s = comma == std::string_view::npos ? std::string_view{} : s.substr(comma + 1);
        while (!item.empty() && is_space(item.front())) item.remove_prefix(1);
        while (!item.empty() && is_space(item.back())) item.remove_suffix(1);
        std::size_t eq = item.find('=');
        std::string_view key = item.substr(0, eq);
        while (!key.empty() && is_space(key.back())) key.remove_suffix(1);
        if (!detail::iequals(key, name)) continue;
        if (eq == std::string_view::npos) return std::string();
        std::string_view v = item.substr(eq + 1);
        while (!v.empty() && is_space(v.front())) v.remove_prefix(1);
        return std::string(v);
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> Config::auth_option(std::string_view name) const {
    return list_option(auth_info, name);
}

std::optional<std::string> Config::auth_alt_option(std::string_view name) const {
    return list_option(auth_alt_parameters, name);
}

namespace {

// Whether the comma list names item (any case).
bool list_names(std::string_view list, std::string_view item) {
    for (std::string_view t = list; !t.empty();) {
        std::size_t comma = t.find(',');
        if (detail::iequals(t.substr(0, comma), item)) return true;
        t = comma == std::string_view::npos ? std::string_view{} : t.substr(comma + 1);
    }
    return false;
}

} // namespace

bool Config::jwt_enabled() const {
    return list_names(auth_alt_types, "auth/jwt");
}

bool Config::fed_display() const {
    return list_names(federation_parameters, "fed_display");
}

} // namespace drover
