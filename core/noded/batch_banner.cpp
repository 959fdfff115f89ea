// batch_banner.cpp - the termination line of a batch job's stderr.
#include "noded/batch_banner.hpp"

#include <fcntl.h>
#include <unistd.h>

#include "common/timefmt.hpp"
#include "noded/fork_child.hpp"

namespace drover::noded {

std::string termination_line(uint32_t job_id, const std::string &node, proto::KillCause cause,
                             int64_t now) {
    const char *why = nullptr;
    switch (cause) {
    case proto::KillCause::None:
        return {};
    case proto::KillCause::Cancelled:
        why = "";
        break;
    case proto::KillCause::TimeLimit:
        why = " DUE TO TIME LIMIT";
        break;
    case proto::KillCause::Preempted:
        why = " DUE TO PREEMPTION";
        break;
    case proto::KillCause::NodeFailure:
        why = " DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS";
        break;
    case proto::KillCause::Requeued:
        why = " DUE TO JOB REQUEUE";
        break;
    }
    if (!why) return {}; // a cause this daemon does not know yet
    return "slurmstepd: error: *** JOB " + std::to_string(job_id) + " ON " + node +
           " CANCELLED AT " + format_timestamp(now) + why + " ***\n";
}

pid_t append_as(const RunAs &who, const std::string &path, const std::string &line) {
    pid_t pid = fork_child();
    if (pid != 0) return pid;
    // The child: nothing but system calls from here (the parent may be multi-threaded).
    if (drop_privileges(who)) ::_exit(1);
    int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) ::_exit(1);
    bool whole = ::write(fd, line.data(), line.size()) == ssize_t(line.size());
    ::close(fd);
    ::_exit(whole ? 0 : 1);
}

} // namespace drover::noded
