// step_limits.cpp - a step's container and limits, and its out-of-memory end.
#include "noded/step_limits.hpp"

#include <fcntl.h>
#include <grp.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "noded/fork_child.hpp"

namespace drover::noded {

std::string contain_step(const plugin::Bound<drover_proctrack_ops> &pt, uint32_t job, uint32_t step,
                         pid_t pid, const StepLimits &limits, const std::string &label,
                         drover_cont_id *cont) {
    drover_error err{};
    if (pt.ops.cont_create(pt.state, job, step, pid, cont, &err) != DROVER_OK)
        return std::string("proctrack: ") + err.text;
    if (!pt.ops.cont_limit) return {};
    drover_cont_limits lim{};
    lim.struct_size = sizeof lim;
    lim.mem_bytes = limits.mem_mb << 20;
    lim.cpus = {limits.cpus.data(), limits.cpus.size()};
    if (pt.ops.cont_limit(pt.state, *cont, &lim, &err) != DROVER_OK)
        spdlog::warn("step {}: limits not applied: {}", label, err.text);
    return {};
}

std::string oom_message(uint32_t oom_kills, const std::string &label) {
    return "slurmstepd: error: Detected " + std::to_string(oom_kills) + " oom_kill event" +
           (oom_kills == 1 ? "" : "s") + " in StepId=" + label +
           ". Some of the step tasks have been OOM Killed.";
}

std::string append_as_user(const std::string &path, uint32_t uid, uint32_t gid,
                           const std::string &user, const std::string &line) {
    // Looked up before the fork: the name service is no business of a forked child.
    int n = 64;
    std::vector<gid_t> groups(64);
    if (::getgrouplist(user.c_str(), gid, groups.data(), &n) < 0) {
        groups.resize(std::size_t(n));
        if (::getgrouplist(user.c_str(), gid, groups.data(), &n) < 0) n = 0;
    }
    groups.resize(std::size_t(std::max(n, 0)));
    std::string text = line + "\n";
    pid_t pid = fork_child();
    if (pid < 0) return std::string("fork: ") + std::strerror(errno);
    if (pid == 0) {
        if (::getuid() == 0 && (::setgroups(groups.size(), groups.data()) != 0 ||
                                ::setgid(gid) != 0 || ::setuid(uid) != 0))
            ::_exit(126);
        int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) ::_exit(errno & 0x7f);
        bool whole = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
        ::_exit(whole ? 0 : 125);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
    if (WIFEXITED(status) && WEXITSTATUS(status) < 125) return std::strerror(WEXITSTATUS(status));
    return "cannot write as uid " + std::to_string(uid);
}

} // namespace drover::noded
