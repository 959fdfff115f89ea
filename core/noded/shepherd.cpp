// shepherd.cpp - fork the tasks, exec them as the user, wait and report.
#include "noded/shepherd.hpp"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>

#include "common/rlimits.hpp"
#include "noded/privileges.hpp"
#include "noded/prolog.hpp"

namespace drover::noded {

namespace {

void put(int fd, const ShepherdRecord &r) {
    // Records are smaller than PIPE_BUF, so each write is whole.
    while (::write(fd, &r, sizeof r) < 0 && errno == EINTR) {}
}

// Records go to droverd while it listens, and always to the spool.
struct Reporter {
    int status_fd = -1, record_fd = -1;
    void operator()(const ShepherdRecord &r) const {
        if (status_fd >= 0) put(status_fd, r);
        if (record_fd >= 0) put(record_fd, r);
    }
};

// The container's signals are for the tasks (or the script).
void ignore_job_signals() {
    for (int s : {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCONT, SIGTSTP, SIGPIPE,
                  SIGALRM, SIGXCPU})
        ::signal(s, SIG_IGN);
    ::signal(SIGCHLD, SIG_DFL);
}

int64_t usec(const timeval &t) {
    return int64_t(t.tv_sec) * 1000000 + t.tv_usec;
}

[[noreturn]] void task_fail(const std::string &msg, int code) {
    std::string line = "droverd: error: " + msg + "\n";
    (void)!::write(2, line.data(), line.size());
    ::_exit(code);
}

// Output is always written at the file's end (O_APPEND, after O_TRUNC unless --open-mode=append):
// the lines droverd adds (batch_banner.hpp) and those of the script must not overwrite each other.
int open_file(const std::string &path, bool write, bool append) {
    int flags = write ? (O_WRONLY | O_CREAT | O_APPEND | (append ? 0 : O_TRUNC)) : O_RDONLY;
    return ::open(path.c_str(), flags, 0644);
}

// A batch script's stream that cannot be opened: recorded with its errno for droverd to report
// (Slurm's "Could not open stdout file ..."), and the script never runs.
[[noreturn]] void stream_fail(const ShepherdSpec &spec, const ShepherdTask &t, int stream) {
    ShepherdRecord r;
    r.kind = ShepherdRecord::NoStream;
    r.task = t.task_id;
    r.value = errno;
    r.detail = stream;
    Reporter{spec.status_fd, spec.record_fd}(r);
    ::_exit(1);
}

// The task's standard streams on 0, 1 and 2: its pipes, or files opened as the user. A step's
// task reads /dev/null when its input cannot be opened and says on stderr which output could not;
// a batch script's streams must all open (stream_fail), each tried only once the one before it
// has.
void wire_streams(const ShepherdSpec &spec, const ShepherdTask &t) {
    bool strict = spec.batch;
    int in = strict || !t.in_path.empty() ? open_file(t.in_path, false, false) : t.in_fd;
    if (in < 0 && strict) stream_fail(spec, t, 0);
    int out =
        strict || !t.out_path.empty() ? open_file(t.out_path, true, spec.open_append) : t.out_fd;
    if (out < 0 && strict) stream_fail(spec, t, 1);
    int err = !strict && t.err_path.empty() ? t.err_fd
              : t.err_path == t.out_path    ? out
                                            : open_file(t.err_path, true, spec.open_append);
    if (err < 0 && strict) stream_fail(spec, t, 2);
    if (in < 0) in = ::open("/dev/null", O_RDONLY);
    if (out >= 0) ::dup2(out, 1);
    if (err >= 0) ::dup2(err, 2);
    if (in >= 0) ::dup2(in, 0);
    if (out < 0) task_fail("cannot open " + t.out_path + ": " + std::strerror(errno), 1);
    if (err < 0) task_fail("cannot open " + t.err_path + ": " + std::strerror(errno), 1);
    // The PMI channel, kept open across the exec (dup2 clears close-on-exec; fcntl when the
    // channel already is kPmiFd).
    if (t.pmi_fd == kPmiFd) ::fcntl(kPmiFd, F_SETFD, 0);
    if (t.pmi_fd >= 0 && t.pmi_fd != kPmiFd) ::dup2(t.pmi_fd, kPmiFd);
    ::close_range(t.pmi_fd >= 0 ? kPmiFd + 1 : 3, ~0u, 0);
}

// task/affinity: the task runs on its CPUs (a failure is said on its standard error, and it runs
// unbound); with --cpu-bind=verbose it says on which, as Slurm's tasks do.
void bind_cpus(const ShepherdSpec &spec, const ShepherdTask &t) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (uint32_t c : t.cpus)
        if (c < CPU_SETSIZE) CPU_SET(c, &set);
    if (!t.cpus.empty() && ::sched_setaffinity(0, sizeof set, &set) != 0) {
        std::string e = "slurmstepd: error: sched_setaffinity(" + cpu_mask_hex(t.cpus) +
                        ") failed: " + std::strerror(errno) + "\n";
        (void)!::write(2, e.data(), e.size());
    }
    if (!spec.cpu_bind.verbose) return;
    std::vector<uint32_t> now;
    if (::sched_getaffinity(0, sizeof set, &set) == 0)
        for (uint32_t c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &set)) now.push_back(c);
    std::string line = cpu_bind_verbose_line(spec.cpu_bind, spec.node, t.task_id, t.local_id,
                                             long(::getpid()), now) +
                       "\n";
    (void)!::write(2, line.data(), line.size());
}

// --mem-bind: the task's memory from its NUMA nodes only (or first, with prefer); with verbose
// it says which, as Slurm's tasks do.
void bind_mems(const ShepherdSpec &spec, const ShepherdTask &t) {
    if (!t.mems.empty()) {
        unsigned long mask[16] = {};
        for (uint32_t n : t.mems)
            if (n < 16 * 64) mask[n / 64] |= 1ul << (n % 64);
        int mode = spec.mem_bind.prefer ? MPOL_PREFERRED : MPOL_BIND;
        if (::syscall(SYS_set_mempolicy, mode, mask, 16 * 64 + 1) != 0) {
            std::string e = "slurmstepd: error: set_mempolicy(" + cpu_mask_hex(t.mems) +
                            ") failed: " + std::strerror(errno) + "\n";
            (void)!::write(2, e.data(), e.size());
        }
    }
    if (!spec.mem_bind.verbose) return;
    std::string line = mem_bind_verbose_line(spec.mem_bind, spec.node, t.task_id, t.local_id,
                                             long(::getpid()), t.mems) +
                       "\n";
    (void)!::write(2, line.data(), line.size());
}

// The task's environment: the step's, with the task's own variables replacing any of the same
// name the submitter's environment brought. A batch script is task 0 of its node, as Slurm's
// batch step is.
std::vector<std::string> task_env(const ShepherdSpec &spec, const ShepherdTask &t, pid_t pid) {
    std::vector<std::string> env = spec.env;
    auto put = [&env](const std::string &own) {
        if (own.find('=') == std::string::npos || own[0] == '=') return;
        std::string key = own.substr(0, own.find('=') + 1);
        auto same = std::find_if(env.begin(), env.end(),
                                 [&](const std::string &e) { return e.rfind(key, 0) == 0; });
        if (same != env.end())
            *same = own;
        else
            env.push_back(own);
    };
    put("SLURM_PROCID=" + std::to_string(t.task_id));
    put("SLURM_LOCALID=" + std::to_string(t.local_id));
    put("SLURM_TASK_PID=" + std::to_string(pid));
    for (const auto &own : t.env) put(own);
    return env;
}

// In the task's child: the one exec path of every task on the node, a batch script's included.
// Becomes the user, wires its standard streams, sets its variables and execs.
[[noreturn]] void exec_task(const ShepherdSpec &spec, const ShepherdTask &t) {
    sigset_t none;
    sigemptyset(&none);
    for (int s = 1; s < NSIG; ++s) ::signal(s, SIG_DFL);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (const char *call = drop_privileges(spec.user))
        task_fail(std::string(call) + " failed: " + std::strerror(errno), 1);
    // As Slurm does: a working directory the user cannot enter is /tmp.
    if (::chdir(spec.work_dir.c_str()) != 0) (void)!::chdir("/tmp");
    // The submitter's umask (for the output files too) and resource limits.
    const std::string limits_said = apply_limit_variables(spec.env);
    wire_streams(spec, t);
    if (!limits_said.empty()) (void)!::write(2, limits_said.data(), limits_said.size());
    std::vector<std::string> env = task_env(spec, t, ::getpid());
    run_task_prologs(spec.task_scripts.prologs, env);
    if (!t.note.empty()) (void)!::write(2, t.note.data(), t.note.size());
    bind_cpus(spec, t);
    bind_mems(spec, t);
    const auto &args = t.argv.empty() ? spec.argv : t.argv;
    if (args.empty()) task_fail("no command to run", 2);
    std::vector<char *> argv, envp;
    for (const auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    for (auto &e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    // PATH is searched as the task's environment has it.
    for (const auto &e : env)
        if (e.rfind("PATH=", 0) == 0) ::setenv("PATH", e.c_str() + 5, 1);
    ::execvpe(argv[0], argv.data(), envp.data());
    if (spec.batch) task_fail("cannot execute " + args[0] + ": " + std::strerror(errno), 127);
    task_fail(std::string("execve(): ") + args[0] + ": " + std::strerror(errno), 2);
}

// Reads whatever is in the pipes (and throws it away): with droverd gone nobody else reads them,
// and a task writing to a full or readerless pipe would block or die.
void drain(std::vector<pollfd> &fds) {
    char buf[16384];
    for (auto &p : fds) {
        if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
        ssize_t n = ::read(p.fd, buf, sizeof buf);
        if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
            ::close(p.fd);
            p.fd = -1;
        }
    }
}

} // namespace

ShepherdRecord exited_record(uint32_t task, int status, const struct rusage &ru) {
    ShepherdRecord r;
    r.kind = ShepherdRecord::Exited;
    r.task = task;
    r.value = status;
    r.user_usec = usec(ru.ru_utime);
    r.sys_usec = usec(ru.ru_stime);
    r.max_rss_kb = ru.ru_maxrss;
    return r;
}

struct rusage rusage_of(const ShepherdRecord &r) {
    struct rusage ru {};
    ru.ru_utime.tv_sec = r.user_usec / 1000000;
    ru.ru_utime.tv_usec = r.user_usec % 1000000;
    ru.ru_stime.tv_sec = r.sys_usec / 1000000;
    ru.ru_stime.tv_usec = r.sys_usec % 1000000;
    ru.ru_maxrss = r.max_rss_kb;
    return ru;
}

std::vector<ShepherdRecord> read_records(const std::string &path) {
    std::vector<ShepherdRecord> out;
    std::ifstream f(path, std::ios::binary);
    ShepherdRecord r;
    while (f.read(reinterpret_cast<char *>(&r), sizeof r)) out.push_back(r);
    return out;
}

namespace {

// Every task as never run, with exit status 1 (a failed Prolog or fork).
void all_failed(const ShepherdSpec &spec, const Reporter &report) {
    for (const auto &t : spec.tasks) {
        ShepherdRecord r;
        r.kind = ShepherdRecord::Failed;
        r.task = t.task_id;
        r.value = 1 << 8;
        report(r);
    }
}

// Forks the tasks (each execs as the user); returns them as pid -> task id.
std::map<pid_t, uint32_t> start_tasks(const ShepherdSpec &spec, const Reporter &report) {
    std::map<pid_t, uint32_t> tasks;
    for (const auto &t : spec.tasks) {
        pid_t pid = ::fork();
        if (pid == 0) exec_task(spec, t);
        ShepherdRecord r;
        r.task = t.task_id;
        if (pid < 0) {
            r.kind = ShepherdRecord::Failed;
            r.value = 1 << 8;
        } else {
            r.kind = ShepherdRecord::Started;
            r.value = pid;
            tasks[pid] = t.task_id;
        }
        report(r);
    }
    // The pipes are the tasks' now: droverd sees end-of-file when the last task closes them.
    for (const auto &t : spec.tasks)
        for (int fd : {t.in_fd, t.out_fd, t.err_fd, t.pmi_fd})
            if (fd >= 0) ::close(fd);
    return tasks;
}

// After a task: its epilogs (srun's --task-epilog, TaskEpilog), as the user, in its environment.
void task_ended(const ShepherdSpec &spec, uint32_t task_id, pid_t pid) {
    if (spec.task_scripts.epilogs.empty()) return;
    for (const auto &t : spec.tasks)
        if (t.task_id == task_id)
            run_task_epilogs(spec.task_scripts.epilogs, task_env(spec, t, pid), spec.user,
                             spec.work_dir);
}

// Reports the ends of the tasks that have ended (after their epilogs); forgets them.
void reap_tasks(const ShepherdSpec &spec, std::map<pid_t, uint32_t> &tasks,
                const Reporter &report) {
    for (;;) {
        int status = 0;
        struct rusage ru {};
        pid_t pid = ::wait4(-1, &status, WNOHANG, &ru);
        if (pid < 0 && errno == ECHILD) tasks.clear(); // nothing left to wait for
        if (pid <= 0) break;
        auto it = tasks.find(pid);
        if (it == tasks.end()) continue; // an orphan the kernel re-parented to us
        task_ended(spec, it->second, pid);
        report(exited_record(it->second, status, ru));
        tasks.erase(it);
    }
}

// Waits for every task, reading SIGCHLD from sfd; drains the output pipes once droverd is gone.
void wait_tasks(const ShepherdSpec &spec, std::map<pid_t, uint32_t> tasks, Reporter &report,
                int sfd) {
    std::vector<pollfd> drains;
    for (int fd : spec.drain_fds) drains.push_back({fd, POLLIN, 0});
    while (!tasks.empty()) {
        // While droverd reads the status pipe, its write end only reports an error when droverd
        // is gone (no reader left); from then on the output pipes are ours to drain.
        std::vector<pollfd> fds{{sfd, POLLIN, 0}};
        bool listening = report.status_fd >= 0;
        if (listening)
            fds.push_back({report.status_fd, 0, 0});
        else
            fds.insert(fds.end(), drains.begin(), drains.end());
        if (::poll(fds.data(), fds.size(), sfd < 0 ? 200 : -1) < 0 && errno != EINTR) break;
        if (listening && (fds[1].revents & (POLLERR | POLLHUP))) {
            ::close(report.status_fd);
            report.status_fd = -1;
        } else if (!listening) {
            std::copy(fds.begin() + 1, fds.end(), drains.begin());
            drain(drains);
            std::erase_if(drains, [](const pollfd &p) { return p.fd < 0; });
        }
        if (sfd >= 0 && (fds[0].revents & POLLIN)) {
            signalfd_siginfo si;
            while (::read(sfd, &si, sizeof si) == ssize_t(sizeof si)) {}
        }
        reap_tasks(spec, tasks, report);
    }
}

} // namespace

void run_shepherd(const ShepherdSpec &spec) {
    // Its own name in ps and pgrep (it is a fork of droverd and would show as droverd).
    ::prctl(PR_SET_NAME, spec.batch ? "drover_keeper" : "drover_shepherd", 0, 0, 0);
    ignore_job_signals();
    Reporter report{spec.status_fd, spec.record_fd};
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (!spec.prolog.empty()) {
        int st = run_script(spec.prolog, spec.job_id, spec.user.uid, spec.user.user,
                            spec.job_node_list, spec.node);
        if (st != 0) {
            std::string line = "droverd: error: prolog " + spec.prolog + " failed with status " +
                               std::to_string(st) + "\n";
            (void)!::write(2, line.data(), line.size());
            all_failed(spec, report);
            ::_exit(1);
        }
    }
    if (spec.pty_fd >= 0) {
        // The shepherd leads the step's session: the terminal becomes its controlling one and its
        // process group (every task) the foreground, so Ctrl-C typed there reaches the tasks.
        ::ioctl(spec.pty_fd, TIOCSCTTY, 0);
        ::tcsetpgrp(spec.pty_fd, ::getpgrp());
    }
    // SIGCHLD through a signalfd, so that one poll also learns when droverd has gone. Blocked
    // before the first fork so no end is missed; each task unblocks it before its exec.
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    ::sigprocmask(SIG_BLOCK, &chld, nullptr);
    int sfd = ::signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
    wait_tasks(spec, start_tasks(spec, report), report, sfd);
    ::_exit(0);
}

} // namespace drover::noded
