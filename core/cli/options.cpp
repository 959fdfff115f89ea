// options.cpp - getopt_long-style parsing: clustered short options, abbreviated long options.
#include "cli/options.hpp"

#include <cstring>

#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"

namespace drover::cli {

namespace {

const OptSpec *find_short(std::span<const OptSpec> specs, char c) {
    for (const auto &s : specs)
        if (s.short_name == c) return &s;
    return nullptr;
}

const OptSpec *find_long(std::span<const OptSpec> specs, std::string_view name,
                         const std::string &arg_text) {
    const OptSpec *prefix_match = nullptr;
    std::vector<const OptSpec *> candidates;
    for (const auto &s : specs) {
        if (!s.long_name) continue;
        std::string_view ln = s.long_name;
        if (ln == name) return &s;
        if (ln.starts_with(name)) {
            // Two names for the same option are not an ambiguity.
            bool dup = false;
            for (auto *c : candidates)
                if (c->id == s.id) dup = true;
            if (!dup) candidates.push_back(&s);
            prefix_match = &s;
        }
    }
    if (candidates.size() == 1) return prefix_match;
    if (candidates.empty()) throw UsageError("unrecognized option '" + arg_text + "'");
    std::string msg = "option '--" + std::string(name) + "' is ambiguous; possibilities:";
    for (auto *c : candidates) msg += std::string(" '--") + c->long_name + "'";
    throw UsageError(msg);
}

} // namespace

bool take_common(CommonFlags &f, const ParsedOpt &o) {
    switch (o.id) {
    case kOptHelp:
        f.help = true;
        return true;
    case kOptUsage:
        f.usage = true;
        return true;
    case kOptVersion:
        f.version = true;
        return true;
    case kOptVerbose:
        ++f.verbose;
        return true;
    case kOptClusters:
        f.on_clusters = o.value;
        return true;
    default:
        return false;
    }
}

ParsedArgs parse_options(std::span<const std::string> args, std::span<const OptSpec> specs,
                         bool stop_at_positional) {
    ParsedArgs out;
    std::size_t i = 0;
    for (; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (a == "--") {
            ++i;
            break;
        }
        if (a.size() < 2 || a[0] != '-') {
            if (stop_at_positional) break;
            out.positionals.push_back(a);
            continue;
        }
        if (a[1] == '-') {
            std::string_view body = std::string_view(a).substr(2);
            std::size_t eq = body.find('=');
            std::string_view name = body.substr(0, eq);
            const OptSpec *s = find_long(specs, name, a);
            std::string full = std::string("--") + s->long_name;
            ParsedOpt p{s->id, std::nullopt, full};
            if (eq != std::string_view::npos) {
                if (s->arg == Arg::none)
                    throw UsageError("option '" + full + "' doesn't allow an argument");
                p.value = std::string(body.substr(eq + 1));
            } else if (s->arg == Arg::required) {
                if (i + 1 >= args.size())
                    throw UsageError("option '" + full + "' requires an argument");
                p.value = args[++i];
            }
            out.opts.push_back(std::move(p));
            continue;
        }
        // A cluster of short options: "-hv", "-Jname", "-J name".
        for (std::size_t k = 1; k < a.size(); ++k) {
            char c = a[k];
            const OptSpec *s = find_short(specs, c);
            if (!s) throw UsageError(std::string("invalid option -- '") + c + "'");
            ParsedOpt p{s->id, std::nullopt, std::string("-") + c};
            if (s->arg != Arg::none) {
                if (k + 1 < a.size()) {
                    p.value = a.substr(k + 1);
                } else if (s->arg == Arg::required) {
                    if (i + 1 >= args.size())
                        throw UsageError(std::string("option requires an argument -- '") + c + "'");
                    p.value = args[++i];
                }
                out.opts.push_back(std::move(p));
                break;
            }
            out.opts.push_back(std::move(p));
        }
    }
    for (; i < args.size(); ++i) out.positionals.push_back(args[i]);
    return out;
}

void print_usage_error(std::string_view prog, const UsageError &err) {
    std::string msg;
    msg.append(prog).append(": ").append(err.what()).append("\n");
    msg.append("Try \"").append(prog).append(" --help\" for more information\n");
    write_err(msg);
}

std::string quoted(std::string_view v) {
    return "'" + std::string(v) + "'";
}

uint32_t positive(std::string_view v, const char *what) {
    auto n = parse_u32(trim(v));
    if (!n || *n == 0) throw ParseError(std::string("invalid ") + what + " " + quoted(v));
    return *n;
}

uint64_t size_mb(std::string_view v, const char *what) {
    try {
        return parse_size_mb(trim(v));
    } catch (const ParseError &) {
        throw ParseError(std::string("invalid ") + what + " " + quoted(v));
    }
}

std::pair<uint32_t, uint32_t> node_count(std::string_view v) {
    std::string_view s = trim(v);
    std::size_t dash = s.find('-');
    auto lo = parse_u32(s.substr(0, dash));
    std::optional<uint32_t> hi = lo;
    if (dash != std::string_view::npos) hi = parse_u32(s.substr(dash + 1));
    if (!lo || !hi || *lo == 0 || *hi < *lo) throw ParseError("invalid node count " + quoted(v));
    return {*lo, *hi};
}

} // namespace drover::cli
