// pgid.cpp - proctrack/pgid: a container is the process group of the step's first process.
//
// The node daemon starts each step's first process as a session (so process group) leader; the
// container id is its pid, which is also the group id. A pid that does not become a group leader
// is refused (EINVAL) rather than tracked wrongly. Signals go to the whole group with
// kill(-pgid, sig). Listing scans /proc for live processes in the group. A process that calls
// setsid() or setpgid() itself escapes: that is this plugin's known limit (proctrack/cgroup has
// none).
#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include <drover/plugin.hpp>
#include <drover/proctrack.h>

namespace {

using drover::sdk::guard;
using drover::sdk::set_errorf;

struct State {
    drover::sdk::Host host;
};

// Reads the process group and state of /proc/<pid>/stat. Returns false if the process is gone.
// The command name (field 2) may hold spaces and parentheses, so parse after its last ')'.
bool read_stat(const char *pid, long *pgrp, char *run_state) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *f = std::fopen(path, "re");
    if (!f) return false;
    char buf[1024];
    size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = '\0';
    const char *paren = std::strrchr(buf, ')');
    if (!paren) return false;
    int ppid;
    return std::sscanf(paren + 1, " %c %d %ld", run_state, &ppid, pgrp) == 3;
}

// The process group of pid. The first process calls setsid() itself right after fork, and the
// daemon may ask before it has run, so give it a moment (up to kLeaderWait) to become a leader.
pid_t group_of(pid_t pid) {
    constexpr auto kLeaderWait = std::chrono::milliseconds(500);
    const auto deadline = std::chrono::steady_clock::now() + kLeaderWait;
    pid_t pgid = ::getpgid(pid);
    while (pgid >= 0 && pgid != pid && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        pgid = ::getpgid(pid);
    }
    return pgid;
}

int pgid_cont_create(void *state, uint32_t job_id, uint32_t step_id, int32_t pid,
                     drover_cont_id *cont_out, drover_error *err) {
    const pid_t pgid = group_of(pid);
    if (pgid < 0) {
        const int e = errno;
        set_errorf(err, "job %u step %u: pid %d: %s", job_id, step_id, pid, std::strerror(e));
        return e == ESRCH ? DROVER_ENOENT : DROVER_EIO;
    }
    if (pgid != pid) {
        set_errorf(err, "job %u step %u: pid %d is not a process group leader (group %d)", job_id,
                   step_id, pid, static_cast<int>(pgid));
        return DROVER_EINVAL;
    }
    *cont_out = static_cast<drover_cont_id>(pid);
    return guard(err, [&] {
        static_cast<State *>(state)->host.debug("job " + std::to_string(job_id) + " step " +
                                                std::to_string(step_id) + ": container " +
                                                std::to_string(pid));
    });
}

int pgid_cont_signal(void *state, drover_cont_id cont, int sig, drover_error *err) {
    if (cont <= 1 || cont > static_cast<drover_cont_id>(INT32_MAX)) {
        set_errorf(err, "container %llu is not a process group",
                   static_cast<unsigned long long>(cont));
        return DROVER_EINVAL; // never kill(-1) or kill(0)
    }
    if (::kill(-static_cast<pid_t>(cont), sig) == 0) return DROVER_OK;
    const int e = errno;
    set_errorf(err, "signal %d to process group %llu: %s", sig,
               static_cast<unsigned long long>(cont), std::strerror(e));
    return e == ESRCH ? DROVER_ENOENT : e == EPERM ? DROVER_EPERM : DROVER_EIO;
}

// Stores up to *count live (not zombie) pids of the group; *count becomes the number stored.
int pgid_cont_pids(void *state, drover_cont_id cont, int32_t *pids, uint32_t *count,
                   drover_error *err) {
    DIR *proc = ::opendir("/proc");
    if (!proc) {
        set_errorf(err, "cannot read /proc: %s", std::strerror(errno));
        return DROVER_EIO;
    }
    const uint32_t capacity = *count;
    uint32_t stored = 0;
    while (const dirent *d = ::readdir(proc)) {
        if (d->d_name[0] < '0' || d->d_name[0] > '9') continue;
        long pgrp = 0;
        char run_state = '?';
        if (!read_stat(d->d_name, &pgrp, &run_state) || static_cast<drover_cont_id>(pgrp) != cont)
            continue;
        if (run_state == 'Z' || run_state == 'X')
            continue; // dead: only waiting for its parent to reap it
        if (stored == capacity) break;
        pids[stored++] = static_cast<int32_t>(std::strtol(d->d_name, nullptr, 10));
    }
    ::closedir(proc);
    *count = stored;
    return DROVER_OK;
}

int pgid_cont_destroy(void *state, drover_cont_id cont, drover_error *err) {
    return DROVER_OK; // a process group needs no tearing down
}

int pgid_init(drover_ctx *ctx, const drover_host_api *host, void **state_out, drover_error *err) {
    return guard(err, [&] { *state_out = new State{drover::sdk::Host(ctx, host)}; });
}

void pgid_fini(void *state) {
    delete static_cast<State *>(state);
}

const drover_proctrack_ops pgid_ops = {
    .struct_size = sizeof(drover_proctrack_ops),
    .cont_create = pgid_cont_create,
    .cont_signal = pgid_cont_signal,
    .cont_pids = pgid_cont_pids,
    .cont_destroy = pgid_cont_destroy,
};

} // namespace

DROVER_PLUGIN("proctrack", "pgid", "0.1.0", pgid_init, pgid_fini, &pgid_ops)
