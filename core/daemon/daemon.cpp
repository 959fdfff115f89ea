// daemon.cpp - logging set-up and detaching for droverctld and droverd.
#include "daemon/daemon.hpp"

#include <sys/resource.h>

#include <fcntl.h>
#include <pwd.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace drover::daemon {

void setup_logging(const std::string &name, const std::string &file, int verbosity) {
    std::shared_ptr<spdlog::logger> logger;
    if (file.empty())
        logger = spdlog::stderr_logger_mt(name);
    else
        logger = spdlog::basic_logger_mt(name, file);
    logger->set_pattern("[%Y-%m-%dT%H:%M:%S.%e] %n: %l: %v");
    logger->set_level(verbosity >= 1 ? spdlog::level::debug : spdlog::level::info);
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
