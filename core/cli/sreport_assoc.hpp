// sreport_assoc.hpp - the association tree of one cluster (accounts under their parents, users
// under their accounts) and what sreport lists from it: AccountUtilizationByUser's rows in
// Slurm's hierarchical order (an account, its users by name, then its sub-accounts by name; each
// account the sum of everything under it), UserUtilizationByAccount's rows by usage, and the
// accounts SizesByAccount groups jobs under.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cli/sreport_usage.hpp"

namespace drover::cli {

class AssocTree {
  public:
    // An account association; parent "" for root.
    void add_account(const std::string &account, const std::string &parent);
    // A user association (its account is added under root when the tree does not know it).
    void add_user(const std::string &account, const std::string &user);
    // Adds what the usage names that the tree lacks: jobs of accounts or users without an
    // association are listed under root and their account.
    void add_usage(const std::map<AssocKey, uint64_t> &usage);

    bool has_account(const std::string &account) const;
    const std::string &parent(const std::string &account) const;
    // Sub-accounts and users, each by name.
    std::vector<std::string> children(const std::string &account) const;
    std::vector<std::string> users(const std::string &account) const;
    // Whether account is ancestor itself or below it.
    bool within(const std::string &account, const std::string &ancestor) const;

  private:
    std::map<std::string, std::string> parent_;
    std::map<std::string, std::vector<std::string>> users_;
};

struct AssocRow {
    std::string account, user; // user "" on an account's line
    std::string shown;         // the Account column: with Tree, indented as Slurm indents it
    uint64_t used = 0;
};

// AccountUtilizationByUser: from root (or the accounts given and their sub-accounts), every
// association that used time; with users given, only those users' lines.
std::vector<AssocRow> account_rows(const AssocTree &tree, const std::map<AssocKey, uint64_t> &usage,
                                   const std::vector<std::string> &accounts,
                                   const std::vector<std::string> &users, bool tree_names);

// UserUtilizationByAccount: each user and account that used time (of the accounts and users
// given), most used first (by_name: by user name).
std::vector<AssocRow> user_rows(const AssocTree &tree, const std::map<AssocKey, uint64_t> &usage,
                                const std::vector<std::string> &accounts,
                                const std::vector<std::string> &users, bool by_name);

// SizesByAccount's lines: the accounts given (root by default), or with AcctAsParent the
// accounts directly under them; by name.
std::vector<std::string> size_groups(const AssocTree &tree,
                                     const std::vector<std::string> &accounts, bool acct_as_parent);

} // namespace drover::cli
