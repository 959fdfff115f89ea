// node_features.cpp - changeable node features (NodeFeaturesPlugins=node_features/helpers), as
// Slurm's Cloud Scheduling guide gives them for nodes that power up: helpers.conf's features are
// available but not active while a node is powered down, the ones its job asks for become active
// when it is allocated, and they stay active until it is powered down again. Its other features
// are labels, always active.
#include <algorithm>
#include <functional>

#include <spdlog/spdlog.h>

#include "common/config_parse.hpp"
#include "ctld/nodes/features.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "plugin/cstr.hpp"

namespace drover::ctld {

void NodeManager::load_helpers() {
    helpers_ = load_helpers_conf(ctx_.conf); // a bad file stops the controller
    if (helpers_plugin(ctx_.conf) && helpers_.path.empty())
        spdlog::warn("node_features/helpers: no helpers.conf beside {}; no feature is changeable",
                     ctx_.conf.path);
    for (Node &n : nodes_)
        if (n.flags & DROVER_NODE_FLAG_POWERED_DOWN) labels_only(n);
}

const std::string &NodeManager::active_features(const Node &n) const {
    return n.active_own ? n.active_csv.get() : n.features_csv.get();
}

const std::string &NodeManager::selectable_features(const Node &n) const {
    return (n.flags & DROVER_NODE_FLAG_POWERED_DOWN) ? n.features_csv.get() : active_features(n);
}

std::string NodeManager::conflicting_features(std::string_view constraint) const {
    if (helpers_.mutually_exclusive.empty() || constraint.empty()) return {};
    return helpers_.conflict(constraint_names(constraint));
}

namespace {

bool has(const std::vector<std::string> &list, const std::string &f) {
    return std::find(list.begin(), list.end(), f) != list.end();
}

} // namespace

bool NodeManager::make_active(Node &n, const std::function<bool(const std::string &)> &keep) {
    std::vector<std::string> changeable = helpers_.changeable(n.conf->features);
    if (changeable.empty()) return false;
    std::vector<std::string> active;
    for (const std::string &f : n.conf->features)
        if (!has(changeable, f) || keep(f)) active.push_back(f);
    n.active_csv = texts_.get(detail::join_list(active));
    n.active_own = true;
    show_features(n);
    return true;
}

void NodeManager::activate_features(Node &n, const std::string &constraint) {
    std::vector<std::string> asked = constraint_names(constraint);
    make_active(n, [&](const std::string &f) { return has(asked, f); });
}

void NodeManager::labels_only(Node &n) {
    make_active(n, [](const std::string &) { return false; });
}

void NodeManager::reported_features(Node &n, const std::string &reported) {
    std::vector<std::string> changeable = helpers_.changeable(n.conf->features);
    std::vector<std::string> got = detail::split_list(reported), missing;
    if (n.active_own)
        for (const std::string &f : detail::split_list(n.active_csv.get()))
            if (has(changeable, f) && !has(got, f)) missing.push_back(f);
    if (!missing.empty()) {
        std::string why = "Reported active features lack " + detail::join_list(missing);
        spdlog::error("node {}: {} (reported {})", n.conf->name, why, reported);
        n.flags |= DROVER_NODE_FLAG_DRAIN;
        n.reason = texts_.get(why);
        n.reason_time = Ctx::now();
        n.reason_uid = ctx_.slurm_uid;
        return persist(n);
    }
    if (make_active(n, [&](const std::string &f) { return has(got, f); })) write(n);
}

void NodeManager::show_features(Node &n) {
    views_[n.index].features = plugin::cstr(selectable_features(n));
}

} // namespace drover::ctld
