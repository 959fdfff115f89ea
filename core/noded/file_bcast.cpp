// file_bcast.cpp - one block of an sbcast file, written as the job's user.
#include "noded/file_bcast.hpp"

#include <algorithm>
#include <drover/plugin.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cerrno>
#include <cstring>
#include <ctime>

#include <chrono>
#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "common/bcast_path.hpp"
#include "net/step_cred.hpp"
#include "noded/fork_child.hpp"
#include "noded/reaper.hpp"
#include "noded/tree_forward.hpp"
#include "proto/fb_read.hpp"

namespace drover::noded {

namespace {

// A child's exit status when it could not become the user (errno values stay below it).
constexpr int kCannotDrop = 255;

// In the child, as the user: the block written. Returns 0 or an errno value; only
// async-signal-safe calls (the daemon may have threads).
int write_block(const proto::FileBcastRequest &req, const char *path) {
    // Not blocking in open (a FIFO waits for a reader), and only a regular file is written.
    int flags = O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
    if (req.block_no() == 1) flags |= O_CREAT | (req.force() ? O_TRUNC : O_EXCL);
    int fd = ::open(path, flags, S_IRWXU);
    if (fd < 0) return errno;
    struct stat st {};
    if (::fstat(fd, &st) != 0) return errno;
    if (!S_ISREG(st.st_mode)) return EINVAL;
    ::fcntl(fd, F_SETFL, 0);
    const uint8_t *p = req.data() ? req.data()->data() : nullptr;
    std::size_t left = req.data() ? req.data()->size() : 0;
    off_t at = off_t(req.offset());
    while (left > 0) {
        ssize_t n = ::pwrite(fd, p, left, at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 ? errno : EIO;
        p += n, at += n, left -= std::size_t(n);
    }
    // The source's permission bits, never set-id ones; a mode that cannot be set is no failure.
    if (req.last()) (void)::fchmod(fd, mode_t(req.mode() & 0777));
    if (req.last() && req.preserve()) {
        struct timespec times[2] = {{time_t(req.atime()), 0}, {time_t(req.mtime()), 0}};
        if (::futimens(fd, times) != 0) return errno;
    }
    return ::close(fd) == 0 ? 0 : errno;
}

} // namespace

FileBcast::FileBcast(boost::asio::io_context &io, const net::Authenticator &auth,
                     std::function<bool(uint32_t)> is_admin, std::string node, Reaper &reaper,
                     std::function<bool(uint32_t)> job_ended, int timeout_ms)
    : io_(io), auth_(auth), is_admin_(std::move(is_admin)), node_(std::move(node)), reaper_(reaper),
      job_ended_(std::move(job_ended)), timeout_ms_(timeout_ms) {}

FileBcast::~FileBcast() = default;

Status FileBcast::check(const proto::FileBcastRequest &req, uint32_t requester, RunAs *who,
                        std::string *path) {
    if (!req.cred()) return {DROVER_EPERM, "no job credential"};
    // One per process (all on the loop's thread): a file's blocks share one credential, whose
    // signature the auth plugin spends on the first.
    static net::CheckedCreds checked;
    net::StepCredCopy copy;
    int64_t now = int64_t(::time(nullptr));
    if (Status s = net::check_step_cred(auth_, {req.cred()->data(), req.cred()->size()}, is_admin_,
                                        requester, node_, now, &copy, &checked, /*bcast=*/true);
        !s.ok())
        return s;
    const proto::StepCred *c = copy.get();
    if (job_ended_(c->job_id()))
        return {DROVER_EPERM, "job " + std::to_string(c->job_id()) + " has already ended"};
    std::string dest = proto::str(req.dest());
    if (dest.empty() || dest.front() != '/' || dest.find('\0') != std::string::npos)
        return {DROVER_EINVAL, "destination '" + dest + "' is not an absolute path"};
    if (req.block_no() == 0) return {DROVER_EINVAL, "block numbers start at 1"};
    // A directory gets this node's own copy (srun --bcast), numbered by the credential's step.
    *path = bcast_path(dest, c->job_id(), c->step_id(), node_);
    std::string user = proto::str(c->user_name());
    *who = {c->uid(), c->gid(), user, groups_.groups_of(user, c->gid(), now)};
    return {};
}

void FileBcast::serve(const proto::FileBcastRequest &req, uint32_t requester, Done done) {
    RunAs who;
    std::string dest;
    if (Status why = check(req, requester, &who, &dest); !why.ok()) return done(why);
    pid_t pid = fork_child();
    if (pid < 0) return done({DROVER_EIO, std::string("fork: ") + std::strerror(errno)});
    if (pid == 0) {
        ::close_range(3, ~0u, 0); // none of the daemon's descriptors for the user
        if (drop_privileges(who)) ::_exit(kCannotDrop);
        ::_exit(write_block(req, dest.c_str()));
    }
    // sbcast -t sets how long a block may take (else MessageTimeout, as sbcast's own wait). The
    // writer ends before this node's answer is due in the fan-out tree (nine tenths of the hop's
    // time, itself capped), so that sbcast hears why.
    uint32_t hop_ms =
        std::min(req.timeout_ms() ? req.timeout_ms() : uint32_t(timeout_ms_), kMaxForwardTimeoutMs);
    int limit_ms = int(hop_ms * 8 / 10);
    auto timer =
        std::make_shared<boost::asio::steady_timer>(io_, std::chrono::milliseconds(limit_ms));
    // Killed only while it is unreaped (a reaped pid may be another process's already).
    auto alive = std::make_shared<bool>(true);
    timer->async_wait([pid, alive](boost::system::error_code ec) {
        if (!ec && *alive) ::kill(pid, SIGKILL);
    });
    reaper_.watch(pid, [done = std::move(done), timer, alive](int status, const struct rusage &) {
        *alive = false;
        timer->cancel();
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
            return done({DROVER_EIO, "the write did not finish in time"});
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        if (code == 0) return done({});
        if (code == kCannotDrop) return done({DROVER_EPERM, "cannot become the job's user"});
        done({DROVER_EIO, code > 0 ? std::strerror(code) : "writer killed"});
    });
}

} // namespace drover::noded
