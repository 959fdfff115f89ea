#!/usr/bin/env bash
# syslog_test.sh - where the daemons log without a log file, as Slurm's do: to syslog (/dev/log)
# when they run in the background, everything they log; with a log file, only fatal errors
# unless SlurmctldSyslogDebug / SlurmdSyslogDebug names a level; a bad level stops the daemon
# before it starts, with a line that names the key. The daemons run in a mount namespace whose
# /dev is a fresh tmpfs, so that /dev/log is this test's listener, not the host's syslog.
source "$(dirname "$0")/lib.sh"
make_cluster 1 "SlurmctldPidFile=$T/c/ctld.pid" "SlurmdPidFile=$T/c/n1.pid"
sed -i '/^SlurmctldLogFile=/d' "$T/c/slurm.conf"
cd "$T"

# in_private_dev SCRIPT: runs SCRIPT in a mount namespace with its own /dev (the devices the
# daemons open, and /dev/log served by a listener writing each message as a line to $T/syslog).
in_private_dev() {
  unshare -m --propagation private bash -c '
    mount -t tmpfs tmpfs /dev
    mknod -m 666 /dev/null c 1 3; mknod -m 666 /dev/zero c 1 5
    mknod -m 666 /dev/random c 1 8; mknod -m 666 /dev/urandom c 1 9
    python3 -c "
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(\"/dev/log\")
out = open(sys.argv[1], \"a\", buffering=1)
while True: out.write(s.recv(65536).decode(errors=\"replace\").rstrip(\"\n\") + \"\n\")
" "$1" > /dev/null 2>&1 &
    while [ ! -S /dev/log ]; do sleep 0.1; done
    eval "$2"' in_private_dev "$T/syslog" "$1"
}
logged() { grep -q "$1" "$T/syslog" 2>/dev/null; }
# The listeners live in the namespaces' background: end them with the test.
trap 'pkill -f -- "open\(sys.argv\[1\].*$T/syslog" 2>/dev/null; cleanup' EXIT

# ---- no log file, in the background: everything to syslog ----
in_private_dev "'$BIN/core/ctld/droverctld' -f '$SLURM_CONF'; '$BIN/core/noded/droverd' -f '$SLURM_CONF' -N n1 -L '$T/c/log/droverd-n1.log'"
wait_for_nodes "$T/c" 1 || fail "the cluster did not come up"
wait_until 30 logged "droverctld\[$(cat "$T/c/ctld.pid")\]: info: .* in control" &&
  ok "a controller with no log file logs to syslog, with its pid" || fail "syslog got: $(head -3 "$T/syslog")"
assert_match "<30>" "$(grep -m1 droverctld "$T/syslog")" "as the daemon facility at level info"
j=$(sbatch --parsable --wrap true)
wait_job "$j"
wait_until 30 logged "droverctld\[[0-9]*\]: info: job $j ended COMPLETED" &&
  ok "what it logs as it runs" || fail "no job end in syslog"
logged "droverd\[" && fail "a node daemon with a log file logs to syslog too" ||
  ok "a node daemon with a log file logs nothing else to syslog"
cluster_stop "$T/c"

# ---- a log file and SlurmctldSyslogDebug=error: the file gets info, syslog errors ----
: > "$T/syslog"
echo "SlurmctldLogFile=$T/c/log/droverctld.log" >> "$SLURM_CONF"
echo "SlurmctldSyslogDebug=error" >> "$SLURM_CONF"
in_private_dev "'$BIN/core/ctld/droverctld' -f '$SLURM_CONF'"
# The daemon writes its pid file once detached, after the command returned.
wait_until 60 test -s "$T/c/ctld.pid" || fail "no pid file"
wait_until 60 ctld_answers_or_exited "$(cat "$T/c/ctld.pid")"
assert_match "in control" "$(cat "$T/c/log/droverctld.log")" "with a log file, the file gets info"
# Refused frames are logged as warnings, after the "in control" line: once they are in syslog,
# that line would be too had it gone there (a datagram socket keeps the order).
port=$(awk -F= '/^SlurmctldPort/ {print $2}' "$SLURM_CONF")
"$BIN/tests/integration/frame_tool" 127.0.0.1 "$port" "$T/c/auth.socket" localhost bad >/dev/null
wait_until 30 logged "droverctld\[[0-9]*\]: warning: refused" &&
  ok "SlurmctldSyslogDebug=error sends warnings and errors to syslog" || fail "no refusal in syslog"
logged "in control" && fail "SlurmctldSyslogDebug=error sends info to syslog" ||
  ok "and keeps info out of it"
cluster_stop "$T/c"

# ---- a bad level ----
sed -i 's/^SlurmctldSyslogDebug=.*/SlurmctldSyslogDebug=loud/' "$SLURM_CONF"
out=$("$BIN/core/ctld/droverctld" -f "$SLURM_CONF" 2>&1); rc=$?
assert_eq 1 "$rc" "a bad SlurmctldSyslogDebug stops the controller"
assert_match "SlurmctldSyslogDebug=loud: expected quiet, fatal, error, info, verbose or debug" "$out" \
  "with a line naming the key"
finish
