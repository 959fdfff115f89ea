// resv_spec.cpp - scontrol's reservation keys read into a ResvSpec.
#include "ctld/resv/resv_spec.hpp"

#include <charconv>
#include <functional>

#include "common/ascii.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"

namespace drover::ctld {

namespace {

enum class Op { Set, Add, Remove };

uint32_t count_of(const std::string &key, const std::string &v) {
    uint32_t n = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || p != v.data() + v.size() || n == 0)
        throw ParseError("Invalid " + key + " '" + v + "': expected a count above 0");
    return n;
}

int64_t time_of(const std::string &key, const std::string &v, int64_t now) {
    try {
        return parse_timestamp(v, now);
    } catch (const ParseError &e) {
        throw ParseError("Invalid " + key + " '" + v + "': " + e.what());
    }
}

// TRES=node=N (the only TRES a reservation of whole nodes takes).
uint32_t tres_nodes(const std::string &v) {
    std::string lower = ascii_lower(v);
    if (lower.rfind("node=", 0) != 0 || lower.find(',') != std::string::npos)
        throw ParseError("Invalid TRES '" + v + "': Drover reserves whole nodes (TRES=node=N)");
    return count_of("TRES", v.substr(5));
}

using Setter =
    std::function<void(ResvSpec &, Op, const std::string &key, const std::string &v, int64_t now)>;

void set_list(std::optional<NameList> &whole, NameList &add, NameList &remove, Op op,
              const std::string &v) {
    NameList l = NameList::parse(v);
    (op == Op::Set ? whole.emplace() : op == Op::Add ? add : remove) = l;
}

struct Key {
    const char *name;
    bool list; // takes += and -=
    Setter set;
};

const Key kKeys[] = {
    {"reservationname", false, [](ResvSpec &s, Op, auto &, auto &v, int64_t) { s.name = v; }},
    {"starttime", false,
     [](ResvSpec &s, Op, auto &k, auto &v, int64_t now) { s.start = time_of(k, v, now); }},
    {"endtime", false,
     [](ResvSpec &s, Op, auto &k, auto &v, int64_t now) { s.end = time_of(k, v, now); }},
    {"duration", false,
     [](ResvSpec &s, Op, auto &k, auto &v, int64_t) {
         try {
             s.duration_min = parse_time_limit(v);
         } catch (const ParseError &e) {
             throw ParseError("Invalid " + k + " '" + v + "': " + e.what());
         }
     }},
    {"nodes", false, [](ResvSpec &s, Op, auto &, auto &v, int64_t) { s.nodes = v; }},
    {"nodecnt", false,
     [](ResvSpec &s, Op, auto &k, auto &v, int64_t) { s.node_cnt = count_of(k, v); }},
    {"tres", false, [](ResvSpec &s, Op, auto &, auto &v, int64_t) { s.node_cnt = tres_nodes(v); }},
    {"partitionname", false, [](ResvSpec &s, Op, auto &, auto &v, int64_t) { s.partition = v; }},
    {"features", false, [](ResvSpec &s, Op, auto &, auto &v, int64_t) { s.features = v; }},
    {"licenses", false, [](ResvSpec &s, Op, auto &, auto &v, int64_t) { s.licenses = v; }},
    {"flags", true,
     [](ResvSpec &s, Op op, auto &, auto &v, int64_t) {
         const uint64_t bits = parse_resv_flags(v);
         if (op == Op::Set) s.flags = bits;
         (op == Op::Remove ? s.flags_remove : s.flags_add) |= op == Op::Set ? 0 : bits;
     }},
    {"users", true,
     [](ResvSpec &s, Op op, auto &, auto &v, int64_t) {
         set_list(s.users, s.users_add, s.users_remove, op, v);
     }},
    {"accounts", true,
     [](ResvSpec &s, Op op, auto &, auto &v, int64_t) {
         set_list(s.accounts, s.accounts_add, s.accounts_remove, op, v);
     }},
    {"maxstartdelay", false,
     [](ResvSpec &s, Op, auto &k, auto &v, int64_t) {
         try {
             s.max_start_delay_s = uint32_t(parse_duration_secs(v));
         } catch (const ParseError &e) {
             throw ParseError("Invalid " + k + " '" + v + "': " + e.what());
         }
     }},
};

// Other names Slurm takes for the same keys.
const std::pair<const char *, const char *> kAliases[] = {
    {"reservation", "reservationname"},
    {"resv", "reservationname"},
    {"name", "reservationname"},
    {"nodecount", "nodecnt"},
    {"partition", "partitionname"},
    {"user", "users"},
    {"account", "accounts"},
    {"flag", "flags"},
    {"nodelist", "nodes"},
    {"feature", "features"},
};

// Keys Slurm has that Drover does not act on: refused, never dropped.
const char *const kUnsupported[] = {"corecnt",           "groups", "burstbuffer", "watts", "qos",
                                    "allowedpartitions", "skip",   "comment"};

const Key &find_key(const std::string &key) {
    std::string k = ascii_lower(key);
    for (const auto &[alias, name] : kAliases)
        if (k == alias) k = name;
    for (const Key &x : kKeys)
        if (k == x.name) return x;
    for (const char *u : kUnsupported)
        if (k == u) throw ParseError(key + "= is not supported by Drover yet");
    throw ParseError("Unknown reservation parameter '" + key + "'");
}

} // namespace

ResvSpec parse_resv_spec(const std::vector<std::pair<std::string, std::string>> &fields,
                         int64_t now) {
    ResvSpec s;
    for (const auto &[raw, value] : fields) {
        std::string key = raw;
        Op op = Op::Set;
        if (!key.empty() && (key.back() == '+' || key.back() == '-')) {
            op = key.back() == '+' ? Op::Add : Op::Remove;
            key.pop_back();
        }
        const Key &k = find_key(key);
        if (op != Op::Set && !k.list) throw ParseError(key + " takes = only (not += or -=)");
        if (value.empty() && k.set && std::string(k.name) != "users" &&
            std::string(k.name) != "accounts")
            throw ParseError("Missing value for " + key);
        k.set(s, op, key, value, now);
    }
    return s;
}

} // namespace drover::ctld
