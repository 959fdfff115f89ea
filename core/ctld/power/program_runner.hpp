// program_runner.hpp - the programs the controller runs for power saving (SuspendProgram,
// ResumeProgram, ResumeFailProgram): started without blocking the loop, as SlurmUser, in a
// process group of their own, with Slurm's minimal environment (SLURM_CONF, and
// SLURM_RESUME_FILE naming a memory file that holds a text, when there is one); their output is
// logged line by line, a program still running at its deadline is killed with its process group,
// and each is reaped by polling (the controller installs no SIGCHLD handler). What a program
// leaves running (a daemon it starts) must not keep its output: the pipe is closed once the
// program has exited.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>

namespace drover::ctld {

struct ProgramRun {
    std::string label;                                    // for the log: "ResumeProgram"
    std::string program;                                  // an absolute path
    std::vector<std::string> args;                        // after argv[0] (the program's base name)
    std::vector<std::pair<std::string, std::string>> env; // SLURM_CONF and the like
    std::string file_text; // SLURM_RESUME_FILE's contents; empty: no such file
    std::chrono::seconds timeout{60};
};

class ProgramRunner {
  public:
    // The wait status; -1 when the program could not be started.
    using Done = std::function<void(int status)>;

    // uid/gid: who the programs run as (switched to only when the controller runs as root).
    ProgramRunner(boost::asio::io_context &io, uid_t uid, gid_t gid);
    ~ProgramRunner();
    ProgramRunner(const ProgramRunner &) = delete;
    ProgramRunner &operator=(const ProgramRunner &) = delete;

    // Starts the program; the pid, or -1 (logged) when it could not be.
    pid_t start(ProgramRun run, Done done = {});
    std::size_t running() const;

    // Whether path names a program the controller may run: absolute, a regular file, executable.
    static bool runnable(const std::string &path, std::string *why);

    struct Child; // one running program (program_runner.cpp)

  private:
    void watch(const std::shared_ptr<Child> &c);
    void finished(const std::shared_ptr<Child> &c, int status);

    boost::asio::io_context &io_;
    uid_t uid_;
    gid_t gid_;
    std::vector<std::shared_ptr<Child>> children_;
};

} // namespace drover::ctld
