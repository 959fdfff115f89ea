// reaper.hpp - the one SIGCHLD handler of droverd: each child it forks is registered with what to
// do when it exits, so batch scripts and step shepherds never reap each other's children. Processes
// a previous droverd started are watched through pidfds.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <sys/resource.h>

namespace boost::asio {
class io_context;
}

namespace drover::noded {

class Reaper {
  public:
    using Exited = std::function<void(int status, const struct rusage &usage)>;
    explicit Reaper(boost::asio::io_context &io);
    ~Reaper();
    // exited runs on the loop once pid has exited and been reaped.
    void watch(int32_t pid, Exited exited);
    // The same for a process that is not our child (one a previous droverd started, found again
    // after a restart): exited runs once it has exited, with status -1 (only its parent learns
    // it) and no usage. At once when pid is already gone.
    void watch_adopted(int32_t pid, Exited exited);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drover::noded
