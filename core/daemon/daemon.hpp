// daemon.hpp - what both daemons do at start: parse the common flags, set up logging, detach.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace drover::daemon {

struct CommonFlags {
    std::optional<std::string> config; // -f
    bool foreground = false;           // -D
    int verbosity = 0;                 // -v, -vv
    std::string log_file;              // -L, else the config's log file, else stderr
};

// Where a daemon logs. To its log file (SIGUSR2 opens it again), copied to stderr in the
// foreground (-D, as Slurm's; the journal, under systemd) unless -L named the file; with no file,
// to stderr in the foreground. To syslog at the level SlurmctldSyslogDebug or
// SlurmdSyslogDebug names, or as Slurm does without one: all the daemon logs when it runs in the
// background with no log file, fatal errors only when it has a log file, nothing in the
// foreground without one.
struct LogTargets {
    std::string file;
    bool foreground = false;
    bool also_stderr = false;        // -D without -L: the configured file and a copy on stderr
    std::optional<int> syslog_level; // spdlog's level number, from syslog_level()
};

// "quiet", "fatal", "error", "info", "verbose", "debug" ... "debug5" (Slurm's debug levels) as
// spdlog's level number; throws std::runtime_error naming key for anything else.
int syslog_level(const std::string &key, const std::string &value);

// Logs at info, debug with verbosity >= 1.
void setup_logging(const std::string &name, const LogTargets &to, int verbosity);

// This host's name up to its first dot (what NodeName and SlurmctldHost usually say).
std::string short_hostname();

// The uid of a user name (SlurmUser), or 0 when there is no such user.
uint32_t uid_of(const std::string &user);

// The address a daemon listens on for a configured address: an IPv4 literal as given,
// "localhost" as 127.0.0.1, anything else (a name, or none) every interface.
std::string listen_address(const std::string &addr);

// Raises the soft limit on open descriptors to the hard one: a daemon's connections, its calls
// out and its children's pipes all need them, and the connection limits are sized from it
// (net::Admission).
void raise_fd_limit();

// Forks into the background (setsid, stdio to /dev/null). Returns in the child only.
void detach();

} // namespace drover::daemon
