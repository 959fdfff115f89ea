// scontrol_fed.cpp - scontrol show federation: this cluster's federation as its controller knows
// it from the accounting store, itself first, then each sibling and whether its controller
// answered this cluster's controller's last ping.
#include "cli/scontrol_fed.hpp"

#include "proto/fb_read.hpp"

#include <algorithm>
#include <cstdio>

#include "cli/clusters.hpp"
#include "cli/rpc.hpp"
#include "cli/text.hpp"

namespace drover::cli {

namespace {

std::string line(const char *label, const StoreCluster &c) {
    char head[16];
    std::snprintf(head, sizeof head, "%-11s ", label);
    std::string host = c.controllers.empty() ? "" : c.controllers.front().addr, features;
    for (const auto &f : c.features) features += (features.empty() ? "" : ",") + f;
    return head + c.name + ":" + host + ":" + std::to_string(c.port) +
           " ID:" + std::to_string(c.fed_id) + " FedState:" + c.fed_state + " Features:" + features;
}

} // namespace

int show_federation() {
    std::string fed = local_federation();
    if (fed.empty()) return 0; // not in a federation: Slurm prints nothing
    auto clusters = store_clusters();
    std::sort(clusters.begin(), clusters.end(),
              [](const auto &a, const auto &b) { return a.name < b.name; });
    const std::string &self = cli_config().cluster_name;
    std::string out = "Federation: " + fed + "\n";
    for (const auto &c : clusters)
        if (c.name == self && c.federation == fed) out += line("Self:", c) + "\n";
    for (const auto &c : clusters) {
        if (c.name == self || c.federation != fed) continue;
        std::string yes = c.reachable ? "Yes" : "No";
        out += line("Sibling:", c) + " PersistConnSend/Recv:" + yes + "/" + yes + "\n";
    }
    write_out(out);
    return 0;
}

} // namespace drover::cli
