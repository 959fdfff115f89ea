// node_instance.cpp - one node's jobs, steps, requests and registration.
#include "noded/node_instance.hpp"

#include <chrono>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <spdlog/spdlog.h>

#include "common/cgroup_conf.hpp"
#include "common/config.hpp"
#include "daemon/daemon.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"
#include "net/server.hpp"
#include "net/usage_codec.hpp"
#include "proto/fb_read.hpp"
#include "noded/feature_helpers.hpp"
#include "noded/file_bcast.hpp"
#include "noded/launcher.hpp"
#include "noded/reaper.hpp"
#include "noded/reboot.hpp"
#include "noded/prolog.hpp"
#include "noded/sampler.hpp"
#include "noded/step_runner.hpp"
#include "noded/topology.hpp"
#include "noded/tree_forward.hpp"
#include "plugin/plugin_set.hpp"

namespace asio = boost::asio;

namespace drover::noded {

namespace {

int64_t steady_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::vector<uint8_t> finish(flatbuffers::FlatBufferBuilder &fbb) {
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

// A request's answer when it has nothing more to say than its outcome: OK, or the failure's code
// and text.
void answer(const net::ResponderPtr &resp, const Status &s) {
    if (!s.ok()) return resp->error(s.code(), s.text());
    resp->ok();
}

} // namespace

// Every message a node serves, and who may send it.
const NodeInstance::NodeRoute NodeInstance::kRoutes[] = {
    // Users reach their own steps; the credential or the step's owner decides.
    {proto::Body::StepLaunchRequest, net::Caller::Anyone, &NodeInstance::on_step_launch},
    {proto::Body::StepSignalRequest, net::Caller::Anyone, &NodeInstance::on_step_signal},
    {proto::Body::StepStatRequest, net::Caller::Anyone, &NodeInstance::on_step_stat},
    {proto::Body::StepAttachRequest, net::Caller::Anyone, &NodeInstance::on_step_attach},
    {proto::Body::StepPidsRequest, net::Caller::Anyone, &NodeInstance::on_step_pids},
    // sbcast's blocks: the broadcast credential decides.
    {proto::Body::FileBcastRequest, net::Caller::Anyone, &NodeInstance::on_file_bcast},
    // Many nodes at once, down the fan-out tree: users too (each node holds the request to
    // their rights).
    {proto::Body::ForwardRequest, net::Caller::Anyone, &NodeInstance::on_forward},
    {proto::Body::PingRequest, net::Caller::Admin, &NodeInstance::on_ping},
    {proto::Body::BatchLaunchRequest, net::Caller::Admin, &NodeInstance::on_batch_launch},
    {proto::Body::JobKillRequest, net::Caller::Admin, &NodeInstance::on_job_kill},
    {proto::Body::ReconfigureRequest, net::Caller::Admin, &NodeInstance::on_reconfigure},
    {proto::Body::NodeRebootRequest, net::Caller::Admin, &NodeInstance::on_reboot},
};

NodeInstance::NodeInstance(NodeShared &sh, const NodeConf &me)
    : sh_(sh), me_(me), name_(me.name), router_(sh.is_admin, kControllerOnly) {
    net::Routes routes;
    for (const auto &r : kRoutes)
        routes.push_back({r.type, r.who, net::member(this, r.serve), kControllerOnly});
    router_.add(std::move(routes));
    std::vector<std::string> gpu_files;
    std::vector<std::string> gpu_cores;
    gres_ = sh.emulated ? me.gres.get() : detect_gres(sh.conf.path, name_, &gpu_files, &gpu_cores);
    if (!sh.emulated) features_ = helper_features(sh.conf, name_);
    if (!devices_constrained(sh.conf)) gpu_files.clear(); // nothing to hide from steps
    steps_ = std::make_unique<StepRunner>(
        sh.io, sh.conf, name_, sh.plugins, sh.auth, sh.reaper, sh.is_admin,
        [this](const StepEnd &end) {
            flatbuffers::FlatBufferBuilder fbb(512);
            auto n = fbb.CreateString(name_);
            auto u = net::usage_to_proto(fbb, end.usage);
            fbb.Finish(proto::CreateMessage(
                fbb, proto::Body::StepCompleteRequest,
                proto::CreateStepCompleteRequest(fbb, end.job_id, end.step_id, n, end.exit_status,
                                                 u, end.state)
                    .Union(),
                sh_.epoch));
            return finish(fbb);
        },
        sh.tell_controller);
    steps_->set_gpu_files(gpu_files);
    steps_->set_gpu_cores(std::move(gpu_cores));
    // An emulated node is the shape slurm.conf gives it; a real one the machine's.
    steps_->set_topology(sh.emulated ? uniform_topology(me.boards * me.sockets, me.cores_per_socket,
                                                        me.threads_per_core)
                                     : detect_topology());
    steps_->on_unkillable([this](const std::string &reason) {
        flatbuffers::FlatBufferBuilder fbb(128);
        fbb.Finish(proto::CreateMessage(
            fbb, proto::Body::NodeUpdateRequest,
            proto::CreateNodeUpdateRequestDirect(fbb, name_.c_str(), "DRAIN", reason.c_str())
                .Union(),
            sh_.epoch));
        sh_.tell_controller(finish(fbb), "drain of " + name_, 0, {});
    });
    launcher_ = std::make_unique<Launcher>(
        sh.io, sh.conf, name_, sh.plugins, sh.reaper,
        [this](const RunningJob &job, const BatchEnd &end) {
            // The script is over, and with it the job: its steps here go too.
            steps_->job_ended(job.job_id);
            StepSampler sampler({{0, job.pid}});
            sampler.task_ended(0, end.ru);
            sampler.add_container(end.cont);
            StepUsageSummary usage = sampler.summary(name_);
            flatbuffers::FlatBufferBuilder fbb(512);
            auto n = fbb.CreateString(name_);
            auto u = net::usage_to_proto(fbb, usage);
            auto why = end.failure.empty() ? 0 : fbb.CreateString(end.failure);
            proto::JobCompleteRequestBuilder b(fbb);
            b.add_job_id(job.job_id);
            b.add_node(n);
            b.add_exit_status(end.status);
            b.add_usage(u);
            b.add_restart_count(job.restart);
            b.add_state(end.state);
            if (!end.failure.empty()) {
                b.add_failed_to_launch(true);
                b.add_message(why);
            }
            fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobCompleteRequest,
                                            b.Finish().Union(), sh_.epoch));
            return finish(fbb);
        },
        sh.tell_controller);
    launcher_->set_gpu_files(std::move(gpu_files));
    bcast_ = std::make_unique<FileBcast>(
        sh.io, sh.auth, sh.is_admin, name_, sh.reaper,
        [this](uint32_t job) { return steps_->has_ended(job); },
        int(sh.conf.message_timeout) * 1000);
}

std::vector<std::pair<proto::Body, net::Caller>> NodeInstance::route_callers() {
    std::vector<std::pair<proto::Body, net::Caller>> out;
    for (const auto &r : kRoutes) out.emplace_back(r.type, r.who);
    return out;
}

void NodeInstance::handle(std::shared_ptr<net::Request> req, net::ResponderPtr resp) {
    const proto::Message *m = req->msg;
    // Fencing: once a newer controller generation has been seen, an older one is ignored.
    if (uint64_t e = m->epoch(); e != 0 && sh_.is_admin(req->peer.uid)) {
        if (e < sh_.epoch)
            return resp->error(net::kNotInControl, "controller generation " + std::to_string(e) +
                                                       " is older than " +
                                                       std::to_string(sh_.epoch) + ": ignored");
        sh_.epoch = e;
        sh_.controller_seen_ms = steady_ms();
    }
    router_.dispatch(req, resp);
}

void NodeInstance::on_step_launch(const RequestPtr &req, const net::ResponderPtr &resp) {
    std::vector<int32_t> pids;
    Status s = steps_->launch(*req->msg->body_as_StepLaunchRequest(), req->peer.uid, &pids);
    if (!s.ok()) return resp->error(s.code(), s.text());
    flatbuffers::FlatBufferBuilder fbb(128);
    auto p = fbb.CreateVector(pids);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::StepLaunchResponse,
                                    proto::CreateStepLaunchResponse(fbb, p).Union()));
    resp->reply(finish(fbb));
}

void NodeInstance::on_step_signal(const RequestPtr &req, const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_StepSignalRequest();
    // The batch step's signal is for its shell alone (scancel -b, --signal=B:); the rest of
    // the batch step is reached by a JobKillRequest.
    if (r->step_id() == DROVER_STEP_BATCH && !r->terminate())
        return answer(resp, launcher_->signal_shell(r->job_id(), r->signal(), req->peer.uid,
                                                    sh_.is_admin(req->peer.uid)));
    answer(resp, steps_->signal(r->job_id(), r->step_id(), r->signal(), r->terminate(), r->reason(),
                                req->peer.uid));
}

void NodeInstance::on_step_stat(const RequestPtr &req, const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_StepStatRequest();
    StepUsageSummary usage;
    std::vector<int32_t> pids;
    Status s = steps_->stat(r->job_id(), r->step_id(), req->peer.uid, &usage, &pids);
    if (!s.ok()) return resp->error(s.code(), s.text());
    flatbuffers::FlatBufferBuilder fbb(512);
    auto u = net::usage_to_proto(fbb, usage);
    auto p = fbb.CreateVector(pids);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::StepStatResponse,
                                    proto::CreateStepStatResponse(fbb, u, p).Union()));
    resp->reply(finish(fbb));
}

// scontrol listpids: the batch scripts and steps here the sender may see, with their processes.
void NodeInstance::on_step_pids(const RequestPtr &req, const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_StepPidsRequest();
    const uint32_t uid = req->peer.uid, job = r->job_id(), step = r->step_id();
    flatbuffers::FlatBufferBuilder fbb(1024);
    std::vector<flatbuffers::Offset<proto::StepPids>> out;
    if (step == DROVER_NO_VAL || step == DROVER_STEP_BATCH) {
        for (const auto &b : launcher_->batch_pids(job, uid, sh_.is_admin(uid))) {
            // The script is the batch step's task 0, as Slurm's.
            std::vector<uint32_t> tasks;
            std::vector<int32_t> task_pids;
            if (b.script) {
                tasks.push_back(0);
                task_pids.push_back(b.script);
            }
            out.push_back(proto::CreateStepPidsDirect(fbb, b.job_id, DROVER_STEP_BATCH, &tasks,
                                                      &task_pids, &b.pids));
        }
    }
    for (const auto &[j, s] : steps_->running()) {
        if ((job != DROVER_NO_VAL && j != job) || (step != DROVER_NO_VAL && s != step)) continue;
        StepRunner::Attached a; // port 0: only the tasks and their pids, for its owner or root
        if (!steps_->attach(j, s, uid, "", 0, "", &a).ok()) continue;
        StepUsageSummary usage;
        std::vector<int32_t> pids;
        (void)steps_->stat(j, s, uid, &usage, &pids);
        out.push_back(proto::CreateStepPidsDirect(fbb, j, s, &a.tasks, &a.pids, &pids));
    }
    auto v = fbb.CreateVector(out);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::StepPidsResponse,
                                    proto::CreateStepPidsResponse(fbb, v).Union()));
    resp->reply(finish(fbb));
}

void NodeInstance::on_file_bcast(const RequestPtr &req, const net::ResponderPtr &resp) {
    // The block is read in the writer (a fork of this process) before req goes.
    bcast_->serve(*req->msg->body_as_FileBcastRequest(), req->peer.uid,
                  [req, resp](const Status &s) { answer(resp, s); });
}

void NodeInstance::on_step_attach(const RequestPtr &req, const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_StepAttachRequest();
    StepRunner::Attached a;
    std::string key = r->io_key() ? std::string(r->io_key()->begin(), r->io_key()->end()) : "";
    Status s = steps_->attach(r->job_id(), r->step_id(), req->peer.uid, proto::str(r->io_host()),
                              r->io_port(), std::move(key), &a);
    if (!s.ok()) return resp->error(s.code(), s.text());
    flatbuffers::FlatBufferBuilder fbb(256);
    auto n = fbb.CreateString(name_);
    auto t = fbb.CreateVector(a.tasks);
    auto p = fbb.CreateVector(a.pids);
    fbb.Finish(
        proto::CreateMessage(fbb, proto::Body::StepAttachResponse,
                             proto::CreateStepAttachResponse(fbb, n, t, p, a.num_tasks).Union()));
    resp->reply(finish(fbb));
}

// Never a forward inside a forward.
void NodeInstance::on_forward(const RequestPtr &req, const net::ResponderPtr &resp) {
    if (req->forwarded)
        return resp->error(DROVER_EINVAL, "a forwarded request may not be a ForwardRequest");
    serve_forward(sh_, name_, req, resp,
                  [this](std::shared_ptr<net::Request> q, net::ResponderPtr r) {
                      handle(std::move(q), std::move(r));
                  });
}

void NodeInstance::on_ping(const RequestPtr &req, const net::ResponderPtr &resp) {
    flatbuffers::FlatBufferBuilder fbb(64);
    auto n = fbb.CreateString(name_);
    int64_t quiet = sh_.controller_seen_ms < 0 ? -1 : steady_ms() - sh_.controller_seen_ms;
    uint32_t quiet_ms = quiet < 0 || quiet > 0xfffffffe ? 0xffffffffu : uint32_t(quiet);
    fbb.Finish(
        proto::CreateMessage(fbb, proto::Body::PingResponse,
                             proto::CreatePingResponse(fbb, n, 0, sh_.epoch, quiet_ms).Union()));
    resp->reply(finish(fbb));
    if (req->msg->body_as_PingRequest()->register_()) register_node();
}

void NodeInstance::on_batch_launch(const RequestPtr &req, const net::ResponderPtr &resp) {
    const auto *launch = req->msg->body_as_BatchLaunchRequest();
    if (Status s = launcher_->launch(*launch); !s.ok()) return resp->error(s.code(), s.text());
    steps_->job_started_here(launch->job_id());
    resp->ok();
}

void NodeInstance::on_job_kill(const RequestPtr &req, const net::ResponderPtr &resp) {
    const auto *k = req->msg->body_as_JobKillRequest();
    bool batch =
        launcher_->signal(k->job_id(), k->signal(), k->terminate(), proto::KillCause(k->cause()));
    if (!k->terminate() || batch) {
        if (!batch) return resp->error(DROVER_ENOENT, "job not running on " + name_);
        return resp->ok();
    }
    // The job has ended (its batch script runs elsewhere): end its steps here, then run the
    // Epilog where the job ran anything.
    if (steps_->job_ended(k->job_id()) && !sh_.conf.epilog.empty()) {
        uint32_t id = k->job_id();
        sh_.pool.run([this, id] {
            int st = run_script(sh_.conf.epilog, id, 0, "", "", name_);
            if (st != 0) spdlog::warn("job {}: epilog exited with status {}", id, st);
        });
    }
    resp->ok();
}

// The controller sends the reboot once the node is idle: RebootProgram runs on its own, and the
// node's next registration tells the controller it is back.
void NodeInstance::on_reboot(const RequestPtr &, const net::ResponderPtr &resp) {
    auto it = sh_.conf.raw.find("rebootprogram");
    if (it == sh_.conf.raw.end() || it->second.empty()) {
        spdlog::error("RebootProgram isn't defined in config");
        return resp->error(DROVER_EINVAL, "RebootProgram isn't defined in config");
    }
    spdlog::info("node reboot request being processed: {}", it->second);
    pid_t pid = start_reboot_program(it->second, name_);
    if (pid < 0) return resp->error(DROVER_EIO, "cannot start RebootProgram");
    sh_.reaper.watch(pid, [program = it->second](int status, const struct rusage &) {
        if (status != 0) spdlog::error("system({}) returned {}", program, status);
    });
    resp->ok();
}

void NodeInstance::on_reconfigure(const RequestPtr &, const net::ResponderPtr &resp) {
    answer(resp, sh_.reread_config());
}

Status NodeShared::reread_config() {
    int64_t now = int64_t(::time(nullptr));
    if (now - reread_at < 1) return reread_status;
    reread_at = now;
    try {
        load_config(conf.path);
        reread_status = Status();
        spdlog::info("reconfigure: {} re-read and valid; changes take effect at restart",
                     conf.path);
    } catch (const std::exception &e) {
        reread_status = {DROVER_EINVAL, e.what()};
        spdlog::error("reconfigure: {}", reread_status.text());
    }
    return reread_status;
}

NodeInstance::~NodeInstance() = default;

uint16_t NodeInstance::port() const {
    return server_ ? server_->port() : 0;
}

void NodeInstance::start() {
    std::string bind = daemon::listen_address(sh_.conf.node_addr(me_));
    server_ = std::make_unique<net::Server>(
        sh_.io, bind, sh_.conf.node_port(me_), sh_.auth, name_,
        [this](std::shared_ptr<net::Request> q, net::ResponderPtr r) {
            handle(std::move(q), std::move(r));
        },
        net::server_limits(sh_.conf));
    if (!sh_.emulated)
        spdlog::info("droverd {} listening on {}:{} ({} CPUs, {} MB)", name_, bind, server_->port(),
                     sh_.res.cpus, sh_.res.real_memory_mb);
    // What a previous droverd left running here is ours again before the controller hears
    // from us: registration lists its jobs, and their launches repeated meanwhile are ignored.
    steps_->recover();
    launcher_->recover();
    register_node();
}

void NodeInstance::register_node() {
    // An emulated node reports the size slurm.conf gives it; a real one what the machine has.
    const Resources &res = sh_.res;
    uint32_t cpus = sh_.emulated ? me_.cpus : res.cpus;
    uint64_t mem = sh_.emulated ? me_.real_memory_mb : res.real_memory_mb;
    uint64_t tmp = sh_.emulated ? me_.tmp_disk_mb : res.tmp_disk_mb;
    flatbuffers::FlatBufferBuilder fbb(256);
    auto running = launcher_->running();
    std::vector<uint32_t> step_jobs;
    for (const auto &[job, step] : steps_->running())
        if (step_jobs.empty() || step_jobs.back() != job) step_jobs.push_back(job);
    auto req = proto::CreateNodeRegisterRequestDirect(
        fbb, name_.c_str(), cpus, me_.sockets, me_.cores_per_socket, me_.threads_per_core, mem, tmp,
        &running, res.boot_time, "0.1.0", res.os.c_str(), gres_.empty() ? nullptr : gres_.c_str(),
        &step_jobs, features_ ? features_->c_str() : nullptr);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::NodeRegisterRequest, req.Union(), sh_.epoch));
    auto epoch = std::make_shared<uint64_t>(0);
    auto err = std::make_shared<std::string>();
    sh_.pool.run(
        [this, msg = finish(fbb), epoch, err] {
            try {
                net::Reply r =
                    net::call_controller(sh_.conf, msg, sh_.auth.self_signer(), 10000, false);
                *epoch = r.as<proto::NodeRegisterResponse>()->epoch();
            } catch (const std::exception &e) {
                *err = e.what();
            }
        },
        [this, epoch, err, gen = ++register_gen_] {
            const std::string &why = *err;
            sh_.epoch = std::max(sh_.epoch, *epoch);
            auto t = std::make_shared<asio::steady_timer>(sh_.io);
            if (why.empty()) {
                if (sh_.emulated)
                    spdlog::debug("{} registered with the controller", name_);
                else
                    spdlog::info("registered with the controller");
                t->expires_after(std::chrono::minutes(5));
            } else {
                spdlog::warn("{}: registration failed: {}; retrying", name_, why);
                t->expires_after(std::chrono::seconds(2));
            }
            // One registration timer per node: a registration the controller asked
            // for meanwhile (a ping with register) has started a newer one.
            t->async_wait([t, this, gen](boost::system::error_code ec) {
                if (!ec && gen == register_gen_) register_node();
            });
        });
}

} // namespace drover::noded
