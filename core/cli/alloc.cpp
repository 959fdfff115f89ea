// alloc.cpp - interactive allocations.
#include "cli/alloc.hpp"
#include "cli/clusters.hpp"

#include "cli/srun_help.hpp"

#include "proto/fb_read.hpp"

#include <chrono>
#include <csignal>
#include <unistd.h>

#include <drover/views.h>

#include "cli/commands.hpp"
#include "cli/job_desc.hpp"
#include "cli/options.hpp"
#include "cli/rpc.hpp"
#include "cli/text.hpp"

extern char **environ;

namespace drover::cli {

namespace {

volatile sig_atomic_t g_interrupted = 0;
void on_int(int) {
    g_interrupted = 1;
}

using proto::str;

// CPUs per node as srun -v writes them: each run of equal counts as "C(xN)", even N = 1.
std::string cpu_counts(const std::vector<uint32_t> &cpus) {
    std::string out;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t j = i;
        while (j < cpus.size() && cpus[j] == cpus[i]) ++j;
        out +=
            (out.empty() ? "" : ",") + std::to_string(cpus[i]) + "(x" + std::to_string(j - i) + ")";
        i = j;
    }
    return out;
}

const proto::JobInfoLite *wait_job(net::Reply &reply, uint32_t id, uint32_t timeout_ms) {
    flatbuffers::FlatBufferBuilder fbb(64);
    auto body = proto::CreateJobWaitRequest(fbb, id, timeout_ms).Union();
    reply = call_ctld(fbb, proto::Body::JobWaitRequest, body, int(timeout_ms) + 15000);
    return reply.as<proto::JobWaitResponse>()->job();
}

} // namespace

void cancel_quietly(const std::string &spec) {
    flatbuffers::FlatBufferBuilder fbb(64);
    auto specs = fbb.CreateVectorOfStrings(std::vector<std::string>{spec});
    proto::JobSignalRequestBuilder b(fbb);
    b.add_job_specs(specs);
    b.add_signal(9);
    try {
        call_ctld(fbb, proto::Body::JobSignalRequest, b.Finish().Union(), 10000);
    } catch (const std::exception &) {
        // Best effort: the controller ends what is left at the job's end or time limit.
    }
}

std::optional<int> parse_srun_command(std::span<const std::string> args, const std::string &prog,
                                      const char *usage, SrunRequest *out) {
    try {
        *out = parse_srun(args, process_env(), prog);
    } catch (const UsageError &e) {
        print_usage_error(prog, e);
        return 1;
    } catch (const std::exception &e) {
        print_error(prog, e.what());
        return 1;
    }
    if (out->help || out->usage) {
        write_out(out->help ? srun_help_text(prog) : std::string(usage));
        return 0;
    }
    if (out->version) {
        write_out(version_line());
        return 0;
    }
    for (const auto &w : out->warnings) print_warning(prog, w);
    return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> process_env() {
    std::vector<std::pair<std::string, std::string>> env;
    for (char **e = environ; e && *e; ++e) {
        std::string_view kv(*e);
        auto eq = kv.find('=');
        if (eq == std::string_view::npos) continue;
        env.emplace_back(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
    }
    return env;
}

std::string short_host() {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) return "localhost";
    std::string h = host;
    return h.substr(0, h.find('.'));
}

namespace {

// The allocation srun or salloc asks the controller for.
proto::JobDescT allocation_desc(const SrunRequest &r, const std::string &prog) {
    char cwd[4096] = {};
    std::string work = r.work_dir.empty() ? (::getcwd(cwd, sizeof cwd) ? cwd : "/tmp") : r.work_dir;
    std::string name = r.job_name;
    if (name.empty()) {
        std::string cmd = r.argv.empty() ? (prog == "salloc" ? "interactive" : "srun") : r.argv[0];
        name = cmd.substr(cmd.rfind('/') == std::string::npos ? 0 : cmd.rfind('/') + 1);
    }
    proto::JobDescT d;
    set_allocation(d, r);
    d.name = name;
    d.work_dir = work;
    d.submit_host = short_host();
    d.interactive = true;
    d.uid = uint32_t(::getuid());
    d.gid = uint32_t(::getgid());
    return d;
}

} // namespace

int test_allocation(const SrunRequest &r, const std::string &prog) {
    proto::JobDescT d = allocation_desc(r, prog);
    flatbuffers::FlatBufferBuilder fbb(1024);
    auto desc = proto::JobDesc::Pack(fbb, &d);
    try {
        net::Reply reply = call_ctld(fbb, proto::Body::JobSubmitRequest,
                                     proto::CreateJobSubmitRequest(fbb, desc).Union());
        const auto *sub = reply.as<proto::JobSubmitResponse>();
        write_err(prog + ": " + (sub->message() ? sub->message()->str() : "Job would be accepted") +
                  "\n");
        return 0;
    } catch (const net::RpcError &e) {
        print_error(prog, std::string("Job submit/allocate failed: ") + e.what());
        return 1;
    }
}

namespace {

// What the commands run in the allocation need of a running job.
void fill_allocation(const proto::JobInfoLite &job, uint32_t id, Allocation *out) {
    out->job_id = id;
    out->node_list = str(job.node_list());
    out->partition = str(job.partition());
    out->name = str(job.name());
    if (job.nodes())
        for (const auto *x : *job.nodes()) out->nodes.push_back(x->str());
    if (job.node_cpus()) out->node_cpus.assign(job.node_cpus()->begin(), job.node_cpus()->end());
    out->num_tasks = job.num_tasks();
    out->cpus_per_task = job.cpus_per_task();
    out->time_limit_min = job.time_limit_min();
    out->mem_per_node_mb = job.mem_per_node_mb();
    out->mem_per_cpu_mb = job.mem_per_cpu_mb();
}

// The components after the first of a granted heterogeneous job (ids after the leader's).
bool fill_components(uint32_t leader, std::size_t count, std::vector<Allocation> *out) {
    for (std::size_t k = 1; k <= count; ++k) {
        net::Reply reply;
        const proto::JobInfoLite *c = wait_job(reply, leader + uint32_t(k), 0);
        if (!c || c->state() != DROVER_JOB_RUNNING) return false;
        fill_allocation(*c, leader + uint32_t(k), &out->emplace_back());
    }
    return true;
}

} // namespace

bool allocate(const SrunRequest &r, const std::string &prog, Allocation *out,
              std::span<const SrunRequest> het, std::vector<Allocation> *het_out) {
    auto say = [&](const std::string &line) {
        if (!r.quiet) write_err(prog + ": " + line + "\n");
    };
    if (r.clusters && !choose_submit_cluster(prog, *r.clusters)) return false;
    proto::JobDescT d = allocation_desc(r, prog);
    flatbuffers::FlatBufferBuilder fbb(1024);
    auto desc = proto::JobDesc::Pack(fbb, &d);
    std::vector<flatbuffers::Offset<proto::JobDesc>> parts;
    for (const auto &c : het) {
        proto::JobDescT cd = allocation_desc(c, prog);
        parts.push_back(proto::JobDesc::Pack(fbb, &cd));
    }
    auto het_v = parts.empty() ? 0 : fbb.CreateVector(parts);
    net::Reply reply;
    const proto::JobSubmitResponse *sub = nullptr;
    try {
        // MaxJobCount reached: said once, then retried with growing pauses (as Slurm's salloc).
        reply = call_ctld_retrying(fbb, proto::Body::JobSubmitRequest,
                                   proto::CreateJobSubmitRequest(fbb, desc, het_v).Union(),
                                   [&](int retry) {
                                       if (retry == 1) print_error(prog, kSubmitRetryText);
                                   });
        sub = reply.as<proto::JobSubmitResponse>();
    } catch (const net::RpcError &e) {
        print_error(prog, std::string("Job submit/allocate failed: ") + e.what());
        return false;
    }
    uint32_t id = sub->job_id();
    if (sub->user_msg() && !r.quiet) print_info(prog, sub->user_msg()->str());
    if (prog == "salloc") say("Pending job allocation " + std::to_string(id));
    struct sigaction sa {
    }, old_int{}, old_term{};
    sa.sa_handler = on_int;
    ::sigaction(SIGINT, &sa, &old_int);
    ::sigaction(SIGTERM, &sa, &old_term);
    bool queued_said = false;
    const proto::JobInfoLite *job = nullptr;
    net::Reply wait_reply;
    // -I: not allocated within its seconds, the request is withdrawn (Slurm's words below).
    auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(r.immediate.value_or(0));
    for (;;) {
        try {
            job = wait_job(wait_reply, id, !queued_said ? 300 : r.immediate ? 500 : 2000);
        } catch (const net::NetError &) {
            if (g_interrupted) break;
            ::usleep(500000);
            continue;
        }
        if (g_interrupted || !job || job->state() != DROVER_JOB_PENDING) break;
        if (r.immediate && std::chrono::steady_clock::now() >= deadline) {
            ::sigaction(SIGINT, &old_int, nullptr);
            ::sigaction(SIGTERM, &old_term, nullptr);
            cancel_quietly(std::to_string(id));
            print_error(prog, "Unable to allocate resources: Requested nodes are busy");
            return false;
        }
        if (!queued_said) {
            say("job " + std::to_string(id) + " queued and waiting for resources");
            queued_said = true;
        }
    }
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGTERM, &old_term, nullptr);
    if (g_interrupted) {
        cancel_quietly(std::to_string(id));
        say("Job allocation " + std::to_string(id) + " has been revoked.");
        return false;
    }
    if (!job || job->state() != DROVER_JOB_RUNNING) {
        print_error(prog, "Job allocation " + std::to_string(id) + " has been revoked." +
                              (job && job->reason() && job->reason()->size()
                                   ? " (" + job->reason()->str() + ")"
                                   : ""));
        return false;
    }
    if (queued_said) say("job " + std::to_string(id) + " has been allocated resources");
    if (prog == "salloc") {
        say("Granted job allocation " + std::to_string(id));
        say("Nodes " + str(job->node_list()) + " are ready for job");
    }
    fill_allocation(*job, id, out);
    if (r.verbose && prog == "srun") // the line scripts read srun -v's job id from
        say("jobid " + std::to_string(id) + ": nodes(" + std::to_string(out->nodes.size()) + "):`" +
            out->node_list + "', cpu counts: " + cpu_counts(out->node_cpus));
    bool parts_known = false;
    try {
        parts_known = !het_out || fill_components(id, het.size(), het_out);
    } catch (const std::exception &) {}
    if (!parts_known) { // not left granted behind the user's back
        cancel_quietly(std::to_string(id));
        print_error(prog, "Job allocation " + std::to_string(id) + " has been revoked.");
        return false;
    }
    return true;
}

void release(uint32_t job_id, int exit_status) {
    flatbuffers::FlatBufferBuilder fbb(64);
    auto body = proto::CreateJobCompleteRequest(fbb, job_id, 0, exit_status).Union();
    try {
        call_ctld(fbb, proto::Body::JobCompleteRequest, body, 10000);
    } catch (const std::exception &) {
        // The controller ends it anyway at its time limit; nothing more to do here.
    }
}

int job_state(uint32_t job_id) {
    try {
        net::Reply reply;
        const proto::JobInfoLite *job = wait_job(reply, job_id, 0);
        return job ? int(job->state()) : -1;
    } catch (const std::exception &) {
        return -1;
    }
}

} // namespace drover::cli
