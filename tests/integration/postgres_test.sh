#!/usr/bin/env bash
# postgres_test.sh - accounting/postgres against a real PostgreSQL server that the test starts
# itself (tests/integration/pg/server.sh: initdb in the test's directory, 127.0.0.1 on a free
# port, password login): the plugin creates its schema, records every job's submit, start and end
# (sacct and psql agree), answers sacct's filters like accounting/lmdb, survives the database going
# away and coming back, lets the controller start while the database is down, migrates
# idempotently across restarts, keeps sacctmgr's clusters, accounts, users and associations (the
# controller reads them from the database at start), and never writes the password to the log.
# Skipped (passing) when the PostgreSQL server or the plugin is not installed/built.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/integration/pg/server.sh"

pg_test_setup
start_cluster 2 "${PGCONF[@]}"
cd "$T"
LOG=$T/c/log/droverctld.log
sql() { pg_sql "$DB" "$@" 2>&1; }
row() { sql "SELECT $2 FROM jobs WHERE cluster = 'local' AND job_id = $1"; }
acct() { sacct -j "$1" -X -n -P -o JobID,State,ExitCode 2>&1; }
recorded() { [ "$(row "$1" state)" = "$2" ]; }  # job, state number

# ---- schema ----
assert_contains "connected to the accounting database" "$(cat "$LOG")" "the controller connected at start"
assert_eq "1|jobs table 2|array tasks and comments 3|steps table 4|earlier runs of requeued jobs 5|clusters, accounts, users and associations 6|job lookups by array id 7|node events 8|QOS of jobs (ABI 1.5) 9|generic resources jobs held (ABI 1.6) 10|settings of associations and QOS (ABI 1.8) 11|heterogeneous job components (ABI 1.12)" \
  "$(sql "SELECT version, description FROM drover_schema_version ORDER BY version" | tr '\n' ' ' | sed 's/ $//')" \
  "schema at version 11, step by step"
assert_eq "cluster,job_id,step_id" \
  "$(sql "SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM pg_index i
          CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
          WHERE i.indrelid = 'steps'::regclass AND i.indisprimary")" \
  "steps are keyed by (cluster, job_id, step_id)"
assert_eq 32 "$(sql "SELECT count(*) FROM information_schema.columns WHERE table_name = 'steps'")" \
  "steps has a column for every step record member"
assert_eq "jobs_cluster_array jobs_cluster_end jobs_cluster_het jobs_cluster_submit jobs_cluster_user jobs_pkey" \
  "$(sql "SELECT indexname FROM pg_indexes WHERE tablename = 'jobs' ORDER BY 1" | xargs)" \
  "jobs has its primary key and indexes"
assert_eq "cluster,job_id" \
  "$(sql "SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM pg_index i
          CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
          WHERE i.indrelid = 'jobs'::regclass AND i.indisprimary")" \
  "the primary key is (cluster, job_id)"
assert_eq 28 "$(sql "SELECT count(*) FROM information_schema.columns WHERE table_name = 'jobs'")" \
  "jobs has a column for every record member"

# ---- submit, start, end ----
good=$(sbatch --parsable -J pg-good --wrap true)
bad=$(sbatch --parsable -J pg-bad --wrap 'exit 3')
long=$(sbatch --parsable -J pg-long --wrap 'sleep 300')
held=$(sbatch --parsable --hold -J pg-held --wrap true)
wait_job "$good" || fail "job $good did not finish"
wait_job "$bad" || fail "job $bad did not finish"
wait_until 60 recorded "$long" 1 || fail "job $long not recorded as running"
wait_until 60 recorded "$bad" 5 || fail "job $bad not recorded as failed"
wait_until 60 recorded "$good" 3 || fail "job $good not recorded as completed"

assert_eq "$good|COMPLETED|0:0" "$(acct "$good")" "sacct: a completed job"
assert_eq "$bad|FAILED|3:0" "$(acct "$bad")" "sacct: a failed job with its exit code"
assert_eq "$long|RUNNING|0:0" "$(acct "$long")" "sacct: a running job"
assert_eq "$held|PENDING|0:0" "$(acct "$held")" "sacct: a pending (held) job"

# The rows themselves: state, raw exit status, name, times and nodes as the record has them.
cols="state, exit_status, name, partition, user_id, submit_time > 0, start_time > 0, end_time > 0,
      node_list <> '', alloc_nodes, time_limit_min, work_dir = '$T'"
assert_eq "3|0|pg-good|debug|0|t|t|t|t|1|4294967295|t" "$(row "$good" "$cols")" "psql: the completed job's row"
assert_eq "5|768|pg-bad|debug|0|t|t|t|t|1|4294967295|t" "$(row "$bad" "$cols")" "psql: the failed job's row (raw wait status)"
assert_eq "1|0|pg-long|debug|0|t|t|f|t|1|4294967295|t" "$(row "$long" "$cols")" "psql: the running job's row"
assert_eq "0|0|pg-held|debug|0|t|f|f|f|0|4294967295|t" "$(row "$held" "$cols")" "psql: the pending job's row"
assert_eq "t" "$(row "$good" "start_time >= submit_time AND end_time >= start_time")" "psql: times in order"

scancel "$long"
wait_job "$long" || fail "job $long did not end after scancel"
wait_until 60 recorded "$long" 4 || fail "job $long not recorded as cancelled"
assert_match "^$long\|CANCELLED( by 0)?\|0:0$" "$(acct "$long")" "sacct: a cancelled job, ExitCode 0:0 as Slurm records it"
assert_eq "4|0|t" "$(row "$long" "state, cancelled_by, end_time > 0")" "psql: cancelled, by root, ended"
assert_eq 4 "$(sql "SELECT count(*) FROM jobs")" "one row per job: events update it in place"

# ---- the query's filters (as accounting/lmdb) ----
assert_eq "$good $bad" "$(sacct -j "$bad,$good,999999" -X -n -P -o JobID | xargs)" \
  "-j: the listed jobs, in id order, unknown ids ignored"
assert_eq "$good $bad $long $held" "$(sacct -X -n -P -o JobID | xargs)" "no filter: every job of today, in id order"
assert_eq "" "$(sacct -u nobody -X -n -P -o JobID)" "-u: another user's jobs only"
assert_eq "$good $bad $long $held" "$(sacct -u root -X -n -P -o JobID | xargs)" "-u root: root's jobs"
assert_eq "" "$(sacct -S 2000-01-01 -E 2000-01-02 -X -n -P -o JobID)" \
  "-E: jobs submitted after the window's end are left out"
sleep 1.1
assert_eq "$held" "$(sacct -S now -X -n -P -o JobID | xargs)" \
  "-S now: jobs that ended before are left out, jobs not ended are kept"
node=$(sacct -j "$good" -X -n -P -o NodeList)
ran_there=$(for j in "$good" "$bad" "$long"; do
  [ "$(sacct -j "$j" -X -n -P -o NodeList)" = "$node" ] && echo "$j"; done | xargs)
assert_eq "$ran_there" "$(sacct -N "$node" -X -n -P -o JobID | xargs)" \
  "-N: the jobs that ran on the node (the held one never ran)"
assert_eq "" "$(sacct -N nosuchnode -X -n -P -o JobID)" "-N: another node, no job"
# Another cluster's records in the same database, as a controller sharing it writes them: a job
# with the same id as one of ours, with its steps, and one of its own.
sql "CREATE TEMP TABLE t AS SELECT * FROM jobs WHERE job_id = $good;
     UPDATE t SET cluster = 'other', name = 'theirs'; INSERT INTO jobs SELECT * FROM t;
     UPDATE t SET job_id = 777777; INSERT INTO jobs SELECT * FROM t;
     CREATE TEMP TABLE s AS SELECT * FROM steps WHERE job_id = $good;
     UPDATE s SET cluster = 'other', name = 'their-' || name; INSERT INTO steps SELECT * FROM s" \
  >/dev/null
assert_eq "$good $bad $long $held" "$(sacct -X -n -P -o JobID | xargs)" \
  "without -M: this cluster's jobs only"
assert_eq "$good 777777" "$(sacct -M other -X -n -P -o JobID | xargs)" "-M other: that cluster's only"
assert_eq "other|777777" "$(sacct -M Other -j 777777 -X -n -P -o Cluster,JobID | xargs)" \
  "-M names a cluster in any case; the Cluster column says whose"
assert_eq "$good $bad $long $held $good 777777" "$(sacct -L -X -n -P -o JobID | xargs)" \
  "-L: every cluster's jobs, this one's first (by name), then the other's in id order"
assert_eq "local|$good|pg-good local|$good.batch|batch other|$good|theirs other|$good.batch|their-batch" \
  "$(sacct -L -j "$good" -n -P -o Cluster,JobID,JobName | xargs)" \
  "-L -j: each cluster's job of that id with its own steps"
sql "DELETE FROM steps WHERE cluster = 'other'; DELETE FROM jobs WHERE cluster = 'other'" >/dev/null

# ---- the database goes away and comes back ----
pg_stop fast
out=$(sacct -j "$good" -X -n -P -o JobID,State 2>&1)
assert_match "accounting database unreachable" "$out" "sacct while the database is down says why"
start=$SECONDS
sacct -j "$good" >/dev/null 2>&1
[ $((SECONDS - start)) -le 5 ] && ok "and answers quickly" || fail "sacct took $((SECONDS - start)) s with the database down"
outage=$(sbatch --parsable -J pg-outage --wrap true)
assert_match "^[0-9]+$" "$outage" "the controller takes jobs while the database is down"
wait_job "$outage" || fail "job $outage did not finish"
assert_contains "accounting database unreachable" "$(cat "$LOG")" "the failure is logged"
pg_start "$PG_PORT" || fail "PostgreSQL did not restart"
# The whole life of that job happened while the database was down: the core kept its records
# (each call failed with DROVER_EIO) and sends them again once the plugin reconnects.
wait_until 60 recorded "$outage" 3 || fail "job $outage not recorded after the database came back"
assert_eq "$outage|COMPLETED|0:0" "$(acct "$outage")" "the job that ran during the outage is recorded afterwards"
assert_eq "3|t|t|t" "$(row "$outage" "state, submit_time > 0, start_time > 0, end_time > 0")" \
  "psql: with its whole record"
after=$(sbatch --parsable -J pg-after --wrap true)
wait_job "$after"
wait_until 60 recorded "$after" 3 || fail "job $after not recorded"
assert_eq "$after|COMPLETED|0:0" "$(acct "$after")" "jobs after the outage are recorded (reconnected)"
assert_contains "accounting database reachable again" "$(cat "$LOG")" "the reconnection is logged"

# ---- sacctmgr: clusters, accounts, users and associations in PostgreSQL ----
sacctmgr -i add cluster local >/dev/null || fail "sacctmgr add cluster"
sacctmgr -i add account physics Description="Physics dept" Organization=Science >/dev/null || fail "sacctmgr add account"
sacctmgr -i add user alice account=physics adminlevel=Operator >/dev/null || fail "sacctmgr add user"
assert_eq "1|local 2|physics 2|root 3|alice 3|root" \
  "$(sql "SELECT kind, name FROM assocs WHERE kind < 4 ORDER BY kind, name" | xargs)" "psql: the cluster, accounts and users"
assert_eq "local|physics|alice||physics" \
  "$(sql "SELECT cluster, account, user_name, partition, parent FROM assocs WHERE kind = 4 AND user_name = 'alice'")" \
  "psql: alice's association"
assert_eq "alice|physics|Operator" "$(sacctmgr -n -P show user alice)" "sacctmgr show user from PostgreSQL"
sacctmgr -i modify user alice set adminlevel=None >/dev/null
assert_eq "0" "$(sql "SELECT admin_level FROM assocs WHERE kind = 3 AND name = 'alice'")" "psql: modify reaches the row"
echo y | sacctmgr delete account physics >/dev/null 2>&1
assert_eq "physics" "$(sacctmgr -n -P show account physics format=account)" "an account still in use is kept"
# The database is where the controller reads them from at start: a user added there directly
# shows after a restart.
sql "INSERT INTO assocs VALUES (3, 'zoe', '', '', '', '', '', '', '', 'physics', 0)" >/dev/null
sql "INSERT INTO assocs VALUES (4, '', 'local', 'physics', 'zoe', '', 'physics', '', '', '', 0)" >/dev/null

# ---- restarts: migrations are idempotent ----
kill_ctld TERM
restart_ctld
wait_until 60 squeue -h || fail "controller did not come back"
assert_eq "1,2,3,4,5,6,7,8,9,10,11" "$(sql "SELECT string_agg(version::text, ',' ORDER BY version) FROM drover_schema_version")" \
  "a restart applies no step twice"
assert_eq "$good|COMPLETED|0:0" "$(acct "$good")" "records survive a controller restart"
wait_until 60 bash -c "sacctmgr -n -P show user zoe | grep -q zoe"
assert_eq "zoe|physics|None" "$(sacctmgr -n -P show user zoe)" "the restarted controller loads the associations from PostgreSQL"
out=$(sacctmgr -n -P show assoc where user=zoe format=cluster,account,user)
assert_eq "local|physics|zoe" "$out" "with their associations"

# ---- the controller starts while the database is down ----
pg_stop fast
kill_ctld TERM
warned=$(grep -c "accounting database unreachable.*retrying on the next call" "$LOG")
# Step records left in the spool (as by a controller that stopped before delivering them) wait
# through the outage too.
for ev in "start batch batch" "end batch batch" "end 0 hostname"; do
  set -- $ev
  "$BIN/tests/integration/acct_spool_tool" "$T/c/state" "$1" "$good" "$2" "$3" n1 || fail "spooling step $2"
done
restart_ctld
if wait_until 60 squeue -h; then ok "the controller starts while the database is down"; else fail "the controller did not start with the database down"; fi
assert_eq $((warned + 1)) "$(grep -c "accounting database unreachable.*retrying on the next call" "$LOG")" \
  "and warns once at start"
pg_start "$PG_PORT" || fail "PostgreSQL did not restart"
late=$(sbatch --parsable -J pg-late --wrap true)
wait_job "$late"
wait_until 60 recorded "$late" 3 || fail "job $late not recorded once the database is up"
assert_eq "$late|COMPLETED|0:0" "$(acct "$late")" "it connects when the database comes up"
steps_recorded() { [ "$(sql "SELECT count(*) FROM steps WHERE job_id = $good")" = 2 ]; }
wait_until 60 steps_recorded || fail "the spooled step records were not delivered"
assert_eq "4294967291|3|2147483648|61250000|n1 0|3|2147483648|61250000|n1" \
  "$(sql "SELECT step_id, state, max_rss, user_cpu_usec, max_rss_node FROM steps
          WHERE cluster = 'local' AND job_id = $good ORDER BY step_id DESC" | xargs)" \
  "psql: the spooled step records arrive after the outage, the later batch record in place"
assert_eq "$good|COMPLETED||02:07.500 $good.batch|COMPLETED|2G|01:03.750 $good.0|COMPLETED|2G|01:03.750" \
  "$(sacct -j "$good" -n -P -o JobID,State,MaxRSS,TotalCPU | xargs)" \
  "sacct: the job and its steps from PostgreSQL"

# ---- QOS ----
qjob=$(sbatch --parsable -q high -J pg-qos --wrap true)
wait_job "$qjob" || fail "job $qjob did not finish"
wait_until 60 recorded "$qjob" 3 || fail "job $qjob not recorded as completed"
assert_eq "high" "$(row "$qjob" qos)" "the job's QOS is in its row"
assert_eq "$qjob|high|$good|normal" "$(sacct -j "$qjob,$good" -X -n -P -o JobID,QOS | sort -r | tr '\n' '|' | sed 's/|$//')" \
  "sacct shows it (and Slurm's normal for a job that asked for none)"

# ---- a heterogeneous job: each component's row names its leader and offset ----
het=$(sbatch --parsable -J pg-het -N1 : -N1 --wrap true)
wait_until 60 recorded "$((het + 1))" 3 || fail "component $((het + 1)) not recorded as completed"
assert_eq "$het|0 $het|1" "$(sql "SELECT het_job_id || '|' || het_job_offset FROM jobs WHERE job_id IN ($het, $((het + 1))) ORDER BY job_id" | xargs)" \
  "psql: het_job_id and het_job_offset in the components' rows"
assert_eq "$het+0|COMPLETED $het+1|COMPLETED" "$(sacct -j "$het" -X -n -P -o JobID,State | xargs)" \
  "sacct -j LEADER: every component, as LEADER+OFFSET"

# ---- a wrong password: refused with a clear message; no password is ever logged ----
kill_ctld TERM
WRONG="Wrong-$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')"
sed -i "s/^AccountingStoragePass=.*/AccountingStoragePass=$WRONG/" "$T/c/slurm.conf"
restart_ctld
wait_until 60 squeue -h || fail "controller did not come back"
assert_match "password authentication failed" "$(acct "$good")" "a wrong password is reported by sacct"
logs=$(cat "$T"/c/log/*.log "$T/pg/server.log" 2>/dev/null)
assert_eq "0 0" "$(grep -c -- "$PW" <<<"$logs") $(grep -c -- "$WRONG" <<<"$logs")" \
  "no log line holds a password"

finish
