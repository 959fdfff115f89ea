// fork_child.cpp - fork with signals held off until the child has dropped the daemon's handlers.
#include "noded/fork_child.hpp"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace drover::noded {

pid_t fork_child() {
    sigset_t all, old;
    sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid = ::fork();
    if (pid == 0) {
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        for (int s = 1; s < NSIG; ++s) ::sigaction(s, &dfl, nullptr);
        return 0;
    }
    int saved = errno;
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    errno = saved;
    return pid;
}

HeldChild fork_held() {
    int ready[2], go[2];
    if (::pipe2(ready, O_CLOEXEC) != 0) return {};
    if (::pipe2(go, O_CLOEXEC) != 0) {
        ::close(ready[0]);
        ::close(ready[1]);
        return {};
    }
    pid_t pid = fork_child();
    if (pid == 0) {
        ::close(ready[0]);
        ::close(go[1]);
        ::setsid();
        (void)!::write(ready[1], "r", 1);
        ::close(ready[1]);
        char c = 0;
        if (::read(go[0], &c, 1) != 1 || c != 'g') ::_exit(1); // the daemon gave up on it
        ::close(go[0]);
        return {0, -1};
    }
    ::close(ready[1]);
    ::close(go[0]);
    if (pid < 0) {
        ::close(ready[0]);
        ::close(go[1]);
        return {};
    }
    char c;
    while (::read(ready[0], &c, 1) < 0 && errno == EINTR) {}
    ::close(ready[0]);
    return {pid, go[1]};
}

void release(HeldChild &child, bool go) {
    if (child.release_fd < 0) return;
    if (go) (void)!::write(child.release_fd, "g", 1);
    ::close(child.release_fd);
    child.release_fd = -1;
}

} // namespace drover::noded
