#!/usr/bin/env bash
# power_lib.sh - power saving programs for integration tests, sourced after lib.sh:
# make_power_programs writes $T/resume.sh (starts each node's droverd, as a cloud provider would
# start an instance; it copies SLURM_RESUME_FILE to $T/resume-file.N; a node with $T/broken.NODE
# is never started, and $T/slow delays the starts by 4 s), $T/suspend.sh (stops them) and
# $T/resume_fail.sh; each logs what it was asked to $T/programs.log.
make_power_programs() {
# The programs run with Slurm's environment (SLURM_CONF, SLURM_RESUME_FILE) and no PATH of ours.
cat > "$T/resume.sh" <<E
#!/bin/bash
n=\$(ls $T | grep -c '^resume-file\.')
cp "\$SLURM_RESUME_FILE" "$T/resume-file.\$n"
nodes=\$($BIN/core/cli/scontrol show hostnames "\$1")
for node in \$nodes; do echo "resume \$node" >> $T/programs.log; done
[ -e "$T/slow" ] && sleep 4
for node in \$nodes; do
  [ -e "$T/broken.\$node" ] && continue
  setsid $BIN/core/noded/droverd -D -f "\$SLURM_CONF" -N "\$node" -L "$T/c/log/droverd-\$node.log" \\
    < /dev/null > /dev/null 2>&1 &
  echo \$! > "$T/c/\$node.pid"
done
echo "resumed \$1"
E
cat > "$T/suspend.sh" <<E
#!/bin/bash
for node in \$($BIN/core/cli/scontrol show hostnames "\$1"); do
  echo "suspend \$node" >> $T/programs.log
  [ -f "$T/c/\$node.pid" ] && kill "\$(cat "$T/c/\$node.pid")" && rm -f "$T/c/\$node.pid"
done
E
cat > "$T/resume_fail.sh" <<E
#!/bin/bash
echo "failed \$1" >> $T/programs.log
E
chmod 755 "$T"/*.sh
}
