// rest_ops.cpp - what each path does: one or two controller requests, the answer as the JSON
// slurmrestd writes (the commands' --json layouts, which follow the same data parser).
#include "restd/rest_ops.hpp"

#include <time.h>

#include <cstring>

#include "cli/json_document.hpp"
#include "cli/json_records.hpp"
#include "cli/text.hpp"
#include "common/json_writer.hpp"
#include "common/version.hpp"
#include "proto/fb_read.hpp"
#include "restd/rest_api.hpp"

namespace drover::restd {

namespace {

using proto::Body;

cli::JsonPlugin plugin_of(const std::string &version, const char *base) {
    std::string tag = version.empty() ? "v0.0.44" : version;
    bool db = std::strcmp(base, "slurmdb") == 0;
    return {db ? "openapi/slurmdbd" : "openapi/slurmctld",
            db ? "Slurm OpenAPI slurmdbd" : "Slurm OpenAPI slurmctld", "data_parser/" + tag};
}

} // namespace

HttpResponse get_ping(const OpCall &c) {
    try {
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreateControllerPingRequest(fbb);
        struct timespec t0, t1;
        ::clock_gettime(CLOCK_MONOTONIC, &t0);
        net::Reply reply = c.ctld.call(fbb, Body::ControllerPingRequest, req.Union(), c.who);
        const auto *r = reply.as<proto::ControllerPingResponse>();
        ::clock_gettime(CLOCK_MONOTONIC, &t1);
        int64_t us = (t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000;
        JsonWriter w;
        w.begin_object().key("pings").begin_array().begin_object();
        w.kv("hostname", proto::sv(r->host())).kv("pinged", "UP");
        w.kv_bool("responding", true).kv_num("latency", us).kv("mode", "primary");
        w.kv_bool("primary", true).end_object().end_array();
        return json_response(finish_document(w, c.version));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_ping");
    }
}

// GET /reconfigure: scontrol reconfigure, as the client (administrators only, as the controller
// decides: 403 for others).
HttpResponse get_reconfigure(const OpCall &c) {
    try {
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreateReconfigureRequest(fbb);
        net::Reply reply = c.ctld.call(fbb, Body::ReconfigureRequest, req.Union(), c.who);
        (void)reply.as<proto::OkResponse>(); // a refusal throws (403 for a user who may not)
        JsonWriter w;
        w.begin_object();
        return json_response(finish_document(w, c.version));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_reconfigure");
    }
}

// GET /diag: sdiag's figures under slurmrestd's names.
HttpResponse get_diag(const OpCall &c) {
    try {
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreateStatsRequest(fbb);
        net::Reply reply = c.ctld.call(fbb, Body::StatsRequest, req.Union(), c.who);
        const auto *r = reply.as<proto::StatsResponse>();
        JsonWriter w;
        w.begin_object().key("statistics").begin_object();
        uint64_t cycles = 0, sum = 0;
        for (const auto *kv : records(r->fields())) {
            std::string key = proto::str(kv->key());
            uint64_t v = std::strtoull(proto::str(kv->value()).c_str(), nullptr, 10);
            if (key == "now") key = "req_time";
            if (key == "since") key = "req_time_start";
            if (key == "schedule_cycles") cycles = v, key = "schedule_cycle_total";
            if (key == "schedule_cycle_sum") sum = v;
            w.kv_unum(key, v);
        }
        w.kv_unum("schedule_cycle_mean", cycles ? sum / cycles : 0);
        w.end_object();
        return json_response(finish_document(w, c.version));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_get_statistics");
    }
}

// GET /licenses: each license's totals, as v0.0.40 names them.
HttpResponse get_licenses(const OpCall &c) {
    try {
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreateLicenseInfoRequest(fbb);
        net::Reply reply = c.ctld.call(fbb, Body::LicenseInfoRequest, req.Union(), c.who);
        const auto *r = reply.as<proto::LicenseInfoResponse>();
        JsonWriter w;
        w.begin_object().key("licenses").begin_array();
        for (const auto *l : records(r->licenses())) {
            w.begin_object().kv("LicenseName", proto::sv(l->name()));
            w.kv_unum("Total", l->total()).kv_unum("Used", l->used());
            w.kv_unum("Free", l->total() > l->used() ? l->total() - l->used() : 0);
            w.kv_bool("Remote", false).kv_unum("Reserved", 0).kv_unum("LastConsumed", 0);
            w.kv_unum("LastDeficit", 0).kv_unum("LastUpdate", uint64_t(now_s())).end_object();
        }
        w.end_array().kv_unum("last_update", uint64_t(now_s()));
        return json_response(finish_document(w, c.version));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_load_licenses");
    }
}

// GET /shares (?accounts=a,b&users=u): sshare -a's associations, as v0.0.40's shares.
HttpResponse get_shares(const OpCall &c) {
    try {
        auto csv = [&c](const char *key) {
            auto it = c.query.find(key);
            return it == c.query.end() ? std::vector<std::string>() : cli::split(it->second, ',');
        };
        std::vector<std::string> accounts = csv("accounts"), users = csv("users");
        flatbuffers::FlatBufferBuilder fbb;
        auto a = fbb.CreateVectorOfStrings(accounts), u = fbb.CreateVectorOfStrings(users);
        auto req = proto::CreateShareRequest(fbb, a, u, users.empty());
        net::Reply reply = c.ctld.call(fbb, Body::ShareRequest, req.Union(), c.who);
        const auto *r = reply.as<proto::ShareResponse>();
        JsonWriter w;
        w.begin_object().key("shares").begin_object().key("shares").begin_array();
        uint64_t id = 0, total = 0;
        for (const auto *row : records(r->rows())) {
            bool user = row->user() && row->user()->size();
            w.begin_object().kv_unum("id", ++id).kv("cluster", proto::str(row->cluster()));
            w.kv("name", user ? proto::str(row->user()) : proto::str(row->account()));
            w.kv("parent", user ? proto::str(row->account()) : "")
                .kv("partition", proto::str(row->partition()));
            w.key("type").begin_array().str(user ? "USER" : "ASSOCIATION").end_array();
            bool parent = row->shares_raw() == 0xffffffffu;
            w.kv_number_obj("shares", parent ? 0 : row->shares_raw(), !parent, false);
            w.kv_real_obj("shares_normalized", row->shares_norm());
            w.kv_unum("usage", uint64_t(row->usage_raw()));
            w.kv_real_obj("usage_normalized", row->usage_norm());
            w.key("effective_usage").real(row->usage_eff());
            w.key("fairshare").begin_object().key("factor").real(row->fairshare());
            w.key("level").real(row->level_fs()).end_object();
            w.end_object();
            if (!parent) total += row->shares_raw();
        }
        w.end_array().kv_unum("total_shares", total).end_object();
        return json_response(finish_document(w, c.version));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_associations_get_shares");
    }
}

std::string finish_document(JsonWriter &w, const std::string &version,
                            const std::vector<std::string> &warnings, const char *base) {
    cli::json_meta(w, plugin_of(version, base));
    w.key("errors").begin_array().end_array();
    w.key("warnings").begin_array();
    for (const auto &text : warnings)
        w.begin_object().kv("description", text).kv("source", "").end_object();
    w.end_array();
    w.end_object();
    return w.finish();
}

HttpResponse failed(const std::exception &e, const OpCall &c, const char *source) {
    if (const auto *rpc = dynamic_cast<const net::RpcError *>(&e)) {
        http::status s = http::status::internal_server_error;
        if (rpc->code() == net::kTokenRefused) s = http::status::unauthorized;
        if (rpc->code() == DROVER_EPERM) s = http::status::forbidden;
        if (rpc->code() == DROVER_ENOENT) s = http::status::not_found;
        if (rpc->code() == DROVER_EINVAL) s = http::status::bad_request;
        return error_response(s, c.version, source, e.what(), rpc->code());
    }
    return error_response(http::status::service_unavailable, c.version, source, e.what());
}

bool job_ids_of(const OpCall &c, std::vector<uint32_t> *ids) {
    if (c.arg.empty()) return true;
    char *end = nullptr;
    unsigned long id = std::strtoul(c.arg.c_str(), &end, 10);
    if (!end || *end || !id || id > 0xfffffff0ul) return false;
    ids->push_back(uint32_t(id));
    return true;
}

HttpResponse invalid_job(const OpCall &c, http::status status) {
    return error_response(status, c.version, "job_id", "Invalid job id specified: " + c.arg);
}

void write_list(JsonWriter &w, const char *key, const std::string &csv) {
    w.key(key).begin_array();
    for (const std::string &item : cli::split(csv, ',')) w.str(item);
    w.end_array();
}

int64_t now_s() {
    return int64_t(::time(nullptr));
}

const std::vector<OpEntry> &operations() {
    using V = http::verb;
    static const std::vector<OpEntry> ops = {
        {V::get, "slurm", "ping", "ping the controller", get_ping},
        {V::get, "slurm", "diag", "the controller's statistics", get_diag},
        {V::get, "slurm", "licenses", "list licenses", get_licenses},
        {V::get, "slurm", "shares", "fair-share of the associations (sshare)", get_shares},
        {V::get, "slurm", "jobs", "list jobs", get_jobs},
        {V::get, "slurm", "jobs/state", "list job states", get_jobs_state},
        {V::delete_, "slurm", "jobs", "send a signal to a list of jobs", delete_jobs},
        {V::post, "slurm", "job/allocate", "allocate resources for a job", post_allocate},
        {V::get, "slurm", "reconfigure", "request slurmctld reconfigure", get_reconfigure},
        {V::post, "slurm", "job/submit", "submit a batch job", post_submit},
        {V::get, "slurm", "job/{job_id}", "get a job", get_jobs},
        {V::post, "slurm", "job/{job_id}", "update a job", post_job},
        {V::delete_, "slurm", "job/{job_id}", "cancel or signal a job", delete_job},
        {V::get, "slurm", "nodes", "list nodes", get_nodes},
        {V::get, "slurm", "node/{node_name}", "get a node", get_nodes},
        {V::post, "slurm", "node/{node_name}", "update a node (state, reason)", post_node},
        {V::get, "slurm", "partitions", "list partitions", get_partitions},
        {V::get, "slurm", "partition/{partition_name}", "get a partition", get_partitions},
        {V::get, "slurm", "reservations", "list reservations", get_reservations},
        {V::get, "slurm", "reservation/{reservation_name}", "get a reservation", get_reservations},
        {V::get, "slurmdb", "jobs", "list jobs of the accounting store", get_db_jobs},
        {V::get, "slurmdb", "job/{job_id}", "get a job of the accounting store", get_db_jobs},
        {V::get, "slurmdb", "accounts", "list accounts", get_db_accounts},
        {V::get, "slurmdb", "account/{account_name}", "get an account", get_db_accounts},
        {V::get, "slurmdb", "users", "list users", get_db_users},
        {V::get, "slurmdb", "user/{name}", "get a user", get_db_users},
        {V::get, "slurmdb", "associations", "list associations", get_db_associations},
        {V::get, "slurmdb", "qos", "list QOS", get_db_qos},
        {V::get, "slurmdb", "clusters", "list clusters", get_db_clusters},
        {V::get, "slurmdb", "cluster/{cluster_name}", "get a cluster", get_db_clusters},
        {V::get, "slurmdb", "tres", "list the trackable resources", get_db_tres},
        {V::get, "slurmdb", "config", "dump the accounting configuration", get_db_config},
    };
    return ops;
}

HttpResponse json_response(std::string body, http::status status) {
    HttpResponse r{status, 11};
    r.set(http::field::content_type, "application/json");
    r.set(http::field::server, std::string("drover-restd/") + kDroverVersion);
    r.body() = std::move(body);
    r.prepare_payload();
    return r;
}

HttpResponse error_response(http::status status, const std::string &version,
                            const std::string &source, const std::string &text, int code) {
    JsonWriter w;
    w.begin_object();
    cli::json_meta(w, plugin_of(version, "slurm"));
    w.key("errors").begin_array().begin_object();
    w.kv("description", text).kv_num("error_number", code).kv("error", text).kv("source", source);
    w.end_object().end_array();
    w.key("warnings").begin_array().end_array();
    w.end_object();
    return json_response(w.finish(), status);
}

std::string openapi_document() {
    JsonWriter w;
    w.begin_object().kv("openapi", "3.0.2");
    w.key("info").begin_object().kv("title", "Drover REST API (slurmrestd compatible)");
    w.kv("version", kDroverVersion).end_object();
    w.key("paths").begin_object();
    for (const std::string &v : api_versions()) {
        std::string last;
        for (const OpEntry &op : operations()) {
            std::string path = "/" + std::string(op.base) + "/" + v + "/" + op.path;
            if (path != last) {
                if (!last.empty()) w.end_object();
                w.key(path).begin_object();
                last = path;
            }
            w.key(std::string(http::to_string(op.method)) == "DELETE" ? "delete"
                  : op.method == http::verb::post                     ? "post"
                                                                      : "get");
            w.begin_object().kv("summary", op.summary).end_object();
        }
        if (!last.empty()) w.end_object();
    }
    w.end_object().end_object();
    return w.finish();
}

} // namespace drover::restd
