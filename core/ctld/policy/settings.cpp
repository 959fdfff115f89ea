// settings.cpp - the settings table: parsing sacctmgr's values, storing and showing them.
#include "ctld/policy/settings.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "common/ascii.hpp"
#include "common/config_parse.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"
#include "ctld/policy/tres.hpp"

namespace drover::ctld::policy {

namespace {

enum class Kind {
    Count,
    Wall,
    Tres,
    TresMins,
    Int,
    QosList,
    QosName,
    Flags,
    Mode,
    Secs,  // a time as sacctmgr reads one ("M", "H:M:S", "D-H"), kept in seconds
    Grace, // GraceTime: plain seconds, as Slurm's sacctmgr reads it
    Float,
    Share
};

struct Def {
    const char *key;
    Kind kind;
    bool assoc, qos; // which records take it
    // What sacctmgr shows while it is unset, on an association and on a QOS.
    const char *unset_assoc = "", *unset_qos = "";
};

// In the order sacctmgr's columns show them.
constexpr Def kDefs[] = {
    {"fairshare", Kind::Share, true, false, "1"},
    {"priority", Kind::Int, true, true, "", "0"},
    {"gracetime", Kind::Grace, false, true, "", "00:00:00"},
    {"preempt", Kind::QosList, false, true},
    {"preemptexempttime", Kind::Secs, false, true},
    {"preemptmode", Kind::Mode, false, true, "", "cluster"},
    {"flags", Kind::Flags, false, true},
    {"usagethreshold", Kind::Float, false, true},
    {"usagefactor", Kind::Float, false, true, "", "1.000000"},
    {"grpjobs", Kind::Count, true, true},
    {"grpsubmitjobs", Kind::Count, true, true},
    {"grptres", Kind::Tres, true, true},
    {"grptresmins", Kind::TresMins, true, true},
    {"grptresrunmins", Kind::TresMins, true, true},
    {"grpwall", Kind::Wall, true, true},
    {"maxjobs", Kind::Count, true, false},
    {"maxsubmitjobs", Kind::Count, true, false},
    {"maxtres", Kind::Tres, true, true},
    {"maxtrespernode", Kind::Tres, true, true},
    {"maxtresmins", Kind::TresMins, true, true},
    {"maxwall", Kind::Wall, true, true},
    {"maxtresperuser", Kind::Tres, false, true},
    {"maxjobsperuser", Kind::Count, false, true},
    {"maxsubmitjobsperuser", Kind::Count, false, true},
    {"maxtresperaccount", Kind::Tres, false, true},
    {"maxjobsperaccount", Kind::Count, false, true},
    {"maxsubmitjobsperaccount", Kind::Count, false, true},
    {"mintres", Kind::Tres, false, true},
    {"qos", Kind::QosList, true, false},
    {"defaultqos", Kind::QosName, true, false},
};

// Slurm's QOS flags, spelled as sacctmgr shows them.
constexpr const char *kFlags[] = {
    "DenyOnLimit",         "EnforceUsageThreshold", "NoDecay",           "NoReserve",
    "OverPartQOS",         "PartitionMaxNodes",     "PartitionMinNodes", "PartitionTimeLimit",
    "RequiresReservation", "UsageFactorSafe",       "Relative"};

const Def *find(std::string_view key, Owner owner) {
    for (const auto &d : kDefs)
        if (key == d.key && (owner == Owner::Assoc ? d.assoc : d.qos)) return &d;
    return nullptr;
}

bool parse_u64(std::string_view v, uint64_t &n) {
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    return ec == std::errc() && p == v.data() + v.size() && !v.empty();
}

// HH:MM:SS, or D-HH:MM:SS from a day on, as sacctmgr shows durations.
std::string hms(uint64_t secs) {
    char buf[48];
    uint64_t d = secs / 86400, h = secs / 3600 % 24, m = secs / 60 % 60, s = secs % 60;
    if (d)
        std::snprintf(buf, sizeof buf, "%llu-%02llu:%02llu:%02llu", (unsigned long long)d,
                      (unsigned long long)h, (unsigned long long)m, (unsigned long long)s);
    else
        std::snprintf(buf, sizeof buf, "%02llu:%02llu:%02llu", (unsigned long long)h,
                      (unsigned long long)m, (unsigned long long)s);
    return buf;
}

// A list value: "a,b" replaces, "+a" adds, "-a" removes. canon maps an item to its stored
// spelling ("" refuses it).
std::string apply_list(const std::string &stored, std::string_view value,
                       const std::function<std::string(std::string_view)> &canon,
                       std::string &why) {
    char op = value.empty() ? 0 : value[0];
    if (op == '+' || op == '-') value.remove_prefix(1);
    std::vector<std::string> items = op ? list_items(stored) : std::vector<std::string>{};
    for (const auto &raw : list_items(value)) {
        std::string item = canon(raw);
        if (item.empty()) {
            why = raw;
            return {};
        }
        auto it = std::find(items.begin(), items.end(), item);
        if (op == '-') {
            if (it != items.end()) items.erase(it);
        } else if (it == items.end()) {
            items.push_back(item);
        }
    }
    std::sort(items.begin(), items.end());
    return detail::join_list(items);
}

std::string canon_flag(std::string_view f) {
    for (const char *k : kFlags)
        if (ascii_lower(k) == ascii_lower(f)) return k;
    return {};
}

std::string canon_mode(std::string_view v) {
    std::vector<std::string> out;
    for (const auto &m : list_items(ascii_lower(v))) {
        if (m != "off" && m != "cancel" && m != "requeue" && m != "suspend" && m != "gang" &&
            m != "within")
            return {};
        out.push_back(m);
    }
    return detail::join_list(out);
}

std::string parse_value(const Def &d, std::string_view v, const std::string &old,
                        const std::function<bool(std::string_view)> &qos_exists, std::string &why) {
    uint64_t n = 0;
    switch (d.kind) {
    case Kind::Count:
    case Kind::Int:
    case Kind::Grace:
        if (!parse_u64(v, n)) why = "Invalid value";
        return std::to_string(n);
    case Kind::Share:
        if (ascii_lower(v) == "parent") return "parent";
        if (!parse_u64(v, n)) why = "Invalid value";
        return std::to_string(n);
    case Kind::Wall:
    case Kind::Secs:
        try {
            uint32_t mins = parse_time_limit(v);
            if (mins == kInfinite) why = "Invalid value";
            return std::to_string(d.kind == Kind::Secs ? uint64_t(mins) * 60 : mins);
        } catch (const ParseError &) {
            why = "Invalid value";
            return {};
        }
    case Kind::Float: {
        double f = 0;
        if (std::sscanf(std::string(v).c_str(), "%lf", &f) != 1 || f < 0) why = "Invalid value";
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", f);
        return buf;
    }
    case Kind::Tres:
    case Kind::TresMins: {
        Tres t = parse_stored_tres(old);
        if (std::string e = apply_tres(t, v, d.kind == Kind::TresMins); !e.empty()) why = e;
        return tres_text(t);
    }
    case Kind::QosName:
        if (!qos_exists(ascii_lower(v))) why = "Invalid QOS name '" + std::string(v) + "'";
        return ascii_lower(v);
    case Kind::QosList: {
        std::string bad, out = apply_list(
                             old, v,
                             [&](std::string_view q) {
                                 return qos_exists(ascii_lower(q)) ? ascii_lower(q) : std::string();
                             },
                             bad);
        if (!bad.empty()) why = "Invalid QOS name '" + bad + "'";
        return out;
    }
    case Kind::Flags: {
        std::string bad, out = apply_list(old, v, canon_flag, bad);
        if (!bad.empty()) why = "Invalid QOS flag '" + bad + "'";
        return out;
    }
    case Kind::Mode: {
        std::string out = canon_mode(v);
        if (out.empty()) why = "Invalid PreemptMode '" + std::string(v) + "'";
        return out;
    }
    }
    return {};
}

} // namespace

std::vector<std::string> list_items(std::string_view stored) {
    std::vector<std::string> out;
    std::string cur;
    for (std::size_t i = 0; i <= stored.size(); ++i) {
        if (i == stored.size() || stored[i] == ',') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else if (stored[i] != ' ' && stored[i] != '\'' && stored[i] != '"') {
            cur.push_back(stored[i]);
        }
    }
    return out;
}

std::string encode(const Settings &s) {
    std::string out;
    for (const auto &[k, v] : s) {
        if (!out.empty()) out += ';';
        out += k + '=' + v;
    }
    return out;
}

Settings decode(std::string_view attrs) {
    Settings out;
    std::size_t pos = 0;
    while (pos < attrs.size()) {
        std::size_t end = attrs.find(';', pos);
        if (end == std::string_view::npos) end = attrs.size();
        std::string_view item = attrs.substr(pos, end - pos);
        if (auto eq = item.find('='); eq != std::string_view::npos)
            out.emplace(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
        pos = end + 1;
    }
    return out;
}

bool is_setting(std::string_view key, Owner owner) {
    return find(key, owner) != nullptr;
}

std::string apply_setting(Settings &s, std::string_view key, std::string_view value, Owner owner,
                          const std::function<bool(std::string_view)> &qos_exists) {
    const Def *d = find(key, owner);
    if (!d) return " Unknown option: " + std::string(key) + "=" + std::string(value);
    if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') &&
        value.back() == value.front())
        value = value.substr(1, value.size() - 2);
    if (value.find(';') != std::string_view::npos)
        return " Invalid value for " + std::string(key) + ": " + std::string(value);
    bool list = d->kind == Kind::QosList || d->kind == Kind::Flags;
    if (value == "-1" || (value.empty() && !list)) {
        s.erase(std::string(key));
        return {};
    }
    auto it = s.find(key);
    std::string why;
    std::string v =
        parse_value(*d, value, it == s.end() ? std::string() : it->second, qos_exists, why);
    if (!why.empty()) return " " + why + " for " + std::string(key) + ": " + std::string(value);
    if (v.empty() && d->kind != Kind::QosList)
        s.erase(std::string(key));
    else
        s[std::string(key)] = v;
    return {};
}

std::string display(const Settings &s, std::string_view key, Owner owner) {
    const Def *d = find(key, owner);
    if (!d) return {};
    auto it = s.find(key);
    if (it == s.end()) return owner == Owner::Assoc ? d->unset_assoc : d->unset_qos;
    const std::string &v = it->second;
    uint64_t n = 0;
    switch (d->kind) {
    case Kind::Wall:
        return parse_u64(v, n) ? hms(n * 60) : v;
    case Kind::Secs:
    case Kind::Grace:
        return parse_u64(v, n) ? hms(n) : v;
    case Kind::Tres:
        return tres_display(parse_stored_tres(v));
    case Kind::Mode: {
        std::string up = v;
        for (char &c : up) c = char(std::toupper(static_cast<unsigned char>(c)));
        return up;
    }
    case Kind::Float: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%f", std::atof(v.c_str()));
        return buf;
    }
    default:
        return v;
    }
}

std::vector<std::string_view> setting_keys(Owner owner) {
    std::vector<std::string_view> out;
    for (const auto &d : kDefs)
        if (owner == Owner::Assoc ? d.assoc : d.qos) out.push_back(d.key);
    return out;
}

} // namespace drover::ctld::policy
