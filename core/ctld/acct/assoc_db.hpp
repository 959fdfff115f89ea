// assoc_db.hpp - the controller's copy of what sacctmgr manages: clusters, accounts, users and
// their associations, loaded from the accounting store (and saved in the state store, so that a
// controller whose store is down still knows them). Job submission takes a user's default account
// from it and, with AccountingStorageEnforce=associations, checks the job's account against it.
// Used on the controller's event loop only.
#pragma once

#include <drover/accounting.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ctld/policy/limits.hpp"

namespace drover::ctld {

// One drover_acct_assoc, owning its strings.
struct AssocRec {
    uint32_t kind = 0; // enum drover_acct_assoc_kind
    std::string name, cluster, account, user, partition, parent, description, organization,
        default_account;
    uint32_t admin_level = DROVER_ADMIN_NONE;

    // The settings (limits, QOS list, a QOS's priority and flags) as stored, and as read for
    // enforcement; set_attrs keeps the two together.
    const std::string &attrs() const { return attrs_; }
    const policy::Limits &limits() const { return limits_; }
    policy::Settings settings() const { return policy::decode(attrs_); }
    void set_attrs(std::string attrs);
    void set_settings(const policy::Settings &s) { set_attrs(policy::encode(s)); }

    // What identifies it in the store (kind, then name or the association's four keys).
    std::string key() const;
    // A view for the plugin ABI. OWNERSHIP: the strings point into *this.
    drover_acct_assoc view() const;
    static AssocRec from(const drover_acct_assoc &a);

    static AssocRec cluster_rec(std::string name);
    static AssocRec assoc(std::string cluster, std::string account, std::string user,
                          std::string partition, std::string parent);
    static AssocRec qos_rec(std::string name);

  private:
    std::string attrs_;
    policy::Limits limits_;
};

// Records to store and to remove, all at once.
struct AssocChange {
    std::vector<AssocRec> puts, removes;
    bool empty() const { return puts.empty() && removes.empty(); }
};

// "None", "Operator", "Administrator"; and back (any case, "Admin" too). -1: not a level.
const char *admin_level_name(uint32_t level);
int parse_admin_level(std::string_view text);

// AccountingStorageEnforce (as slurm.conf writes it) asks for associations: "associations",
// "limits", "qos" or "safe" in the list (each implies associations in Slurm), any case.
bool acct_enforce_associations(std::string_view enforce);

class AssocDb {
  public:
    void replace(std::vector<AssocRec> recs);
    void apply(const AssocChange &c);
    bool loaded() const { return loaded_; }

    const AssocRec *find(const AssocRec &key) const;
    const AssocRec *cluster(std::string_view name) const;
    const AssocRec *account(std::string_view name) const;
    const AssocRec *user(std::string_view name) const;
    // A QOS by name; "normal" exists even before sacctmgr has stored it (Slurm creates it).
    const AssocRec *qos(std::string_view name) const;
    // The association a job of user runs under (its partition's, else the account's for all
    // partitions), and an association's parent (nullptr at the root).
    const AssocRec *job_assoc(std::string_view cluster, std::string_view user,
                              std::string_view account, std::string_view partition) const;
    const AssocRec *parent(const AssocRec &assoc) const;
    // The QOS list and default QOS in force for an association: its own, else its parent's,
    // up to the root (whose default is "normal").
    std::vector<std::string> qos_list(const AssocRec &assoc) const;
    std::string default_qos(const AssocRec &assoc) const;
    // Every record of kind (0: all), in key order.
    std::vector<const AssocRec *> all(uint32_t kind = 0) const;
    // The user's associations on cluster (any partition).
    std::vector<const AssocRec *> user_assocs(std::string_view cluster,
                                              std::string_view user) const;

    uint32_t admin_level(std::string_view user) const;

    // For a job of user on cluster and partition: an empty account becomes the user's default
    // account when the user is known. With enforce, the user must be known and associated with the
    // account (on that partition or on all): else Slurm's refusal. Returns "" or the refusal.
    std::string check_job(bool enforce, std::string_view cluster, std::string_view user,
                          std::string &account, std::string_view partition) const;

    // The whole copy as bytes (AssocSnapshot) and back; false for damaged bytes.
    std::vector<uint8_t> snapshot() const;
    bool restore(const uint8_t *data, std::size_t len);

  private:
    std::map<std::string, AssocRec> recs_; // by key()
    AssocRec normal_ = AssocRec::qos_rec("normal");
    bool loaded_ = false;
};

} // namespace drover::ctld
