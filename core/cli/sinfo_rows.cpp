// sinfo_rows.cpp - grouping nodes into sinfo lines, column values, '#' widths.
#include "cli/sinfo_rows.hpp"

#include <drover/views.h>

#include <algorithm>
#include <unordered_map>

#include "cli/text.hpp"
#include "cli/users.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "common/timefmt.hpp"
#include "proto/fb_read.hpp"

namespace drover::cli {

namespace {

struct Col {
    char letter;
    const char *name; // -O name
    const char *header;
};

// '+', '@' and '^' are internal: the -O StateComplete, AllocMem and Port columns (no -o letter).
constexpr std::string_view kLongOnly = "+@^";
constexpr Col kCols[] = {
    {'a', "Available", "AVAIL"},
    {'A', "NodeAI", "NODES(A/I)"},
    {'b', "features_act", "ACTIVE_FEATURES"},
    {'B', "MaxCPUsPerNode", "MAX_CPUS_PER_NODE"},
    {'c', "CPUs", "CPUS"},
    {'C', "CPUsState", "CPUS(A/I/O/T)"},
    {'d', "Disk", "TMP_DISK"},
    {'D', "Nodes", "NODES"},
    {'e', "FreeMem", "FREE_MEM"},
    {'E', "Reason", "REASON"},
    {'f', "Features", "AVAIL_FEATURES"},
    {'F', "NodeAIOT", "NODES(A/I/O/T)"},
    {'g', "Groups", "GROUPS"},
    {'G', "Gres", "GRES"},
    {'h', "OverSubscribe", "OVERSUBSCRIBE"},
    {'H', "TimeStamp", "TIMESTAMP"},
    {'i', "Reservation", "RESERVATION"},
    {'I', "PriorityJobFactor", "PRIO_JOB_FACTOR"},
    {'l', "Time", "TIMELIMIT"},
    {'L', "DefaultTime", "DEFAULTTIME"},
    {'m', "Memory", "MEMORY"},
    {'M', "PreemptMode", "PREEMPT_MODE"},
    {'n', "NodeHost", "HOSTNAMES"},
    {'N', "NodeList", "NODELIST"},
    {'o', "NodeAddr", "NODE_ADDR"},
    {'O', "CPUsLoad", "CPU_LOAD"},
    {'p', "PriorityTier", "PRIO_TIER"},
    {'P', "Partition", "PARTITION"},
    {'r', "Root", "ROOT"},
    {'R', "PartitionName", "PARTITION"},
    {'s', "Size", "JOB_SIZE"},
    {'S', "AllocNodes", "ALLOCNODES"},
    {'t', "StateCompact", "STATE"},
    {'T', "StateLong", "STATE"},
    {'u', "User", "USER"},
    {'U', "UserLong", "USER"},
    {'v', "Version", "VERSION"},
    {'V', "Cluster", "CLUSTER"},
    {'w', "Weight", "WEIGHT"},
    {'X', "Sockets", "SOCKETS"},
    {'Y', "Cores", "CORES"},
    {'Z', "Threads", "THREADS"},
    {'z', "SocketCoreThread", "S:C:T"},
    {'+', "StateComplete", "STATECOMPLETE"},
    {'@', "AllocMem", "ALLOCMEM"},
    {'^', "Port", "PORT"},
    {'p', "Priority", "PRIO_TIER"},
};

// Columns that are the same for every node of a line only because the line is cut that way.
constexpr std::string_view kPerNode = "tTcmdwfbzXYZEuUHOevGi+@^";

const Col *col(char c) {
    for (const auto &x : kCols)
        if (x.letter == c) return &x;
    return nullptr;
}

using proto::sv;

bool has(uint32_t flags, uint32_t f) {
    return (flags & f) != 0;
}

std::string time_or(uint32_t minutes) {
    if (minutes == kInfinite) return "infinite";
    if (minutes == kNoVal) return "n/a";
    return format_elapsed(int64_t(minutes) * 60);
}

// allocated / idle / other counting, as sinfo's A/I/O/T columns do.
enum class Use { alloc, idle, other };
Use use_of(const proto::NodeInfo &n) {
    if (node_is_unavailable(n.state(), n.flags())) return Use::other;
    if (n.state() == DROVER_NODE_ALLOCATED || n.state() == DROVER_NODE_MIXED) return Use::alloc;
    if (n.state() == DROVER_NODE_IDLE) return Use::idle;
    return Use::other;
}

std::string node_value(char c, const proto::NodeInfo &n) {
    switch (c) {
    case 't':
        return to_lower(node_state_compact(n.state(), n.flags()));
    case 'T':
        return to_lower(node_state_long(n.state(), n.flags()));
    case '+':
        return to_lower(node_state_complete(n.state(), n.flags()));
    case 'c':
        return str_u(n.cpus());
    case 'm':
        return str_u(n.real_memory_mb());
    case '@':
        return str_u(n.alloc_memory_mb());
    case '^':
        return str_u(n.port());
    case 'd':
        return str_u(n.tmp_disk_mb());
    case 'w':
        return str_u(n.weight());
    case 'f':
        return or_null(sv(n.features()));
    case 'b': // active features (node_features/helpers), else all of them
        return or_null(sv(n.active_features() ? n.active_features() : n.features()));
    case 'z':
        return str_u(n.sockets()) + ":" + str_u(n.cores_per_socket()) + ":" +
               str_u(n.threads_per_core());
    case 'X':
        return str_u(n.sockets());
    case 'Y':
        return str_u(n.cores_per_socket());
    case 'Z':
        return str_u(n.threads_per_core());
    case 'E':
        return sv(n.reason()).empty() ? "none" : std::string(sv(n.reason()));
    case 'u':
        if (sv(n.reason()).empty() || n.reason_uid() == kNoVal) return "Unknown";
        return user_name(n.reason_uid());
    case 'U':
        if (sv(n.reason()).empty() || n.reason_uid() == kNoVal) return "Unknown";
        return user_name(n.reason_uid()) + "(" + str_u(n.reason_uid()) + ")";
    case 'H':
        return n.reason_time() && !sv(n.reason()).empty() ? format_timestamp(n.reason_time())
                                                          : "Unknown";
    case 'O':
    case 'e': // the node's load and free memory: Drover has neither (Slurm's unknown)
        return "N/A";
    case 'v':
        return sv(n.version()).empty() ? "N/A" : std::string(sv(n.version()));
    case 'G':
        return sv(n.gres()).empty() ? "(null)" : std::string(sv(n.gres()));
    case 'i':
        return "";
    }
    return "";
}

std::string part_value(char c, const proto::PartitionInfo *p, int width) {
    if (!p) return c == 'V' ? "" : "n/a";
    switch (c) {
    case 'P': {
        std::string name(sv(p->name()));
        if (p->is_default()) {
            if (width <= 0 || name.size() < std::size_t(width))
                name += "*";
            else
                name[std::size_t(width) - 1] = '*';
        }
        return name;
    }
    case 'R':
        return std::string(sv(p->name()));
    case 'a': {
        std::string s = to_lower(sv(p->state()));
        if (s.empty()) return "up";
        if (s == "inactive") return "inact";
        return s;
    }
    case 'l':
        return time_or(p->max_time_min());
    case 'L':
        return time_or(p->default_time_min());
    case 's': {
        uint32_t lo = p->min_nodes(), hi = p->max_nodes();
        if (lo < 1 && hi > 0) lo = 1;
        if (lo == hi) return str_u(hi);
        return str_u(lo) + "-" + (hi == kInfinite ? std::string("infinite") : str_u(hi));
    }
    case 'r':
        return "no";
    case 'h':
        return sv(p->oversubscribe()).empty() ? "NO" : to_upper(sv(p->oversubscribe()));
    case 'g':
        if (sv(p->allow_groups()).empty() || iequals(sv(p->allow_groups()), "ALL")) return "all";
        return std::string(sv(p->allow_groups()));
    case 'p':
        return str_u(p->priority_tier());
    case 'I':
        return "1";
    case 'S':
        return "all";
    case 'B':
        return "UNLIMITED";
    case 'M':
        return "OFF";
    }
    return "";
}

FieldValue value(const FieldSpec &f, const SinfoRow &row, int width) {
    char c = f.type;
    if (c == 'V') return {row.cluster};
    if (kPerNode.find(c) != std::string_view::npos) {
        if (row.nodes.empty()) return {c == 't' || c == 'T' ? "n/a" : ""};
        return {node_value(c, *row.nodes.front())};
    }
    std::vector<std::string> names;
    switch (c) {
    case 'D':
        return {str_u(row.nodes.size())};
    case 'N':
    case 'n':
    case 'o':
        for (const auto *n : row.nodes)
            names.emplace_back(c == 'o' && !sv(n->addr()).empty() ? sv(n->addr()) : sv(n->name()));
        return {hostlist_compress(names)};
    case 'A':
    case 'F': {
        uint64_t a = 0, i = 0, o = 0;
        for (const auto *n : row.nodes) {
            Use u = use_of(*n);
            (u == Use::alloc ? a : u == Use::idle ? i : o) += 1;
        }
        if (c == 'A') return {str_u(a) + "/" + str_u(i)};
        return {str_u(a) + "/" + str_u(i) + "/" + str_u(o) + "/" + str_u(row.nodes.size())};
    }
    case 'C': {
        uint64_t a = 0, i = 0, o = 0, t = 0;
        for (const auto *n : row.nodes) {
            uint64_t alloc = std::min(n->alloc_cpus(), n->cpus());
            a += alloc;
            t += n->cpus();
            if (use_of(*n) == Use::other)
                o += n->cpus() - alloc;
            else
                i += n->cpus() - alloc;
        }
        return {str_u(a) + "/" + str_u(i) + "/" + str_u(o) + "/" + str_u(t)};
    }
    }
    return {part_value(c, row.part, width)};
}

// Natural order for node names: "n2" before "n10".
bool name_less(std::string_view a, std::string_view b) {
    std::size_t i = 0, j = 0;
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t i2 = i, j2 = j;
            while (i2 < a.size() && digit(a[i2])) ++i2;
            while (j2 < b.size() && digit(b[j2])) ++j2;
            std::string_view na = a.substr(i, i2 - i), nb = b.substr(j, j2 - j);
            while (na.size() > 1 && na[0] == '0') na.remove_prefix(1);
            while (nb.size() > 1 && nb[0] == '0') nb.remove_prefix(1);
            if (na.size() != nb.size()) return na.size() < nb.size();
            if (na != nb) return na < nb;
            i = i2;
            j = j2;
            continue;
        }
        if (a[i] != b[j]) return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

std::string group_key(const FormatSpec &spec, const proto::NodeInfo &n) {
    std::string key;
    for (const auto &f : spec.fields) {
        if (kPerNode.find(f.type) == std::string_view::npos) continue;
        key += node_value(f.type, n);
        key.push_back('\x1f');
    }
    return key;
}

// Nodes grouped in order of first appearance by their per-node columns.
std::vector<SinfoRow> group(const FormatSpec &spec, const proto::PartitionInfo *part,
                            const std::vector<const proto::NodeInfo *> &nodes) {
    std::vector<SinfoRow> rows;
    std::unordered_map<std::string, std::size_t> index;
    for (const auto *n : nodes) {
        std::string key = group_key(spec, *n);
        auto it = index.find(key);
        if (it == index.end()) {
            index.emplace(key, rows.size());
            rows.push_back({part, {n}});
        } else {
            rows[it->second].nodes.push_back(n);
        }
    }
    return rows;
}

} // namespace

bool SinfoFilter::keep(const proto::NodeInfo &n) const {
    std::string_view name = sv(n.name());
    if (!nodes.empty() && std::find(nodes.begin(), nodes.end(), name) == nodes.end()) return false;
    if (dead && !has(n.flags(), DROVER_NODE_FLAG_NOT_RESPONDING)) return false;
    if (responding && has(n.flags(), DROVER_NODE_FLAG_NOT_RESPONDING)) return false;
    if (states.empty()) return future || n.state() != DROVER_NODE_FUTURE;
    for (const auto &s : states)
        if (s.matches(n.state(), n.flags())) return true;
    return false;
}

FormatSpec sinfo_percent_format(std::string_view fmt) {
    FormatSpec spec = parse_percent_format(fmt);
    for (const auto &f : spec.fields)
        if (!col(f.type) || kLongOnly.find(f.type) != std::string_view::npos)
            throw ParseError(std::string("Invalid node format specification: ") + f.type);
    return spec;
}

FormatSpec sinfo_long_format(std::string_view fmt) {
    FormatSpec spec = parse_long_format(fmt, 20);
    for (auto &f : spec.fields) {
        const Col *found = nullptr;
        for (const auto &c : kCols)
            if (iequals(f.name, c.name)) found = &c;
        if (!found) throw ParseError("Invalid node format specification: " + f.name);
        f.type = found->letter;
    }
    return spec;
}

std::vector<SinfoRow> sinfo_rows(const FormatSpec &spec, SinfoView view,
                                 const std::vector<const proto::PartitionInfo *> &parts,
                                 const std::vector<const proto::NodeInfo *> &nodes,
                                 const SinfoFilter &filter) {
    std::unordered_map<std::string_view, const proto::NodeInfo *> by_name;
    for (const auto *n : nodes) by_name.emplace(sv(n->name()), n);

    auto wanted_part = [&](const proto::PartitionInfo *p) {
        return filter.partitions.empty() ||
               std::find(filter.partitions.begin(), filter.partitions.end(), sv(p->name())) !=
                   filter.partitions.end();
    };
    // Members of each partition, in the partition's own order.
    std::vector<std::vector<const proto::NodeInfo *>> members(parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
        std::vector<std::string> names;
        try {
            names = hostlist_expand(sv(parts[i]->nodes()));
        } catch (const ParseError &) {}
        for (const auto &nm : names)
            if (auto it = by_name.find(nm); it != by_name.end()) members[i].push_back(it->second);
    }

    std::vector<SinfoRow> rows;
    if (view == SinfoView::partitions) {
        for (std::size_t i = 0; i < parts.size(); ++i) {
            if (!wanted_part(parts[i])) continue;
            std::vector<const proto::NodeInfo *> kept;
            for (const auto *n : members[i])
                if (filter.keep(*n)) kept.push_back(n);
            if (kept.empty()) {
                // A partition without nodes still shows, unless a filter removed them.
                bool filtered = !filter.nodes.empty() || !filter.states.empty() || filter.dead ||
                                filter.responding;
                if (members[i].empty() && !filtered) rows.push_back({parts[i], {}});
                continue;
            }
            auto g = group(spec, parts[i], kept);
            std::stable_sort(g.begin(), g.end(), [](const SinfoRow &a, const SinfoRow &b) {
                const auto &x = *a.nodes.front();
                const auto &y = *b.nodes.front();
                return node_state_rank(x.state(), x.flags()) >
                       node_state_rank(y.state(), y.flags());
            });
            rows.insert(rows.end(), g.begin(), g.end());
        }
        return rows;
    }

    std::vector<const proto::NodeInfo *> sorted;
    for (const auto *n : nodes)
        if (filter.keep(*n)) sorted.push_back(n);
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto *a, const auto *b) {
        return name_less(sv(a->name()), sv(b->name()));
    });

    if (view == SinfoView::reasons) {
        std::vector<const proto::NodeInfo *> down;
        for (const auto *n : sorted) {
            bool in_part = filter.partitions.empty();
            for (std::size_t i = 0; i < parts.size() && !in_part; ++i)
                if (wanted_part(parts[i]) &&
                    std::find(members[i].begin(), members[i].end(), n) != members[i].end())
                    in_part = true;
            if (in_part && node_is_unavailable(n->state(), n->flags())) down.push_back(n);
        }
        return group(spec, nullptr, down);
    }

    for (const auto *n : sorted) {
        bool any = false;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            if (std::find(members[i].begin(), members[i].end(), n) == members[i].end()) continue;
            any = true;
            if (wanted_part(parts[i])) rows.push_back({parts[i], {n}});
        }
        if (!any && filter.partitions.empty()) rows.push_back({nullptr, {n}});
    }
    return rows;
}

std::string sinfo_render(const FormatSpec &spec, const std::vector<SinfoRow> &rows, bool header) {
    // Resolve '#' widths from the values first (P needs the width to place its '*').
    FormatSpec resolved = spec;
    for (auto &f : resolved.fields) {
        if (!f.hash) continue;
        std::size_t w = std::string_view(col(f.type)->header).size();
        if (f.type == 'N' || f.type == 'P') w = std::max<std::size_t>(w, 9);
        for (const auto &r : rows) w = std::max(w, value(f, r, 0).text.size());
        f.width = static_cast<int>(w);
        f.hash = false;
    }
    std::string out;
    if (header) {
        out += render_line(resolved, [](const FieldSpec &f) {
            return FieldValue{col(f.type)->header, f.type != 'N'};
        });
        out.push_back('\n');
    }
    for (const auto &r : rows) {
        out += render_line(resolved, [&](const FieldSpec &f) { return value(f, r, f.width); });
        out.push_back('\n');
    }
    return out;
}

} // namespace drover::cli
