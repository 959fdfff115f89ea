// daemon.cpp - logging set-up and detaching for droverctld and droverd.
#include "daemon/daemon.hpp"

#include <sys/resource.h>
#include <syslog.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <fcntl.h>
#include <pwd.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/sinks/syslog_sink.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "common/ascii.hpp"
#include "daemon/log_sink.hpp"

namespace drover::daemon {

namespace {

std::shared_ptr<ReopenableFileSink> g_file_sink; // set once, before any other thread runs

} // namespace

ReopenableFileSink::ReopenableFileSink(std::string path) : path_(std::move(path)) {
    file_.open(path_, false);
}

void ReopenableFileSink::reopen() {
    std::lock_guard<std::mutex> lock(mutex_);
    file_.reopen(false);
}

void ReopenableFileSink::sink_it_(const spdlog::details::log_msg &msg) {
    spdlog::memory_buf_t line;
    formatter_->format(msg, line);
    file_.write(line);
}

void ReopenableFileSink::flush_() {
    file_.flush();
}

std::shared_ptr<ReopenableFileSink> log_file_sink() {
    return g_file_sink;
}

int syslog_level(const std::string &key, const std::string &value) {
    using spdlog::level::level_enum;
    // Slurm has no warning level: its "error" keeps Drover's warnings (refused frames, ...).
    static const std::pair<const char *, level_enum> kLevels[] = {
        {"quiet", spdlog::level::off},    {"fatal", spdlog::level::critical},
        {"error", spdlog::level::warn},   {"info", spdlog::level::info},
        {"verbose", spdlog::level::info}, {"debug", spdlog::level::debug},
        {"debug2", spdlog::level::debug}, {"debug3", spdlog::level::debug},
        {"debug4", spdlog::level::debug}, {"debug5", spdlog::level::debug},
    };
    const std::string v = ascii_lower(value);
    for (const auto &[name, level] : kLevels)
        if (v == name) return int(level);
    throw std::runtime_error(key + "=" + value +
                             ": expected quiet, fatal, error, info, verbose or debug..debug5");
}

namespace {

// Slurm's rule for syslog when slurm.conf names no level (daemon.hpp).
spdlog::level::level_enum default_syslog_level(const LogTargets &to,
                                               spdlog::level::level_enum own) {
    if (to.syslog_level) return spdlog::level::level_enum(*to.syslog_level);
    if (to.file.empty()) return to.foreground ? spdlog::level::off : own;
    return spdlog::level::critical;
}

} // namespace

void setup_logging(const std::string &name, const LogTargets &to, int verbosity) {
    const auto level = verbosity >= 1 ? spdlog::level::debug : spdlog::level::info;
    std::vector<spdlog::sink_ptr> sinks;
    if (!to.file.empty()) {
        g_file_sink = std::make_shared<ReopenableFileSink>(to.file);
        sinks.push_back(g_file_sink);
    }
    if ((to.file.empty() && to.foreground) || to.also_stderr)
        sinks.push_back(std::make_shared<spdlog::sinks::stderr_sink_mt>());
    for (auto &sink : sinks) {
        sink->set_pattern("[%Y-%m-%dT%H:%M:%S.%e] %n: %l: %v");
        sink->set_level(level);
    }
    const auto to_syslog = default_syslog_level(to, level);
    if (to_syslog != spdlog::level::off) {
        auto sys = std::make_shared<spdlog::sinks::syslog_sink_mt>(name, LOG_PID, LOG_DAEMON, true);
        sys->set_pattern("%l: %v"); // syslog stamps the time and the name itself
        sys->set_level(to_syslog);
        sinks.push_back(sys);
    }
    auto logger = std::make_shared<spdlog::logger>(name, sinks.begin(), sinks.end());
    logger->set_level(std::min(level, to_syslog));
    logger->flush_on(spdlog::level::info);
    spdlog::set_default_logger(logger);
}

std::string short_hostname() {
    char buf[256] = {};
    ::gethostname(buf, sizeof buf - 1);
    std::string h = buf;
    return h.substr(0, h.find('.'));
}

uint32_t uid_of(const std::string &user) {
    const passwd *pw = ::getpwnam(user.c_str());
    return pw ? pw->pw_uid : 0;
}

std::string listen_address(const std::string &addr) {
    if (addr == "localhost") return "127.0.0.1";
    if (addr.empty() || addr.find_first_not_of("0123456789.") != std::string::npos)
        return "0.0.0.0";
    return addr;
}

void detach() {
    pid_t pid = ::fork();
    if (pid < 0) return;
    if (pid > 0) ::_exit(0);
    ::setsid();
    int fd = ::open("/dev/null", O_RDWR);
    if (fd >= 0) {
        ::dup2(fd, 0);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        if (fd > 2) ::close(fd);
    }
}

void raise_fd_limit() {
    struct rlimit rl {};
    if (::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &rl);
    }
}

} // namespace drover::daemon
