// service.cpp - systemd's readiness notice and the daemons' pid files.
#include "daemon/service.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <spdlog/spdlog.h>

namespace drover::daemon {

namespace {

std::optional<std::string> g_notify_socket; // taken from the environment once

} // namespace

void take_notify_socket() {
    if (g_notify_socket) return;
    const char *env = std::getenv("NOTIFY_SOCKET");
    g_notify_socket = env ? env : "";
    // Jobs and the programs the daemon starts must not speak for it to systemd.
    ::unsetenv("NOTIFY_SOCKET");
}

void notify_ready() {
    take_notify_socket();
    if (g_notify_socket->empty()) return;
    const char *where = g_notify_socket->c_str();
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::size_t len = std::strlen(where);
    if (len >= sizeof addr.sun_path) return;
    std::memcpy(addr.sun_path, where, len);
    if (where[0] == '@') addr.sun_path[0] = '\0'; // abstract namespace
    int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return;
    static constexpr char kReady[] = "READY=1";
    auto size = socklen_t(offsetof(sockaddr_un, sun_path) + len);
    if (::sendto(fd, kReady, sizeof kReady - 1, 0, reinterpret_cast<sockaddr *>(&addr), size) < 0)
        spdlog::warn("cannot tell systemd the daemon is ready ({}): {}", where,
                     std::strerror(errno));
    ::close(fd);
}

PidFile::PidFile(std::string path) : path_(std::move(path)) {
    if (path_.empty()) return;
    // Not through a symbolic link: the daemon runs as root, the directory may be another's.
    int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    const std::string text = std::to_string(::getpid()) + "\n";
    if (fd < 0 || ::write(fd, text.data(), text.size()) != ssize_t(text.size())) {
        spdlog::error("cannot write the pid file {}: {}", path_, std::strerror(errno));
        path_.clear();
    }
    if (fd >= 0) ::close(fd);
}

PidFile::~PidFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
}

ServiceSetup service_setup(const CommonFlags &flags, const std::map<std::string, std::string> &raw,
                           const std::string &prefix, const std::string &conf_log_file) {
    ServiceSetup s;
    auto value = [&](const char *key) {
        auto it = raw.find(prefix + key);
        return it == raw.end() ? std::optional<std::string>{} : std::optional(it->second);
    };
    s.log.foreground = flags.foreground;
    s.log.file = !flags.log_file.empty() ? flags.log_file : conf_log_file;
    s.log.also_stderr = flags.foreground && flags.log_file.empty() && !conf_log_file.empty();
    if (auto level = value("syslogdebug"))
        s.log.syslog_level = syslog_level(
            std::string(prefix == "slurmd" ? "SlurmdSyslogDebug" : "SlurmctldSyslogDebug"), *level);
    s.pid_file = value("pidfile").value_or("");
    return s;
}

} // namespace drover::daemon
