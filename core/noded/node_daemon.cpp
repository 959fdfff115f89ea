// node_daemon.cpp - droverd's wiring: plugins, the nodes this process serves, the credential
// socket and signals. One node normally; with --emulate many, each a full node to the controller
// and the fan-out tree (own port, jobs and steps), sharing one loop.
#include "noded/node_daemon.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

#include "common/config.hpp"
#include "common/hostlist.hpp"
#include "daemon/daemon.hpp"
#include "daemon/heap_trim.hpp"
#include "daemon/log_reopen.hpp"
#include "daemon/service.hpp"
#include "net/authenticator.hpp"
#include "net/call_loop.hpp"
#include "net/call_pool.hpp"
#include "net/server.hpp"
#include "noded/node_instance.hpp"
#include "noded/reaper.hpp"
#include "noded/resources.hpp"
#include "plugin/plugin_set.hpp"

namespace asio = boost::asio;

namespace drover::noded {

namespace {

// The nodes this process serves: the one it runs on (or is told), or every node of --emulate.
std::vector<const NodeConf *> nodes_served(const Config &conf, const Options &opts,
                                           std::vector<std::string> &names) {
    if (!opts.emulate.empty())
        names = hostlist_expand(opts.emulate);
    else
        names.push_back(opts.node_name.empty() ? daemon::short_hostname() : opts.node_name);
    std::vector<const NodeConf *> mine;
    for (const auto &n : names) {
        const NodeConf *me = conf.find_node(n);
        if (!me) throw std::runtime_error("node " + n + " is not in the configuration (NodeName)");
        mine.push_back(me);
    }
    return mine;
}

// Sends msg to the controller, again and again until it acknowledges (job and step ends).
// acked (if set) runs on the loop once the controller has it.
void tell_controller(asio::io_context &io, net::CallPool &pool, const Config &conf,
                     const net::Authenticator &auth, std::vector<uint8_t> msg, std::string what,
                     int attempt, std::function<void()> acked) {
    auto ok = std::make_shared<bool>(false);
    pool.run(
        [&conf, &auth, msg, what, attempt, ok] {
            try {
                net::call_controller(conf, msg, auth.self_signer(), 10000, false)
                    .as<proto::OkResponse>();
                *ok = true;
            } catch (const std::exception &e) {
                spdlog::warn("{}: cannot report it (try {}): {}", what, attempt + 1, e.what());
            }
        },
        [&io, &pool, &conf, &auth, msg, what, attempt, ok, acked] {
            if (*ok) {
                if (acked) acked();
                return;
            }
            auto t = std::make_shared<asio::steady_timer>(io, std::chrono::seconds(2));
            t->async_wait([t, &io, &pool, &conf, &auth, msg, what, attempt,
                           acked](boost::system::error_code) {
                tell_controller(io, pool, conf, auth, msg, what, attempt + 1, acked);
            });
        });
}

} // namespace

int run_node_daemon(const Options &opts) {
    Config conf = load_config(opts.config_path);
    for (const auto &w : conf.warnings) spdlog::warn("{}", w);
    conf.raw["drover.config_dir"] = conf.path.substr(0, conf.path.find_last_of('/') + 1);
    std::vector<std::string> names;
    std::vector<const NodeConf *> mine = nodes_served(conf, opts, names);
    // Plugins that keep per-node state on a shared host (cgroup paths) read this with conf_get.
    conf.raw["drover.node_name"] = names.front();
    daemon::raise_fd_limit();

    asio::io_context io(1);
    plugin::PluginSet plugins(conf, "noded");
    plugins.load(conf.auth_type);
    plugins.load(conf.switch_type);
    plugins.load(conf.proctrack_type);
    net::Authenticator auth(plugins.auth());
    // The pool runs blocking work only (reports to the controller, registrations, prolog and
    // epilog scripts): calls down the fan-out tree run on the loop (net::forward). An emulating
    // droverd registers its nodes through it, so it gets a few more threads, not one per node.
    net::CallPool pool(io, names.size() > 1 ? 32 : 4);
    uint32_t slurm_uid = daemon::uid_of(conf.slurm_user);
    net::set_reply_check(
        net::admin_reply_check(auth, [slurm_uid](uint32_t u) { return u == 0 || u == slurm_uid; }));
    Reaper reaper(io);

    auto tell = [&](std::vector<uint8_t> msg, std::string what, int attempt,
                    std::function<void()> acked) {
        tell_controller(io, pool, conf, auth, std::move(msg), std::move(what), attempt,
                        std::move(acked));
    };

    std::optional<net::CallLoop> call_loop;
    if (names.size() > 1) call_loop.emplace();
    NodeShared shared{io,
                      call_loop ? call_loop->io() : io,
                      conf,
                      plugins,
                      auth,
                      pool,
                      reaper,
                      [slurm_uid](uint32_t uid) { return uid == 0 || uid == slurm_uid; },
                      tell,
                      detect_resources(conf.tmp_fs),
                      names.size() > 1};
    std::vector<std::unique_ptr<NodeInstance>> nodes;
    nodes.reserve(mine.size());
    for (const NodeConf *me : mine) nodes.push_back(std::make_unique<NodeInstance>(shared, *me));
    for (auto &n : nodes) n->start();
    if (nodes.size() > 1)
        spdlog::info("droverd emulating {} nodes ({}), ports {}-{}", nodes.size(), opts.emulate,
                     nodes.front()->port(), nodes.back()->port());

    net::AuthSocketKeeper auth_socket(io, net::auth_socket_path(conf), auth);
    // SIGHUP is noted and ignored (catch_hup_and_usr2): the configuration is read at start.
    asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code, int sig) {
        spdlog::info("signal {}: shutting down", sig);
        io.stop();
    });
    daemon::HeapTrimmer trim(io, std::chrono::seconds(2));
    daemon::LogReopener reopen(io);
    daemon::notify_ready();
    io.run();
    return 0;
}

} // namespace drover::noded
