// fs_tree.hpp - the fair-share tree a priority plugin ranks (drover/priority.h): this cluster's
// associations from the AssocDb, the root first and each parent before its children (users
// before sub-accounts, each by name, as sshare lists them), with their FairShare, Priority and
// decayed usage from the UsageLedger. The plugin's numbers are written into it and stay there for
// sprio, sshare and the priorities of jobs submitted until the next pass.
#pragma once

#include <drover/priority.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ctld/acct/assoc_db.hpp"
#include "ctld/policy/usage_ledger.hpp"

namespace drover::ctld::policy {

class FsTree {
  public:
    // Builds the tree. OWNERSHIP: the views' strings point into db's records: build again
    // whenever the associations change (Events::assocs_changed).
    FsTree(const AssocDb &db, std::string_view cluster, const UsageLedger &ledger);
    FsTree() = default;

    std::vector<drover_priority_assoc> &nodes() { return nodes_; }
    const std::vector<drover_priority_assoc> &nodes() const { return nodes_; }
    // The association record of node i (nullptr for a root made up when the cluster has no
    // root account association), and its depth (0 for the root).
    const AssocRec *rec(uint32_t i) const { return recs_[i]; }
    uint32_t depth(uint32_t i) const { return depth_[i]; }
    // The node of an association (AssocRec::key()), or DROVER_NO_VAL.
    uint32_t index(const std::string &assoc_key) const;
    // The highest association Priority= in the tree.
    uint32_t max_priority() const { return max_priority_; }

  private:
    void add(const AssocRec *rec, uint32_t parent, uint32_t depth, const UsageLedger &ledger);
    std::vector<drover_priority_assoc> nodes_;
    std::vector<const AssocRec *> recs_;
    std::vector<uint32_t> depth_;
    std::unordered_map<std::string, uint32_t> by_key_;
    uint32_t max_priority_ = 0;
};

} // namespace drover::ctld::policy
