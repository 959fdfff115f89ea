// log_reopen.hpp - SIGHUP and SIGUSR2 for the daemons' whole life. Both would end a daemon by
// default, and an Asio signal_set puts the default back when it goes (between a standby's loop
// and the controller's, during start-up), so handlers that only note the signal are installed
// once, first thing in main, and each loop polls what they noted. SIGUSR2 opens the log file
// again, as Slurm's daemons do it for logrotate: the rotation moves the file away, the signal
// makes the daemon write to a new one under the configured name.
#pragma once

#include <functional>
#include <memory>

namespace boost::asio {
class io_context;
}

namespace drover::daemon {

// Installs the noting handlers of SIGHUP and SIGUSR2 (for the process's life).
void catch_hup_and_usr2();

// Opens the log file setup_logging chose again (nothing when logging goes to stderr).
void reopen_log();

// Calls fn on io's thread, within a quarter second, for each time sig (SIGHUP or SIGUSR2) came
// while it lives; a signal that came while none watched it is taken by the next watcher.
class SignalWatch {
  public:
    SignalWatch(boost::asio::io_context &io, int sig, std::function<void()> fn);
    ~SignalWatch();
    SignalWatch(const SignalWatch &) = delete;
    SignalWatch &operator=(const SignalWatch &) = delete;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// SIGUSR2: reopen_log().
class LogReopener {
  public:
    explicit LogReopener(boost::asio::io_context &io);

  private:
    SignalWatch watch_;
};

} // namespace drover::daemon
