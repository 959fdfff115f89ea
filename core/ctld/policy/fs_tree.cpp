// fs_tree.cpp - the fair-share tree from the associations.
#include "ctld/policy/fs_tree.hpp"

#include <algorithm>

namespace drover::ctld::policy {

namespace {

constexpr std::string_view kRoot = "root";

drover_str str(std::string_view s) {
    return {s.data(), s.size()};
}

// Users before sub-accounts, then by name and partition.
bool tree_order(const AssocRec *a, const AssocRec *b) {
    if (a->user.empty() != b->user.empty()) return !a->user.empty();
    const std::string &na = a->user.empty() ? a->account : a->user;
    const std::string &nb = b->user.empty() ? b->account : b->user;
    return na != nb ? na < nb : a->partition < b->partition;
}

} // namespace

FsTree::FsTree(const AssocDb &db, std::string_view cluster, const UsageLedger &ledger) {
    // This cluster's account associations by name (what a user's hangs under), then each
    // association's children; those with no parent, or the root for one, hang under the root.
    const auto recs = db.all(DROVER_ACCT_ASSOC);
    std::unordered_map<std::string_view, const AssocRec *> accounts;
    for (const AssocRec *r : recs)
        if (r->cluster == cluster && r->user.empty() && r->partition.empty())
            accounts.emplace(r->account, r);
    auto it = accounts.find(kRoot);
    const AssocRec *root = it == accounts.end() ? nullptr : it->second;
    std::unordered_map<const AssocRec *, std::vector<const AssocRec *>> kids;
    for (const AssocRec *r : recs) {
        if (r->cluster != cluster || r == root) continue;
        // A user's association hangs under its account's; an account's under its parent's.
        std::string_view up = r->user.empty() ? std::string_view(r->parent) : r->account;
        auto p = r->user.empty() && up == r->account ? accounts.end() : accounts.find(up);
        kids[p == accounts.end() ? root : p->second].push_back(r);
    }
    add(root, DROVER_NO_VAL, 0, ledger);
    // Depth first: a stack of (record, parent index, depth), children pushed in reverse order.
    struct Item {
        const AssocRec *rec;
        uint32_t parent, depth;
    };
    std::vector<Item> stack;
    auto push_kids = [&](const AssocRec *rec, uint32_t parent, uint32_t depth) {
        auto k = kids.find(rec);
        if (k == kids.end()) return;
        auto &v = k->second;
        std::sort(v.begin(), v.end(), tree_order);
        for (auto r = v.rbegin(); r != v.rend(); ++r) stack.push_back({*r, parent, depth});
    };
    push_kids(root, 0, 1);
    while (!stack.empty()) {
        Item item = stack.back();
        stack.pop_back();
        add(item.rec, item.parent, item.depth, ledger);
        if (item.rec->user.empty())
            push_kids(item.rec, uint32_t(nodes_.size() - 1), item.depth + 1);
    }
    // A made-up root holds what its children used (a real one is charged with them).
    if (!root)
        for (std::size_t i = 1; i < nodes_.size(); ++i)
            if (nodes_[i].parent == 0) nodes_[0].usage_raw += nodes_[i].usage_raw;
}

void FsTree::add(const AssocRec *rec, uint32_t parent, uint32_t depth, const UsageLedger &ledger) {
    drover_priority_assoc a{};
    a.struct_size = sizeof a;
    a.parent = parent;
    a.account = rec ? str(rec->account) : str(kRoot);
    a.user = rec ? str(rec->user) : str("");
    a.shares_raw = rec ? rec->limits().shares : 1;
    static_assert(Limits::kSharesParent == DROVER_PRIORITY_SHARES_PARENT);
    a.priority = rec ? uint32_t(std::min<uint64_t>(rec->limits().priority, 0xffffffffu)) : 0;
    if (rec) {
        a.usage_raw = ledger.usage(rec->key());
        by_key_[rec->key()] = uint32_t(nodes_.size());
    }
    max_priority_ = std::max(max_priority_, a.priority);
    nodes_.push_back(a);
    recs_.push_back(rec);
    depth_.push_back(depth);
}

uint32_t FsTree::index(const std::string &assoc_key) const {
    auto it = by_key_.find(assoc_key);
    return it == by_key_.end() ? DROVER_NO_VAL : it->second;
}

} // namespace drover::ctld::policy
