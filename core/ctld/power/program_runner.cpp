// program_runner.cpp - fork and exec of the power saving programs, their output and their end.
#include "ctld/power/program_runner.hpp"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

namespace drover::ctld {

namespace {

constexpr std::size_t kMaxLoggedLines = 200; // a chatty program does not flood the log
constexpr auto kPoll = std::chrono::milliseconds(100);
constexpr int kResumeFd = 3; // SLURM_RESUME_FILE is /proc/<pid>/fd/3

// "SLURM_RESUME_FILE=/proc/<pid>/fd/3" written into buf by the child, without allocating.
void resume_file_env(char *buf, std::size_t size, pid_t pid) {
    static constexpr char kHead[] = "SLURM_RESUME_FILE=/proc/";
    static constexpr char kTail[] = "/fd/3";
    std::size_t at = 0;
    for (char c : std::string_view(kHead)) buf[at++] = c;
    char digits[24];
    std::size_t n = 0;
    for (auto v = static_cast<unsigned long>(pid); n == 0 || v; v /= 10)
        digits[n++] = char('0' + v % 10);
    while (n && at + 1 < size) buf[at++] = digits[--n];
    for (char c : std::string_view(kTail))
        if (at + 1 < size) buf[at++] = c;
    buf[at] = '\0';
}

// A memory file holding text, for the child to inherit; -1 on failure (logged).
int text_file(const std::string &text) {
    int fd = ::memfd_create("drover-resume", MFD_CLOEXEC);
    if (fd < 0) {
        spdlog::error("power_save: cannot make the resume file: {}", std::strerror(errno));
        return -1;
    }
    std::size_t done = 0;
    while (done < text.size()) {
        ssize_t w = ::write(fd, text.data() + done, text.size() - done);
        if (w <= 0) {
            spdlog::error("power_save: cannot write the resume file: {}", std::strerror(errno));
            ::close(fd);
            return -1;
        }
        done += std::size_t(w);
    }
    ::lseek(fd, 0, SEEK_SET);
    return fd;
}

// In the child: only async-signal-safe calls from here to exec.
[[noreturn]] void exec_child(const char *path, char *const argv[], char *const envp[], int out,
                             int devnull, int memfd, char *resume_env, std::size_t resume_size,
                             uid_t uid, gid_t gid) {
    ::setpgid(0, 0);
    ::dup2(devnull, 0);
    ::dup2(out, 1);
    ::dup2(out, 2);
    if (memfd >= 0) {
        if (memfd == kResumeFd)
            ::fcntl(kResumeFd, F_SETFD, 0);
        else
            ::dup2(memfd, kResumeFd);
        resume_file_env(resume_env, resume_size, ::getpid());
    }
    ::close_range(memfd >= 0 ? kResumeFd + 1 : kResumeFd, ~0U, 0);
    if (::getuid() == 0 && uid != 0 &&
        (::setgroups(1, &gid) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0)) {
        static constexpr char kMsg[] = "cannot switch to SlurmUser\n";
        (void)!::write(2, kMsg, sizeof kMsg - 1);
        ::_exit(126);
    }
    ::execve(path, argv, envp);
    static constexpr char kMsg[] = "cannot execute the program\n";
    (void)!::write(2, kMsg, sizeof kMsg - 1);
    ::_exit(127);
}

std::string status_text(int status) {
    if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return std::string("signal ") + ::strsignal(WTERMSIG(status));
    return "status " + std::to_string(status);
}

} // namespace

struct ProgramRunner::Child : std::enable_shared_from_this<Child> {
    Child(boost::asio::io_context &io, int fd) : out(io, fd), poll(io) {}
    boost::asio::posix::stream_descriptor out;
    boost::asio::steady_timer poll;
    std::chrono::steady_clock::time_point deadline;
    std::string label, line;
    std::array<char, 4096> buf{};
    pid_t pid = -1;
    std::size_t lines = 0;
    bool killed = false;
    Done done;

    void log_line(const std::string &text) {
        if (++lines == kMaxLoggedLines + 1)
            spdlog::info("power_save: {} (pid {}): further output not logged", label, pid);
        if (lines <= kMaxLoggedLines) spdlog::info("power_save: {} (pid {}): {}", label, pid, text);
    }
    void take(std::string_view data) {
        for (char c : data) {
            if (c != '\n') {
                line += c;
                continue;
            }
            log_line(line);
            line.clear();
        }
    }
    void read() {
        out.async_read_some(
            boost::asio::buffer(buf),
            [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                if (ec) return;
                self->take({self->buf.data(), n});
                self->read();
            });
    }
    // What is in the pipe now, then closed: what the program left running keeps no reader.
    void drain() {
        boost::system::error_code ec;
        out.non_blocking(true, ec);
        for (std::size_t n; !ec && (n = out.read_some(boost::asio::buffer(buf), ec)) > 0;)
            take({buf.data(), n});
        if (!line.empty()) log_line(line);
        out.close(ec);
    }
};

ProgramRunner::ProgramRunner(boost::asio::io_context &io, uid_t uid, gid_t gid)
    : io_(io), uid_(uid), gid_(gid) {}

// Programs still running are left to run (Slurm's controller leaves them too); their pipes close.
ProgramRunner::~ProgramRunner() {
    for (auto &c : children_) {
        boost::system::error_code ec;
        c->poll.cancel();
        c->out.close(ec);
    }
}

std::size_t ProgramRunner::running() const {
    return children_.size();
}

bool ProgramRunner::runnable(const std::string &path, std::string *why) {
    struct stat st {};
    if (path.empty() || path.front() != '/')
        *why = "not an absolute path";
    else if (::stat(path.c_str(), &st) != 0)
        *why = std::strerror(errno);
    else if (!S_ISREG(st.st_mode))
        *why = "not a regular file";
    else if (::access(path.c_str(), X_OK) != 0)
        *why = "not executable";
    else
        return true;
    return false;
}

pid_t ProgramRunner::start(ProgramRun run, Done done) {
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) {
        spdlog::error("power_save: {}: pipe: {}", run.label, std::strerror(errno));
        return -1;
    }
    int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    int memfd = run.file_text.empty() ? -1 : text_file(run.file_text);
    // Everything the child needs is made before the fork.
    std::vector<std::string> args{run.program.substr(run.program.rfind('/') + 1)};
    args.insert(args.end(), run.args.begin(), run.args.end());
    std::vector<std::string> envs;
    for (const auto &[k, v] : run.env) envs.push_back(k + "=" + v);
    std::vector<char *> argv, envp;
    for (auto &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto &e : envs) envp.push_back(e.data());
    std::array<char, 64> resume_env{};
    if (memfd >= 0) envp.push_back(resume_env.data());
    envp.push_back(nullptr);
    pid_t pid = ::fork();
    if (pid == 0)
        exec_child(run.program.c_str(), argv.data(), envp.data(), out[1], devnull, memfd,
                   resume_env.data(), resume_env.size(), uid_, gid_);
    int err = errno;
    ::close(out[1]);
    if (devnull >= 0) ::close(devnull);
    if (memfd >= 0) ::close(memfd);
    if (pid < 0) {
        ::close(out[0]);
        spdlog::error("power_save: {}: fork: {}", run.label, std::strerror(err));
        return -1;
    }
    auto c = std::make_shared<Child>(io_, out[0]);
    c->pid = pid;
    c->label = run.label;
    c->deadline = std::chrono::steady_clock::now() + run.timeout;
    c->done = std::move(done);
    children_.push_back(c);
    c->read();
    watch(c);
    return pid;
}

void ProgramRunner::watch(const std::shared_ptr<Child> &c) {
    c->poll.expires_after(kPoll);
    c->poll.async_wait([this, c](boost::system::error_code ec) {
        if (ec) return;
        int status = 0;
        if (::waitpid(c->pid, &status, WNOHANG) == c->pid) return finished(c, status);
        if (!c->killed && std::chrono::steady_clock::now() >= c->deadline) {
            spdlog::error("power_save: {} (pid {}) still runs at its time limit: killed", c->label,
                          c->pid);
            ::kill(-c->pid, SIGKILL);
            ::kill(c->pid, SIGKILL);
            c->killed = true;
        }
        watch(c);
    });
}

void ProgramRunner::finished(const std::shared_ptr<Child> &c, int status) {
    c->drain();
    if (status == 0)
        spdlog::info("power_save: {} (pid {}) ended", c->label, c->pid);
    else
        spdlog::error("power_save: {} (pid {}) ended with {}", c->label, c->pid,
                      status_text(status));
    std::erase(children_, c);
    if (c->done) c->done(status);
}

} // namespace drover::ctld
