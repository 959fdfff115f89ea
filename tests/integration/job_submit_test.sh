#!/usr/bin/env bash
# job_submit_test.sh - JobSubmitPlugins=lua on a live cluster with a site's job_submit.lua beside
# slurm.conf: the script rewrites jobs (a default time limit, a comment, the partition) and
# refuses one with its user message, as Slurm's job_submit/lua does; scontrol update passes through
# slurm_job_modify, which refuses or extends it; a changed script is loaded
# again at the next submission, and one that does not load leaves the last one in force; a
# controller whose script is missing does not start.
source "$(dirname "$0")/lib.sh"
make_cluster 1 "JobSubmitPlugins=lua"
cat >> "$T/c/slurm.conf" <<CONF
PartitionName=short Nodes=n1 MaxTime=30
CONF
cat > "$T/c/job_submit.lua" <<'LUA'
function slurm_job_submit(job_desc, part_list, submit_uid)
  if job_desc.comment == "refuse" then
    slurm.log_user("jobs with comment %s are not accepted here", job_desc.comment)
    return slurm.ERROR
  end
  if job_desc.time_limit == slurm.NO_VAL then
    job_desc.time_limit = 7
  end
  if job_desc.name == "quick" then
    job_desc.partition = "short"
    slurm.user_msg("quick jobs go to partition short")
  end
  job_desc.mail_user = "ops@example.org" -- a field Drover has not: logged, not fatal
  job_desc.comment = "v1 saw uid " .. submit_uid .. " (" .. job_desc.user_name .. ")"
  slurm.log_info("job_submit.lua: %s", job_desc.comment)
  return slurm.SUCCESS
end

function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
  if job_desc.time_limit ~= slurm.NO_VAL and job_desc.time_limit > 60 then
    slurm.log_user("no more than an hour here")
    return slurm.ERROR
  end
  if job_desc.name ~= nil then
    job_desc.comment = "renamed to " .. job_desc.name .. " by uid " .. modify_uid
  end
  return slurm.SUCCESS
end
LUA
cluster_start "$T/c" 1
cd "$T"

assert_match "JobSubmitPlugins += lua" "$(scontrol show config)" "scontrol show config"
j=$(sbatch --parsable --hold --wrap true)
show=$(scontrol show job "$j")
assert_match "TimeLimit=00:07:00" "$show" "the script sets a default time limit"
assert_match "Comment=v1 saw uid 0 \(root\)" "$show" "and a comment, from the submitter's uid and name"
assert_match "Partition=debug" "$show" "the default partition otherwise"
q=$(sbatch --parsable --hold -J quick -t 5 --wrap true 2>"$T/quick.err")
assert_eq "short 5:00" "$(squeue -h -j "$q" -o '%P %l')" "a job the script routes to another partition"
assert_eq "sbatch: quick jobs go to partition short" "$(cat "$T/quick.err")" \
  "sbatch shows the script's message for an accepted job"
out=$(sbatch --comment=refuse --wrap true 2>&1); rc=$?
assert_eq 1 "$rc" "the script refuses a job"
assert_match "jobs with comment refuse are not accepted here" "$out" "with its user message"
assert_match "job_submit.lua: v1 saw uid 0" "$(cat "$T/c/log/droverctld.log")" \
  "slurm.log_info reaches the controller's log"
assert_match "job_desc.mail_user: no such field here" "$(cat "$T/c/log/droverctld.log")" \
  "a field Drover has not is logged and the job still accepted"

# ---- scontrol update goes through slurm_job_modify ----
out=$(scontrol update JobId="$j" TimeLimit=90 2>&1); rc=$?
assert_eq 1 "$rc" "slurm_job_modify refuses an update"
assert_match "no more than an hour here" "$out" "with its user message"
assert_match "TimeLimit=00:07:00" "$(scontrol show job "$j")" "and the job is unchanged"
scontrol update JobId="$j" Name=renamed
show=$(scontrol show job "$j")
assert_match "JobName=renamed" "$show" "an update it accepts applies"
assert_match "Comment=renamed to renamed by uid 0" "$show" "with what the script added to it"

# ---- a changed script is loaded at the next submission; a broken one keeps the last ----
sed -i 's/"v1 saw/"v2 saw/' "$T/c/job_submit.lua"
touch -d "+2 seconds" "$T/c/job_submit.lua" # newer than the last load, whatever the clock's grain
j2=$(sbatch --parsable --hold --wrap true)
assert_match "Comment=v2 saw" "$(scontrol show job "$j2")" "the changed script is in force"
echo "this is not lua (" >> "$T/c/job_submit.lua"
touch -d "+4 seconds" "$T/c/job_submit.lua"
j3=$(sbatch --parsable --hold --wrap true)
[ -n "$j3" ] && ok "a broken script does not stop submissions" || fail "j3 refused"
assert_match "Comment=v2 saw" "$(scontrol show job "$j3")" "the last good script stays in force"
scancel "$j" "$q" "$j2" "$j3"

# ---- a controller without its script does not start ----
kill_ctld TERM
rm "$T/c/job_submit.lua"
out=$(timeout 30 "$BIN/core/ctld/droverctld" -D -f "$T/c/slurm.conf" 2>&1); rc=$?
assert_eq 1 "$rc" "droverctld stops"
assert_match "job_submit.lua" "$out" "naming the missing script"
finish
