// rest_ops.cpp - what each path does: one or two controller requests, the answer as the JSON
// slurmrestd writes (the commands' --json layouts, which follow the same data parser).
#include "restd/rest_ops.hpp"

#include <sys/utsname.h>
#include <time.h>

#include <csignal>
#include <cstring>

#include "cli/json_document.hpp"
#include "cli/json_records.hpp"
#include "cli/sbatch_opts.hpp"
#include "cli/scancel_args.hpp"
#include "common/json_writer.hpp"
#include "common/version.hpp"
#include "restd/rest_api.hpp"
#include "restd/submit_body.hpp"

namespace drover::restd {

namespace {

using proto::Body;

cli::JsonPlugin plugin_of(const std::string &version, const char *base) {
    std::string tag = version.empty() ? "v0.0.44" : version;
    bool db = std::strcmp(base, "slurmdb") == 0;
    return {db ? "openapi/slurmdbd" : "openapi/slurmctld",
            db ? "Slurm OpenAPI slurmdbd" : "Slurm OpenAPI slurmctld", "data_parser/" + tag};
}

// The envelope after the payload: meta, errors, warnings.
std::string finish_document(JsonWriter &w, const std::string &version,
                            const std::vector<std::string> &warnings = {}) {
    cli::json_meta(w, plugin_of(version, "slurm"));
    w.key("errors").begin_array().end_array();
    w.key("warnings").begin_array();
    for (const auto &text : warnings)
        w.begin_object().kv("description", text).kv("source", "").end_object();
    w.end_array();
    w.end_object();
    return w.finish();
}

// A refusal or a failure to reach the controller, as an HTTP answer.
HttpResponse failed(const std::exception &e, const OpCall &c, const char *source) {
    if (const auto *rpc = dynamic_cast<const net::RpcError *>(&e)) {
        http::status s = http::status::internal_server_error;
        if (rpc->code() == net::kTokenRefused) s = http::status::unauthorized;
        if (rpc->code() == DROVER_EPERM) s = http::status::forbidden;
        if (rpc->code() == DROVER_ENOENT) s = http::status::not_found;
        if (rpc->code() == DROVER_EINVAL) s = http::status::bad_request;
        if (std::string_view(e.what()).rfind("Invalid job id", 0) == 0) s = http::status::not_found;
        return error_response(s, c.version, source, e.what(), rpc->code());
    }
    return error_response(http::status::service_unavailable, c.version, source, e.what());
}

int64_t now_s() {
    return int64_t(::time(nullptr));
}

// The records of a reply's list (none when it is absent).
template <class T>
std::vector<const T *> records(const flatbuffers::Vector<flatbuffers::Offset<T>> *list) {
    std::vector<const T *> out;
    if (list)
        for (const T *r : *list) out.push_back(r);
    return out;
}

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
        w.kv("hostname", r->host() ? r->host()->str() : "").kv("pinged", "UP");
        w.kv_bool("responding", true).kv_num("latency", us).kv("mode", "primary");
        w.kv_bool("primary", true).end_object().end_array();
        return json_response(finish_document(w, c.version));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_ping");
    }
}

// The jobs the controller shows the client (all, or the one of c.arg).
HttpResponse get_jobs(const OpCall &c) {
    try {
        std::vector<uint32_t> ids;
        if (!c.arg.empty()) {
            char *end = nullptr;
            unsigned long id = std::strtoul(c.arg.c_str(), &end, 10);
            if (!end || *end || !id || id > 0xfffffff0ul)
                return error_response(http::status::bad_request, c.version, "job_id",
                                      "Invalid job id specified: " + c.arg);
            ids.push_back(uint32_t(id));
        }
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreateJobInfoRequest(fbb, fbb.CreateVector(ids));
        net::Reply reply = c.ctld.call(fbb, Body::JobInfoRequest, req.Union(), c.who);
        const auto *r = reply.as<proto::JobInfoResponse>();
        std::vector<const proto::JobInfo *> jobs = records(r->jobs());
        if (!c.arg.empty() && jobs.empty())
            return error_response(http::status::not_found, c.version, "job_id",
                                  "Invalid job id specified: " + c.arg);
        return json_response(cli::jobs_json(jobs, r->now() ? r->now() : now_s()));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_load_jobs");
    }
}

HttpResponse get_job(const OpCall &c) {
    return get_jobs(c);
}

// DELETE /job/{id}?signal=SIGTERM&flags=...: scancel (SIGKILL: cancel).
HttpResponse delete_job(const OpCall &c) {
    try {
        int sig = SIGKILL;
        if (auto it = c.query.find("signal"); it != c.query.end() && !it->second.empty()) {
            std::optional<int> named = cli::parse_signal(it->second);
            sig = named.value_or(0);
            if (!named)
                return error_response(http::status::bad_request, c.version, "signal",
                                      "Unknown signal " + it->second);
        }
        flatbuffers::FlatBufferBuilder fbb;
        auto specs = fbb.CreateVectorOfStrings(std::vector<std::string>{c.arg});
        proto::JobSignalRequestBuilder b(fbb);
        b.add_job_specs(specs);
        b.add_signal(sig);
        auto req = b.Finish();
        net::Reply reply = c.ctld.call(fbb, Body::JobSignalRequest, req.Union(), c.who);
        const auto *r = reply.as<proto::JobSignalResponse>();
        if (r->results())
            for (const auto *n : *r->results())
                if (n->rc() != 0)
                    return error_response(n->rc() == DROVER_EPERM ? http::status::forbidden
                                                                  : http::status::not_found,
                                          c.version, "slurm_kill_job",
                                          n->message() ? n->message()->str() : "refused", n->rc());
        JsonWriter w;
        w.begin_object();
        return json_response(finish_document(w, c.version));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_kill_job");
    }
}

// POST /job/submit: the body as sbatch options, checked and built by sbatch's own code.
HttpResponse post_submit(const OpCall &c) {
    SubmitBody body;
    cli::SbatchRequest req;
    cli::SbatchContext ctx;
    try {
        body = parse_submit_body(c.req.body());
        ctx.env = body.environment;
        ctx.cwd = body.cwd.empty() ? "/tmp" : body.cwd;
        utsname u{};
        if (::uname(&u) == 0)
            ctx.hostname = std::string(u.nodename).substr(0, std::string(u.nodename).find('.'));
        ctx.now = now_s();
        std::vector<std::string> args = body.options;
        cli::SbatchCommandLine cl = cli::parse_sbatch_command_line(args);
        cl.script_args = body.argv;
        req = cli::build_sbatch_request(cl, body.script, ctx);
    } catch (const std::exception &e) {
        return error_response(http::status::bad_request, c.version, "job", e.what(), DROVER_EINVAL);
    }
    try {
        flatbuffers::FlatBufferBuilder fbb(req.script.size() + 4096);
        auto desc = cli::sbatch_job_desc(fbb, req, ctx);
        auto submit = proto::CreateJobSubmitRequest(fbb, desc);
        net::Reply reply = c.ctld.call(fbb, Body::JobSubmitRequest, submit.Union(), c.who);
        const auto *r = reply.as<proto::JobSubmitResponse>();
        std::string user_msg = r->user_msg() ? r->user_msg()->str() : "";
        JsonWriter w;
        w.begin_object().kv_unum("job_id", r->job_id()).kv("step_id", "batch");
        w.kv("job_submit_user_msg", user_msg);
        w.key("result").begin_object().kv_unum("job_id", r->job_id()).kv("step_id", "batch");
        w.kv_num("error_code", 0).kv("error", "").kv("job_submit_user_msg", user_msg);
        w.end_object();
        std::vector<std::string> warnings = body.warnings;
        warnings.insert(warnings.end(), req.warnings.begin(), req.warnings.end());
        return json_response(finish_document(w, c.version, warnings));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_submit_batch_job");
    }
}

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

} // namespace

const std::vector<OpEntry> &operations() {
    using V = http::verb;
    static const std::vector<OpEntry> ops = {
        {V::get, "slurm", "ping", "ping the controller", get_ping},
        {V::get, "slurm", "jobs", "list jobs", get_jobs},
        {V::post, "slurm", "job/submit", "submit a batch job", post_submit},
        {V::get, "slurm", "job/{job_id}", "get a job", get_job},
        {V::delete_, "slurm", "job/{job_id}", "cancel or signal a job", delete_job},
        {V::get, "slurm", "nodes", "list nodes", get_nodes},
        {V::get, "slurm", "node/{node_name}", "get a node", get_nodes},
        {V::get, "slurm", "partitions", "list partitions", get_partitions},
        {V::get, "slurm", "partition/{partition_name}", "get a partition", get_partitions},
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
