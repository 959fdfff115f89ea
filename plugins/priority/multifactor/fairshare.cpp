// fairshare.cpp - Fair Tree and classic fair-share over the association tree.
#include "fairshare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <vector>

namespace drover::multifactor {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool is_user(const drover_priority_assoc &a) {
    return a.user.len > 0;
}
bool uses_parent(const drover_priority_assoc &a) {
    return a.shares_raw == DROVER_PRIORITY_SHARES_PARENT;
}
std::string_view name(const drover_priority_assoc &a) {
    return is_user(a) ? std::string_view(a.user.ptr, a.user.len)
                      : std::string_view(a.account.ptr, a.account.len);
}

// Each association's children, by index, in table order.
std::vector<std::vector<uint32_t>> children_of(std::span<drover_priority_assoc> assocs) {
    std::vector<std::vector<uint32_t>> kids(assocs.size());
    for (uint32_t i = 1; i < assocs.size(); ++i)
        if (assocs[i].parent < i) kids[assocs[i].parent].push_back(i);
    return kids;
}

// Shares of the siblings that have their own (FairShare=parent ones do not count).
double level_shares(std::span<drover_priority_assoc> assocs, const std::vector<uint32_t> &sibs) {
    double sum = 0;
    for (uint32_t i : sibs)
        if (!uses_parent(assocs[i])) sum += assocs[i].shares_raw;
    return sum;
}

// NormShares (the product of sibling shares down the tree) and NormUsage, for both algorithms.
// Table order visits every parent before its children.
void norm_shares_and_usage(std::span<drover_priority_assoc> assocs,
                           const std::vector<std::vector<uint32_t>> &kids) {
    const double root_usage = assocs[0].usage_raw;
    assocs[0].shares_norm = 1;
    for (uint32_t p = 0; p < assocs.size(); ++p) {
        assocs[p].usage_norm = root_usage > 0 ? assocs[p].usage_raw / root_usage : 0;
        const double level = level_shares(assocs, kids[p]);
        for (uint32_t c : kids[p])
            assocs[c].shares_norm = uses_parent(assocs[c]) ? assocs[p].shares_norm
                                    : level > 0
                                        ? assocs[p].shares_norm * assocs[c].shares_raw / level
                                        : 0;
    }
}

// LevelFS of each child of every association: its share of its siblings' shares over its share
// of their usage (infinite for no usage, or for FairShare=parent; 0 for no shares).
void level_fs(std::span<drover_priority_assoc> assocs,
              const std::vector<std::vector<uint32_t>> &kids) {
    assocs[0].level_fs = kInf;
    for (uint32_t p = 0; p < assocs.size(); ++p) {
        const double shares = level_shares(assocs, kids[p]);
        double usage = 0;
        for (uint32_t c : kids[p]) usage += assocs[c].usage_raw;
        for (uint32_t c : kids[p]) {
            auto &a = assocs[c];
            a.usage_eff = usage > 0 ? a.usage_raw / usage : 0;
            const double s = shares > 0 && !uses_parent(a) ? a.shares_raw / shares : 0;
            a.level_fs = uses_parent(a) || a.usage_eff == 0 ? kInf : s / a.usage_eff;
            if (!uses_parent(a) && s == 0) a.level_fs = 0;
        }
    }
}

struct Ranker {
    std::span<drover_priority_assoc> assocs;
    const std::vector<std::vector<uint32_t>> &kids;
    double users = 0;
    double rank = 0, rank_not_tied = 0;

    // Higher LevelFS first; on a tie users before accounts, then by name (a stable order).
    void sort(std::vector<uint32_t> &v) const {
        std::sort(v.begin(), v.end(), [&](uint32_t x, uint32_t y) {
            const auto &a = assocs[x], &b = assocs[y];
            if (a.level_fs != b.level_fs) return a.level_fs > b.level_fs;
            if (is_user(a) != is_user(b)) return is_user(a);
            return name(a) < name(b);
        });
    }

    // Visits one level: siblings (of one parent, or of merged tied accounts).
    void level(std::vector<uint32_t> sibs, bool starts_tied) {
        sort(sibs);
        for (std::size_t i = 0; i < sibs.size(); ++i) {
            auto &a = assocs[sibs[i]];
            const bool tied = i == 0 ? starts_tied : assocs[sibs[i - 1]].level_fs == a.level_fs;
            if (is_user(a)) {
                if (!tied) rank = rank_not_tied;
                a.fairshare = rank / users;
                rank_not_tied -= 1;
                continue;
            }
            // This account and the accounts tied with it after it: their children as one level.
            std::vector<uint32_t> merged = kids[sibs[i]];
            std::size_t j = i + 1;
            for (; j < sibs.size() && !is_user(assocs[sibs[j]]) &&
                   assocs[sibs[j]].level_fs == a.level_fs;
                 ++j)
                merged.insert(merged.end(), kids[sibs[j]].begin(), kids[sibs[j]].end());
            level(std::move(merged), tied);
            i = j - 1;
        }
    }
};

} // namespace

void fair_tree(std::span<drover_priority_assoc> assocs) {
    if (assocs.empty()) return;
    const auto kids = children_of(assocs);
    norm_shares_and_usage(assocs, kids);
    level_fs(assocs, kids);
    Ranker r{assocs, kids};
    for (auto &a : assocs) {
        a.fairshare = 0;
        r.users += is_user(a) ? 1 : 0;
    }
    if (r.users == 0) return;
    r.rank = r.rank_not_tied = r.users;
    r.level(kids[0], false);
}

void classic(std::span<drover_priority_assoc> assocs, uint32_t damping) {
    if (assocs.empty()) return;
    const auto kids = children_of(assocs);
    norm_shares_and_usage(assocs, kids);
    const double d = damping ? damping : 1;
    assocs[0].usage_eff = 1; // what Slurm gives the root
    assocs[0].level_fs = 0;
    assocs[0].fairshare = 1;
    for (uint32_t p = 0; p < assocs.size(); ++p) {
        const double level = level_shares(assocs, kids[p]);
        for (uint32_t c : kids[p]) {
            auto &a = assocs[c];
            a.level_fs = 0;
            if (uses_parent(a)) {
                a.usage_eff = assocs[p].usage_eff;
                a.fairshare = assocs[p].fairshare;
                continue;
            }
            // Under the root, an association's own usage; deeper, blended with its parent's
            // (all of the parent's when none of the siblings has shares).
            const double ue_parent = assocs[p].usage_eff;
            a.usage_eff = p == 0 ? a.usage_norm
                          : level > 0
                              ? a.usage_norm + (ue_parent - a.usage_norm) * (a.shares_raw / level)
                              : ue_parent;
            a.fairshare = a.shares_norm > 0 ? std::exp2(-(a.usage_eff / a.shares_norm) / d) : 0;
        }
    }
}

} // namespace drover::multifactor
