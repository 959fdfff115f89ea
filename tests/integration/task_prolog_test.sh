#!/usr/bin/env bash
# task_prolog_test.sh - TaskProlog/TaskEpilog (slurm.conf) and srun's --task-prolog/--task-epilog,
# as Slurm runs them: as the job's user, around every task (the batch script included for the
# slurm.conf ones), TaskProlog first and TaskEpilog last; a prolog's "export", "unset" and
# "print" lines change the task's environment or reach its output.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/users.sh"
make_test_users
mkdir -p "$T/s"
chmod 755 "$T" "$T/s"
cat > "$T/s/site_prolog" <<'EOF'
#!/bin/sh
echo "export FROM_SITE=yes"
echo "print site prolog for task $SLURM_PROCID"
EOF
cat > "$T/s/site_epilog" <<EOF
#!/bin/sh
echo "site \$SLURM_JOB_ID.\${SLURM_STEP_ID:-batch} \$SLURM_PROCID \$(id -un)" >> $T/epilogs.log
EOF
cat > "$T/s/user_prolog" <<'EOF'
#!/bin/sh
echo "export FROM_USER=saw-$FROM_SITE"
echo "unset DROP_ME"
EOF
cat > "$T/s/user_epilog" <<EOF
#!/bin/sh
echo "user \$SLURM_JOB_ID.\$SLURM_STEP_ID \$SLURM_PROCID \$DROP_ME" >> $T/epilogs.log
EOF
chmod 755 "$T"/s/*
touch "$T/epilogs.log"; chmod 666 "$T/epilogs.log"
start_cluster 2 "TaskProlog=$T/s/site_prolog" "TaskEpilog=$T/s/site_epilog"
cd "$T"

assert_match "TaskProlog += $T/s/site_prolog" "$(scontrol show config)" "show config: TaskProlog"

# The batch script is a task: the site's prolog and epilog run around it.
j=$(sbatch --parsable -o batch.out --wrap 'echo "script sees FROM_SITE=$FROM_SITE"')
wait_job "$j" || fail "job $j did not end"
assert_eq "site prolog for task 0
script sees FROM_SITE=yes" "$(cat batch.out)" "TaskProlog's print and export reach the batch script"
wait_until 30 grep -q "^site $j.batch 0 root$" epilogs.log \
  && ok "TaskEpilog ran after the batch script, as its user" || fail "epilogs: $(cat epilogs.log)"

# A step: TaskProlog then srun's, each task; srun's epilog then TaskEpilog.
out=$(DROP_ME=1 srun -N2 -n2 -l --task-prolog="$T/s/user_prolog" --task-epilog="$T/s/user_epilog" \
  bash -c 'echo "$FROM_SITE $FROM_USER ${DROP_ME:-unset}"' | sort)
assert_eq "0: site prolog for task 0
0: yes saw-yes unset
1: site prolog for task 1
1: yes saw-yes unset" "$out" "srun's prolog runs after TaskProlog and sees what it exported"
step=$(squeue -h -t all -o %i | sort -n | tail -1)
four_epilogs() { [ "$(grep -c " $step\.0 " epilogs.log)" -eq 4 ]; }
wait_until 30 four_epilogs \
  || fail "four epilogs for step $step.0: $(cat epilogs.log)"
for task in 0 1; do
  lines=$(grep " $step\.0 $task " epilogs.log | cut -d' ' -f1 | tr '\n' ' ')
  assert_eq "user site " "$lines" "task $task: srun's epilog, then TaskEpilog"
done
# The step's environment with the task's own variables (a prolog's exports are the task's alone).
assert_match "user $step\.0 1 1" "$(cat epilogs.log)" "an epilog has the task's environment"

# As the job's user.
out=$(as drvtest1 srun -n1 bash -c 'echo $FROM_SITE')
assert_eq "site prolog for task 0
yes" "$out" "a user's task gets the prolog too"
wait_until 30 grep -q "drvtest1$" epilogs.log && ok "TaskEpilog runs as the job's user" \
  || fail "epilogs: $(cat epilogs.log)"
finish
