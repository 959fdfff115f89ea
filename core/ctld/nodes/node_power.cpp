// node_power.cpp - the power saving states of a node, as Slurm's Power Saving and Cloud
// Scheduling guides describe them: POWERED_DOWN (~) while off, POWERING_UP (#) from its
// allocation (or scontrol POWER_UP) until it registers, POWER_DOWN (!) while it waits to be idle
// to power down, POWERING_DOWN (%) from SuspendProgram until SuspendTimeout. The PowerSaver
// (ctld/power) decides when and runs the programs; this file keeps the node's side.
#include <spdlog/spdlog.h>

#include "common/hostlist.hpp"
#include "ctld/events.hpp"
#include "ctld/nodes/node_mgr.hpp"

namespace drover::ctld {

bool NodeManager::any_powering_up(const std::vector<uint32_t> &idx) const {
    for (uint32_t i : idx)
        if (i < nodes_.size() && (nodes_[i].flags & DROVER_NODE_FLAG_POWERING_UP)) return true;
    return false;
}

std::string NodeManager::aliases(const std::vector<uint32_t> &idx) const {
    if (ctx_.conf.power.cloud_dns) return {};
    std::string out;
    for (uint32_t i : idx) {
        const Node &n = nodes_.at(i);
        if (!(n.flags & DROVER_NODE_FLAG_CLOUD)) continue;
        if (!out.empty()) out += ',';
        out += n.conf->name + ':' + (n.addr.empty() ? ctx_.conf.node_addr(*n.conf) : n.addr.get()) +
               ':' + (n.hostname.empty() ? ctx_.conf.node_hostname(*n.conf) : n.hostname.get());
    }
    return out;
}

void NodeManager::want_resume(Node &n) {
    n.flags = (n.flags & ~(DROVER_NODE_FLAG_POWERED_DOWN | DROVER_NODE_FLAG_POWER_DOWN)) |
              DROVER_NODE_FLAG_POWERING_UP;
    n.power_time = 0;
    refresh_state(n);
    persist(n);
    ctx_.events.power_wanted.publish();
}

void NodeManager::power_down_if_idle(Node &n) {
    constexpr uint32_t kPowering = DROVER_NODE_FLAG_POWERING_DOWN | DROVER_NODE_FLAG_POWERED_DOWN |
                                   DROVER_NODE_FLAG_POWER_DOWN;
    if (n.flags & kPowering) return;
    for (const Partition &p : parts_) {
        if (!p.conf->power_down_on_idle || !p.nodes.test(n.index)) continue;
        n.flags |= DROVER_NODE_FLAG_POWER_DOWN;
        refresh_state(n);
        persist(n);
        ctx_.events.power_wanted.publish();
        return;
    }
}

void NodeManager::resume_issued(uint32_t index) {
    Node &n = nodes_[index];
    n.power_time = Ctx::now();
    persist(n);
}

void NodeManager::resume_failed(uint32_t index) {
    Node &n = nodes_[index];
    spdlog::info("node {} did not register within ResumeTimeout: DOWN and powered down",
                 n.conf->name);
    n.flags &=
        ~(DROVER_NODE_FLAG_DRAIN | DROVER_NODE_FLAG_POWER_DOWN | DROVER_NODE_FLAG_POWERING_UP);
    n.flags |= DROVER_NODE_FLAG_POWERED_DOWN;
    n.power_time = 0;
    n.last_busy = 0;
    // Its jobs are requeued (or end NODE_FAIL when they may not be) by node_failed.
    set_down(n, "ResumeTimeout reached", ctx_.slurm_uid);
}

void NodeManager::suspend_issued(uint32_t index, bool idle_on_suspend) {
    Node &n = nodes_[index];
    // POWER_DOWN_ASAP drained it to let its jobs end: that is done.
    if ((n.flags & DROVER_NODE_FLAG_POWER_DOWN) && (n.flags & DROVER_NODE_FLAG_DRAIN))
        n.flags &= ~DROVER_NODE_FLAG_DRAIN;
    n.flags = (n.flags & ~(DROVER_NODE_FLAG_POWER_DOWN | DROVER_NODE_FLAG_NOT_RESPONDING)) |
              DROVER_NODE_FLAG_POWERING_DOWN;
    n.power_time = Ctx::now();
    n.registered = false;
    if (idle_on_suspend) { // SlurmctldParameters=idle_on_node_suspend
        if (n.state == DROVER_NODE_DOWN) n.state = DROVER_NODE_IDLE;
        n.flags &= ~DROVER_NODE_FLAG_DRAIN;
        n.reason.clear();
        n.reason_time = 0;
    }
    refresh_state(n);
    persist(n);
}

void NodeManager::suspend_done(uint32_t index) {
    Node &n = nodes_[index];
    n.flags = (n.flags & ~DROVER_NODE_FLAG_POWERING_DOWN) | DROVER_NODE_FLAG_POWERED_DOWN;
    n.power_time = 0;
    n.last_busy = 0;
    labels_only(n); // its changeable features go with it
    if ((n.flags & DROVER_NODE_FLAG_CLOUD) && ctx_.conf.power.cloud_reg_addrs) {
        n.addr.clear();
        n.hostname.clear();
    }
    refresh_state(n);
    persist(n);
    spdlog::info("node {} powered down", n.conf->name);
    ctx_.events.queue_changed.publish(); // it may be allocated again
}

void NodeManager::learn_address(Node &n, const std::string &peer) {
    if (!(n.flags & DROVER_NODE_FLAG_CLOUD) || !ctx_.conf.power.cloud_reg_addrs) return;
    std::string host = peer.substr(0, peer.rfind(':'));
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2); // "[::1]:6818"
    if (host.empty() || host == n.addr.get()) return;
    n.addr = texts_.get(host);
    spdlog::info("node {}: NodeAddr={} (cloud_reg_addrs)", n.conf->name, host);
}

Status NodeManager::set_addresses(const std::vector<Node *> &targets,
                                  const proto::NodeUpdateRequest &r) {
    std::vector<std::string> addrs, hosts;
    try {
        if (r.addr() && r.addr()->size()) addrs = hostlist_expand(r.addr()->str());
        if (r.hostname() && r.hostname()->size()) hosts = hostlist_expand(r.hostname()->str());
    } catch (const std::exception &e) {
        return {DROVER_EINVAL, e.what()};
    }
    for (const auto *list : {&addrs, &hosts})
        if (list->size() > 1 && list->size() != targets.size())
            return {DROVER_EINVAL, "NodeAddr and NodeHostname need one name for every node, or "
                                   "one for all (" +
                                       std::to_string(targets.size()) + " nodes)"};
    for (std::size_t k = 0; k < targets.size(); ++k) {
        Node &n = *targets[k];
        if (!addrs.empty()) n.addr = texts_.get(addrs.size() == 1 ? addrs[0] : addrs[k]);
        if (!hosts.empty()) n.hostname = texts_.get(hosts.size() == 1 ? hosts[0] : hosts[k]);
        if (!addrs.empty() || !hosts.empty())
            spdlog::info("node {}: NodeAddr={} NodeHostName={}", n.conf->name,
                         n.addr.empty() ? ctx_.conf.node_addr(*n.conf) : n.addr.get(),
                         n.hostname.empty() ? ctx_.conf.node_hostname(*n.conf) : n.hostname.get());
    }
    return {};
}

bool NodeManager::is_power_state(const std::string &state) {
    return state == "power_up" || state == "power_down" || state == "power_down_asap" ||
           state == "power_down_force";
}

void NodeManager::power_update(Node &n, const std::string &state) {
    if (state == "resume") {
        // A node powering down is taken as off now; one waiting to power down no longer does.
        if (n.flags & DROVER_NODE_FLAG_POWERING_DOWN) {
            suspend_done(n.index);
        } else if (n.flags & DROVER_NODE_FLAG_POWER_DOWN) {
            n.flags &= ~DROVER_NODE_FLAG_POWER_DOWN;
        }
        return;
    }
    if (state == "power_up") {
        if ((n.flags & DROVER_NODE_FLAG_POWERED_DOWN) &&
            !(n.flags & DROVER_NODE_FLAG_POWERING_DOWN))
            want_resume(n);
        return;
    }
    // POWER_DOWN, _ASAP (drained first: no new job) and _FORCE (its jobs end or are requeued
    // now, as after a node failure): powered down once it has no job.
    if (n.flags & (DROVER_NODE_FLAG_POWERED_DOWN | DROVER_NODE_FLAG_POWERING_DOWN)) return;
    n.flags |= DROVER_NODE_FLAG_POWER_DOWN;
    if (state == "power_down_asap") n.flags |= DROVER_NODE_FLAG_DRAIN;
    refresh_state(n);
    if (state == "power_down_force" && n.run_jobs) ctx_.events.node_failed.publish(n.index);
    ctx_.events.power_wanted.publish();
}

} // namespace drover::ctld
