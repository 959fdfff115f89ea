// daemon_help.hpp - what droverctld, droverd and drover-restd print for --help, kept here so that
// their man pages (drover --man droverctld, section 8) are made from the same text.
#pragma once

namespace drover {

inline constexpr const char *kCtldHelp =
    "Usage: droverctld [-D] [-f config] [-c] [-R] [-L logfile] [-v] [--controller NAME]\n"
    "  -D  stay in the foreground\n"
    "  -f  slurm.conf to read (default: $DROVER_CONF, $SLURM_CONF or /etc/slurm/slurm.conf)\n"
    "  -c  cold start: discard saved jobs\n"
    "  -R  recover all saved state (the default)\n"
    "  -L  log file (default: SlurmctldLogFile)\n"
    "  -v  more verbose logging (-vv: more still)\n"
    "  --controller NAME  run as this SlurmctldHost (default: the one whose address\n"
    "                     is on this host, or named like it)\n"
    "  -V, --version  print the version and exit\n"
    "  -h, --help  print this help and exit\n";

inline constexpr const char *kNodedHelp =
    "Usage: droverd [-D] [-f config] [-N nodename | --emulate hostlist] [-L logfile] [-v]\n"
    "       droverd -G [-f config] [-N nodename]\n"
    "  -D  stay in the foreground\n"
    "  -f  slurm.conf to read (default: $DROVER_CONF, $SLURM_CONF or /etc/slurm/slurm.conf)\n"
    "  -G  print the generic resources this node would report (its gres.conf and\n"
    "      what its AutoDetect finds), one per line, and exit\n"
    "  -N  run as this NodeName (default: the short host name)\n"
    "  --emulate HOSTLIST  serve all these nodes from this process\n"
    "  -L  log file (default: SlurmdLogFile)\n"
    "  -v  more verbose logging (-vv: more still)\n"
    "  -V, --version  print the version and exit\n"
    "  -h, --help  print this help and exit\n";

inline constexpr const char *kRestdHelp =
    "Usage: drover-restd [-f slurm.conf] [-a rest_auth/jwt|rest_auth/local] [-t THREADS] [-v]\n"
    "                    [HOST]:PORT | unix:/PATH ...\n"
    "  -a PLUGIN   how clients prove who they are: rest_auth/jwt (a token from `scontrol token`,\n"
    "              the default) or rest_auth/local (the user of a process on a UNIX socket)\n"
    "  -f FILE     slurm.conf (default: SLURM_CONF, then /etc/slurm/slurm.conf)\n"
    "  -t THREADS  workers that call the controller (default 8)\n"
    "  --tls-cert FILE --tls-key FILE\n"
    "              TCP listeners speak HTTPS with this certificate chain and key (PEM)\n"
    "  --status-page  serve the read-only status page at /status (it reads the paths above\n"
    "              with the visitor's token)\n"
    "  -V          print the version\n";

} // namespace drover
