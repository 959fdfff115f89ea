// task_scripts.cpp - task prologs and epilogs, run as the user around each task.
#include "noded/task_scripts.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>

#include "common/config.hpp"
#include "common/env_list.hpp"

namespace drover::noded {

namespace {

void add_if_set(std::vector<std::string> &to, const std::string &path) {
    if (!path.empty()) to.push_back(path);
}

std::vector<char *> pointers(std::vector<std::string> &strings) {
    std::vector<char *> out;
    for (auto &s : strings) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

// Runs path as user in work_dir with env, its streams on /dev/null; waits for it.
void run_and_wait(const std::string &path, std::vector<std::string> env, const RunAs &user,
                  const std::string &work_dir) {
    pid_t pid = ::fork();
    if (pid == 0) {
        int null = ::open("/dev/null", O_RDWR);
        for (int fd : {0, 1, 2}) ::dup2(null, fd);
        if (drop_privileges(user)) ::_exit(127);
        if (::chdir(work_dir.c_str()) != 0) (void)!::chdir("/tmp");
        ::close_range(3, ~0u, 0);
        std::vector<std::string> argv{path};
        auto args = pointers(argv);
        auto envp = pointers(env);
        ::execve(path.c_str(), args.data(), envp.data());
        ::_exit(127);
    }
    if (pid < 0) return;
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
}

} // namespace

TaskScripts task_scripts(const Config &conf, const std::vector<std::string> &env) {
    auto raw = [&conf](const char *key) {
        auto it = conf.raw.find(key);
        return it == conf.raw.end() ? std::string() : it->second;
    };
    auto user = [&env](const char *name) {
        const char *v = env_list_value(env, name);
        return v ? std::string(v) : std::string();
    };
    TaskScripts s;
    add_if_set(s.prologs, raw("taskprolog"));
    add_if_set(s.prologs, user("SLURM_TASK_PROLOG"));
    add_if_set(s.epilogs, user("SLURM_TASK_EPILOG"));
    add_if_set(s.epilogs, raw("taskepilog"));
    return s;
}

std::string apply_prolog_output(std::string_view out, std::vector<std::string> &env) {
    std::string printed;
    while (!out.empty()) {
        std::size_t nl = out.find('\n');
        std::string_view line = out.substr(0, nl);
        out.remove_prefix(nl == std::string_view::npos ? out.size() : nl + 1);
        auto starts = [&line](std::string_view word) {
            if (!line.starts_with(word)) return false;
            line.remove_prefix(word.size());
            return true;
        };
        if (starts("print ")) {
            printed.append(line).push_back('\n');
        } else if (starts("export ")) {
            std::size_t eq = line.find('=');
            if (eq == 0 || eq == std::string_view::npos) continue;
            std::string key(line.substr(0, eq + 1));
            std::erase_if(env, [&key](const std::string &e) { return e.starts_with(key); });
            env.emplace_back(line);
        } else if (starts("unset ")) {
            std::string key = std::string(line) + "=";
            std::erase_if(env, [&key](const std::string &e) { return e.starts_with(key); });
        }
    }
    return printed;
}

void run_task_prologs(const std::vector<std::string> &prologs, std::vector<std::string> &env) {
    for (const auto &path : prologs) {
        int p[2];
        if (::pipe2(p, O_CLOEXEC) != 0) return;
        pid_t pid = ::fork();
        if (pid == 0) {
            ::dup2(p[1], 1); // dup2 clears close-on-exec on the copy
            std::vector<std::string> argv{path};
            auto args = pointers(argv);
            auto envp = pointers(env);
            ::execve(path.c_str(), args.data(), envp.data());
            ::_exit(127);
        }
        ::close(p[1]);
        std::string out;
        char buf[4096];
        for (ssize_t n; (n = ::read(p[0], buf, sizeof buf)) != 0;) {
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) break;
            out.append(buf, std::size_t(n));
        }
        ::close(p[0]);
        int status = 0;
        if (pid > 0)
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        std::string printed = apply_prolog_output(out, env);
        if (!printed.empty()) (void)!::write(1, printed.data(), printed.size());
    }
}

void run_task_epilogs(const std::vector<std::string> &epilogs, const std::vector<std::string> &env,
                      const RunAs &user, const std::string &work_dir) {
    for (const auto &path : epilogs) run_and_wait(path, env, user, work_dir);
}

} // namespace drover::noded
