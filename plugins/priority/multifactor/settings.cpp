// settings.cpp - priority/multifactor's slurm.conf keys.
#include "settings.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

namespace drover::multifactor {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    while (!s.empty()) {
        auto at = s.find(sep);
        if (auto part = trim(s.substr(0, at)); !part.empty()) out.push_back(part);
        if (at == std::string_view::npos) break;
        s.remove_prefix(at + 1);
    }
    return out;
}

[[noreturn]] void bad(std::string_view key, std::string_view value, std::string_view expected) {
    throw std::invalid_argument(std::string(key) + "=" + std::string(value) + ": " +
                                std::string(expected));
}

uint64_t number(std::string_view key, std::string_view value, uint64_t max) {
    uint64_t n = 0;
    auto t = trim(value);
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size() || n > max)
        bad(key, value, "expected a whole number from 0 to " + std::to_string(max));
    return n;
}

// "M", "M:S", "H:M:S", "D-H", "D-H:M", "D-H:M:S" in seconds (PriorityMaxAge).
uint64_t duration(std::string_view key, std::string_view value) {
    auto t = trim(value);
    uint64_t days = 0, parts[3] = {0, 0, 0}, n = 0;
    if (auto dash = t.find('-'); dash != std::string_view::npos) {
        days = number(key, t.substr(0, dash), 1u << 20);
        t.remove_prefix(dash + 1);
    }
    for (std::string_view p : split(t, ':')) {
        if (n == 3) bad(key, value, "expected minutes, H:M:S or D-H:M:S");
        parts[n++] = number(key, p, 1u << 30);
    }
    if (n == 0) bad(key, value, "expected minutes, H:M:S or D-H:M:S");
    if (days) return days * 86400 + parts[0] * 3600 + parts[1] * 60 + parts[2];
    if (n == 1) return parts[0] * 60;
    if (n == 2) return parts[0] * 60 + parts[1];
    return parts[0] * 3600 + parts[1] * 60 + parts[2];
}

void tres_weights(std::string_view value, Settings &s, std::vector<std::string> *warnings) {
    constexpr std::string_view kNames[DROVER_PRIORITY_TRES_COUNT] = {"cpu", "mem", "node",
                                                                     "gres/gpu"};
    for (std::string_view item : split(value, ',')) {
        auto eq = item.find('=');
        if (eq == std::string_view::npos)
            bad("PriorityWeightTRES", value, "expected TRES=weight pairs, as CPU=1000,Mem=2000");
        std::string name = lower(trim(item.substr(0, eq)));
        double w = double(number("PriorityWeightTRES", item.substr(eq + 1), 0xffffffffu));
        auto at = std::find(std::begin(kNames), std::end(kNames), name);
        if (at == std::end(kNames)) {
            if (warnings)
                warnings->push_back("PriorityWeightTRES: " + name +
                                    " is not counted (Drover weighs cpu, mem, node and gres/gpu)");
            continue;
        }
        s.weights.tres[at - std::begin(kNames)] = w;
    }
}

void flags(std::string_view value, Settings &s) {
    for (std::string_view f : split(value, ',')) {
        std::string u = lower(f);
        if (u == "no_fair_tree")
            s.fair_tree = false;
        else if (u == "fair_tree")
            s.fair_tree = true;
        else if (u == "accrue_always")
            s.accrue_always = true;
        else if (u == "no_normal_qos")
            s.no_normal_qos = true;
        else if (u == "no_normal_part")
            s.no_normal_part = true;
        else if (u == "incr_only")
            s.incr_only = true;
        // Accepted with no effect on Drover's numbers: there is no billing TRES beyond CPUs,
        // running jobs keep their priority, and classic fair-share is always depth-aware.
        else if (u == "max_tres" || u == "calculate_running" || u == "depth_oblivious" ||
                 u == "no_normal_all" || u == "no_normal_assoc" || u == "no_normal_tres" ||
                 u == "small_relative_to_time")
            continue;
        else
            bad("PriorityFlags", value,
                "unknown flag " + std::string(f) +
                    " (known: ACCRUE_ALWAYS, CALCULATE_RUNNING, DEPTH_OBLIVIOUS, INCR_ONLY, "
                    "MAX_TRES, NO_FAIR_TREE, NO_NORMAL_ALL, NO_NORMAL_ASSOC, NO_NORMAL_PART, "
                    "NO_NORMAL_QOS, NO_NORMAL_TRES, SMALL_RELATIVE_TO_TIME)");
    }
}

} // namespace

Settings read_settings(const ConfLookup &conf, std::vector<std::string> *warnings) {
    Settings s;
    struct Weight {
        std::string_view key;
        double drover_priority_factors::*field;
    };
    constexpr Weight kWeights[] = {
        {"PriorityWeightAge", &drover_priority_factors::age},
        {"PriorityWeightAssoc", &drover_priority_factors::assoc},
        {"PriorityWeightFairshare", &drover_priority_factors::fairshare},
        {"PriorityWeightJobSize", &drover_priority_factors::job_size},
        {"PriorityWeightPartition", &drover_priority_factors::partition},
        {"PriorityWeightQOS", &drover_priority_factors::qos},
    };
    for (const Weight &w : kWeights)
        if (auto v = conf(w.key)) s.weights.*w.field = double(number(w.key, *v, 0xffffffffu));
    if (auto v = conf("PriorityWeightTRES")) tres_weights(*v, s, warnings);
    if (auto v = conf("PriorityMaxAge")) s.max_age_s = duration("PriorityMaxAge", *v);
    if (auto v = conf("PriorityFavorSmall")) {
        std::string u = lower(trim(*v));
        if (u != "yes" && u != "no") bad("PriorityFavorSmall", *v, "expected YES or NO");
        s.favor_small = u == "yes";
    }
    if (auto v = conf("FairShareDampeningFactor"))
        s.damping =
            uint32_t(std::max<uint64_t>(1, number("FairShareDampeningFactor", *v, 1u << 20)));
    if (auto v = conf("PriorityFlags")) flags(*v, s);
    return s;
}

} // namespace drover::multifactor
