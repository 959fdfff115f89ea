// feature_helpers.cpp - running helpers.conf's Helper programs for the features active here.
#include "noded/feature_helpers.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include <spdlog/spdlog.h>

#include "common/config.hpp"
#include "common/error.hpp"
#include "common/helpers_conf.hpp"
#include "common/hostlist.hpp"

extern char **environ;

namespace drover::noded {

namespace {

// What program prints on its standard output within limit seconds; nullopt (logged) when it
// cannot start, runs longer (killed) or exits non-zero.
std::optional<std::string> output_of(const std::string &program, uint32_t limit) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    char *argv[] = {const_cast<char *>(program.c_str()), nullptr};
    pid_t pid = -1;
    int rc = ::posix_spawn(&pid, program.c_str(), &fa, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        spdlog::error("node_features/helpers: cannot run {}: {}", program, std::strerror(rc));
        return std::nullopt;
    }
    std::string out;
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(limit);
    bool late = false;
    for (char buf[4096];;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            end - std::chrono::steady_clock::now());
        pollfd p{fds[0], POLLIN, 0};
        if (left.count() <= 0 || ::poll(&p, 1, int(left.count())) == 0) {
            late = true;
            break;
        }
        ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0 || out.size() > 65536) break;
        out.append(buf, std::size_t(n));
    }
    ::close(fds[0]);
    if (late) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (late || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        spdlog::error("node_features/helpers: {} {}", program,
                      late ? "ran past ExecTime=" + std::to_string(limit) + " s: killed"
                           : "failed (status " + std::to_string(status) + ")");
        return std::nullopt;
    }
    return out;
}

bool applies(const HelperFeatures &line, const std::string &node) {
    if (line.nodes.empty()) return true;
    try {
        auto names = hostlist_expand(line.nodes);
        return std::find(names.begin(), names.end(), node) != names.end();
    } catch (const ParseError &) {
        return false; // refused when helpers.conf was read
    }
}

} // namespace

std::optional<std::string> helper_features(const Config &conf, const std::string &node) {
    HelpersConf helpers;
    try {
        helpers = load_helpers_conf(conf);
    } catch (const ParseError &e) {
        spdlog::error("node_features/helpers: {}", e.what());
        return std::nullopt;
    }
    std::string active;
    for (const HelperFeatures &line : helpers.lines) {
        if (!applies(line, node)) continue;
        auto out = output_of(line.helper, helpers.exec_time);
        if (!out) continue;
        std::size_t at = 0;
        while (at < out->size()) {
            std::size_t end = std::min(out->find('\n', at), out->size());
            std::string f = out->substr(at, end - at);
            at = end + 1;
            f.erase(f.find_last_not_of(" \t\r") + 1);
            f.erase(0, f.find_first_not_of(" \t"));
            bool known =
                std::find(line.features.begin(), line.features.end(), f) != line.features.end();
            if (!f.empty() && known &&
                ("," + active + ",").find("," + f + ",") == std::string::npos)
                active += (active.empty() ? "" : ",") + f;
        }
    }
    if (active.empty()) return std::nullopt;
    return active;
}

} // namespace drover::noded
