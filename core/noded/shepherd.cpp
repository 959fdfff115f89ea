// shepherd.cpp - fork the tasks, exec them as the user, wait and report.
#include "noded/shepherd.hpp"

#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <grp.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>

#include "noded/prolog.hpp"

namespace drover::noded {

namespace {

void put(int fd, const ShepherdRecord &r) {
    // Records are smaller than PIPE_BUF, so each write is whole.
    while (::write(fd, &r, sizeof r) < 0 && errno == EINTR) {
    }
}

[[noreturn]] void task_fail(const std::string &msg, int code) {
    std::string line = "droverd: error: " + msg + "\n";
    (void)!::write(2, line.data(), line.size());
    ::_exit(code);
}

int open_file(const std::string &path, bool write, bool append) {
    int flags = write ? (O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC)) : O_RDONLY;
    return ::open(path.c_str(), flags, 0644);
}

// In the task's child: wire its standard streams, set its variables and exec.
[[noreturn]] void exec_task(const ShepherdSpec &spec, const ShepherdTask &t) {
    sigset_t none;
    sigemptyset(&none);
    for (int s = 1; s < NSIG; ++s) ::signal(s, SIG_DFL);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    int in = t.in_path.empty() ? t.in_fd : open_file(t.in_path, false, false);
    int out = t.out_path.empty() ? t.out_fd : open_file(t.out_path, true, spec.open_append);
    int err = t.err_path.empty() ? t.err_fd
              : t.err_path == t.out_path ? out
                                         : open_file(t.err_path, true, spec.open_append);
    if (in < 0) in = ::open("/dev/null", O_RDONLY);
    if (out >= 0) ::dup2(out, 1);
    if (err >= 0) ::dup2(err, 2);
    if (in >= 0) ::dup2(in, 0);
    if (out < 0) task_fail("cannot open " + t.out_path + ": " + std::strerror(errno), 1);
    if (err < 0) task_fail("cannot open " + t.err_path + ": " + std::strerror(errno), 1);
    ::close_range(3, ~0u, 0);
    std::vector<std::string> env = spec.env;
    env.push_back("SLURM_PROCID=" + std::to_string(t.task_id));
    env.push_back("SLURM_LOCALID=" + std::to_string(t.local_id));
    env.push_back("SLURM_TASK_PID=" + std::to_string(::getpid()));
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
    task_fail(std::string("execve(): ") + args[0] + ": " + std::strerror(errno), 2);
}

}  // namespace

void run_shepherd(const ShepherdSpec &spec) {
    // The container's signals are for the tasks.
    for (int s : {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCONT, SIGTSTP, SIGPIPE,
                  SIGALRM, SIGXCPU})
        ::signal(s, SIG_IGN);
    ::signal(SIGCHLD, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (!spec.prolog.empty()) {
        int st = run_script(spec.prolog, spec.job_id, spec.uid, spec.user, spec.job_node_list, spec.node);
        if (st != 0) {
            for (const auto &t : spec.tasks) {
                ShepherdRecord r;
                r.kind = ShepherdRecord::Failed;
                r.task = t.task_id;
                r.value = 1 << 8;
                put(spec.status_fd, r);
            }
            ::_exit(1);
        }
    }
    if (::getuid() == 0) {
        std::vector<gid_t> groups(spec.groups.begin(), spec.groups.end());
        if (::setgid(spec.gid) != 0 || ::setgroups(groups.size(), groups.data()) != 0 ||
            ::setuid(spec.uid) != 0) {
            for (const auto &t : spec.tasks) {
                ShepherdRecord r;
                r.kind = ShepherdRecord::Failed;
                r.task = t.task_id;
                r.value = 1 << 8;
                put(spec.status_fd, r);
            }
            ::_exit(1);
        }
    }
    if (spec.pty_fd >= 0) {
        // The shepherd leads the step's session: the terminal becomes its controlling one and its
        // process group (every task) the foreground, so Ctrl-C typed there reaches the tasks.
        ::ioctl(spec.pty_fd, TIOCSCTTY, 0);
        ::tcsetpgrp(spec.pty_fd, ::getpgrp());
    }
    if (::chdir(spec.work_dir.c_str()) != 0) (void)!::chdir("/tmp");
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
        put(spec.status_fd, r);
    }
    // The pipes are the tasks' now: droverd sees end-of-file when the last task closes them.
    for (const auto &t : spec.tasks)
        for (int fd : {t.in_fd, t.out_fd, t.err_fd})
            if (fd >= 0) ::close(fd);
    while (!tasks.empty()) {
        int status = 0;
        struct rusage ru {};
        pid_t pid = ::wait4(-1, &status, 0, &ru);
        if (pid < 0) {
            if (errno == EINTR) continue;
            break;
        }
        auto it = tasks.find(pid);
        if (it == tasks.end()) continue;  // an orphan the kernel re-parented to us
        ShepherdRecord r;
        r.kind = ShepherdRecord::Exited;
        r.task = it->second;
        r.value = status;
        r.user_usec = int64_t(ru.ru_utime.tv_sec) * 1000000 + ru.ru_utime.tv_usec;
        r.sys_usec = int64_t(ru.ru_stime.tv_sec) * 1000000 + ru.ru_stime.tv_usec;
        r.max_rss_kb = ru.ru_maxrss;
        put(spec.status_fd, r);
        tasks.erase(it);
    }
    ::_exit(0);
}

}  // namespace drover::noded
