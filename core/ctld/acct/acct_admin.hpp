// acct_admin.hpp - sacctmgr in the controller: an AcctAdminRequest is planned against the
// AssocDb (plan_admin, pure), stored through the accounting plugin all at once, then applied to the
// copy and saved in the state store (AcctAdmin). Anyone may show (what PrivateData lets them see,
// privacy.hpp); only root, SlurmUser and users with AdminLevel=Administrator may change.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ctld/acct/assoc_db.hpp"
#include "ctld/context.hpp"
#include "net/server.hpp"

namespace drover::ctld {

using AdminFields = std::vector<std::pair<std::string, std::string>>;

// A request with canonical, lower-case keys: verb add|modify|delete|show, entity
// cluster|account|user|association; keys name, cluster, account, user, partition, parent,
// description, organization, defaultaccount, adminlevel. Values may be comma lists.
struct AdminRequest {
    std::string verb, entity;
    AdminFields set, where;
};

// What the controller knows of its own cluster, for show cluster.
struct LocalCluster {
    std::string name, control_host;
    uint16_t control_port = 0;
};

struct AdminPlan {
    std::string error;             // a refusal: nothing changes
    std::string message;           // what changes, as sacctmgr says it
    AssocChange change;            // empty: nothing to change
    std::vector<AdminFields> rows; // show: each record's fields by canonical name
};

AdminPlan plan_admin(const AssocDb &db, const AdminRequest &req, const LocalCluster &local);

class AcctAdmin {
  public:
    explicit AcctAdmin(Ctx &ctx);
    ~AcctAdmin();
    // Restores the copy saved in the state store, then asks the accounting store for the current
    // one (again every 10 s until it answers).
    void start();
    void on_request(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    // FedState=DRAIN+REMOVE once no federated job is left here: this cluster leaves its
    // federation in the accounting store (as sacctmgr modify cluster NAME set federation=).
    void leave_federation();
    // The user's admin level (root and SlurmUser count as Administrator).
    uint32_t admin_level(uint32_t uid) const;

  private:
    void refresh();
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drover::ctld
