// step_limits.cpp - a step's out-of-memory end, written to its error file as its user.
#include "noded/step_limits.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <drover/plugin.h>

#include "noded/fork_child.hpp"
#include "noded/privileges.hpp"

namespace drover::noded {

std::string oom_message(uint32_t oom_kills, const std::string &label) {
    return "slurmstepd: error: Detected " + std::to_string(oom_kills) + " oom_kill event" +
           (oom_kills == 1 ? "" : "s") + " in StepId=" + label +
           ". Some of the step tasks have been OOM Killed.";
}

Status append_as_user(const std::string &path, uint32_t uid, uint32_t gid, const std::string &user,
                      const std::string &line) {
    // Looked up before the fork: the name service is no business of a forked child.
    RunAs who{uid, gid, user, lookup_groups(user, gid)};
    std::string text = line + "\n";
    pid_t pid = fork_child();
    if (pid < 0) return {DROVER_EIO, std::string("fork: ") + std::strerror(errno)};
    if (pid == 0) {
        if (drop_privileges(who)) ::_exit(126);
        int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) ::_exit(errno & 0x7f);
        bool whole = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
        ::_exit(whole ? 0 : 125);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
    if (WIFEXITED(status) && WEXITSTATUS(status) < 125)
        return {DROVER_EIO, std::strerror(WEXITSTATUS(status))};
    return {DROVER_EIO, "cannot write as uid " + std::to_string(uid)};
}

} // namespace drover::noded
