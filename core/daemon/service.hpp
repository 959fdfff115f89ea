// service.hpp - what a service manager asks of the daemons: systemd's readiness notice
// (Type=notify units) and the pid file slurm.conf names (SlurmctldPidFile, SlurmdPidFile).
#pragma once

#include <map>
#include <string>

#include "daemon/daemon.hpp"

namespace drover::daemon {

// Tells systemd the daemon serves: "READY=1" to the datagram socket $NOTIFY_SOCKET names (an
// abstract one when it starts with '@'). Nothing when it is not set (not started by systemd).
// The sd_notify protocol itself: no libsystemd.
void notify_ready();

// Takes NOTIFY_SOCKET out of the environment for notify_ready, so that nothing the daemon starts
// inherits it. Called first thing in main: changing the environment is safe only while no other
// thread may read it.
void take_notify_socket();

// Writes this process's pid to path (nothing when path is empty) and removes the file again
// when the daemon ends cleanly. A file that cannot be written is logged, not fatal.
class PidFile {
  public:
    explicit PidFile(std::string path);
    ~PidFile();
    PidFile(const PidFile &) = delete;
    PidFile &operator=(const PidFile &) = delete;

  private:
    std::string path_;
};

// Where a daemon logs and its pid file, from the flags and slurm.conf's top-level keys (raw,
// lower-cased): prefix "slurmctld" reads SlurmctldLogFile's value (given as conf_log_file),
// SlurmctldSyslogDebug and SlurmctldPidFile; "slurmd" the Slurmd ones. -D without -L copies the
// log to stderr. Throws std::runtime_error for a bad syslog level.
struct ServiceSetup {
    LogTargets log;
    std::string pid_file;
};
ServiceSetup service_setup(const CommonFlags &flags, const std::map<std::string, std::string> &raw,
                           const std::string &prefix, const std::string &conf_log_file);

} // namespace drover::daemon
