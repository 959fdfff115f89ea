// fed_admin_plan.hpp - sacctmgr's federations in the plan of a request: add, modify, delete and
// show federation, a cluster's Federation, Features and FedState (modify cluster), and the
// federation columns of show cluster. Pure, like plan_admin.
#pragma once

#include "ctld/acct/acct_admin.hpp"

namespace drover::ctld {

// add, modify, delete and show federation (where tree=yes: Slurm's tree display).
void plan_federation(const AssocDb &db, const AdminRequest &req, AdminPlan &plan);

// True when a modify cluster sets federation, features or fedstate (then planned here; the
// other cluster settings are refused with it).
bool is_cluster_fed_modify(const AdminRequest &req);
void plan_cluster_fed(const AssocDb &db, const AdminRequest &req, AdminPlan &plan);

// A show cluster row's federation columns and registered controller address.
void add_cluster_fed_row(const AssocDb &db, const AssocRec &cluster, AdminFields &row);

} // namespace drover::ctld
