// clusters.hpp - the commands' -M/--clusters: the clusters of the accounting store as the local
// controller knows them (each with the address its controller registered), and running a
// command against one of them instead of the local cluster.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/options.hpp"
#include "common/config.hpp"

namespace drover::cli {

struct StoreCluster {
    std::string name, federation, fed_state;
    uint32_t fed_id = 0;
    std::vector<std::string> features;
    std::vector<ControllerHost> controllers; // as registered; empty: never registered
    uint16_t port = 0;
    bool reachable = false; // a sibling whose controller answered the local controller's last ping
};

// Asks the local controller. Throws as call_ctld does.
std::vector<StoreCluster> store_clusters();
// The local controller's federation ("" for none).
std::string local_federation();

// Runs fn once for each cluster of list ("a,b"; "all": every cluster of the store) with the
// commands' calls pointed at it; with headers, "CLUSTER: name" before each, as squeue and sinfo
// print. A name the store does not know, or whose controller never registered, is Slurm's
// error (status 1) before anything runs.
int for_each_cluster(std::string_view prog, std::string_view list, bool headers,
                     const std::function<int()> &fn);

// The clusters a status command asks with view: this cluster's federation's registered members,
// by name, when view (or, by default, FederationParameters=fed_display with no -M) asks for the
// federation and this cluster is in one; else none (only the local cluster, as usual).
std::vector<std::string> federation_view_clusters(StatusView view, bool clusters_named);

// The member of this cluster's federation that gave job_id (bits 26-31: its federation id) when
// that is another cluster, where requests about the job go (scancel, scontrol); "" for a job of
// this cluster, or an id of no member (asked of the controller only for such ids).
std::string origin_cluster(uint32_t job_id);
// The name of the member of this cluster's federation with federation id fed_id; "" for none.
std::string member_name(uint32_t fed_id);

// sbatch, salloc and srun's -M: the first cluster of list the accounting store knows ("all" and
// this cluster's own name: this one) takes the job, and the calls go there; Slurm's error and
// false when there is none.
bool choose_submit_cluster(std::string_view prog, std::string_view list);

// --cluster-constraint=[!]FEATURE,...: among the ACTIVE members of this cluster's federation (those
// of list, when -M gives one) that have every feature (with '!': none of them), this cluster when
// it is one, else the first, takes the job and the calls go there. Outside a federation the
// constraint does not apply (true, nothing changes). Otherwise "<fail_prefix>Invalid cluster
// feature specification" for a feature no member has, "<fail_prefix>No eligible clusters for
// federated job" when none is left, and false.
bool choose_by_cluster_features(std::string_view prog, const std::string *list,
                                std::string_view constraint, std::string_view fail_prefix);

// SLURM_WORKING_CLUSTER's value for the cluster the calls go to, NAME:ADDR:PORT:RPC; "" for the
// local cluster.
std::string working_cluster_value();

// Points the commands' calls at cluster name; false when it is not known or never registered.
bool use_cluster(std::string_view name);

} // namespace drover::cli
