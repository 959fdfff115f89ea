// main.cpp - drover-restd: the REST daemon (slurmrestd's paths and JSON) in front of droverctld.
//
//   drover-restd [-f slurm.conf] [-a rest_auth/jwt|rest_auth/local] [-t THREADS] [-v]
//                [HOST]:PORT | unix:/PATH ...
//
// With no address, SLURMRESTD_LISTEN (comma-separated) is read, as slurmrestd does.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "common/config.hpp"
#include "common/daemon_help.hpp"
#include "common/version.hpp"
#include "daemon/daemon.hpp"
#include "restd/http_server.hpp"
#include "restd/rest_api.hpp"

namespace {

struct Options {
    std::string config, auth = "rest_auth/jwt";
    unsigned threads = 8;
    bool status_page = false;
    std::string tls_cert, tls_key;
    int verbosity = 0;
    std::vector<std::string> listen;
};

// Returns false (after printing why) for a bad command line.
bool parse(int argc, char **argv, Options &o) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if ((a == "-f" || a == "-a" || a == "-t" || a == "--tls-cert" || a == "--tls-key") &&
            i + 1 < argc) {
            std::string v = argv[++i];
            if (a == "--tls-cert") o.tls_cert = v;
            if (a == "--tls-key") o.tls_key = v;
            if (a == "-f") o.config = v;
            if (a == "-a") o.auth = v;
            if (a == "-t") o.threads = unsigned(std::max(1, std::atoi(v.c_str())));
        } else if (a == "--status-page") {
            o.status_page = true;
        } else if (a == "-v" || a == "-vv") {
            o.verbosity += int(a.size()) - 1;
        } else if (!a.empty() && a[0] != '-') {
            o.listen.push_back(a);
        } else {
            std::fprintf(stderr, "drover-restd: unrecognized option '%s'\n%s", a.c_str(),
                         drover::kRestdHelp);
            return false;
        }
    }
    if (o.listen.empty())
        if (const char *env = std::getenv("SLURMRESTD_LISTEN"))
            for (std::string s = env; !s.empty();) {
                std::size_t comma = s.find(',');
                o.listen.push_back(s.substr(0, comma));
                s = comma == std::string::npos ? "" : s.substr(comma + 1);
            }
    if (o.auth != "rest_auth/jwt" && o.auth != "rest_auth/local") {
        std::fprintf(stderr, "drover-restd: unknown authentication plugin %s\n", o.auth.c_str());
        return false;
    }
    if (o.tls_cert.empty() != o.tls_key.empty()) {
        std::fprintf(stderr, "drover-restd: --tls-cert and --tls-key go together\n");
        return false;
    }
    if (o.listen.empty()) {
        std::fprintf(stderr, "drover-restd: no address to listen on\n%s", drover::kRestdHelp);
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char **argv) {
    using namespace drover;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "-V" || a == "--version") {
            std::printf("drover-restd %s (slurm %s)\n", kDroverVersion, kSlurmRelease);
            return 0;
        }
        if (a == "-h" || a == "--help") {
            std::fputs(drover::kRestdHelp, stdout);
            return 0;
        }
    }
    Options o;
    if (!parse(argc, argv, o)) return 2;
    try {
        Config conf = load_config(o.config);
        spdlog::set_level(o.verbosity > 0 ? spdlog::level::debug : spdlog::level::info);
        boost::asio::io_context io(1);
        net::CallPool pool(io, o.threads);
        restd::RestApi api(
            conf, o.auth == "rest_auth/local" ? restd::AuthMode::local : restd::AuthMode::jwt, pool,
            o.status_page);
        restd::HttpServer server(
            io, [&api](restd::HttpRequest req, const restd::Client &c, restd::Reply reply) {
                api.handle(std::move(req), c, std::move(reply));
            });
        if (!o.tls_cert.empty()) server.use_tls(o.tls_cert, o.tls_key);
        for (const auto &where : o.listen) server.listen(where);
        spdlog::info("drover-restd {} serving {} ({})", kDroverVersion, o.listen.front(), o.auth);
        boost::asio::signal_set stop(io, SIGINT, SIGTERM);
        stop.async_wait([&io](boost::system::error_code, int) { io.stop(); });
        io.run();
    } catch (const std::exception &e) {
        std::fprintf(stderr, "drover-restd: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
