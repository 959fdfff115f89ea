// node_daemon.cpp - droverd's wiring: plugins, server, registration, routing and the tree.
#include "noded/node_daemon.hpp"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <pwd.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "common/config.hpp"
#include "daemon/daemon.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"
#include "net/fanout.hpp"
#include "net/server.hpp"
#include "net/usage_codec.hpp"
#include "noded/launcher.hpp"
#include "noded/prolog.hpp"
#include "noded/reaper.hpp"
#include "noded/resources.hpp"
#include "noded/sampler.hpp"
#include "noded/step_runner.hpp"
#include "plugin/plugin_set.hpp"

namespace asio = boost::asio;

namespace drover::noded {

namespace {

std::vector<uint8_t> finish(flatbuffers::FlatBufferBuilder &fbb) {
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

// Collects a handler's answer as one node's outcome (for requests that came down the tree).
struct OutcomeResponder : net::Responder {
    explicit OutcomeResponder(std::function<void(int, std::string)> f) : done(std::move(f)) {}
    void reply(std::span<const uint8_t> message) override {
        if (!done) return;
        flatbuffers::Verifier v(message.data(), message.size());
        int rc = 0;
        std::string text;
        if (v.VerifyBuffer<proto::Message>(nullptr)) {
            const auto *m = flatbuffers::GetRoot<proto::Message>(message.data());
            if (const auto *e = m->body_as_ErrorResponse()) {
                rc = e->code() ? e->code() : DROVER_EIO;
                text = e->message() ? e->message()->str() : "";
            }
        }
        auto f = std::move(done);
        done = nullptr;
        f(rc, text);
    }
    ~OutcomeResponder() override {
        if (done) done(DROVER_EIO, "no answer");
    }
    std::function<void(int, std::string)> done;
};

}  // namespace

int run_node_daemon(const Options &opts) {
    Config conf = load_config(opts.config_path);
    for (const auto &w : conf.warnings) spdlog::warn("{}", w);
    conf.raw["drover.config_dir"] = conf.path.substr(0, conf.path.find_last_of('/') + 1);
    std::string name = opts.node_name.empty() ? daemon::short_hostname() : opts.node_name;
    const NodeConf *me = conf.find_node(name);
    if (!me) throw std::runtime_error("node " + name + " is not in the configuration (NodeName)");
    // Plugins that keep per-node state on a shared host (cgroup paths) read this with conf_get.
    conf.raw["drover.node_name"] = name;

    asio::io_context io(1);
    plugin::PluginSet plugins(conf, "noded");
    plugins.load(conf.auth_type);
    plugins.load(conf.switch_type);
    plugins.load(conf.proctrack_type);
    net::Authenticator auth(plugins.auth());
    net::CallPool pool(io, 4);
    uint32_t slurm_uid = daemon::uid_of(conf.slurm_user);
    auto is_admin = [slurm_uid](uint32_t uid) { return uid == 0 || uid == slurm_uid; };

    auto resolve = [&conf](const std::string &n, std::string *host, uint16_t *port) {
        const NodeConf *c = conf.find_node(n);
        if (!c) return false;
        *host = conf.node_addr(*c);
        *port = conf.node_port(*c);
        return true;
    };

    // Sends msg to the controller, again and again until it acknowledges (job and step ends).
    // acked (if set) runs on the loop once the controller has it.
    std::function<void(std::vector<uint8_t>, std::string, int, std::function<void()>)> tell_controller =
        [&](std::vector<uint8_t> msg, std::string what, int attempt, std::function<void()> acked) {
            auto ok = std::make_shared<bool>(false);
            pool.run(
                [&conf, &auth, msg, what, attempt, ok] {
                    try {
                        net::call_controller(conf, msg, auth.self_signer(), 10000).as<proto::OkResponse>();
                        *ok = true;
                    } catch (const std::exception &e) {
                        spdlog::warn("{}: cannot report its end (try {}): {}", what, attempt + 1, e.what());
                    }
                },
                [&io, msg, what, attempt, ok, acked, &tell_controller] {
                    if (*ok) {
                        if (acked) acked();
                        return;
                    }
                    auto t = std::make_shared<asio::steady_timer>(io, std::chrono::seconds(2));
                    t->async_wait([t, msg, what, attempt, acked, &tell_controller](boost::system::error_code) {
                        tell_controller(msg, what, attempt + 1, acked);
                    });
                });
        };

    Reaper reaper(io);
    StepRunner steps(io, conf, name, plugins, auth, reaper, is_admin,
                     [&](const StepEnd &end, std::function<void()> recorded) {
        flatbuffers::FlatBufferBuilder fbb(512);
        auto n = fbb.CreateString(name);
        auto u = net::usage_to_proto(fbb, end.usage);
        fbb.Finish(proto::CreateMessage(
            fbb, proto::Body::StepCompleteRequest,
            proto::CreateStepCompleteRequest(fbb, end.job_id, end.step_id, n, end.exit_status, u,
                                             end.state)
                .Union()));
        tell_controller(finish(fbb),
                        "step " + std::to_string(end.job_id) + "." + std::to_string(end.step_id), 0,
                        std::move(recorded));
    });
    steps.on_unkillable([&](const std::string &reason) {
        flatbuffers::FlatBufferBuilder fbb(128);
        fbb.Finish(proto::CreateMessage(
            fbb, proto::Body::NodeUpdateRequest,
            proto::CreateNodeUpdateRequestDirect(fbb, name.c_str(), "DRAIN", reason.c_str()).Union()));
        tell_controller(finish(fbb), "drain of " + name, 0, {});
    });
    Launcher launcher(io, conf, name, plugins, reaper,
                      [&](const RunningJob &job, int status, const struct rusage &ru,
                          const drover_cont_usage &cu) {
                          // The script is over, and with it the job: its steps here go too.
                          steps.job_ended(job.job_id);
                          StepSampler sampler({{0, job.pid}});
                          sampler.task_ended(0, ru);
                          sampler.add_container(cu);
                          StepUsageSummary usage = sampler.summary(name);
                          flatbuffers::FlatBufferBuilder fbb(512);
                          auto n = fbb.CreateString(name);
                          auto u = net::usage_to_proto(fbb, usage);
                          proto::JobCompleteRequestBuilder b(fbb);
                          b.add_job_id(job.job_id);
                          b.add_node(n);
                          b.add_exit_status(status);
                          b.add_usage(u);
                          fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobCompleteRequest,
                                                          b.Finish().Union()));
                          tell_controller(finish(fbb), "job " + std::to_string(job.job_id), 0, {});
                      });

    Resources res = detect_resources(conf.tmp_fs);
    std::string gres = detect_gres(conf.path, name);
    std::function<void()> register_node = [&] {
        flatbuffers::FlatBufferBuilder fbb(256);
        auto running = launcher.running();
        auto req = proto::CreateNodeRegisterRequestDirect(
            fbb, name.c_str(), res.cpus, me->sockets, me->cores_per_socket, me->threads_per_core,
            res.real_memory_mb, res.tmp_disk_mb, &running, res.boot_time, "0.1.0", res.os.c_str(),
            gres.empty() ? nullptr : gres.c_str());
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::NodeRegisterRequest, req.Union()));
        auto msg = finish(fbb);
        pool.call(conf.controllers.empty() ? "localhost" : conf.controllers.front().addr,
                  conf.slurmctld_port, msg, auth.self_signer(), 10000,
                  [&](const std::string &err, std::shared_ptr<net::Reply> reply) {
                      std::string why = err;
                      if (reply && reply->msg->body_as_ErrorResponse())
                          why = reply->msg->body_as_ErrorResponse()->message()->str();
                      auto t = std::make_shared<asio::steady_timer>(io);
                      if (why.empty()) {
                          spdlog::info("registered with the controller");
                          t->expires_after(std::chrono::minutes(5));
                      } else {
                          spdlog::warn("registration failed: {}; retrying", why);
                          t->expires_after(std::chrono::seconds(2));
                      }
                      t->async_wait([t, &register_node](boost::system::error_code ec) {
                          if (!ec) register_node();
                      });
                  });
    };

    net::Handler handler;
    handler = [&](std::shared_ptr<net::Request> req, net::ResponderPtr resp) {
        const proto::Message *m = req->msg;
        switch (m->body_type()) {
        // Users reach their own steps; the credential or the step's owner decides.
        case proto::Body::StepLaunchRequest: {
            std::vector<int32_t> pids;
            std::string why = steps.launch(*m->body_as_StepLaunchRequest(), req->peer.uid, &pids);
            if (!why.empty()) return resp->error(DROVER_EPERM, why);
            flatbuffers::FlatBufferBuilder fbb(128);
            auto p = fbb.CreateVector(pids);
            fbb.Finish(proto::CreateMessage(fbb, proto::Body::StepLaunchResponse,
                                            proto::CreateStepLaunchResponse(fbb, p).Union()));
            return resp->reply(finish(fbb));
        }
        case proto::Body::StepSignalRequest: {
            const auto *r = m->body_as_StepSignalRequest();
            std::string why = steps.signal(r->job_id(), r->step_id(), r->signal(), r->terminate(),
                                           r->reason(), req->peer.uid);
            if (!why.empty()) return resp->error(DROVER_ENOENT, why);
            return resp->ok();
        }
        case proto::Body::StepStatRequest: {
            const auto *r = m->body_as_StepStatRequest();
            StepUsageSummary usage;
            std::vector<int32_t> pids;
            std::string why = steps.stat(r->job_id(), r->step_id(), req->peer.uid, &usage, &pids);
            if (!why.empty()) return resp->error(DROVER_ENOENT, why);
            flatbuffers::FlatBufferBuilder fbb(512);
            auto u = net::usage_to_proto(fbb, usage);
            auto p = fbb.CreateVector(pids);
            fbb.Finish(proto::CreateMessage(fbb, proto::Body::StepStatResponse,
                                            proto::CreateStepStatResponse(fbb, u, p).Union()));
            return resp->reply(finish(fbb));
        }
        default:
            break;
        }
        if (!is_admin(req->peer.uid))
            return resp->error(DROVER_EPERM, "only the controller may ask this of a node");
        switch (m->body_type()) {
        case proto::Body::PingRequest: {
            flatbuffers::FlatBufferBuilder fbb(64);
            auto n = fbb.CreateString(name);
            fbb.Finish(proto::CreateMessage(fbb, proto::Body::PingResponse,
                                            proto::CreatePingResponse(fbb, n).Union()));
            return resp->reply(finish(fbb));
        }
        case proto::Body::BatchLaunchRequest: {
            std::string why = launcher.launch(*m->body_as_BatchLaunchRequest());
            if (!why.empty()) return resp->error(DROVER_EIO, why);
            steps.job_started_here(m->body_as_BatchLaunchRequest()->job_id());
            return resp->ok();
        }
        case proto::Body::JobKillRequest: {
            const auto *k = m->body_as_JobKillRequest();
            bool batch = launcher.signal(k->job_id(), k->signal(), k->terminate());
            if (!k->terminate() || batch) {
                if (!batch) return resp->error(DROVER_ENOENT, "job not running on " + name);
                return resp->ok();
            }
            // The job has ended (its batch script runs elsewhere): end its steps here, then
            // run the Epilog where the job ran anything.
            if (steps.job_ended(k->job_id()) && !conf.epilog.empty()) {
                uint32_t id = k->job_id();
                pool.run([&conf, id, &name] {
                    int st = run_script(conf.epilog, id, 0, "", "", name);
                    if (st != 0) spdlog::warn("job {}: epilog exited with status {}", id, st);
                });
            }
            return resp->ok();
        }
        case proto::Body::ForwardRequest: {
            const auto *f = m->body_as_ForwardRequest();
            std::vector<std::string> nodes;
            if (f->nodes())
                for (const auto *s : *f->nodes()) nodes.push_back(s->str());
            if (nodes.empty() || !f->inner()) return resp->error(DROVER_EINVAL, "empty forward");
            auto results = std::make_shared<std::vector<net::NodeOutcome>>();
            auto waiting = std::make_shared<int>(2);
            auto done = [resp, results, waiting] {
                if (--*waiting) return;
                flatbuffers::FlatBufferBuilder fbb(256 + results->size() * 48);
                std::vector<flatbuffers::Offset<proto::NodeResult>> rs;
                for (const auto &r : *results)
                    rs.push_back(proto::CreateNodeResultDirect(fbb, r.node.c_str(), r.rc,
                                                               r.message.c_str()));
                auto v = fbb.CreateVector(rs);
                fbb.Finish(proto::CreateMessage(fbb, proto::Body::ForwardResponse,
                                                proto::CreateForwardResponse(fbb, v).Union()));
                resp->reply(finish(fbb));
            };
            // Our own share: the inner request, answered locally.
            auto inner = std::make_shared<net::Request>();
            inner->bytes.assign(f->inner()->begin(), f->inner()->end());
            inner->msg = flatbuffers::GetRoot<proto::Message>(inner->bytes.data());
            inner->peer = req->peer;
            std::string self = nodes.front();
            handler(inner, std::make_shared<OutcomeResponder>([results, done, self](int rc, std::string text) {
                results->push_back({self, rc, std::move(text)});
                done();
            }));
            // The rest, split again.
            std::span<const std::string> rest(nodes.data() + 1, nodes.size() - 1);
            int child_timeout = std::max(500, int(f->timeout_ms() * 8 / 10));
            net::forward(pool, resolve, rest, f->tree_width(), child_timeout,
                         {f->inner()->data(), f->inner()->size()}, auth.self_signer(),
                         [results, done](std::vector<net::NodeOutcome> rs) {
                             for (auto &r : rs) results->push_back(std::move(r));
                             done();
                         });
            return;
        }
        default:
            return resp->error(DROVER_EINVAL, std::string("unexpected message ") +
                                                   proto::EnumNameBody(m->body_type()));
        }
    };

    uint16_t port = conf.node_port(*me);
    std::string bind = daemon::listen_address(me->addr);
    net::Server server(io, bind, port, auth, handler);
    net::AuthSocketKeeper auth_socket(io, net::auth_socket_path(conf), auth);
    asio::signal_set hup(io, SIGHUP);  // logs are reopened per write; nothing to redo
    std::function<void()> on_hup = [&] {
        hup.async_wait([&](boost::system::error_code ec, int) {
            if (!ec) on_hup();
        });
    };
    on_hup();
    asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code, int sig) {
        spdlog::info("signal {}: shutting down", sig);
        io.stop();
    });
    spdlog::info("droverd {} listening on {}:{} ({} CPUs, {} MB)", name, bind, server.port(),
                 res.cpus, res.real_memory_mb);
    register_node();
    io.run();
    return 0;
}

}  // namespace drover::noded
