// power_exclusions.cpp - SuspendExc* as in force: scontrol's changes, their record, reconfigure.
#include "ctld/power/power_exclusions.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "common/ascii.hpp"
#include "common/config.hpp"
#include "common/config_parse.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "ctld/context.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/store/committer.hpp"
#include "state/store.hpp"

namespace drover::ctld {

namespace {

// The record: "SuspendExcNodes=...\nSuspendExcParts=...\nSuspendExcStates=...".
constexpr std::string_view kRecordKey = "power/suspend_exc";

// have with given added (once each) or taken out.
std::vector<std::string> merged(std::vector<std::string> have,
                                const std::vector<std::string> &given, bool add) {
    for (const std::string &g : given) {
        auto it = std::find(have.begin(), have.end(), g);
        if (add && it == have.end()) have.push_back(g);
        if (!add && it != have.end()) have.erase(it);
    }
    return have;
}

} // namespace

PowerExclusions::PowerExclusions(const Ctx &ctx, const NodeManager &nodes)
    : ctx_(ctx), nodes_(nodes), in_force_(ctx.conf.power) {
    resolve();
}

void PowerExclusions::recover(bool cold_start) {
    auto rec = ctx_.store.get(state::Table::Meta, state::as_bytes(kRecordKey));
    if (!rec) return;
    if (cold_start) return ctx_.commit.txn().del(state::Table::Meta, state::as_bytes(kRecordKey));
    const std::string text(rec->begin(), rec->end());
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = std::min(text.find('\n', at), text.size());
        std::string_view line = std::string_view(text).substr(at, end - at);
        at = end + 1;
        std::size_t eq = line.find('=');
        if (eq == std::string_view::npos) continue;
        if (Status s = apply(line.substr(0, eq), "=", line.substr(eq + 1)); !s.ok())
            spdlog::error("power_save: the stored {} does not apply ({}); slurm.conf's stands",
                          line.substr(0, eq), s.text());
    }
    spdlog::info("power_save: SuspendExcNodes={} SuspendExcParts={} SuspendExcStates={} (as "
                 "scontrol set them)",
                 in_force_.exc_nodes, detail::join_list(in_force_.exc_parts),
                 detail::join_list(in_force_.exc_states));
}

Status PowerExclusions::update(std::string_view key, std::string_view op, std::string_view value) {
    if (Status s = apply(key, op, value); !s.ok()) return s;
    save();
    spdlog::info("power_save: {}{}{} by scontrol", key, op, value);
    return {};
}

Status PowerExclusions::apply(std::string_view key, std::string_view op, std::string_view value) {
    if (op != "=" && op != "+=" && op != "-=")
        return invalid("expected =, += or -= after " + std::string(key));
    const std::string k = ascii_lower(key);
    PowerSaveConf next = in_force_;
    try {
        if (k == "suspendexcnodes") {
            next.exc_nodes = nodes_after(op, value);
        } else if (k == "suspendexcparts") {
            next.exc_parts = parts_after(op, value);
        } else if (k == "suspendexcstates") {
            auto given = suspend_exc_states(value);
            next.exc_states = op == "=" ? given : merged(in_force_.exc_states, given, op == "+=");
        } else {
            return invalid("'" + std::string(key) +
                           "' is not SuspendExcNodes, SuspendExcParts or SuspendExcStates");
        }
    } catch (const ParseError &e) {
        return invalid(std::string(key) + ": " + e.what());
    }
    in_force_ = std::move(next);
    resolve();
    return {};
}

std::string PowerExclusions::nodes_after(std::string_view op, std::string_view value) const {
    std::vector<std::string> given;
    for (const auto &[hosts, count] : suspend_exc_node_sets(value))
        for (std::string &name : hostlist_expand(hosts)) {
            if (nodes_.index_of(name) < 0) throw ParseError("Invalid node name specified: " + name);
            given.push_back(std::move(name));
        }
    if (op == "=") return std::string(detail::trim(value));
    // A count belongs to its set as written: adding to or taking from it has no one meaning.
    if (value.find(':') != std::string_view::npos ||
        in_force_.exc_nodes.find(':') != std::string::npos)
        throw ParseError("+= and -= do not apply to sets with a ':' count; give the whole list "
                         "with =");
    std::vector<std::string> have;
    for (const auto &[hosts, count] : suspend_exc_node_sets(in_force_.exc_nodes))
        for (std::string &name : hostlist_expand(hosts)) have.push_back(std::move(name));
    return hostlist_compress(merged(std::move(have), given, op == "+="));
}

std::vector<std::string> PowerExclusions::parts_after(std::string_view op,
                                                      std::string_view value) const {
    std::vector<std::string> given = detail::split_list(value);
    for (const std::string &p : given)
        if (!nodes_.partition(p)) throw ParseError("Invalid partition name specified: " + p);
    return op == "=" ? given : merged(in_force_.exc_parts, given, op == "+=");
}

void PowerExclusions::reconfigured(const PowerSaveConf &file) {
    if (file.keep_power_save_settings) return;
    in_force_.exc_nodes = file.exc_nodes;
    in_force_.exc_parts = file.exc_parts;
    in_force_.exc_states = file.exc_states;
    resolve();
    ctx_.commit.txn().del(state::Table::Meta, state::as_bytes(kRecordKey));
    spdlog::info("power_save: SuspendExc* as the configuration gives them (reconfigure)");
}

void PowerExclusions::resolve() {
    sets_.clear();
    std::vector<std::pair<std::string, uint32_t>> sets;
    try {
        sets = suspend_exc_node_sets(in_force_.exc_nodes);
    } catch (const std::exception &) {} // refused when slurm.conf was read, or by apply
    for (const auto &[hosts, count] : sets) {
        ExcSet set{{}, count};
        for (const auto &name : hostlist_expand(hosts))
            if (int i = nodes_.index_of(name); i >= 0) set.nodes.push_back(uint32_t(i));
        sets_.push_back(std::move(set));
    }
}

void PowerExclusions::save() {
    std::string text = "SuspendExcNodes=" + in_force_.exc_nodes +
                       "\nSuspendExcParts=" + detail::join_list(in_force_.exc_parts) +
                       "\nSuspendExcStates=" + detail::join_list(in_force_.exc_states);
    ctx_.commit.txn().put(state::Table::Meta, state::as_bytes(kRecordKey), state::as_bytes(text));
}

Bitmap PowerExclusions::excluded() const {
    Bitmap avoid(nodes_.size());
    for (const ExcSet &set : sets_) {
        // With a count, that many of the set's usable nodes that are up stay up.
        uint32_t kept = 0;
        for (uint32_t i : set.nodes) {
            const Node &n = nodes_.at(i);
            constexpr uint32_t kOff =
                DROVER_NODE_FLAG_POWERED_DOWN | DROVER_NODE_FLAG_POWERING_DOWN;
            if (set.count && (kept >= set.count || !n.usable() || (n.flags & kOff))) continue;
            avoid.set(i);
            ++kept;
        }
    }
    for (const auto &name : in_force_.exc_parts)
        if (const Partition *part = nodes_.partition(name)) avoid |= part->nodes;
    return avoid;
}

bool PowerExclusions::excluded_state(const Node &n) const {
    for (const std::string &s : in_force_.exc_states) {
        if ((s == "DOWN" && n.state == DROVER_NODE_DOWN) ||
            (s == "DRAIN" && (n.flags & DROVER_NODE_FLAG_DRAIN)) ||
            (s == "CLOUD" && (n.flags & DROVER_NODE_FLAG_CLOUD)) ||
            (s == "NOT_RESPONDING" && (n.flags & DROVER_NODE_FLAG_NOT_RESPONDING)))
            return true;
    }
    return false;
}

} // namespace drover::ctld
