// clusters.cpp - -M/--clusters: the store's clusters from the local controller, and the switch.
#include "cli/clusters.hpp"

#include "proto/fb_read.hpp"

#include <algorithm>
#include <optional>

#include "cli/rpc.hpp"
#include "cli/text.hpp"

namespace drover::cli {

namespace {

// The protocol version SLURM_WORKING_CLUSTER carries, as sacctmgr shows a cluster's RPC.
constexpr const char *kRpcVersion = "9984";

struct Known {
    std::string federation;
    std::vector<StoreCluster> clusters;
};

// Asked once per process.
const Known &known() {
    static std::optional<Known> k;
    if (k) return *k;
    flatbuffers::FlatBufferBuilder fbb(64);
    net::Reply reply =
        call_local_ctld(fbb, proto::Body::FedInfoRequest, proto::CreateFedInfoRequest(fbb).Union());
    const auto *r = reply.as<proto::FedInfoResponse>();
    Known out;
    out.federation = proto::str(r->federation());
    if (r->clusters())
        for (const auto *c : *r->clusters()) {
            StoreCluster s{proto::str(c->name()),
                           proto::str(c->federation()),
                           proto::str(c->state()),
                           c->id(),
                           {},
                           {},
                           c->port(),
                           c->reachable()};
            if (c->features())
                for (const auto *f : *c->features()) s.features.push_back(f->str());
            if (c->hosts() && c->addrs())
                for (flatbuffers::uoffset_t i = 0; i < c->hosts()->size() && i < c->addrs()->size();
                     ++i)
                    s.controllers.push_back({c->hosts()->Get(i)->str(), c->addrs()->Get(i)->str()});
            out.clusters.push_back(std::move(s));
        }
    k = std::move(out);
    return *k;
}

// Whether the commands can reach it: this cluster, or one whose controller registered.
bool reachable_here(const StoreCluster &c) {
    return c.port || c.name == cli_config().cluster_name;
}

// The members of this cluster's federation the commands can reach, by name.
std::vector<const StoreCluster *> federation_members() {
    std::vector<const StoreCluster *> out;
    const std::string &fed = known().federation;
    if (fed.empty()) return out;
    for (const auto &c : known().clusters)
        if (c.federation == fed && reachable_here(c)) out.push_back(&c);
    return out;
}

} // namespace

std::vector<StoreCluster> store_clusters() {
    return known().clusters;
}

std::string local_federation() {
    return known().federation;
}

std::vector<std::string> federation_view_clusters(StatusView view, bool clusters_named) {
    bool wanted = view == StatusView::Federation ||
                  (view == StatusView::Default && !clusters_named && cli_config().fed_display());
    std::vector<std::string> out;
    if (!wanted) return out;
    for (const auto *c : federation_members()) out.push_back(c->name);
    return out;
}

std::string origin_cluster(uint32_t job_id) {
    std::string name = member_name(job_id >> 26);
    return name == cli_config().cluster_name ? std::string() : name;
}

std::string member_name(uint32_t fed_id) {
    if (fed_id == 0 || local_federation().empty()) return {};
    for (const auto &c : known().clusters)
        if (c.federation == local_federation() && c.fed_id == fed_id) return c.name;
    return {};
}

bool use_cluster(std::string_view name) {
    std::string want = to_lower(name);
    if (want == cli_config().cluster_name) {
        set_working_cluster(std::nullopt);
        return true;
    }
    for (const auto &c : known().clusters)
        if (c.name == want && c.port && !c.controllers.empty()) {
            set_working_cluster(WorkingCluster{c.name, c.controllers, c.port});
            return true;
        }
    return false;
}

bool choose_submit_cluster(std::string_view prog, std::string_view list) {
    for (const auto &name : split(list, ','))
        if (to_lower(trim(name)) == "all" || use_cluster(trim(name))) return true;
    print_error(prog, unreachable_clusters(list));
    return false;
}

namespace {

bool has_feature(const StoreCluster &c, const std::string &f) {
    return std::find(c.features.begin(), c.features.end(), f) != c.features.end();
}

} // namespace

bool choose_by_cluster_features(std::string_view prog, const std::string *list,
                                std::string_view constraint, std::string_view fail_prefix) {
    if (local_federation().empty()) return true;
    bool negate = !constraint.empty() && constraint.front() == '!';
    std::vector<std::string> wanted = split(constraint.substr(negate ? 1 : 0), ',');
    std::vector<std::string> named;
    if (list)
        for (const auto &n : split(*list, ',')) named.push_back(to_lower(trim(n)));
    std::vector<const StoreCluster *> members = federation_members(), viable;
    for (const auto &f : wanted)
        if (std::none_of(members.begin(), members.end(),
                         [&](const StoreCluster *c) { return has_feature(*c, f); })) {
            print_error(prog, std::string(fail_prefix) + "Invalid cluster feature specification");
            return false;
        }
    for (const auto *c : members) {
        bool any = std::any_of(wanted.begin(), wanted.end(),
                               [&](const auto &f) { return has_feature(*c, f); });
        bool all = std::all_of(wanted.begin(), wanted.end(),
                               [&](const auto &f) { return has_feature(*c, f); });
        bool listed =
            named.empty() || std::find(named.begin(), named.end(), c->name) != named.end();
        if (c->fed_state == "ACTIVE" && listed && (negate ? !any : all)) viable.push_back(c);
    }
    if (viable.empty()) {
        print_error(prog, std::string(fail_prefix) + "No eligible clusters for federated job");
        return false;
    }
    for (const auto *c : viable)
        if (c->name == cli_config().cluster_name) return use_cluster(c->name);
    return use_cluster(viable.front()->name);
}

std::string working_cluster_value() {
    const Config &c = target_config();
    if (&c == &cli_config() || c.controllers.empty()) return {};
    const auto &h = c.controllers.front();
    return c.cluster_name + ":" + (h.addr.empty() ? h.name : h.addr) + ":" +
           std::to_string(c.slurmctld_port) + ":" + kRpcVersion;
}

int for_each_cluster(std::string_view prog, std::string_view list, bool headers,
                     const std::function<int()> &fn) {
    std::vector<std::string> names;
    if (to_lower(trim(list)) == "all") {
        for (const auto &c : known().clusters)
            if (reachable_here(c)) names.push_back(c.name);
    } else {
        for (const auto &n : split(list, ',')) names.push_back(to_lower(trim(n)));
    }
    for (const auto &n : names)
        if (!use_cluster(n)) {
            print_error(prog, unreachable_clusters(list));
            return 1;
        }
    int rc = 0;
    for (const auto &n : names) {
        use_cluster(n);
        if (headers) write_out("CLUSTER: " + n + "\n");
        rc |= fn();
    }
    set_working_cluster(std::nullopt);
    return rc;
}

} // namespace drover::cli
