// node_mgr.cpp - nodes and partitions: registration, admin updates, pings, selection views.
#include "ctld/nodes/node_mgr.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "common/ascii.hpp"
#include "common/config_parse.hpp"
#include "common/gres.hpp"
#include "common/hostlist.hpp"
#include "ctld/acct/acct_recorder.hpp"
#include "ctld/store/committer.hpp"
#include "ctld/jobs/job.hpp"
#include "ctld/events.hpp"
#include "ctld/nodes/node_calls.hpp"
#include "ctld/privacy.hpp"
#include "net/authenticator.hpp"
#include "net/fanout.hpp"
#include "state/store.hpp"
#include "plugin/cstr.hpp"
#include "proto/fb_read.hpp"

namespace drover::ctld {

namespace {

uint32_t initial_state(const std::string &s, uint32_t *flags) {
    std::string v = ascii_lower(s);
    if (v == "future") return DROVER_NODE_FUTURE;
    if (v == "down") return DROVER_NODE_DOWN;
    if (v == "drain") *flags |= DROVER_NODE_FLAG_DRAIN;
    if (v == "cloud") {
        // Not there until allocated: idle and powered down, powered up for its first job.
        *flags |= DROVER_NODE_FLAG_CLOUD | DROVER_NODE_FLAG_POWERED_DOWN;
        return DROVER_NODE_IDLE;
    }
    return DROVER_NODE_UNKNOWN;
}

// Slurm's reason when a node has fewer generic resources than slurm.conf gives it.
std::string gres_shortfall(const std::string &configured, const std::string &reported) {
    try {
        auto want = parse_node_gres(configured), have = parse_node_gres(reported);
        for (const auto &w : want) {
            uint64_t need = gres_total(want, w.name), got = gres_total(have, w.name);
            if (got < need)
                return "gres/" + w.name + " count reported lower than configured (" +
                       std::to_string(got) + " < " + std::to_string(need) + ")";
        }
    } catch (const std::exception &e) {
        return std::string("bad gres report: ") + e.what();
    }
    return {};
}

} // namespace

NodeManager::NodeManager(Ctx &ctx) : ctx_(ctx) {
    nodes_.resize(ctx.conf.nodes.size());
    for (uint32_t i = 0; i < nodes_.size(); ++i) {
        Node &n = nodes_[i];
        n.conf = &ctx.conf.nodes[i];
        n.index = i;
        n.state = initial_state(n.conf->state, &n.flags);
        n.features_csv = texts_.get(detail::join_list(n.conf->features));
    }
    ctx.node_addrs = [this](const std::string &name) -> const std::string * {
        const Node *n = find(name);
        return n && !n->addr.empty() ? &n->addr.get() : nullptr;
    };
    views_.resize(nodes_.size());
    for (uint32_t i = 0; i < nodes_.size(); ++i) {
        const NodeConf &c = *nodes_[i].conf;
        drover_node_view &v = views_[i];
        v.struct_size = sizeof v;
        v.name = plugin::cstr(c.name);
        v.cpus = c.cpus;
        v.sockets = c.sockets;
        v.cores_per_socket = c.cores_per_socket;
        v.threads_per_core = c.threads_per_core;
        v.real_memory_mb = c.real_memory_mb;
        v.tmp_disk_mb = c.tmp_disk_mb;
        v.weight = c.weight;
        v.features = plugin::cstr(nodes_[i].features_csv);
        v.gres = plugin::cstr(c.gres);
        v.state = nodes_[i].state;
        v.flags = nodes_[i].flags;
    }
    load_helpers();
    for (const auto &pc : ctx.conf.partitions)
        parts_.push_back(make_partition(std::make_shared<PartitionConf>(pc)));
    // slurm.conf's first partition is the default when none says Default=YES: marked so, so that
    // scontrol can move the mark or take it off (leaving no default, as in Slurm).
    if (!parts_.empty() && std::none_of(parts_.begin(), parts_.end(),
                                        [](const Partition &p) { return p.conf->is_default; }))
        parts_.front().conf->is_default = true;
}

void NodeManager::recover(bool cold_start) {
    ctx_.store.scan(state::Table::Nodes, [&](state::Bytes key, state::Bytes value) {
        flatbuffers::Verifier v(value.data(), value.size());
        if (!v.VerifyBuffer<proto::NodeInfo>(nullptr)) return;
        const auto *info = flatbuffers::GetRoot<proto::NodeInfo>(value.data());
        Node *n = find(std::string(key.begin(), key.end()));
        if (!n) return;
        if (info->state() == DROVER_NODE_DOWN) n->state = DROVER_NODE_DOWN;
        constexpr uint32_t kKept = DROVER_NODE_FLAG_DRAIN | DROVER_NODE_FLAG_REBOOT_REQUESTED |
                                   DROVER_NODE_FLAG_REBOOT_ISSUED | DROVER_NODE_FLAG_POWERED_DOWN |
                                   DROVER_NODE_FLAG_POWERING_UP | DROVER_NODE_FLAG_POWERING_DOWN |
                                   DROVER_NODE_FLAG_POWER_DOWN;
        n->flags = (n->flags & ~kKept) | (info->flags() & kKept);
        n->reboot_next = info->reboot_next() ? info->reboot_next()->str() : "";
        n->reboot_asap = info->reboot_asap();
        n->reboot_reason = info->reboot_reason();
        n->reboot_issued = info->reboot_issued();
        n->power_time = info->power_time();
        n->active_own = info->active_features() != nullptr;
        n->active_csv = texts_.get(proto::str(info->active_features()));
        if (!n->active_own && (n->flags & DROVER_NODE_FLAG_POWERED_DOWN)) labels_only(*n);
        if (!cold_start) {
            n->addr = texts_.get(info->addr() ? info->addr()->string_view() : "");
            n->hostname = texts_.get(info->hostname() ? info->hostname()->string_view() : "");
        }
        n->reason = texts_.get(info->reason() ? info->reason()->string_view() : "");
        n->reason_time = info->reason_time();
        n->reason_uid = info->reason_uid();
        if (info->event_start()) // the event open in the store began as the node is now
            n->event =
                OpenNodeEvent{info->event_start(), n->reason, info->state() == DROVER_NODE_DOWN,
                              (info->flags() & DROVER_NODE_FLAG_DRAIN) != 0};
        // Nodes were up when we stopped: keep scheduling on them; pings will tell.
        if (info->state() != DROVER_NODE_DOWN && info->state() != DROVER_NODE_UNKNOWN &&
            n->state == DROVER_NODE_UNKNOWN) {
            n->state = DROVER_NODE_IDLE;
            n->last_response = Ctx::now();
        }
        refresh_state(*n);
    });
    recover_partitions();
}

Node *NodeManager::find(const std::string &name) {
    int i = index_of(name);
    return i < 0 ? nullptr : &nodes_[std::size_t(i)];
}

// The config's name index serves the controller too: node i is the config's node i.
int NodeManager::index_of(const std::string &name) const {
    const NodeConf *c = ctx_.conf.find_node(name);
    return c ? int(c - ctx_.conf.nodes.data()) : -1;
}

std::string NodeManager::names(const std::vector<uint32_t> &idx) const {
    std::vector<std::string> v;
    v.reserve(idx.size());
    for (auto i : idx) v.push_back(nodes_[i].conf->name);
    return hostlist_compress(v);
}

const Partition *NodeManager::partition(const std::string &name) const {
    for (const auto &p : parts_)
        if (p.conf->name == name) return &p;
    return nullptr;
}

Partition *NodeManager::partition(const std::string &name) {
    return const_cast<Partition *>(std::as_const(*this).partition(name));
}

Partition *NodeManager::default_partition() {
    for (auto &p : parts_)
        if (p.conf->is_default) return &p;
    return nullptr;
}

Bitmap NodeManager::usable(const Partition &p) const {
    Bitmap b(nodes_.size());
    for (std::size_t i = p.nodes.next(0); i < p.nodes.size(); i = p.nodes.next(i + 1))
        if (nodes_[i].usable()) b.set(i);
    return b;
}

void NodeManager::refresh_state(Node &n) {
    if (n.state != DROVER_NODE_DOWN && n.state != DROVER_NODE_FUTURE &&
        !(n.state == DROVER_NODE_UNKNOWN && !n.registered && n.run_jobs == 0)) {
        if (n.run_jobs == 0)
            n.state = DROVER_NODE_IDLE;
        else
            n.state = n.alloc_cpus >= n.conf->cpus ? DROVER_NODE_ALLOCATED : DROVER_NODE_MIXED;
    }
    // Plugins read node state from the views they were lent: keep them current.
    views_[n.index].state = n.state;
    views_[n.index].flags = n.flags;
    show_features(n);
}

void NodeManager::job_started(const Job &job) {
    for (std::size_t k = 0; k < job.nodes.size(); ++k) {
        Node &n = nodes_[job.nodes[k]];
        n.run_jobs++;
        n.alloc_cpus += job.node_cpus[k];
        n.alloc_memory_mb +=
            job.node_alloc.empty() ? job.mem_per_node_mb : job.node_alloc[k].mem_mb;
        if (n.state == DROVER_NODE_UNKNOWN) n.state = DROVER_NODE_IDLE;
        refresh_state(n);
        if ((n.flags & DROVER_NODE_FLAG_POWERED_DOWN) &&
            !(n.flags & DROVER_NODE_FLAG_POWERING_DOWN)) {
            activate_features(n, job.ext().constraint);
            want_resume(n);
        }
    }
}

void NodeManager::mark_up(uint32_t index) {
    if (index >= nodes_.size()) return;
    Node &n = nodes_[index];
    n.registered = true;
    n.reg_cpus = n.conf->cpus;
    n.reg_memory_mb = n.conf->real_memory_mb;
    n.reg_tmp_mb = n.conf->tmp_disk_mb;
    n.last_response = Ctx::now();
    n.flags &= ~DROVER_NODE_FLAG_NOT_RESPONDING;
    if (n.state == DROVER_NODE_UNKNOWN) n.state = DROVER_NODE_IDLE;
    refresh_state(n);
}

void NodeManager::job_ended(const Job &job) {
    int64_t now = Ctx::now();
    for (std::size_t k = 0; k < job.nodes.size(); ++k) {
        Node &n = nodes_[job.nodes[k]];
        if (n.run_jobs) n.run_jobs--;
        n.alloc_cpus -= std::min(n.alloc_cpus, job.node_cpus[k]);
        uint64_t mem = job.node_alloc.empty() ? job.mem_per_node_mb : job.node_alloc[k].mem_mb;
        n.alloc_memory_mb -= std::min(n.alloc_memory_mb, mem);
        n.last_busy = now;
        refresh_state(n);
        if (n.run_jobs == 0) power_down_if_idle(n);
    }
}

void NodeManager::record_events() {
    for (auto &n : nodes_)
        if (note_event(n)) write(n);
}

bool NodeManager::note_event(Node &n) {
    auto records = node_event_changes(
        n.event, {n.conf->name, n.state, n.flags, n.reason, n.reason_uid}, Ctx::now());
    for (auto &r : records) ctx_.recorder->record(kAcctNodeEventCode, std::move(r));
    return !records.empty();
}

void NodeManager::persist(Node &n) {
    note_event(n);
    write(n);
}

void NodeManager::write(const Node &n) {
    flatbuffers::FlatBufferBuilder fbb(256);
    auto name = fbb.CreateString(n.conf->name);
    auto reason = fbb.CreateString(n.reason.get());
    auto reboot_next = fbb.CreateString(n.reboot_next);
    auto addr = fbb.CreateString(n.addr.get());
    auto hostname = fbb.CreateString(n.hostname.get());
    auto active = fbb.CreateString(n.active_csv.get());
    proto::NodeInfoBuilder b(fbb);
    b.add_name(name);
    b.add_state(n.state);
    b.add_flags(n.flags);
    b.add_reason(reason);
    b.add_reason_time(n.reason_time);
    b.add_reason_uid(n.reason_uid);
    b.add_event_start(n.event.start);
    b.add_reboot_next(reboot_next);
    b.add_reboot_asap(n.reboot_asap);
    b.add_reboot_reason(n.reboot_reason);
    b.add_reboot_issued(n.reboot_issued);
    b.add_power_time(n.power_time);
    b.add_addr(addr);
    b.add_hostname(hostname);
    if (n.active_own) b.add_active_features(active);
    fbb.Finish(b.Finish());
    ctx_.commit.txn().put(state::Table::Nodes, state::as_bytes(n.conf->name),
                          {fbb.GetBufferPointer(), fbb.GetSize()});
}

void NodeManager::set_down(Node &n, const std::string &reason, uint32_t uid) {
    n.state = DROVER_NODE_DOWN;
    n.reason = texts_.get(reason);
    n.reason_time = Ctx::now();
    n.reason_uid = uid;
    refresh_state(n);
    persist(n);
    spdlog::warn("node {} DOWN: {}", n.conf->name, reason);
    if (n.run_jobs) ctx_.events.node_failed.publish(n.index);
}

// Slurm's reason when a node reports less than slurm.conf gives it; empty when it has enough.
std::string NodeManager::shortfall(const NodeConf &c, const proto::NodeRegisterRequest &r) {
    auto low = [](const char *what, uint64_t reg, uint64_t conf) {
        return std::string("Low ") + what + " (reg=" + std::to_string(reg) +
               " < config=" + std::to_string(conf) + ")";
    };
    if (r.cpus() < c.cpus) return low("CPUs", r.cpus(), c.cpus);
    if (r.real_memory_mb() < c.real_memory_mb)
        return low("RealMemory", r.real_memory_mb(), c.real_memory_mb);
    if (r.tmp_disk_mb() < c.tmp_disk_mb) return low("TmpDisk", r.tmp_disk_mb(), c.tmp_disk_mb);
    if (r.gres() && !c.gres.empty()) return gres_shortfall(c.gres, r.gres()->str());
    return {};
}

net::Routes NodeManager::routes() {
    using net::Caller;
    return {
        {proto::Body::NodeRegisterRequest, Caller::Admin,
         net::member(this, &NodeManager::on_register),
         "node registration must come from SlurmUser"},
        {proto::Body::NodeInfoRequest, Caller::Anyone,
         net::member(this, &NodeManager::on_node_info)},
        {proto::Body::NodeUpdateRequest, Caller::Admin,
         net::member(this, &NodeManager::on_node_update)},
        {proto::Body::NodeRebootRequest, Caller::Admin, net::member(this, &NodeManager::on_reboot)},
        {proto::Body::PartitionInfoRequest, Caller::Anyone,
         net::member(this, &NodeManager::on_partition_info)},
        {proto::Body::PartitionUpdateRequest, Caller::Admin,
         net::member(this, &NodeManager::on_partition_update)}};
}

void NodeManager::on_register(const std::shared_ptr<net::Request> &req,
                              const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_NodeRegisterRequest();
    Node *n = r->name() ? find(r->name()->str()) : nullptr;
    if (!n) return resp->error(DROVER_ENOENT, "node is not in the configuration");
    n->registered = true;
    n->reg_cpus = r->cpus();
    n->reg_memory_mb = r->real_memory_mb();
    n->reg_tmp_mb = r->tmp_disk_mb();
    n->boot_time = r->boot_time();
    n->last_response = Ctx::now();
    n->os = texts_.get(r->os() ? r->os()->string_view() : "");
    n->version = texts_.get(r->version() ? r->version()->string_view() : "");
    n->flags &= ~DROVER_NODE_FLAG_NOT_RESPONDING;
    if (!req->forwarded) learn_address(*n, req->peer.addr);
    if (r->active_features()) reported_features(*n, r->active_features()->str());
    // Powered up: by ResumeProgram, or by hand while it was powered down.
    bool powered_up = (n->flags & (DROVER_NODE_FLAG_POWERING_UP | DROVER_NODE_FLAG_POWERED_DOWN)) &&
                      !(n->flags & DROVER_NODE_FLAG_POWERING_DOWN);
    if (powered_up) {
        n->flags &= ~(DROVER_NODE_FLAG_POWERING_UP | DROVER_NODE_FLAG_POWERED_DOWN);
        n->power_time = 0;
        n->last_busy = Ctx::now(); // its SuspendTime counts from now
        spdlog::info("node {} powered up", n->conf->name);
    }
    // config_overrides: slurm.conf is the truth, whatever the node reports (emulated nodes).
    bool trust_config = ctx_.conf.slurmd_parameters.find("config_overrides") != std::string::npos;
    std::string low = trust_config ? std::string() : shortfall(*n->conf, *r);
    // A reboot sent to it is over; nextstate=DOWN keeps it down, whatever ReturnToService says.
    bool stay_down = (n->flags & DROVER_NODE_FLAG_REBOOT_ISSUED) && reboot_done(*n);
    if (!low.empty()) {
        if (n->state != DROVER_NODE_DOWN || n->reason != low) set_down(*n, low, ctx_.slurm_uid);
    } else {
        bool was_down = n->state == DROVER_NODE_DOWN;
        bool lost_contact = n->reason == "Not responding";
        uint32_t rts = ctx_.conf.return_to_service;
        // Down for too little of something the node now has: it comes back by itself.
        bool shortfall_gone =
            n->reason.get().starts_with("Low ") || n->reason.get().starts_with("gres/");
        bool revive =
            !stay_down && was_down && (shortfall_gone || (lost_contact && rts >= 1) || rts >= 2);
        if (revive || n->state == DROVER_NODE_UNKNOWN || powered_up) {
            if (revive) {
                n->reason.clear();
                n->reason_time = 0;
            }
            if (n->state == DROVER_NODE_UNKNOWN || revive) n->state = DROVER_NODE_IDLE;
            refresh_state(*n);
            persist(*n);
            spdlog::info("node {} registered: {} CPUs, {} MB", n->conf->name, r->cpus(),
                         r->real_memory_mb());
        }
    }
    std::vector<uint32_t> batch, step_jobs;
    if (r->running_jobs()) batch.assign(r->running_jobs()->begin(), r->running_jobs()->end());
    if (r->step_jobs()) step_jobs.assign(r->step_jobs()->begin(), r->step_jobs()->end());
    ctx_.events.node_registered.publish(n->index, batch, step_jobs);
    ctx_.events.queue_changed.publish();
    ctx_.commit.after_commit([resp, epoch = ctx_.epoch] {
        flatbuffers::FlatBufferBuilder fbb(64);
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::NodeRegisterResponse,
                                        proto::CreateNodeRegisterResponse(fbb, epoch).Union(),
                                        epoch));
        resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
    });
}

void NodeManager::on_node_info(const std::shared_ptr<net::Request> &req,
                               const net::ResponderPtr &resp) {
    if (!Viewer(ctx_, req->peer.uid).sees_nodes()) return resp->error(DROVER_EPERM, kAccessDenied);
    const auto *r = req->msg->body_as_NodeInfoRequest();
    std::vector<const Node *> pick;
    if (r->names() && r->names()->size()) {
        for (const auto *s : *r->names()) {
            std::vector<std::string> expanded;
            try {
                expanded = hostlist_expand(s->str());
            } catch (const std::exception &e) {
                return resp->error(DROVER_EINVAL, e.what());
            }
            for (const auto &name : expanded)
                if (const Node *n = find(name)) pick.push_back(n);
        }
        if (pick.empty()) return resp->error(DROVER_ENOENT, "Invalid node name specified");
    } else {
        // A cloud node is not there while powered down: listed only with PrivateData=cloud (or
        // by name).
        constexpr uint32_t kAway = DROVER_NODE_FLAG_CLOUD | DROVER_NODE_FLAG_POWERED_DOWN;
        for (const auto &n : nodes_)
            if ((n.flags & kAway) != kAway || ctx_.conf.private_data.cloud) pick.push_back(&n);
    }
    flatbuffers::FlatBufferBuilder fbb(256 + pick.size() * 256);
    std::vector<flatbuffers::Offset<proto::NodeInfo>> out;
    for (const Node *n : pick) {
        std::vector<flatbuffers::Offset<flatbuffers::String>> parts;
        for (const auto &p : parts_)
            if (p.nodes.test(n->index)) parts.push_back(fbb.CreateString(p.conf->name));
        const NodeConf &c = *n->conf;
        const uint32_t flags = n->flags | (shown_flags_ ? shown_flags_(n->index) : 0);
        out.push_back(proto::CreateNodeInfo(
            fbb, fbb.CreateString(c.name),
            fbb.CreateString(n->addr.empty() ? ctx_.conf.node_addr(c) : n->addr.get()),
            ctx_.conf.node_port(c), n->state, flags, fbb.CreateString(n->reason.get()),
            n->reason_time, n->reason_uid, c.cpus, n->alloc_cpus, c.sockets, c.cores_per_socket,
            c.threads_per_core, c.real_memory_mb, n->alloc_memory_mb, c.tmp_disk_mb, c.weight,
            fbb.CreateString(n->features_csv.get()), fbb.CreateVector(parts), n->boot_time,
            n->last_busy, n->reg_cpus, n->reg_memory_mb, fbb.CreateString(n->os.get()),
            fbb.CreateString(n->version.get()), /*event_start=*/0, fbb.CreateString(c.gres.get()),
            fbb.CreateString(n->reboot_next), false, false, 0, 0,
            fbb.CreateString(n->hostname.empty() ? ctx_.conf.node_hostname(c) : n->hostname.get()),
            n->active_own ? fbb.CreateString(n->active_csv.get()) : 0));
    }
    auto v = fbb.CreateVector(out);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::NodeInfoResponse,
                                    proto::CreateNodeInfoResponse(fbb, v, Ctx::now()).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

void NodeManager::on_node_update(const std::shared_ptr<net::Request> &req,
                                 const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_NodeUpdateRequest();
    std::vector<std::string> names;
    try {
        names = hostlist_expand(r->names() ? r->names()->str() : "");
    } catch (const std::exception &e) {
        return resp->error(DROVER_EINVAL, e.what());
    }
    std::vector<Node *> targets;
    for (const auto &name : names) {
        Node *n = find(name);
        if (!n) return resp->error(DROVER_ENOENT, "Invalid node name specified: " + name);
        targets.push_back(n);
    }
    std::string state = ascii_lower(r->state() ? r->state()->str() : "");
    Shared<std::string> reason = texts_.get(r->reason() ? r->reason()->string_view() : "");
    if ((state == "drain" || state == "down") && reason.empty())
        return resp->error(
            DROVER_EINVAL,
            "You must specify a reason when DOWNING or DRAINING a node. Request denied");
    if (state != "drain" && state != "down" && state != "resume" && state != "undrain" &&
        state != "idle" && state != "cancel_reboot" && !is_power_state(state) && !state.empty())
        return resp->error(DROVER_EINVAL, "Invalid node state specified");
    if (state == "cancel_reboot")
        for (Node *n : targets)
            if (n->flags & DROVER_NODE_FLAG_REBOOT_ISSUED)
                return resp->error(DROVER_EINVAL, "Reboot already in progress");
    if (Status s = set_addresses(targets, *r); !s.ok()) return resp->error(s.code(), s.text());
    int64_t now = Ctx::now();
    for (Node *n : targets) {
        if (state == "drain") {
            n->flags |= DROVER_NODE_FLAG_DRAIN;
            n->reason = reason;
            n->reason_time = now;
            n->reason_uid = req->peer.uid;
        } else if (state == "down") {
            set_down(*n, reason, req->peer.uid);
        } else if (state == "cancel_reboot") {
            cancel_reboot(*n);
        } else if (is_power_state(state)) {
            power_update(*n, state);
            if (!reason.empty()) set_reason(*n, reason, req->peer.uid);
        } else if (state == "resume" || state == "undrain" || state == "idle") {
            if (state == "resume") power_update(*n, state);
            n->flags &= ~DROVER_NODE_FLAG_DRAIN;
            if (state != "undrain" && n->state == DROVER_NODE_DOWN) {
                n->state = DROVER_NODE_IDLE;
                n->flags &= ~DROVER_NODE_FLAG_NOT_RESPONDING;
                n->last_response = now;
            }
            n->reason.clear();
            n->reason_time = 0;
            refresh_state(*n);
        } else if (!reason.empty()) {
            n->reason = reason;
            n->reason_time = now;
            n->reason_uid = req->peer.uid;
        }
        refresh_state(*n);
        persist(*n);
    }
    ctx_.events.queue_changed.publish();
    ctx_.commit.after_commit([resp] { resp->ok(); });
}

void NodeManager::on_partition_info(const std::shared_ptr<net::Request> &req,
                                    const net::ResponderPtr &resp) {
    if (!Viewer(ctx_, req->peer.uid).sees_partitions())
        return resp->error(DROVER_EPERM, kAccessDenied);
    flatbuffers::FlatBufferBuilder fbb(1024);
    std::vector<flatbuffers::Offset<proto::PartitionInfo>> out;
    for (const auto &p : parts_) {
        const PartitionConf &c = *p.conf;
        std::vector<std::string> names;
        for (std::size_t i = p.nodes.next(0); i < p.nodes.size(); i = p.nodes.next(i + 1))
            names.push_back(nodes_[i].conf->name);
        out.push_back(proto::CreatePartitionInfo(
            fbb, fbb.CreateString(c.name), fbb.CreateString(hostlist_compress(names)), c.is_default,
            fbb.CreateString(p.state), c.max_time_min, c.default_time_min, c.max_nodes, c.min_nodes,
            fbb.CreateString(c.allow_groups.empty() ? "ALL" : detail::join_list(c.allow_groups)),
            fbb.CreateString(c.oversubscribe), p.total_cpus, uint32_t(names.size()),
            c.priority_tier, fbb.CreateString(c.qos),
            fbb.CreateString(c.allow_accounts.empty() ? "ALL"
                                                      : detail::join_list(c.allow_accounts)),
            c.priority_job_factor,
            // The mode that applies: the cluster's when the partition has none, as Slurm shows.
            fbb.CreateString(c.preempt_mode.empty() ? ctx_.conf.preempt_mode : c.preempt_mode),
            c.suspend_time, c.suspend_timeout, c.resume_timeout, c.power_down_on_idle));
    }
    auto v = fbb.CreateVector(out);
    fbb.Finish(
        proto::CreateMessage(fbb, proto::Body::PartitionInfoResponse,
                             proto::CreatePartitionInfoResponse(fbb, v, Ctx::now()).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

// Powered down, or between: no node daemon to talk to (a powering up one registers when it is up).
constexpr uint32_t kNoDaemon =
    DROVER_NODE_FLAG_POWERED_DOWN | DROVER_NODE_FLAG_POWERING_UP | DROVER_NODE_FLAG_POWERING_DOWN;

std::vector<std::string> NodeManager::daemon_names() const {
    std::vector<std::string> names;
    for (const auto &n : nodes_)
        if (n.state != DROVER_NODE_FUTURE && !(n.flags & kNoDaemon)) names.push_back(n.conf->name);
    return names;
}

void NodeManager::reconfigure_nodes(
    std::function<void(std::size_t, std::vector<std::string>)> done) {
    std::vector<std::string> names = daemon_names();
    if (names.empty()) return done(0, {});
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::ReconfigureRequest,
                                    proto::CreateReconfigureRequest(fbb).Union(), ctx_.epoch));
    net::forward(
        ctx_.io,
        [this](const std::string &n, std::string *h, uint16_t *p) {
            return resolve_node(ctx_, n, h, p);
        },
        std::move(names), ctx_.conf.tree_width, 10000, {fbb.GetBufferPointer(), fbb.GetSize()},
        ctx_.auth.self_signer(),
        [done = std::move(done)](std::vector<net::NodeOutcome> results) {
            std::size_t ok = 0;
            std::vector<std::string> failed;
            for (const auto &r : results) {
                if (r.rc == 0)
                    ++ok;
                else {
                    failed.push_back(r.node);
                    spdlog::warn("reconfigure: {}: {}", r.node, r.message);
                }
            }
            done(ok, std::move(failed));
        });
}

void NodeManager::ping_all() {
    if (pinging_) return; // the previous round is still out
    std::vector<std::string> names = daemon_names();
    if (names.empty()) return;
    pinging_ = true;
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::PingRequest,
                                    proto::CreatePingRequest(fbb).Union(), ctx_.epoch));
    std::vector<uint8_t> inner(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    int timeout = int(std::min<uint32_t>(ctx_.conf.slurmd_timeout, 30) * 1000);
    net::forward(
        ctx_.io,
        [this](const std::string &n, std::string *h, uint16_t *p) {
            return resolve_node(ctx_, n, h, p);
        },
        std::move(names), ctx_.conf.tree_width, timeout, inner, ctx_.auth.self_signer(),
        [this, sent = Ctx::now(),
         t0 = std::chrono::steady_clock::now()](std::vector<net::NodeOutcome> results) {
            pinging_ = false;
            int64_t now = Ctx::now();
            std::size_t answered =
                std::count_if(results.begin(), results.end(),
                              [](const net::NodeOutcome &r) { return r.rc == 0; });
            auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - t0)
                          .count();
            spdlog::info("ping round: {} of {} nodes answered in {} ms", answered, results.size(),
                         ms);
            if (answered > 0) last_answer_ = now;
            // A node that has seen a newer controller generation refuses ours: we are not in
            // control any more, and must not mark nodes down for it.
            for (const auto &r : results)
                if (r.rc == net::kNotInControl) {
                    if (ctx_.fenced) ctx_.fenced();
                    return;
                }
            std::vector<std::string> back; // DOWN for not responding, answering again
            for (const auto &r : results) {
                Node *n = find(r.node);
                if (!n) continue;
                if (r.rc == 0) {
                    n->last_response = now;
                    if (n->flags & DROVER_NODE_FLAG_NOT_RESPONDING) {
                        n->flags &= ~DROVER_NODE_FLAG_NOT_RESPONDING;
                        refresh_state(*n);
                        ctx_.events.queue_changed.publish();
                    }
                    if (n->state == DROVER_NODE_DOWN && n->reason == "Not responding" &&
                        ctx_.conf.return_to_service >= 1)
                        back.push_back(r.node);
                    continue;
                }
                if (n->state == DROVER_NODE_UNKNOWN && !n->registered) continue;
                if (n->flags & kNoDaemon) continue; // powered down while the ping was out
                // It registered while this ping was out (a daemon starting up): it is alive.
                if (n->last_response >= sent) continue;
                n->flags |= DROVER_NODE_FLAG_NOT_RESPONDING;
                refresh_state(*n);
                if (n->state != DROVER_NODE_DOWN &&
                    now - n->last_response >= int64_t(ctx_.conf.slurmd_timeout))
                    set_down(*n, "Not responding", ctx_.slurm_uid);
            }
            if (!back.empty()) ask_to_register(std::move(back));
        });
}

// A node that answers pings again after it was marked DOWN "Not responding" (a hung daemon that
// resumed, a network that healed) has not restarted, so it would not register for minutes; it is
// asked to now. Its registration lists what it still runs (the controller ended those jobs
// meanwhile: the node is told to kill them) and ReturnToService then brings it back.
void NodeManager::ask_to_register(std::vector<std::string> names) {
    spdlog::info("{} node(s) answer again after not responding: asking them to register",
                 names.size());
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::PingRequest,
                                    proto::CreatePingRequest(fbb, true).Union(), ctx_.epoch));
    call_nodes(
        ctx_, std::move(names), {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()},
        10000, [this](std::vector<net::NodeOutcome> results) {
            if (fenced_by(ctx_, results)) return;
            for (const auto &r : results)
                if (r.rc != 0)
                    spdlog::debug("node {}: cannot ask it to register: {}", r.node, r.message);
        });
}

} // namespace drover::ctld
