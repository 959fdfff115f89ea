// node_reboot.cpp - scontrol reboot and cancel_reboot, as Slurm's scontrol(1) describes them: a
// node marked REBOOT_REQUESTED (and drained, with ASAP) is sent the reboot once it is idle; it
// is then REBOOT_ISSUED, out of scheduling, until its node daemon registers again (the reboot
// done: the node takes nextstate), or ResumeTimeout passes (DOWN, "reboot timed out").
#include <spdlog/spdlog.h>

#include "common/ascii.hpp"
#include "common/hostlist.hpp"
#include "ctld/events.hpp"
#include "ctld/nodes/node_calls.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/store/committer.hpp"

namespace drover::ctld {

namespace {

constexpr uint32_t kRebootFlags =
    DROVER_NODE_FLAG_REBOOT_REQUESTED | DROVER_NODE_FLAG_REBOOT_ISSUED;

} // namespace

void NodeManager::set_reason(Node &n, const std::string &reason, uint32_t uid) {
    n.reason = texts_.get(reason);
    n.reason_time = Ctx::now();
    n.reason_uid = uid;
}

void NodeManager::on_reboot(const std::shared_ptr<net::Request> &req,
                            const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_NodeRebootRequest();
    std::string list = r->names() ? r->names()->str() : "";
    std::vector<Node *> targets;
    if (list.empty() || ascii_upper(list) == "ALL") {
        for (Node &n : nodes_) targets.push_back(&n);
    } else {
        std::vector<std::string> names;
        try {
            names = hostlist_expand(list);
        } catch (const std::exception &e) {
            return resp->error(DROVER_EINVAL, e.what());
        }
        for (const auto &name : names) {
            Node *n = find(name);
            if (!n) return resp->error(DROVER_ENOENT, "Invalid node name specified");
            targets.push_back(n);
        }
    }
    if (r->cancel()) {
        for (Node *n : targets) // all or nothing: an issued reboot cannot be taken back
            if (n->flags & DROVER_NODE_FLAG_REBOOT_ISSUED)
                return resp->error(DROVER_EINVAL, "Reboot already in progress");
        for (Node *n : targets) cancel_reboot(*n);
    } else {
        for (Node *n : targets) request_reboot(*n, *r, req->peer.uid);
    }
    ctx_.events.queue_changed.publish();
    ctx_.commit.after_commit([resp] { resp->ok(); });
}

void NodeManager::request_reboot(Node &n, const proto::NodeRebootRequest &r, uint32_t uid) {
    if (n.state == DROVER_NODE_FUTURE) return;
    n.flags |= DROVER_NODE_FLAG_REBOOT_REQUESTED;
    n.reboot_next = ascii_upper(r.next_state() ? r.next_state()->str() : "");
    std::string reason = r.reason() ? r.reason()->str() : "";
    if (r.asap()) {
        n.reboot_asap = !(n.flags & DROVER_NODE_FLAG_DRAIN); // undone with it, if ASAP did it
        n.flags |= DROVER_NODE_FLAG_DRAIN;
        if (reason.empty()) reason = "Reboot ASAP";
    }
    if (reason.empty() && n.reason.empty()) reason = "reboot requested";
    if (!reason.empty()) {
        set_reason(n, reason, uid);
        n.reboot_reason = true;
    }
    refresh_state(n);
    persist(n);
    spdlog::info("node {}: reboot requested{}{}", n.conf->name, r.asap() ? " (ASAP)" : "",
                 n.reboot_next.empty() ? "" : ", next state " + n.reboot_next);
}

void NodeManager::cancel_reboot(Node &n) {
    if (!(n.flags & DROVER_NODE_FLAG_REBOOT_REQUESTED)) return;
    n.flags &= ~DROVER_NODE_FLAG_REBOOT_REQUESTED;
    if (n.reboot_asap) n.flags &= ~DROVER_NODE_FLAG_DRAIN;
    if (n.reboot_reason) {
        n.reason.clear();
        n.reason_time = 0;
    }
    n.reboot_next.clear();
    n.reboot_asap = n.reboot_reason = false;
    refresh_state(n);
    persist(n);
    spdlog::info("node {}: reboot cancelled", n.conf->name);
}

void NodeManager::reboot_tick() {
    int64_t now = Ctx::now();
    for (Node &n : nodes_) {
        // Idle (its last Epilog done too) and answering; a DOWN node reboots as well.
        constexpr uint32_t kBusy = DROVER_NODE_FLAG_COMPLETING | DROVER_NODE_FLAG_NOT_RESPONDING;
        if ((n.flags & DROVER_NODE_FLAG_REBOOT_REQUESTED) && n.run_jobs == 0 &&
            n.state != DROVER_NODE_UNKNOWN && !(n.flags & kBusy))
            issue_reboot(n);
        else if ((n.flags & DROVER_NODE_FLAG_REBOOT_ISSUED) &&
                 now - n.reboot_issued >= int64_t(ctx_.conf.power.resume_timeout)) {
            n.flags &= ~kRebootFlags;
            n.reboot_next.clear();
            n.reboot_asap = n.reboot_reason = false;
            set_down(n, n.reason.get() + " : reboot timed out", ctx_.slurm_uid);
        }
    }
}

void NodeManager::issue_reboot(Node &n) {
    n.flags = (n.flags & ~DROVER_NODE_FLAG_REBOOT_REQUESTED) | DROVER_NODE_FLAG_REBOOT_ISSUED;
    n.reboot_issued = Ctx::now();
    set_reason(n, n.reason.get() + " : reboot issued", n.reason_uid);
    refresh_state(n);
    persist(n);
    spdlog::info("node {}: reboot issued", n.conf->name);
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::NodeRebootRequest,
                                    proto::CreateNodeRebootRequest(fbb).Union(), ctx_.epoch));
    // The node may well not answer (it is going down): what counts is its next registration.
    call_nodes(ctx_, {n.conf->name},
               {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()}, 10000,
               [name = n.conf->name](std::vector<net::NodeOutcome> results) {
                   for (const auto &r : results)
                       if (r.rc != 0) spdlog::info("node {}: reboot: {}", name, r.message);
               });
}

bool NodeManager::reboot_done(Node &n) {
    n.flags &= ~kRebootFlags;
    spdlog::info("node {}: rebooted{}", n.conf->name,
                 n.reboot_next.empty() ? "" : ", now " + n.reboot_next);
    if (n.reboot_next == "DOWN") {
        n.state = DROVER_NODE_DOWN;
        if (n.reboot_asap) n.flags &= ~DROVER_NODE_FLAG_DRAIN;
        set_reason(n, n.reason.get() + " : reboot complete", n.reason_uid);
    } else {
        // RESUME, or ASAP without a next state: back in service, reason and drain undone.
        bool resume = n.reboot_next == "RESUME";
        if (resume || n.reboot_asap) n.flags &= ~DROVER_NODE_FLAG_DRAIN;
        if (resume || n.reboot_reason) {
            n.reason.clear();
            n.reason_time = 0;
        }
        if (n.state == DROVER_NODE_DOWN || n.state == DROVER_NODE_UNKNOWN)
            n.state = DROVER_NODE_IDLE;
    }
    bool down = n.reboot_next == "DOWN";
    n.reboot_next.clear();
    n.reboot_asap = n.reboot_reason = false;
    n.reboot_issued = 0;
    refresh_state(n);
    persist(n);
    return down;
}

} // namespace drover::ctld
