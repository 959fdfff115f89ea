#!/usr/bin/env bash
# restart_fields_test.sh - every sbatch option that changes a job's record survives a kill -9 of
# droverctld: scontrol show job -o of each job is the same field by field after the restart, and
# what scontrol does not show is checked by what the jobs do afterwards. A pending "sbatch -w n3"
# waits for n3 after the restart and starts there (it once started on n1: ReqNodeList=n3
# NodeList=n1), --signal is sent after the restart (and not twice), a requeuehold asked for just
# before the kill still requeues and holds the job, --open-mode=append and --export reach a job
# started after the restart, -s still means OverSubscribe=YES when a later update re-checks the
# job, and --kill-on-invalid-dep still cancels.
source "$(dirname "$0")/lib.sh"
make_cluster 3 "SelectType=select/cons_tres" "SelectTypeParameters=CR_Core_Memory"
sed -i 's/^NodeName=DEFAULT .*/NodeName=DEFAULT CPUs=2 RealMemory=1000 TmpDisk=10 Gres=gpu:2 State=UNKNOWN/' "$SLURM_CONF"
sed -i 's/^\(NodeName=n1 .*\)$/\1 Feature=slow/; s/^\(NodeName=n[23] .*\)$/\1 Feature=fast/' "$SLURM_CONF"
sed -i 's/^\(PartitionName=.*\)$/\1 OverSubscribe=YES/' "$SLURM_CONF"
mkdir -p "$T/dev"
touch "$T/dev/nvidia0" "$T/dev/nvidia1"
echo "NodeName=n[1-3] Name=gpu File=$T/dev/nvidia[0-1]" > "$T/c/gres.conf"
cluster_start "$T/c" 3
cd "$T"

sub() { sbatch --parsable "$@" || fail "sbatch $* was refused"; }
# The fields (KEY=VALUE of scontrol show job -o) that differ between two captures, as
# " KEY (BEFORE -> AFTER)"; with a third argument, RunTime is left out.
field_diffs() {
  awk -v running="${3:-}" '
    FNR == 1 { file++ }
    { for (i = 1; i <= NF; i++) {
        k = $i; v = ""; p = index($i, "=")
        if (p) { k = substr($i, 1, p - 1); v = substr($i, p + 1) }
        if (file == 1) a[k] = v; else b[k] = v
        keys[k] = 1 } }
    END { for (k in keys) {
            if (running != "" && k == "RunTime") continue
            va = (k in a) ? a[k] : "<none>"; vb = (k in b) ? b[k] : "<none>"
            if (va != vb) printf " %s (%s -> %s)", k, va, vb } }' "$1" "$2"
}
sig_count() { grep -c USR1 "sig.$1" 2>/dev/null || echo 0; }
SIGJOB='trap "echo USR1 >> sig.$SLURM_JOB_ID" USR1; while :; do sleep 1; done'

# --signal 57 s before a one-minute limit: sent about 3 s after the start, before the restart.
sig_before=$(sub -J sig-before -w n1 -n1 --mem=100 -t 1 --signal=B:USR1@57 --wrap "$SIGJOB")
# n3 busy (whole), and a job that must run on n3 and nowhere else.
busy=$(sub -J busy -w n3 --exclusive -t 30 --comment=busy-job --open-mode=append -o busy.out --wrap 'sleep 300')
wait_until 10 bash -c "[ \"\$(squeue -h -j $busy -o %T)\" = RUNNING ]" || fail "the busy job did not start"
# (Jobs that must start are submitted before the -w n3 job: sched/builtin starts none after a
# job that waits for resources.)
# --signal 40 s before a one-minute limit: sent 20 s after the start, after the restart.
sig_after=$(sub -J sig-after -w n1 -n1 --mem=100 -t 1 --signal=B:USR1@40 --wrap "$SIGJOB")
# A job asked to requeue and hold that ends only after the restart (its TERM trap takes 4 s).
rq=$(sub -J rq -w n2 -n1 --mem=100 -o rq.out \
  --wrap 'trap "echo term; sleep 4; exit 0" TERM; echo run; sleep 300 & wait $!')
wait_until 10 bash -c "[ \"\$(squeue -h -j $sig_after -o %T) \$(squeue -h -j $rq -o %T)\" = 'RUNNING RUNNING' ]" ||
  fail "sig-after or rq did not start"
wait_until 5 grep -q run rq.out
wants_n3=$(sub -J wants-n3 -w n3 -n1 --mem=100 -o where.out --wrap 'echo $SLURMD_NODENAME')
# Held jobs carrying every other option sbatch sends (held, they never start).
mkdir -p wd
held_all=$(sub --hold -J all-opts -N 1-2 -n 2 -c 1 --ntasks-per-node=1 --mem=200 -t 30 \
  --begin=now+1hour --deadline=now+1day -p debug -A acct1 --comment=every-option --nice=10 \
  --no-requeue -o 'out-%j.txt' -e 'err-%j.txt' -i in.txt -D "$T/wd" -C fast -x n1 --contiguous \
  --exclusive --open-mode=append --signal=R:USR2@120 --kill-on-invalid-dep=no --mincpus=1 \
  --gres=gpu:1 --wrap true)
held_arr=$(sub --hold -J arr --array=0-3%2 -n 2 --mem-per-cpu=100 --gpus=2 --requeue -s \
  --export=NONE --tmp=5 --wrap true)
held_gpt=$(sub --hold -J gpt -N 1 -n 2 --gpus-per-task=1 -d "afterany:$busy" \
  --kill-on-invalid-dep=yes --wrap true)
oversub=$(sub --hold -J oversub -s -n1 --mem=100 -t 20 --gpus-per-node=1 --wrap true)
# Waiting on busy: one runs after it (append and export), one is cancelled when busy fails to
# end well (kill-on-invalid-dep), one is left waiting for ever.
echo "before restart" > app.out
appended=$(sub -J appended -n1 --mem=100 -d "afterany:$busy" --open-mode=append -o app.out \
  --export=FOO=bar --wrap 'echo "foo=$FOO"')
killed=$(sub -J killed -n1 --mem=100 -d "afterok:$busy" --kill-on-invalid-dep=yes --wrap true)
waits=$(sub -J waits -n1 --mem=100 -d "afterok:$busy" --kill-on-invalid-dep=no --wrap true)
wait_until 10 bash -c "[ \"\$(grep -c USR1 sig.$sig_before 2>/dev/null)\" = 1 ]" ||
  fail "--signal was not sent before the restart"
sleep 1  # the scheduler has passed over the pending jobs: their reasons are set

ids="$sig_before $busy $wants_n3 $held_all $held_arr $held_gpt $oversub $appended $killed $waits $sig_after"
for id in $ids; do scontrol show job -o "$id" > "before.$id"; done
assert_match "ReqNodeList=n3 .*NodeList=\(null\)" "$(cat "before.$wants_n3")" "the -w n3 job waits for n3"
scontrol requeuehold "$rq" || fail "scontrol requeuehold $rq"
wait_until 5 grep -q term rq.out || fail "rq was not told to end"  # it ends 4 s later

kill_ctld KILL
restart_ctld -R
wait_until 10 squeue -h || fail "controller did not come back"
sleep 1  # a scheduling pass: reasons are worked out again by each pass (not stored)

# Field by field. The only field allowed to differ is RunTime of a running job (the clock moved
# on). SubmitTime, EligibleTime, StartTime, LastSchedEval, Priority and the rest are stored and
# must come back as they were; Reason is worked out again by the scheduling pass waited for
# above, from what is stored, and must come out the same.
for id in $ids; do
  scontrol show job -o "$id" > "after.$id"
  running=$(grep -q 'JobState=RUNNING' "before.$id" && echo yes)
  diffs=$(field_diffs "before.$id" "after.$id" $running)
  if [ -z "$diffs" ]; then ok "job $id ($(grep -o 'JobName=[^ ]*' "before.$id")): every field is the same after the restart"
  else fail "job $id ($(grep -o 'JobName=[^ ]*' "before.$id")) changed across the restart:$diffs"; fi
done

# The -w n3 job still waits for n3 while n1 and n2 have room.
sleep 6  # more than one scheduling pass (every 5 s)
assert_eq PENDING "$(squeue -h -j "$wants_n3" -o %T)" "the -w n3 job still waits while n3 is busy"
assert_match "ReqNodeList=n3 .*NodeList=\(null\)" "$(scontrol show job -o "$wants_n3")" "scontrol shows it waiting for n3"

# --signal: sent after the restart to the job that was due it, not again to the one that had it.
wait_until 20 bash -c "[ \"\$(grep -c USR1 sig.$sig_after 2>/dev/null)\" = 1 ]" &&
  ok "--signal is sent after the restart" || fail "--signal was not sent after the restart"
assert_eq 1 "$(sig_count "$sig_before")" "--signal is not sent twice across the restart"
scancel "$sig_before" "$sig_after"

# The requeuehold asked for before the kill: the job ended after the restart and went back to the
# queue, held, instead of ending COMPLETED.
wait_until 15 bash -c "[ \"\$(squeue -h -j $rq -o '%T %r')\" = 'PENDING JobHeldUser' ]"
assert_eq "PENDING JobHeldUser" "$(squeue -h -j "$rq" -o '%T %r')" "a requeuehold of a running job survives the restart"
assert_match "Restarts=1" "$(scontrol show job -o "$rq")" "it counts the restart"
scancel "$rq"

# -s: an update re-checks the job against its partition; the request to oversubscribe is kept.
scontrol update JobId="$oversub" TimeLimit=20 || fail "scontrol update of $oversub"
assert_match "OverSubscribe=YES" "$(scontrol show job -o "$oversub")" "-s still oversubscribes after the restart and an update"

# n3 frees up: the -w n3 job runs there; the jobs that waited for busy run or end.
scancel "$busy"
wait_job "$wants_n3" 20
assert_eq "COMPLETED n3" "$(squeue -h -t all -j "$wants_n3" -o '%T %N')" "the -w n3 job ran on n3"
assert_eq "n3" "$(tail -1 where.out)" "and its script saw n3"
wait_job "$appended" 20
assert_eq "before restart|foo=bar" "$(paste -sd'|' app.out)" "--open-mode=append and --export reach a job started after the restart"
wait_job "$killed" 20
assert_eq CANCELLED "$(job_state "$killed")" "--kill-on-invalid-dep=yes cancels after the restart"
wait_until 10 bash -c "[ \"\$(squeue -h -j $waits -o %r)\" = DependencyNeverSatisfied ]"
assert_eq "PENDING DependencyNeverSatisfied" "$(squeue -h -j "$waits" -o '%T %r')" "--kill-on-invalid-dep=no leaves it waiting"
scancel "$held_all" "$held_arr" "$held_gpt" "$oversub" "$waits"
finish
