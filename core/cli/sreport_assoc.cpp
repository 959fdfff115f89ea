// sreport_assoc.cpp - the association tree and the rows of the association reports.
#include "cli/sreport_assoc.hpp"

#include <algorithm>
#include <functional>
#include <set>

namespace drover::cli {

namespace {

const std::string kRoot = "root";

bool listed(const std::vector<std::string> &names, const std::string &name) {
    return names.empty() || std::find(names.begin(), names.end(), name) != names.end();
}

uint64_t usage_of(const std::map<AssocKey, uint64_t> &usage, const std::string &account,
                  const std::string &user) {
    auto it = usage.find({account, user});
    return it == usage.end() ? 0 : it->second;
}

// Every account in Slurm's hierarchical order: root, then depth first, sub-accounts by name;
// accounts whose line does not reach root come last.
std::vector<std::string> hierarchy(const AssocTree &tree, const std::vector<std::string> &all) {
    std::vector<std::string> out;
    std::set<std::string> seen;
    std::function<void(const std::string &)> walk = [&](const std::string &a) {
        if (!seen.insert(a).second) return;
        out.push_back(a);
        for (const auto &c : tree.children(a)) walk(c);
    };
    if (tree.has_account(kRoot)) walk(kRoot);
    for (const auto &a : all) walk(a);
    return out;
}

} // namespace

void AssocTree::add_account(const std::string &account, const std::string &parent) {
    parent_[account] = account == kRoot ? "" : parent;
}

void AssocTree::add_user(const std::string &account, const std::string &user) {
    if (!has_account(account)) add_account(account, kRoot);
    auto &list = users_[account];
    if (std::find(list.begin(), list.end(), user) == list.end()) list.push_back(user);
}

void AssocTree::add_usage(const std::map<AssocKey, uint64_t> &usage) {
    if (!usage.empty()) parent_.emplace(kRoot, "");
    for (const auto &[key, secs] : usage) add_user(key.first, key.second);
}

bool AssocTree::has_account(const std::string &account) const {
    return parent_.count(account) != 0;
}

const std::string &AssocTree::parent(const std::string &account) const {
    static const std::string none;
    auto it = parent_.find(account);
    return it == parent_.end() ? none : it->second;
}

std::vector<std::string> AssocTree::children(const std::string &account) const {
    std::vector<std::string> out;
    for (const auto &[a, p] : parent_)
        if (p == account && a != account) out.push_back(a);
    return out; // the map keeps them by name
}

std::vector<std::string> AssocTree::users(const std::string &account) const {
    auto it = users_.find(account);
    if (it == users_.end()) return {};
    std::vector<std::string> out = it->second;
    std::sort(out.begin(), out.end());
    return out;
}

bool AssocTree::within(const std::string &account, const std::string &ancestor) const {
    std::string a = account;
    for (int depth = 0; depth < 64 && !a.empty(); ++depth) {
        if (a == ancestor) return true;
        a = parent(a);
    }
    return false;
}

std::vector<AssocRow> account_rows(const AssocTree &tree, const std::map<AssocKey, uint64_t> &usage,
                                   const std::vector<std::string> &accounts,
                                   const std::vector<std::string> &users, bool tree_names) {
    std::map<std::string, uint64_t> totals; // each account with everything under it
    std::function<uint64_t(const std::string &)> total = [&](const std::string &a) {
        if (auto it = totals.find(a); it != totals.end()) return it->second;
        totals[a] = 0; // a line that loops back on itself adds nothing twice
        uint64_t sum = 0;
        for (const auto &u : tree.users(a)) sum += usage_of(usage, a, u);
        for (const auto &c : tree.children(a)) sum += total(c);
        return totals[a] = sum;
    };
    std::vector<AssocRow> rows;
    std::map<std::string, std::string> indent; // of each account whose line was printed
    // Slurm's tree: one space deeper than the printed line of the parent, none without one.
    auto prefix = [&](const std::string &parent) {
        auto it = indent.find(parent);
        return it == indent.end() ? std::string() : it->second + " ";
    };
    std::set<std::string> walked;
    std::function<void(const std::string &)> walk = [&](const std::string &a) {
        if (!walked.insert(a).second) return;
        if (users.empty() && total(a) > 0) {
            indent[a] = prefix(tree.parent(a));
            rows.push_back({a, "", tree_names ? indent[a] + a : a, totals[a]});
        }
        for (const auto &u : tree.users(a))
            if (listed(users, u) && usage_of(usage, a, u) > 0)
                rows.push_back({a, u, tree_names ? prefix(a) + a : a, usage_of(usage, a, u)});
        for (const auto &c : tree.children(a)) walk(c);
    };
    std::vector<std::string> tops;
    for (const auto &a : accounts.empty() ? std::vector<std::string>{kRoot} : accounts) {
        bool nested = false; // under another account given, so listed with it
        for (const auto &b : accounts) nested = nested || (b != a && tree.within(a, b));
        if (tree.has_account(a) && !nested) tops.push_back(a);
    }
    std::sort(tops.begin(), tops.end());
    tops.erase(std::unique(tops.begin(), tops.end()), tops.end());
    for (const auto &a : tops) walk(a);
    return rows;
}

std::vector<AssocRow> user_rows(const AssocTree &tree, const std::map<AssocKey, uint64_t> &usage,
                                const std::vector<std::string> &accounts,
                                const std::vector<std::string> &users, bool by_name) {
    std::vector<std::string> all;
    for (const auto &[key, secs] : usage) all.push_back(key.first);
    std::vector<AssocRow> rows;
    for (const auto &a : hierarchy(tree, all)) {
        if (!listed(accounts, a)) continue;
        for (const auto &u : tree.users(a))
            if (listed(users, u) && usage_of(usage, a, u) > 0)
                rows.push_back({a, u, a, usage_of(usage, a, u)});
    }
    std::stable_sort(rows.begin(), rows.end(), [by_name](const AssocRow &x, const AssocRow &y) {
        if (!by_name && x.used != y.used) return x.used > y.used;
        return x.user < y.user;
    });
    return rows;
}

std::vector<std::string>
size_groups(const AssocTree &tree, const std::vector<std::string> &accounts, bool acct_as_parent) {
    std::set<std::string> out;
    for (const auto &a : accounts.empty() ? std::vector<std::string>{kRoot} : accounts) {
        if (!acct_as_parent)
            out.insert(a);
        else
            for (const auto &c : tree.children(a)) out.insert(c);
    }
    return {out.begin(), out.end()};
}

} // namespace drover::cli
