// limits.cpp - Limits from a record's settings.
#include "ctld/policy/limits.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "common/ascii.hpp"

namespace drover::ctld::policy {

namespace {

uint64_t count(const Settings &s, std::string_view key) {
    auto it = s.find(key);
    if (it == s.end()) return kNoLimit;
    uint64_t n = 0;
    auto [p, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), n);
    return ec == std::errc() ? n : kNoLimit;
}

Tres tres(const Settings &s, std::string_view key) {
    auto it = s.find(key);
    return it == s.end() ? Tres{} : parse_stored_tres(it->second);
}

} // namespace

Enforce Enforce::parse(std::string_view text) {
    Enforce e;
    for (const auto &raw : list_items(text)) {
        std::string item = ascii_lower(raw);
        e.qos = e.qos || item == "qos";
        e.limits = e.limits || item == "limits" || item == "safe";
        e.associations = e.associations || e.qos || e.limits || item == "associations";
    }
    return e;
}

Limits Limits::from(const Settings &s) {
    Limits l;
    l.grp_jobs = count(s, "grpjobs");
    l.grp_submit = count(s, "grpsubmitjobs");
    l.grp_wall = count(s, "grpwall");
    l.max_jobs = count(s, "maxjobs");
    l.max_submit = count(s, "maxsubmitjobs");
    l.max_wall = count(s, "maxwall");
    l.max_jobs_pu = count(s, "maxjobsperuser");
    l.max_submit_pu = count(s, "maxsubmitjobsperuser");
    l.max_jobs_pa = count(s, "maxjobsperaccount");
    l.max_submit_pa = count(s, "maxsubmitjobsperaccount");
    l.grp_tres = tres(s, "grptres");
    l.max_tres = tres(s, "maxtres");
    l.max_tres_pn = tres(s, "maxtrespernode");
    l.max_tres_mins = tres(s, "maxtresmins");
    l.grp_tres_run_mins = tres(s, "grptresrunmins");
    l.max_tres_pu = tres(s, "maxtresperuser");
    l.max_tres_pa = tres(s, "maxtresperaccount");
    l.min_tres = tres(s, "mintres");
    if (auto it = s.find("qos"); it != s.end()) {
        l.qos = list_items(it->second);
        l.qos_set = true;
    }
    if (auto it = s.find("defaultqos"); it != s.end()) l.default_qos = it->second;
    if (uint64_t p = count(s, "priority"); p != kNoLimit) l.priority = p;
    if (auto it = s.find("preempt"); it != s.end()) l.preempt = list_items(it->second);
    if (auto it = s.find("preemptmode"); it != s.end()) l.preempt_mode = ascii_lower(it->second);
    if (uint64_t g = count(s, "gracetime"); g != kNoLimit) l.grace_s = g;
    l.preempt_exempt_s = count(s, "preemptexempttime");
    if (auto it = s.find("fairshare"); it != s.end())
        l.shares = it->second == "parent"
                       ? kSharesParent
                       : uint32_t(std::min<uint64_t>(count(s, "fairshare"), kSharesParent - 1));
    if (auto it = s.find("usagefactor"); it != s.end()) try {
            l.usage_factor = std::max(0.0, std::stod(it->second));
        } catch (const std::exception &) {}
    if (auto it = s.find("flags"); it != s.end())
        for (const auto &f : list_items(it->second)) {
            l.deny_on_limit = l.deny_on_limit || f == "DenyOnLimit";
            l.over_part_qos = l.over_part_qos || f == "OverPartQOS";
        }
    return l;
}

} // namespace drover::ctld::policy
