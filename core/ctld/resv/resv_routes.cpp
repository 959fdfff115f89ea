// resv_routes.cpp - reservations in the state store and on the wire: their records (one
// ReservationInfo each, under "resv/<name>" in the meta table), scontrol show reservation and
// sinfo -T, and scontrol create/update/delete reservation.
#include <spdlog/spdlog.h>

#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/privacy.hpp"
#include "ctld/resv/reservations.hpp"
#include "ctld/store/committer.hpp"
#include "net/server.hpp"
#include "proto/fb_read.hpp"
#include "proto/message_generated.h"
#include "state/store.hpp"

namespace drover::ctld {

namespace {

constexpr std::string_view kPrefix = "resv/";

std::string record_key(const std::string &name) {
    return std::string(kPrefix) + name;
}

flatbuffers::Offset<proto::ReservationInfo> to_proto(flatbuffers::FlatBufferBuilder &fbb,
                                                     const Reservation &r) {
    return proto::CreateReservationInfoDirect(
        fbb, r.name.c_str(), r.start, r.end, hostlist_compress(r.node_names).c_str(),
        uint32_t(r.node_names.size()), r.cpus, r.features.c_str(), r.partition.c_str(), r.flags,
        r.users.text().c_str(), r.accounts.text().c_str(), r.licenses.c_str(), r.node_cnt_asked, 0,
        r.max_start_delay_s);
}

// A record read back; false when it does not decode.
bool from_record(state::Bytes v, Reservation &r, const NodeManager &nodes) {
    flatbuffers::Verifier ver(v.data(), v.size());
    if (!ver.VerifyBuffer<proto::ReservationInfo>(nullptr)) return false;
    const auto *p = flatbuffers::GetRoot<proto::ReservationInfo>(v.data());
    r.name = proto::str(p->name());
    r.start = p->start_time();
    r.end = p->end_time();
    r.nodes = Bitmap(nodes.size());
    r.cpus = 0;
    for (const auto &n : hostlist_expand(proto::str(p->node_list()), nodes.size() + 1)) {
        int i = nodes.index_of(n);
        if (i < 0) {
            spdlog::warn("reservation {}: node {} is no longer configured; dropped", r.name, n);
            continue;
        }
        r.nodes.set(uint32_t(i));
        r.node_names.push_back(n);
        r.cpus += nodes.at(uint32_t(i)).conf->cpus;
    }
    r.features = proto::str(p->features());
    r.partition = proto::str(p->partition());
    r.flags = p->flags();
    r.users = NameList::parse(proto::str(p->users()));
    r.accounts = NameList::parse(proto::str(p->accounts()));
    r.licenses = proto::str(p->licenses());
    r.node_cnt_asked = p->node_cnt_asked();
    r.max_start_delay_s = p->max_start_delay_s();
    return !r.name.empty();
}

} // namespace

void Reservations::save(const Reservation &r) {
    flatbuffers::FlatBufferBuilder fbb(256);
    fbb.Finish(to_proto(fbb, r));
    ctx_.commit.txn().put(state::Table::Meta, state::as_bytes(record_key(r.name)),
                          {fbb.GetBufferPointer(), fbb.GetSize()});
}

void Reservations::erase(const std::string &name) {
    ctx_.commit.txn().del(state::Table::Meta, state::as_bytes(record_key(name)));
    resv_.erase(name);
}

void Reservations::start() {
    resv_.clear();
    std::size_t bad = 0;
    ctx_.store.scan_from(
        state::Table::Meta, state::as_bytes(kPrefix), [&](state::Bytes k, state::Bytes v) {
            std::string_view key(reinterpret_cast<const char *>(k.data()), k.size());
            if (key.substr(0, kPrefix.size()) != kPrefix) return false;
            Reservation r;
            try {
                if (from_record(v, r, nodes_)) {
                    resv_.emplace(r.name, std::move(r));
                    return true;
                }
            } catch (const ParseError &) {}
            ++bad;
            return true;
        });
    if (bad)
        spdlog::error("{} reservation record(s) in the state store do not decode; skipped", bad);
    if (!resv_.empty()) spdlog::info("{} reservation(s) loaded", resv_.size());
    last_tick_ = Ctx::now();
    tick();
}

void Reservations::on_info(const std::shared_ptr<net::Request> &req,
                           const net::ResponderPtr &resp) {
    const auto *q = req->msg->body_as_ReservationInfoRequest();
    const std::string want = proto::str(q->name());
    const Viewer viewer(ctx_, req->peer.uid);
    const bool all = viewer.sees_reservations();
    const std::string me = all ? std::string() : user_name_of(req->peer.uid);
    flatbuffers::FlatBufferBuilder fbb(512);
    std::vector<flatbuffers::Offset<proto::ReservationInfo>> out;
    for (const auto &[name, r] : resv_)
        if ((want.empty() || name == want) && (all || (!r.users.empty() && r.users.admits(me))))
            out.push_back(to_proto(fbb, r));
    auto v = fbb.CreateVector(out);
    fbb.Finish(
        proto::CreateMessage(fbb, proto::Body::ReservationInfoResponse,
                             proto::CreateReservationInfoResponse(fbb, v, Ctx::now()).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

void Reservations::on_update(const std::shared_ptr<net::Request> &req,
                             const net::ResponderPtr &resp) {
    const auto *q = req->msg->body_as_ReservationUpdateRequest();
    const std::string action = proto::str(q->action());
    std::vector<std::pair<std::string, std::string>> fields;
    if (q->fields())
        for (const auto *kv : *q->fields())
            fields.emplace_back(proto::str(kv->key()), proto::str(kv->value()));
    ResvSpec spec;
    try {
        spec = parse_resv_spec(fields, Ctx::now());
    } catch (const ParseError &e) {
        return resp->error(DROVER_EINVAL, e.what());
    }
    std::string name = spec.name.value_or("");
    Status s = action == "create"   ? create(std::move(spec), &name)
               : action == "update" ? update(spec)
               : action == "delete" ? remove(name)
                                    : invalid("unknown reservation action '" + action + "'");
    if (!s.ok()) return resp->error(s.code(), s.text());
    spdlog::info("reservation {}: {} by uid {}", name, action, req->peer.uid);
    ctx_.commit.after_commit([resp, name] {
        flatbuffers::FlatBufferBuilder fbb(128);
        auto n = fbb.CreateString(name);
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::ReservationUpdateResponse,
                                        proto::CreateReservationUpdateResponse(fbb, n).Union()));
        resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
    });
}

net::Routes Reservations::routes() {
    return {
        {proto::Body::ReservationInfoRequest, net::Caller::Anyone,
         net::member(this, &Reservations::on_info)},
        {proto::Body::ReservationUpdateRequest, net::Caller::Admin,
         net::member(this, &Reservations::on_update)},
    };
}

} // namespace drover::ctld
