// rlimits.cpp - resource limits and umask carried from the submitting shell to the tasks.
#include "common/rlimits.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <sys/resource.h>
#include <sys/stat.h>

#include "common/config.hpp"
#include "common/config_parse.hpp"
#include "common/env_list.hpp"
#include "common/error.hpp"

namespace drover {

const std::vector<RlimitName> &rlimit_names() {
    static const std::vector<RlimitName> kNames = {
        {"CPU", RLIMIT_CPU},     {"FSIZE", RLIMIT_FSIZE},   {"DATA", RLIMIT_DATA},
        {"STACK", RLIMIT_STACK}, {"CORE", RLIMIT_CORE},     {"RSS", RLIMIT_RSS},
        {"NPROC", RLIMIT_NPROC}, {"NOFILE", RLIMIT_NOFILE}, {"MEMLOCK", RLIMIT_MEMLOCK},
        {"AS", RLIMIT_AS},
    };
    return kNames;
}

std::vector<std::string> parse_rlimit_list(std::string_view list) {
    std::vector<std::string> out;
    for (const std::string &item : detail::split_list(list)) {
        std::string name = detail::to_upper(item);
        if (name == "ALL") {
            out.clear();
            for (const auto &n : rlimit_names()) out.emplace_back(n.name);
            continue;
        }
        if (name == "NONE") {
            out.clear();
            continue;
        }
        bool known = std::any_of(rlimit_names().begin(), rlimit_names().end(),
                                 [&](const RlimitName &n) { return name == n.name; });
        if (!known) throw ParseError("invalid resource limit name '" + item + "'");
        if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
    return out;
}

std::string check_propagate(std::string_view value) {
    try {
        (void)parse_rlimit_list(value);
    } catch (const ParseError &) {
        throw ParseError("--propagate=" + std::string(value) + " is not valid.");
    }
    return std::string(value);
}

PropagatedLimits propagated_limits(const std::optional<std::string> &option,
                                   const std::string &conf_list, const std::string &conf_except) {
    if (option) return {parse_rlimit_list(option->empty() ? "ALL" : *option), true};
    PropagatedLimits out{parse_rlimit_list(conf_list.empty() ? "ALL" : conf_list), false};
    for (const std::string &skip : parse_rlimit_list(conf_except)) std::erase(out.names, skip);
    return out;
}

PropagatedLimits propagated_limits(const std::optional<std::string> &option, const Config &conf) {
    auto raw = [&conf](const char *key) {
        auto it = conf.raw.find(key);
        return it == conf.raw.end() ? std::string() : it->second;
    };
    return propagated_limits(option, raw("propagateresourcelimits"),
                             raw("propagateresourcelimitsexcept"));
}

void put_limit_variables(std::vector<std::pair<std::string, std::string>> &env,
                         const PropagatedLimits &limits) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto &n : rlimit_names()) {
        if (std::find(limits.names.begin(), limits.names.end(), n.name) == limits.names.end())
            continue;
        rlimit rl{};
        if (::getrlimit(n.resource, &rl) != 0) continue;
        out.emplace_back(std::string("SLURM_RLIMIT_") + n.name,
                         (limits.user ? "U" : "") + std::to_string(uint64_t(rl.rlim_cur)));
    }
    mode_t mask = ::umask(0);
    ::umask(mask);
    char text[8];
    std::snprintf(text, sizeof text, "%04o", unsigned(mask));
    out.emplace_back("SLURM_UMASK", text);
    for (auto &kv : out) {
        std::erase_if(env, [&kv](const auto &e) { return e.first == kv.first; });
        env.push_back(std::move(kv));
    }
}

namespace {

// Sets one soft limit from its variable's text; a line to report when the user asked for more
// than the hard limit allows.
std::string apply_one(const RlimitName &n, const char *text) {
    bool user = *text == 'U';
    if (user) ++text;
    char *end = nullptr;
    errno = 0;
    unsigned long long want = std::strtoull(text, &end, 10);
    if (errno || end == text || *end) return {};
    rlimit rl{};
    if (::getrlimit(n.resource, &rl) != 0) return {};
    rlim_t soft = rlim_t(want) > rl.rlim_max ? rl.rlim_max : rlim_t(want);
    if (soft != rl.rlim_cur) {
        rl.rlim_cur = soft;
        (void)::setrlimit(n.resource, &rl);
    }
    if (!user || rlim_t(want) <= rl.rlim_max) return {};
    return std::string("slurmstepd: error: Can't propagate RLIMIT_") + n.name + " of " + text +
           " from submit host: " + std::strerror(EPERM) + "\n";
}

} // namespace

std::string apply_limit_variables(const std::vector<std::string> &env) {
    if (const char *mask = env_list_value(env, "SLURM_UMASK")) {
        char *end = nullptr;
        long m = std::strtol(mask, &end, 8);
        if (end != mask && !*end && m >= 0 && m <= 0777) ::umask(mode_t(m));
    }
    std::string said;
    for (const auto &n : rlimit_names())
        if (const char *v = env_list_value(env, std::string("SLURM_RLIMIT_") + n.name))
            said += apply_one(n, v);
    return said;
}

} // namespace drover
