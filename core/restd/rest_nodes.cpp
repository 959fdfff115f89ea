// rest_nodes.cpp - the node and partition paths.
#include "restd/rest_ops.hpp"

#include "cli/json_records.hpp"
#include "common/json_writer.hpp"
#include "common/resv_flags.hpp"
#include "proto/fb_read.hpp"
#include "restd/submit_body.hpp"

namespace drover::restd {

using proto::Body;

HttpResponse get_nodes(const OpCall &c) {
    try {
        flatbuffers::FlatBufferBuilder fbb;
        std::vector<std::string> names;
        if (!c.arg.empty()) names.push_back(c.arg);
        auto req = proto::CreateNodeInfoRequest(fbb, fbb.CreateVectorOfStrings(names));
        net::Reply reply = c.ctld.call(fbb, Body::NodeInfoRequest, req.Union(), c.who);
        const auto *r = reply.as<proto::NodeInfoResponse>();
        return json_response(cli::nodes_json(records(r->nodes()), r->now() ? r->now() : now_s()));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_load_node");
    }
}

HttpResponse get_partitions(const OpCall &c) {
    try {
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreatePartitionInfoRequest(fbb);
        net::Reply reply = c.ctld.call(fbb, Body::PartitionInfoRequest, req.Union(), c.who);
        const auto *r = reply.as<proto::PartitionInfoResponse>();
        std::vector<const proto::PartitionInfo *> parts = records(r->partitions());
        std::erase_if(parts, [&c](const proto::PartitionInfo *p) {
            return !c.arg.empty() && !(p->name() && p->name()->str() == c.arg);
        });
        if (!c.arg.empty() && parts.empty())
            return error_response(http::status::not_found, c.version, "partition_name",
                                  "Invalid partition name specified: " + c.arg);
        return json_response(cli::partitions_json(parts, r->now() ? r->now() : now_s()));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_load_partitions");
    }
}

// POST /node/{name}: {"state": ["DRAIN"], "reason": "..."} as scontrol update NodeName=.
HttpResponse post_node(const OpCall &c) {
    std::string state, reason;
    try {
        json::Value doc = parse_body(c.req.body());
        if (!doc.is_object()) throw BadRequest("body: expected an object");
        for (const auto &[name, v] : doc.members()) {
            if (name == "reason") {
                reason = field_text(v, name);
            } else if (name == "state") {
                // v0.0.40 on: a list of flags ("DRAIN"); older clients send one string.
                if (v.is_array() && v.items().size() == 1)
                    state = field_text(v.items()[0], "state[0]");
                else
                    state = field_text(v, name);
            } else {
                throw BadRequest(name + ": unknown field");
            }
        }
    } catch (const BadRequest &e) {
        return error_response(http::status::bad_request, c.version, "node", e.what(),
                              DROVER_EINVAL);
    }
    try {
        flatbuffers::FlatBufferBuilder fbb;
        auto req =
            proto::CreateNodeUpdateRequestDirect(fbb, c.arg.c_str(), state.c_str(), reason.c_str());
        net::Reply reply = c.ctld.call(fbb, Body::NodeUpdateRequest, req.Union(), c.who);
        reply.as<proto::OkResponse>();
        JsonWriter w;
        w.begin_object();
        return json_response(finish_document(w, c.version));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_update_node");
    }
}

// GET /reservations and /reservation/{name}: v0.0.40's reservation_info fields.
HttpResponse get_reservations(const OpCall &c) {
    try {
        flatbuffers::FlatBufferBuilder fbb;
        auto req =
            proto::CreateReservationInfoRequestDirect(fbb, c.arg.empty() ? nullptr : c.arg.c_str());
        net::Reply reply = c.ctld.call(fbb, Body::ReservationInfoRequest, req.Union(), c.who);
        const auto *r = reply.as<proto::ReservationInfoResponse>();
        auto all = records(r->reservations());
        if (!c.arg.empty() && all.empty())
            return error_response(http::status::not_found, c.version, "reservation_name",
                                  "Reservation " + c.arg + " not found");
        JsonWriter w;
        w.begin_object().key("reservations").begin_array();
        for (const auto *v : all) {
            w.begin_object()
                .kv("name", proto::sv(v->name()))
                .kv("accounts", proto::sv(v->accounts()));
            w.kv("users", proto::sv(v->users())).kv("partition", proto::sv(v->partition()));
            w.kv("features", proto::sv(v->features())).kv("licenses", proto::sv(v->licenses()));
            w.kv("node_list", proto::sv(v->node_list())).kv_unum("node_count", v->node_count());
            w.kv_unum("core_count", v->core_count());
            w.kv_number_obj("start_time", uint64_t(v->start_time()), true, false);
            w.kv_number_obj("end_time", uint64_t(v->end_time()), v->end_time() != 0,
                            v->end_time() == 0);
            w.kv_unum("max_start_delay", v->max_start_delay_s());
            write_list(w, "flags", format_resv_flags(v->flags()));
            w.end_object();
        }
        w.end_array().kv_number_obj("last_update", uint64_t(r->now() ? r->now() : now_s()), true,
                                    false);
        return json_response(finish_document(w, c.version));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_load_reservations");
    }
}

} // namespace drover::restd
