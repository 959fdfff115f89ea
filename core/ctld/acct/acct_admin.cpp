// acct_admin.cpp - AcctAdminRequest in the controller: show from the copy, changes through the
// accounting store, then into the copy and the state store's snapshot.
#include "ctld/acct/acct_admin.hpp"
#include "ctld/events.hpp"

#include "proto/fb_read.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include "ctld/acct/acct_queue.hpp"
#include "ctld/fed/federation.hpp"
#include "ctld/store/committer.hpp"
#include "ctld/privacy.hpp"
#include "plugin/plugin_set.hpp"
#include "proto/message_generated.h"
#include "state/store.hpp"
#include "proto/key_values.hpp"

namespace drover::ctld {

namespace {

constexpr std::string_view kSnapshotKey = "assoc_snapshot";

AdminFields fields_of(const flatbuffers::Vector<flatbuffers::Offset<proto::KeyValue>> *v) {
    AdminFields out;
    if (v)
        for (const auto *kv : *v) out.emplace_back(proto::str(kv->key()), proto::str(kv->value()));
    return out;
}

state::Bytes key_bytes() {
    return {reinterpret_cast<const uint8_t *>(kSnapshotKey.data()), kSnapshotKey.size()};
}

} // namespace

struct AcctAdmin::Impl {
    Ctx &ctx;
    boost::asio::steady_timer retry;
    explicit Impl(Ctx &c) : ctx(c), retry(c.io) {}

    void save() {
        auto bytes = ctx.acct.assocs().snapshot();
        ctx.commit.txn().put(state::Table::Meta, key_bytes(), bytes);
    }

    // The store's records: the copy and its saved snapshot change only when they differ.
    void loaded(std::vector<AssocRec> recs) {
        AssocDb fresh;
        fresh.replace(std::move(recs));
        auto &db = ctx.acct.assocs();
        bool first = !db.loaded();
        if (first || fresh.snapshot() != db.snapshot()) {
            db = std::move(fresh);
            save();
            ctx.events.assocs_changed.publish();
        }
        if (first)
            spdlog::info("{} associations, accounts, users and clusters loaded", db.all().size());
        register_controller();
    }

    // This cluster's controllers, where the commands of other clusters (-M) and the controllers
    // of its federation reach it: written when the store holds another address.
    void register_controller() {
        AssocRec mine = controller_rec(ctx.conf.cluster_name, ctx.conf);
        const AssocRec *stored = ctx.acct.assocs().find(mine);
        if (stored && stored->attrs() == mine.attrs()) return;
        store_change({{mine}, {}}, [](Status s) {
            if (!s.ok()) spdlog::warn("controller address not registered: {}", s.text());
        });
    }

    // The accounting store changes first; then the controller's copy, which it saves and
    // announces (assocs_changed); done hears how the store took it.
    void store_change(AssocChange change, std::function<void(Status)> done) {
        auto shared = std::make_shared<AssocChange>(std::move(change));
        ctx.acct.store_task(
            [shared](const plugin::AcctCalls &a) {
                std::vector<drover_acct_assoc> puts, removes;
                for (const auto &p : shared->puts) puts.push_back(p.view());
                for (const auto &p : shared->removes) removes.push_back(p.view());
                return a.assoc_update(puts, removes);
            },
            [this, shared, done = std::move(done)](Status s) {
                if (s.ok()) {
                    ctx.acct.assocs().apply(*shared);
                    save();
                    ctx.events.assocs_changed.publish();
                }
                done(s);
            });
    }

    LocalCluster local() const {
        LocalCluster l{ctx.conf.cluster_name, ctx.host, ctx.conf.slurmctld_port};
        if (!ctx.conf.controllers.empty()) l.control_host = ctx.conf.controllers.front().addr;
        return l;
    }

    void reply(const net::ResponderPtr &resp, const AdminPlan &plan, bool changed) {
        flatbuffers::FlatBufferBuilder fbb(1024);
        std::vector<flatbuffers::Offset<proto::AcctAdminRow>> rows;
        for (const auto &row : plan.rows)
            rows.push_back(proto::CreateAcctAdminRow(fbb, proto::key_values(fbb, row)));
        auto r = proto::CreateAcctAdminResponse(fbb, fbb.CreateVector(rows),
                                                fbb.CreateString(plan.message), changed);
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::AcctAdminResponse, r.Union()));
        resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
    }
};

AcctAdmin::AcctAdmin(Ctx &ctx) : impl_(std::make_unique<Impl>(ctx)) {}
AcctAdmin::~AcctAdmin() = default;

void AcctAdmin::start() {
    auto &ctx = impl_->ctx;
    if (auto saved = ctx.store.get(state::Table::Meta, key_bytes()))
        if (!ctx.acct.assocs().restore(saved->data(), saved->size()))
            spdlog::error(
                "the saved copy of the associations is damaged; waiting for the accounting store");
    ctx.events.assocs_changed.publish();
    refresh();
}

// Every 10 s: other controllers sharing the store (a federation's) change it too.
constexpr std::chrono::seconds kRefreshPeriod{10};

void AcctAdmin::refresh() {
    auto &ctx = impl_->ctx;
    auto recs = std::make_shared<std::vector<AssocRec>>();
    ctx.acct.store_task(
        [recs](const plugin::AcctCalls &acct) {
            return acct.assoc_list(
                [&recs](const drover_acct_assoc &a) { recs->push_back(AssocRec::from(a)); });
        },
        [this, recs](Status s) {
            // No store, or one without associations (the op is absent): nothing to load.
            if (s.code() == DROVER_ENOENT) return;
            if (!s.ok())
                spdlog::warn("associations not loaded from the accounting store ({}); trying "
                             "again in {} s",
                             s.text(), kRefreshPeriod.count());
            else
                impl_->loaded(std::move(*recs));
            impl_->retry.expires_after(kRefreshPeriod);
            impl_->retry.async_wait([this](const boost::system::error_code &ec) {
                if (!ec) refresh();
            });
        });
}

uint32_t AcctAdmin::admin_level(uint32_t uid) const {
    return ctld::admin_level(impl_->ctx, uid);
}

void AcctAdmin::on_request(const std::shared_ptr<net::Request> &req,
                           const net::ResponderPtr &resp) {
    auto &ctx = impl_->ctx;
    const auto *m = req->msg->body_as_AcctAdminRequest();
    AdminRequest r{proto::str(m->verb()), proto::str(m->entity()), fields_of(m->fields()),
                   fields_of(m->where())};
    const auto acct = ctx.plugins.acct_calls();
    if (!acct.keeps_assocs())
        return resp->error(DROVER_ENOENT, "The accounting store (" +
                                              (acct ? acct.id() : std::string("none")) +
                                              ") does not keep associations");
    if (r.verb != "show" && admin_level(req->peer.uid) < DROVER_ADMIN_ADMINISTRATOR)
        return resp->error(DROVER_EPERM, "Access/permission denied");
    AdminPlan plan = plan_admin(ctx.acct.assocs(), r, impl_->local());
    if (!plan.error.empty()) return resp->error(DROVER_EINVAL, plan.error);
    // PrivateData=users or accounts: the rows this user may see.
    std::string refused =
        r.verb == "show" ? Viewer(ctx, req->peer.uid).trim_admin_rows(r.entity, plan.rows) : "";
    if (!refused.empty()) return resp->error(DROVER_EPERM, refused);
    if (r.verb == "show" || plan.change.empty() || !m->commit())
        return impl_->reply(resp, plan, !plan.change.empty());
    AssocChange change = std::move(plan.change);
    auto shown = std::make_shared<AdminPlan>(std::move(plan));
    impl_->store_change(std::move(change), [this, shown, resp](Status s) {
        if (!s.ok()) return resp->error(DROVER_EIO, "accounting store: " + s.text());
        impl_->ctx.commit.after_commit([this, shown, resp] { impl_->reply(resp, *shown, true); });
    });
}

void AcctAdmin::leave_federation() {
    auto &ctx = impl_->ctx;
    AdminRequest r{"modify", "cluster", {{"federation", ""}}, {{"name", ctx.conf.cluster_name}}};
    AdminPlan plan = plan_admin(ctx.acct.assocs(), r, impl_->local());
    if (!plan.error.empty() || plan.change.empty()) return;
    spdlog::info("federation: FedState=DRAIN+REMOVE and no federated job left: {} leaves its "
                 "federation",
                 ctx.conf.cluster_name);
    impl_->store_change(std::move(plan.change), [](Status s) {
        if (!s.ok()) spdlog::warn("federation: leaving it failed: {}", s.text());
    });
}

} // namespace drover::ctld
