// rest_jobs.cpp - the job paths: list and show, submit, cancel or signal.
#include "restd/rest_ops.hpp"

#include "cli/job_ids.hpp"
#include "cli/job_states.hpp"
#include "cli/json_records.hpp"
#include "cli/squeue_fields.hpp"
#include "common/json_writer.hpp"
#include "common/timefmt.hpp"
#include "cli/sbatch_opts.hpp"
#include "cli/scancel_args.hpp"
#include "cli/text.hpp"
#include "proto/fb_read.hpp"
#include "proto/key_values.hpp"
#include "restd/kill_body.hpp"
#include "restd/submit_body.hpp"

#include <pwd.h>
#include <sys/utsname.h>

#include <drover/views.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <csignal>

namespace drover::restd {

using proto::Body;

namespace {

// ?update_time=T (seconds since the epoch): 0 when not given; -1 when it is not a number.
int64_t update_time_of(const OpCall &c) {
    auto it = c.query.find("update_time");
    if (it == c.query.end() || it->second.empty()) return 0;
    auto t = cli::parse_u64(it->second);
    return t && *t < uint64_t(INT64_MAX) ? int64_t(*t) : -1;
}

// Nothing changed since update_time: no jobs, and Slurm's warning saying so.
HttpResponse no_change(const OpCall &c, int64_t since) {
    JsonWriter w;
    w.begin_object().key("jobs").begin_array().end_array();
    return json_response(finish_document(w, c.version,
                                         {"No job changes since update_time[" +
                                          std::to_string(since) + "]=" + format_timestamp(since)}));
}

} // namespace

// The jobs the controller shows the client (all, or the one of c.arg); with ?update_time=T,
// none when no job has changed since T (slurmrestd's answer to SLURM_NO_CHANGE_IN_DATA).
HttpResponse get_jobs(const OpCall &c) {
    try {
        std::vector<uint32_t> ids;
        if (!job_ids_of(c, &ids)) return invalid_job(c, http::status::bad_request);
        const int64_t since = update_time_of(c);
        if (since < 0)
            return error_response(http::status::bad_request, c.version, "update_time",
                                  "Unable to parse \"update_time\" field", DROVER_EINVAL);
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreateJobInfoRequest(fbb, fbb.CreateVector(ids), since);
        net::Reply reply = c.ctld.call(fbb, Body::JobInfoRequest, req.Union(), c.who);
        const auto *r = reply.as<proto::JobInfoResponse>();
        if (since && !r->jobs()) return no_change(c, since);
        std::vector<const proto::JobInfo *> jobs = records(r->jobs());
        if (!c.arg.empty() && jobs.empty()) return invalid_job(c, http::status::not_found);
        return json_response(cli::jobs_json(jobs, r->now() ? r->now() : now_s()));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_load_jobs");
    }
}

namespace {

// The signal request a DELETE /jobs body stands for.
flatbuffers::Offset<proto::JobSignalRequest> kill_request(flatbuffers::FlatBufferBuilder &fbb,
                                                          const KillBody &k, uint32_t uid) {
    auto specs = fbb.CreateVectorOfStrings(k.jobs);
    auto name = fbb.CreateString(k.job_name);
    auto part = fbb.CreateString(k.partition);
    auto states = fbb.CreateVector(k.states);
    proto::JobSignalRequestBuilder b(fbb);
    b.add_job_specs(specs);
    b.add_signal(k.signal);
    b.add_user_id(uid);
    b.add_name(name);
    b.add_states(states);
    b.add_partition(part);
    b.add_batch_only(k.batch_only);
    b.add_full(k.full);
    return b.Finish();
}

// One job's outcome, as slurmrestd's kill_jobs_resp writes it.
void kill_status(JsonWriter &w, const proto::NodeResult &n) {
    const std::string id = proto::str(n.node()), text = proto::str(n.message());
    w.begin_object().key("error").begin_object();
    w.kv("string", n.rc() ? text : "No error").kv_num("code", n.rc()).kv("message", text);
    w.end_object().kv("step_id", id);
    w.kv_number_obj("job_id", std::strtoull(id.c_str(), nullptr, 10), true, false);
    w.key("federation").begin_object().kv("sibling", "").end_object().end_object();
}

} // namespace

// DELETE /jobs: scancel of the jobs the body names, or of those its filters reach; each job's
// outcome in "status".
HttpResponse delete_jobs(const OpCall &c) {
    KillBody k;
    try {
        k = parse_kill_body(c.req.body());
    } catch (const BadRequest &e) {
        return error_response(http::status::bad_request, c.version, "jobs", e.what(),
                              DROVER_EINVAL);
    }
    try {
        uint32_t uid = DROVER_NO_VAL;
        if (!k.user_name.empty()) {
            const passwd *pw = ::getpwnam(k.user_name.c_str());
            if (!pw)
                return error_response(http::status::bad_request, c.version, "user_name",
                                      "Invalid user name: " + k.user_name, DROVER_EINVAL);
            uid = pw->pw_uid;
        }
        flatbuffers::FlatBufferBuilder fbb;
        auto req = kill_request(fbb, k, uid);
        net::Reply reply = c.ctld.call(fbb, Body::JobSignalRequest, req.Union(), c.who);
        JsonWriter w;
        w.begin_object().key("status").begin_array();
        for (const auto *n : records(reply.as<proto::JobSignalResponse>()->results()))
            kill_status(w, *n);
        w.end_array();
        return json_response(finish_document(w, c.version));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_kill_jobs");
    }
}

// GET /jobs/state (?job_id=12,20_3,93+1): each job the client may see, or those the list names,
// with its id as squeue writes it and its state (slurmrestd's job state list).
HttpResponse get_jobs_state(const OpCall &c) {
    try {
        std::vector<cli::JobSpec> specs;
        if (auto it = c.query.find("job_id"); it != c.query.end() && !it->second.empty())
            for (const std::string &item : cli::split(it->second, ',')) {
                auto spec = cli::parse_job_spec(item);
                if (!spec)
                    return error_response(http::status::bad_request, c.version, "job_id",
                                          "Invalid job id specified: " + item, DROVER_EINVAL);
                specs.push_back(std::move(*spec));
            }
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreateJobInfoRequest(fbb);
        net::Reply reply = c.ctld.call(fbb, Body::JobInfoRequest, req.Union(), c.who);
        JsonWriter w;
        w.begin_object().key("jobs").begin_array();
        for (const auto *j : records(reply.as<proto::JobInfoResponse>()->jobs())) {
            if (!specs.empty() && std::none_of(specs.begin(), specs.end(),
                                               [&](const auto &s) { return s.matches(*j); }))
                continue;
            w.begin_object().kv("job_id", cli::job_array_id(*j));
            w.kv_str_list("state", {cli::job_state_long(j->state())}).end_object();
        }
        w.end_array();
        return json_response(finish_document(w, c.version));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_get_job_states");
    }
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
namespace {

// POST job/submit's and job/allocate's body as sbatch's request (allocate: no script; its
// options are read against a placeholder one).
cli::SbatchRequest rest_request(const SubmitBody &body, cli::SbatchContext &ctx, bool allocate) {
    ctx.env = body.environment;
    ctx.cwd = body.cwd.empty() ? "/tmp" : body.cwd;
    utsname u{};
    if (::uname(&u) == 0)
        ctx.hostname = std::string(u.nodename).substr(0, std::string(u.nodename).find('.'));
    ctx.now = now_s();
    std::vector<std::string> args = body.options;
    for (const auto &part : body.het_options) { // "jobs": a heterogeneous job's components
        args.push_back(":");
        args.insert(args.end(), part.begin(), part.end());
    }
    cli::SbatchCommandLine cl = cli::parse_sbatch_command_line(args);
    cl.script_args = body.argv;
    cli::SbatchRequest req =
        cli::build_sbatch_request(cl, allocate ? "#!/bin/sh\n" : body.script, ctx);
    req.interactive = allocate;
    return req;
}

} // namespace

// POST /job/allocate: an allocation with no script (salloc --no-shell's), which holds its nodes
// until it is cancelled or reaches its time limit; answered with its job id.
HttpResponse post_allocate(const OpCall &c) {
    SubmitBody body;
    cli::SbatchRequest req;
    cli::SbatchContext ctx;
    try {
        body = parse_submit_body(c.req.body(), /*script_required=*/false);
        req = rest_request(body, ctx, true);
    } catch (const std::exception &e) {
        return error_response(http::status::bad_request, c.version, "job", e.what(), DROVER_EINVAL);
    }
    try {
        flatbuffers::FlatBufferBuilder fbb(4096);
        auto submit = cli::sbatch_submit_request(fbb, req, ctx);
        net::Reply reply = c.ctld.call(fbb, Body::JobSubmitRequest, submit.Union(), c.who);
        const auto *r = reply.as<proto::JobSubmitResponse>();
        JsonWriter w;
        w.begin_object().kv_unum("job_id", r->job_id());
        w.kv("job_submit_user_msg", proto::str(r->user_msg()));
        return json_response(finish_document(w, c.version, body.warnings));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_allocate_resources");
    }
}

HttpResponse post_submit(const OpCall &c) {
    SubmitBody body;
    cli::SbatchRequest req;
    cli::SbatchContext ctx;
    try {
        body = parse_submit_body(c.req.body());
        req = rest_request(body, ctx, false);
    } catch (const std::exception &e) {
        return error_response(http::status::bad_request, c.version, "job", e.what(), DROVER_EINVAL);
    }
    try {
        flatbuffers::FlatBufferBuilder fbb(req.script.size() + 4096);
        auto submit = cli::sbatch_submit_request(fbb, req, ctx);
        net::Reply reply = c.ctld.call(fbb, Body::JobSubmitRequest, submit.Union(), c.who);
        const auto *r = reply.as<proto::JobSubmitResponse>();
        std::string user_msg = proto::str(r->user_msg());
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

namespace {

// POST /job/{id}'s fields (job_desc_msg's names) as scontrol update's keys.
struct UpdateField {
    const char *json;
    const char *key;
    bool number;
};
constexpr UpdateField kUpdateFields[] = {
    {"time_limit", "TimeLimit", true},   {"name", "Name", false},
    {"comment", "Comment", false},       {"nice", "Nice", true},
    {"dependency", "Dependency", false}, {"constraints", "Features", false},
    {"priority", "Priority", true},      {"partition", "Partition", false},
    {"minimum_nodes", "NumNodes", true},
};

// The update's fields and hold (-1: unchanged); throws BadRequest.
std::vector<std::pair<std::string, std::string>> update_fields(std::string_view body, int *hold) {
    json::Value doc = parse_body(body);
    if (!doc.is_object()) throw BadRequest("body: expected an object");
    // Some clients wrap the fields in "job", as a submission does.
    const json::Value *job = doc.find("job");
    const json::Value &fields = job && job->is_object() ? *job : doc;
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto &[name, v] : fields.members()) {
        if (name == "hold") {
            *hold = field_flag(v, name) ? 1 : 0;
            continue;
        }
        const UpdateField *f = nullptr;
        for (const auto &u : kUpdateFields)
            if (name == u.json) f = &u;
        if (!f) throw BadRequest(name + ": unknown field");
        if (!f->number) {
            out.emplace_back(f->key, field_text(v, name));
        } else if (auto n = field_number(v, name)) {
            out.emplace_back(f->key, std::to_string(*n));
        } else if (name == "time_limit") {
            out.emplace_back(f->key, "UNLIMITED");
        }
    }
    return out;
}

} // namespace

// POST /job/{id}: scontrol update JobId=id with the body's fields.
HttpResponse post_job(const OpCall &c) {
    int hold = -1;
    std::vector<std::pair<std::string, std::string>> fields;
    try {
        fields = update_fields(c.req.body(), &hold);
    } catch (const BadRequest &e) {
        return error_response(http::status::bad_request, c.version, "job", e.what(), DROVER_EINVAL);
    }
    try {
        flatbuffers::FlatBufferBuilder fbb;
        auto req = proto::CreateJobUpdateRequest(fbb, 0, proto::key_values(fbb, fields), hold, 0,
                                                 fbb.CreateString(c.arg));
        net::Reply reply = c.ctld.call(fbb, Body::JobUpdateRequest, req.Union(), c.who);
        reply.as<proto::OkResponse>();
        JsonWriter w;
        w.begin_object().kv("job_id", c.arg).kv("step_id", "").kv("job_submit_user_msg", "");
        w.key("results").begin_array().begin_object().kv("job_id", c.arg).kv_num("error_code", 0);
        w.kv("error", "").kv("why", "").end_object().end_array();
        return json_response(finish_document(w, c.version));
    } catch (const std::exception &e) {
        return failed(e, c, "slurm_update_job");
    }
}

} // namespace drover::restd
