// federation.cpp - the federation as the accounting store describes it, and this controller's view.
#include "ctld/fed/federation.hpp"

#include "proto/fb_read.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/steady_timer.hpp>
#include <charconv>

#include "common/ascii.hpp"
#include "common/config_parse.hpp"
#include "ctld/acct/acct_queue.hpp"
#include "ctld/context.hpp"
#include "ctld/events.hpp"
#include "net/authenticator.hpp"
#include <spdlog/spdlog.h>
#include "net/call_pool.hpp"
#include "ctld/policy/settings.hpp"
#include "proto/message_generated.h"

namespace drover::ctld {

namespace {

constexpr const char *kStateNames[] = {"ACTIVE", "INACTIVE", "DRAIN", "DRAIN+REMOVE"};

std::string value(const policy::Settings &s, std::string_view key) {
    auto it = s.find(key);
    return it == s.end() ? std::string() : it->second;
}

// A stored number (the store's text is the controller's own); 0 when absent or damaged.
uint32_t number(const std::string &v) {
    uint32_t n = 0;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    return ec == std::errc() && end == v.data() + v.size() ? n : 0;
}

void put(policy::Settings &s, const std::string &key, const std::string &v) {
    if (v.empty())
        s.erase(key);
    else
        s[key] = v;
}

AssocRec controller_probe(const std::string &cluster) {
    AssocRec r;
    r.kind = DROVER_ACCT_CONTROLLER;
    r.name = cluster;
    return r;
}

} // namespace

const char *fed_state_name(FedState s) {
    return kStateNames[static_cast<int>(s)];
}

bool parse_fed_state(std::string_view text, FedState &out) {
    for (int i = 0; i < 4; ++i)
        if (ascii_upper(text) == kStateNames[i]) {
            out = static_cast<FedState>(i);
            return true;
        }
    return false;
}

std::string FedCluster::control_host() const {
    return controllers.empty() ? std::string() : controllers.front().addr;
}

FedCluster fed_settings(const AssocRec &cluster) {
    policy::Settings s = cluster.settings();
    FedCluster c;
    c.name = cluster.name;
    c.federation = value(s, "federation");
    c.id = number(value(s, "fed_id"));
    if (!parse_fed_state(value(s, "fedstate"), c.state)) c.state = FedState::Active;
    c.features = policy::list_items(value(s, "features"));
    if (c.federation.empty()) c.id = 0;
    return c;
}

void set_fed_settings(AssocRec &cluster, const FedCluster &c) {
    policy::Settings s = cluster.settings();
    put(s, "federation", c.federation);
    put(s, "fed_id", c.federation.empty() || !c.id ? "" : std::to_string(c.id));
    put(s, "fedstate", c.state == FedState::Active ? "" : fed_state_name(c.state));
    put(s, "features", detail::join_list(c.features));
    cluster.set_settings(s);
}

AssocRec controller_rec(const std::string &cluster, const Config &conf) {
    AssocRec r = controller_probe(cluster);
    std::vector<std::string> hosts;
    for (const auto &h : conf.controllers)
        hosts.push_back(h.name + "(" + (h.addr.empty() ? h.name : h.addr) + ")");
    r.set_settings(
        {{"hosts", detail::join_list(hosts)}, {"port", std::to_string(conf.slurmctld_port)}});
    return r;
}

void read_controllers(const AssocRec &rec, FedCluster &c) {
    policy::Settings s = rec.settings();
    c.port = static_cast<uint16_t>(number(value(s, "port")));
    c.controllers.clear();
    for (const auto &item : policy::list_items(value(s, "hosts"))) {
        auto open = item.find('(');
        if (open == std::string::npos || item.back() != ')') {
            c.controllers.push_back({item, item});
            continue;
        }
        c.controllers.push_back(
            {item.substr(0, open), item.substr(open + 1, item.size() - open - 2)});
    }
}

FedCluster store_cluster(const AssocDb &db, const AssocRec &cluster) {
    FedCluster c = fed_settings(cluster);
    if (const AssocRec *ctl = db.find(controller_probe(cluster.name))) read_controllers(*ctl, c);
    return c;
}

std::vector<FedCluster> store_clusters(const AssocDb &db) {
    std::vector<FedCluster> out;
    for (const auto *r : db.all(DROVER_ACCT_CLUSTER)) out.push_back(store_cluster(db, *r));
    return out;
}

const FedCluster *FedView::member(std::string_view cluster) const {
    for (const auto &c : members)
        if (c.name == cluster) return &c;
    return nullptr;
}

const FedCluster *FedView::member(uint32_t fed_id) const {
    for (const auto &c : members)
        if (c.id == fed_id) return &c;
    return nullptr;
}

const FedCluster *FedView::self() const {
    return member(self_name);
}

uint32_t FedView::self_id() const {
    const FedCluster *s = self();
    return s ? s->id : 0;
}

FedView federation_view(const AssocDb &db, std::string_view self) {
    FedView v;
    v.self_name = std::string(self);
    const AssocRec *me = db.cluster(self);
    if (!me) return v;
    v.name = fed_settings(*me).federation;
    if (v.name.empty()) return v;
    for (auto &c : store_clusters(db))
        if (c.federation == v.name) v.members.push_back(std::move(c));
    return v;
}

uint64_t viable_members(const FedView &view, std::string_view clusters, std::string_view features) {
    const bool negate = !features.empty() && features.front() == '!';
    const auto wanted = policy::list_items(std::string(features.substr(negate ? 1 : 0)));
    const auto named = policy::list_items(ascii_lower(clusters));
    uint64_t set = 0;
    for (const auto &c : view.members) {
        auto has = [&c](const std::string &f) {
            return std::find(c.features.begin(), c.features.end(), f) != c.features.end();
        };
        bool fits = negate ? std::none_of(wanted.begin(), wanted.end(), has)
                           : std::all_of(wanted.begin(), wanted.end(), has);
        bool listed = named.empty() || std::find(named.begin(), named.end(), c.name) != named.end();
        if (c.state == FedState::Active && fits && listed) set |= fed_bit(c.id);
    }
    return set;
}

std::string member_names(const FedView &view, uint64_t set) {
    std::vector<std::string> names;
    for (const auto &c : view.members)
        if (set & fed_bit(c.id)) names.push_back(c.name);
    return detail::join_list(names);
}

// Every 10 s this controller pings each sibling's controller with its own credential: what
// scontrol show federation reports as the connection to it.
constexpr std::chrono::seconds kPingPeriod{10};
constexpr int kPingTimeoutMs = 3000;

struct Federation::Impl {
    Ctx &ctx;
    FedView view;
    std::map<std::string, bool> reachable; // by sibling name, as the last ping found it
    boost::asio::steady_timer timer;
    explicit Impl(Ctx &c) : ctx(c), timer(c.io) {}

    // Records a sibling's answer; a change is logged.
    void answered(const std::string &name, const std::string &error, const net::Reply *reply) {
        bool ok = error.empty() && reply && reply->msg->body_as_ControllerPingResponse();
        auto [it, added] = reachable.emplace(name, ok);
        if (!added && it->second == ok) return;
        it->second = ok;
        if (ok)
            spdlog::info("federation: sibling {} answers", name);
        else
            spdlog::warn("federation: sibling {} does not answer: {}", name,
                         error.empty() ? "unexpected reply" : error);
    }

    // The message carries no generation (epoch 0): another cluster's generations are not ours.
    void ping_siblings() {
        for (const auto &c : view.members) {
            if (c.name == view.self_name || c.controllers.empty() || !c.port) continue;
            flatbuffers::FlatBufferBuilder fbb(64);
            fbb.Finish(proto::CreateMessage(fbb, proto::Body::ControllerPingRequest,
                                            proto::CreateControllerPingRequest(fbb).Union()));
            std::vector<uint8_t> msg(fbb.GetBufferPointer(),
                                     fbb.GetBufferPointer() + fbb.GetSize());
            const auto &h = c.controllers.front();
            ctx.pool.call(
                h.addr, c.port, h.name, std::move(msg), ctx.auth.self_signer(), kPingTimeoutMs,
                [this, name = c.name](const std::string &error, std::shared_ptr<net::Reply> reply) {
                    answered(name, error, reply.get());
                });
        }
        timer.expires_after(kPingPeriod);
        timer.async_wait([this](const boost::system::error_code &ec) {
            if (!ec) ping_siblings();
        });
    }
};

Federation::Federation(Ctx &ctx) : impl_(std::make_unique<Impl>(ctx)) {
    ctx.events.assocs_changed.subscribe([this] {
        impl_->view = federation_view(impl_->ctx.acct.assocs(), impl_->ctx.conf.cluster_name);
    });
    impl_->ping_siblings();
}

Federation::~Federation() = default;

const FedView &Federation::view() const {
    return impl_->view;
}

uint32_t Federation::self_id() const {
    return impl_->view.self_id();
}

bool Federation::answers(const std::string &cluster) const {
    auto it = impl_->reachable.find(cluster);
    return it == impl_->reachable.end() || it->second;
}

void Federation::on_info(const std::shared_ptr<net::Request> &, const net::ResponderPtr &resp) {
    auto &ctx = impl_->ctx;
    flatbuffers::FlatBufferBuilder fbb(1024);
    std::vector<flatbuffers::Offset<proto::FedClusterInfo>> rows;
    for (const auto &c : store_clusters(ctx.acct.assocs())) {
        std::vector<std::string> hosts, addrs;
        for (const auto &h : c.controllers) {
            hosts.push_back(h.name);
            addrs.push_back(h.addr);
        }
        rows.push_back(proto::CreateFedClusterInfo(
            fbb, fbb.CreateString(c.name), fbb.CreateString(c.federation), c.id,
            fbb.CreateString(fed_state_name(c.state)), fbb.CreateVectorOfStrings(c.features),
            fbb.CreateVectorOfStrings(hosts), fbb.CreateVectorOfStrings(addrs), c.port,
            impl_->reachable[c.name]));
    }
    auto r = proto::CreateFedInfoResponse(fbb, fbb.CreateString(impl_->view.name),
                                          fbb.CreateString(ctx.conf.cluster_name),
                                          fbb.CreateVector(rows));
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::FedInfoResponse, r.Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

} // namespace drover::ctld
