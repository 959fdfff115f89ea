#!/usr/bin/env bash
# rest_test.sh - drover-restd as slurmrestd's clients use it: tokens from `scontrol token`
# (AuthAltTypes=auth/jwt, the key in AuthAltParameters=jwt_key=), the OxyMake seed's calls
# replayed as they are (submit, poll jobs[0].job_state, cancel), the other paths, and every way a
# request can be refused: no, expired, forged, wrong-key or alg=none tokens (401), another
# user's job (refused), bad bodies (400, nothing queued), bodies over the limit (413), unknown
# paths (404) and methods (405). rest_auth/local takes the user of the process on the UNIX socket.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/users.sh"
make_test_users
make_cluster 2 "AuthAltTypes=auth/jwt" "AuthAltParameters=jwt_key=$T/c/jwt_hs256.key" \
  "SlurmdParameters=config_overrides"
sed -i 's/^NodeName=DEFAULT CPUs=1 RealMemory=100/NodeName=DEFAULT CPUs=4 RealMemory=1000/' "$T/c/slurm.conf"
echo "PartitionName=normal Nodes=n[1-2]" >> "$T/c/slurm.conf"
head -c 32 /dev/urandom > "$T/c/jwt_hs256.key"
chmod 0400 "$T/c/jwt_hs256.key"
cluster_start "$T/c" 2
cd "$T"

port=$(free_port) || { fail "no free port"; finish; exit 1; }
"$BIN/core/restd/drover-restd" -f "$T/c/slurm.conf" "127.0.0.1:$port" > restd.log 2>&1 &
echo $! > "$T/c/restd.pid"
URL=http://127.0.0.1:$port
wait_until 30 curl -s -o /dev/null "$URL/openapi/v3" || fail "drover-restd did not start: $(cat restd.log)"

# rest METHOD PATH [TOKEN [BODY [USER]]]: prints the HTTP status, a space, then the body.
rest() {
  local args=(-s -o "$T/rest.body" -w '%{http_code}' -X "$1" "$URL$2")
  [ -n "${3:-}" ] && args+=(-H "X-SLURM-USER-TOKEN: $3")
  [ -n "${5:-}" ] && args+=(-H "X-SLURM-USER-NAME: $5")
  [ -n "${4:-}" ] && args+=(-H "Content-Type: application/json" --data-binary "$4")
  local code; code=$(curl "${args[@]}")
  echo "$code $(tr -d '\n' < "$T/rest.body")"
}
# field EXPR: a Python expression over the JSON document d read from stdin.
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
body() { cut -d' ' -f2-; }

tok=$(scontrol token lifespan=600)
assert_match '^SLURM_JWT=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$' "$tok" "scontrol token prints SLURM_JWT=<JWT>"
SLURM_JWT=${tok#SLURM_JWT=}
assert_eq "Invalid option: \`nope=1\`" "$(scontrol token nope=1 2>&1)" "scontrol token refuses an unknown option"

out=$(rest GET /slurm/v0.0.42/ping/ "$SLURM_JWT")
assert_eq "200 UP" "$(echo "$out" | cut -d' ' -f1) $(echo "$out" | body | field 'd["pings"][0]["pinged"]')" "ping answers with the token"
assert_eq 401 "$(rest GET /slurm/v0.0.42/ping | cut -d' ' -f1)" "and 401 without one"

# The OxyMake seed's calls, as it sends them.
SUBMIT='{
    "script": "#!/bin/bash\nhostname\ndate",
    "job": {
      "name": "ox_test",
      "partition": "normal",
      "cpus_per_task": 4,
      "memory_per_node": { "number": 8, "set": true, "infinite": false },
      "tasks": 1,
      "environment": ["PATH=/usr/bin:/bin", "HOME=/tmp"],
      "current_working_directory": "'"$T"'"
    }
  }'
out=$(rest POST /slurm/v0.0.44/job/submit "$SLURM_JWT" "$SUBMIT" root)
assert_eq 200 "${out%% *}" "the seed's submission is taken: ${out#* }"
id=$(echo "$out" | body | field 'd["job_id"]')
assert_match '^[0-9]+$' "$id" "and answered with its job_id"
poll() { rest GET "/slurm/v0.0.44/job/$id" "$SLURM_JWT" "" root | body | field 'd["jobs"][0]["job_state"][0]'; }
completed() { [ "$(poll)" = COMPLETED ]; }
wait_until 60 completed && ok "polling jobs[0].job_state reaches COMPLETED" || fail "job $id: $(poll)"
assert_eq "ox_test normal 4" "$(squeue -h -j "$id" -t all -o '%j %P %C' 2>/dev/null || sacct -n -X -P -j "$id" -o JobName,Partition,AllocCPUS | tr '|' ' ')" \
  "it ran with the name, partition and CPUs asked for"
assert_contains "$(hostname -s 2>/dev/null || hostname)" "$(cat "$T/slurm-$id.out")" "its script ran in current_working_directory"

long=$(rest POST /slurm/v0.0.44/job/submit "$SLURM_JWT" '{"script":"#!/bin/bash\nsleep 300","job":{"name":"long","partition":"normal","current_working_directory":"/tmp","standard_output":"/dev/null"}}' | body | field 'd["job_id"]')
wait_running "$long" || fail "job $long did not start"
assert_eq 200 "$(rest DELETE "/slurm/v0.0.44/job/$long" "$SLURM_JWT" | cut -d' ' -f1)" "DELETE cancels a running job"
wait_job "$long" && assert_match '^CANCELLED' "$(sacct -n -X -P -j "$long" -o State)" "which ends CANCELLED"

# ?update_time=T: every job when one changed since T, none (with Slurm's warning) when none did.
out=$(rest GET "/slurm/v0.0.42/jobs?update_time=$(($(date +%s) + 3600))" "$SLURM_JWT")
assert_eq "200 0 No job changes since update_time" \
  "${out%% *} $(echo "$out" | body | field 'str(len(d["jobs"])) + " " + d["warnings"][0]["description"].split("[")[0]')" \
  "GET jobs?update_time=LATER: nothing changed since"
out=$(rest GET "/slurm/v0.0.42/jobs?update_time=1" "$SLURM_JWT")
assert_eq "200 True" "${out%% *} $(echo "$out" | body | field 'str(len(d["jobs"]) > 0)')" \
  "GET jobs?update_time=EARLIER: every job"
assert_eq 400 "$(rest GET "/slurm/v0.0.42/jobs?update_time=soon" "$SLURM_JWT" | cut -d' ' -f1)" \
  "an update_time that is no time is 400"
out=$(rest GET /slurm/v0.0.40/nodes "$SLURM_JWT")
assert_eq "200 n1,n2" "${out%% *} $(echo "$out" | body | field '",".join(n["name"] for n in d["nodes"])')" "GET nodes lists the nodes"
out=$(rest GET /slurm/v0.0.41/partition/normal "$SLURM_JWT")
assert_eq "200 normal" "${out%% *} $(echo "$out" | body | field 'd["partitions"][0]["name"]')" "GET partition/NAME"
assert_eq 404 "$(rest GET /slurm/v0.0.41/partition/nope "$SLURM_JWT" | cut -d' ' -f1)" "an unknown partition is 404"
assert_eq 404 "$(rest GET /slurm/v0.0.42/job/999999 "$SLURM_JWT" | cut -d' ' -f1)" "an unknown job is 404"
assert_contains '"/slurm/v0.0.42/job/submit"' "$(curl -s "$URL/openapi/v3")" "/openapi/v3 describes the paths served"
assert_eq 404 "$(rest GET /slurm/v0.0.39/jobs "$SLURM_JWT" | cut -d' ' -f1)" "an API version not served is 404"
assert_eq 404 "$(rest GET /slurm/v0.0.42/nothing "$SLURM_JWT" | cut -d' ' -f1)" "an unknown path is 404"
assert_eq 405 "$(rest PUT /slurm/v0.0.42/jobs "$SLURM_JWT" | cut -d' ' -f1)" "a method a path does not take is 405"

# Updates, statistics, licenses and the accounting store's jobs.
held=$(rest POST /slurm/v0.0.42/job/submit "$SLURM_JWT" '{"script":"#!/bin/bash\ntrue","job":{"hold":true,"current_working_directory":"/tmp","standard_output":"/dev/null"}}' | body | field 'd["job_id"]')
out=$(rest POST "/slurm/v0.0.42/job/$held" "$SLURM_JWT" '{"time_limit": {"number": 7, "set": true, "infinite": false}, "name": "renamed"}')
assert_eq 200 "${out%% *}" "POST job/ID updates a job: ${out#* }"
assert_eq "renamed 7:00" "$(squeue -h -j "$held" -o '%j %l')" "its name and time limit changed"
assert_eq 400 "$(rest POST "/slurm/v0.0.42/job/$held" "$SLURM_JWT" '{"colour": 1}' | cut -d' ' -f1)" "an unknown update field is 400"
assert_eq 200 "$(rest POST "/slurm/v0.0.42/job/$held" "$SLURM_JWT" '{"hold": false}' | cut -d' ' -f1)" "hold: false releases it"
wait_job "$held" || fail "job $held did not run once released"
# "jobs": a heterogeneous job, one object per component.
het=$(rest POST /slurm/v0.0.42/job/submit "$SLURM_JWT" '{"script":"#!/bin/bash\ntrue","jobs":[{"name":"hetrest","current_working_directory":"/tmp","standard_output":"/dev/null"},{"tasks":1}]}' | body | field 'd["job_id"]')
assert_eq "$het+0 hetrest $het+1 hetrest " "$(squeue -h -j "$het" -t all -o '%i %j' | sort | tr '\n' ' ')" \
  "jobs: [..] submits a heterogeneous job, the name carried over"
out=$(rest GET "/slurm/v0.0.42/jobs/state?job_id=$held,$het%2B1" "$SLURM_JWT")
assert_eq "200 $held:COMPLETED $het+1" \
  "${out%% *} $(echo "$out" | body | field '" ".join(j["job_id"] + (":" + j["state"][0] if j["job_id"] == "'"$held"'" else "") for j in d["jobs"])')" \
  "GET jobs/state?job_id=...: the jobs named, with their ids as squeue writes them"
assert_eq 400 "$(rest GET "/slurm/v0.0.42/jobs/state?job_id=x1" "$SLURM_JWT" | cut -d' ' -f1)" \
  "jobs/state with a bad job id is 400"
# POST job/allocate: an allocation with no script, which holds its node until it is cancelled.
out=$(rest POST /slurm/v0.0.42/job/allocate "$SLURM_JWT" '{"job":{"name":"restalloc","minimum_nodes":1,"current_working_directory":"/tmp"}}')
alloc=$(echo "$out" | body | field 'd["job_id"]')
assert_match '^[0-9]+$' "$alloc" "POST job/allocate answers with a job id (${out%% *})"
wait_running "$alloc" && ok "the allocation runs, with no script" || fail "allocation $alloc: $(squeue -h -j "$alloc" -o '%t %r')"
assert_eq "restalloc 0" "$(scontrol show job "$alloc" | grep -o 'JobName=[^ ]*\|BatchFlag=[^ ]*' | cut -d= -f2 | xargs)" \
  "its name, and no batch script"
assert_eq 200 "$(rest DELETE "/slurm/v0.0.42/job/$alloc" "$SLURM_JWT" | cut -d' ' -f1)" "DELETE ends the allocation"
wait_job "$alloc" || fail "allocation $alloc did not end"
# DELETE /jobs: scancel of a list of jobs, each one's outcome in "status".
k1=$(sbatch --parsable -H -o /dev/null --wrap true); k2=$(sbatch --parsable -H -o /dev/null --wrap true)
out=$(rest DELETE /slurm/v0.0.42/jobs "$SLURM_JWT" '{"jobs": ["'"$k1"'", '"$k2"', "999999"]}')
assert_eq "200 $k1:ok $k2:ok 999999:Invalid job id specified" \
  "${out%% *} $(echo "$out" | body | field '" ".join(s["step_id"] + ":" + ("ok" if s["error"]["code"] == 0 else s["error"]["message"]) for s in d["status"])')" \
  "DELETE jobs: each job's outcome, an unknown one refused"
assert_eq "CANCELLED CANCELLED" "$(squeue -h -t all -j "$k1,$k2" -o %T | xargs)" "the jobs named are cancelled"
assert_eq 400 "$(rest DELETE /slurm/v0.0.42/jobs "$SLURM_JWT" '{"signal": "SIGNOPE", "jobs": ["1"]}' | cut -d' ' -f1)" \
  "DELETE jobs with an unknown signal is 400"
out=$(rest GET /slurm/v0.0.42/reconfigure "$SLURM_JWT" "" root)
assert_eq "200 0" "${out%% *} $(echo "$out" | body | field 'len(d["errors"])')" "GET reconfigure as root"
out=$(rest POST /slurm/v0.0.41/node/n2 "$SLURM_JWT" '{"state": ["DRAIN"], "reason": "by rest"}')
assert_eq 200 "${out%% *}" "POST node/NAME drains a node: ${out#* }"
assert_eq "drain by rest" "$(sinfo -h -n n2 -o '%t %E' | head -1)" "with its reason"
rest POST /slurm/v0.0.41/node/n2 "$SLURM_JWT" '{"state": ["RESUME"]}' > /dev/null
out=$(rest GET /slurm/v0.0.42/diag "$SLURM_JWT")
assert_match '^200 .*"jobs_submitted": *[1-9]' "$out" "GET diag counts the submissions"
out=$(rest GET /slurmdb/v0.0.42/job/"$id" "$SLURM_JWT")
assert_eq "200 ox_test" "${out%% *} $(echo "$out" | body | field 'd["jobs"][0]["name"]')" "GET slurmdb job/ID reads the accounting store"
assert_eq 200 "$(rest GET /slurm/v0.0.42/licenses "$SLURM_JWT" | cut -d' ' -f1)" "GET licenses"
scontrol create reservation ReservationName=maint StartTime=now Duration=60 Nodes=n2 Users=root Flags=MAINT > /dev/null
out=$(rest GET /slurm/v0.0.42/reservation/maint "$SLURM_JWT")
assert_eq "200 n2 True" "${out%% *} $(echo "$out" | body | field 'd["reservations"][0]["node_list"] + " " + str("MAINT" in d["reservations"][0]["flags"])')" \
  "GET reservation/NAME"
scontrol delete ReservationName=maint
sacctmgr -i add cluster "$(scontrol show config | awk '$1 == "ClusterName" {print $3}')" > /dev/null
sacctmgr -i add account physics Description=phys Organization=sci > /dev/null
sacctmgr -i add qos high Priority=10 > /dev/null
out=$(rest GET /slurmdb/v0.0.42/accounts "$SLURM_JWT")
assert_eq "200 phys sci" "${out%% *} $(echo "$out" | body | field '[" ".join((a["description"], a["organization"])) for a in d["accounts"] if a["name"] == "physics"][0]')" \
  "GET slurmdb accounts"
out=$(rest GET /slurm/v0.0.42/shares "$SLURM_JWT")
assert_eq "200 ASSOCIATION" "${out%% *} $(echo "$out" | body | field '[s["type"][0] for s in d["shares"]["shares"] if s["name"] == "physics"][0]')" \
  "GET shares lists the associations sshare shows"
out=$(rest GET /slurmdb/v0.0.42/qos "$SLURM_JWT")
assert_eq "200 10" "${out%% *} $(echo "$out" | body | field '[q["priority"]["number"] for q in d["qos"] if q["name"] == "high"][0]')" \
  "GET slurmdb qos"
out=$(rest GET /slurmdb/v0.0.42/clusters "$SLURM_JWT")
assert_match '^200 .*"controller"' "$out" "GET slurmdb clusters"
out=$(rest GET /slurmdb/v0.0.42/config "$SLURM_JWT")
assert_eq "200 physics high cpu,mem,energy,node,billing,fs,vmem,pages" \
  "${out%% *} $(echo "$out" | body | field '" ".join(([a["name"] for a in d["accounts"] if a["name"] == "physics"] + [q["name"] for q in d["qos"] if q["name"] == "high"] + [",".join(t["type"] for t in d["tres"])]))')" \
  "GET slurmdb config: accounts, QOS and TRES in one document"
assert_eq "200 fs/disk 6" "$(out=$(rest GET /slurmdb/v0.0.42/tres "$SLURM_JWT"); echo "${out%% *} $(echo "$out" | body | field '[t["type"] + "/" + t["name"] + " " + str(t["id"]) for t in d["tres"] if t["type"] == "fs"][0]')")" \
  "GET slurmdb tres"
assert_eq 404 "$(rest GET /slurmdb/v0.0.42/account/nosuch "$SLURM_JWT" | cut -d' ' -f1)" "an unknown account is 404"

# A client that sends half a request, and a hundred idle ones, hold up nobody else.
exec 7<>/dev/tcp/127.0.0.1/"$port"
printf 'GET /slurm/v0.0.42/ping HTTP/1.1\r\nHost: x\r\n' >&7
idle=()
for _ in $(seq 1 100); do exec {fd}<>/dev/tcp/127.0.0.1/"$port" && idle+=("$fd"); done
assert_eq 200 "$(rest GET /slurm/v0.0.42/ping "$SLURM_JWT" | cut -d' ' -f1)" "a slow client and 100 idle ones do not hold up a request"
exec 7>&-
for fd in "${idle[@]}"; do exec {fd}>&-; done

# HTTPS with a certificate and key.
openssl req -x509 -newkey rsa:2048 -nodes -keyout tls.key -out tls.crt -days 1 -subj /CN=localhost > /dev/null 2>&1
tport=$(free_port) || { fail "no free port"; finish; exit 1; }
"$BIN/core/restd/drover-restd" -f "$T/c/slurm.conf" --tls-cert tls.crt --tls-key tls.key "127.0.0.1:$tport" > restd-tls.log 2>&1 &
echo $! > "$T/c/restd-tls.pid"
wait_until 30 curl -sk -o /dev/null "https://127.0.0.1:$tport/openapi/v3" || fail "drover-restd with TLS did not start: $(cat restd-tls.log)"
assert_eq 200 "$(curl -sk -o /dev/null -w '%{http_code}' -H "X-SLURM-USER-TOKEN: $SLURM_JWT" "https://127.0.0.1:$tport/slurm/v0.0.42/ping")" \
  "with --tls-cert and --tls-key it answers HTTPS"
assert_eq 000 "$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "http://127.0.0.1:$tport/slurm/v0.0.42/ping")" \
  "and nothing in plain HTTP"
assert_match "nope.key" "$("$BIN/core/restd/drover-restd" -f "$T/c/slurm.conf" --tls-cert tls.crt --tls-key nope.key "127.0.0.1:0" 2>&1)" \
  "a key it cannot read stops it with the file named"

# Tokens that must not pass.
before=$(squeue -h | wc -l)
expired=$(scontrol token lifespan=1); expired=${expired#SLURM_JWT=}
sleep 2
assert_eq 401 "$(rest GET /slurm/v0.0.42/jobs "$expired" | cut -d' ' -f1)" "an expired token is 401"
assert_eq 401 "$(rest GET /slurm/v0.0.42/jobs "${SLURM_JWT%?}x" | cut -d' ' -f1)" "a token with a changed signature is 401"
jwt() {  # ALG KEY USER: a token made here, not by the controller
  python3 - "$@" <<'PY'
import base64, hashlib, hmac, json, sys, time
alg, key, user = sys.argv[1:4]
b = lambda x: base64.urlsafe_b64encode(json.dumps(x, separators=(",", ":")).encode()).rstrip(b"=").decode()
msg = b({"alg": alg, "typ": "JWT"}) + "." + b({"exp": int(time.time()) + 600, "iat": int(time.time()), "sun": user})
sig = "" if alg == "none" else base64.urlsafe_b64encode(hmac.new(key.encode(), msg.encode(), hashlib.sha256).digest()).rstrip(b"=").decode()
print(msg + "." + sig)
PY
}
assert_eq 401 "$(rest GET /slurm/v0.0.42/jobs "$(jwt HS256 not-the-key root)" | cut -d' ' -f1)" "a token signed with another key is 401"
assert_eq 401 "$(rest GET /slurm/v0.0.42/jobs "$(jwt none x root)" | cut -d' ' -f1)" "an alg=none token is 401"
assert_eq 401 "$(rest POST /slurm/v0.0.42/job/submit "$(jwt none x root)" "$SUBMIT" | cut -d' ' -f1)" "and submits nothing"

# Bodies that are no submission: 400 with the field named, nothing queued; too big: 413.
out=$(rest POST /slurm/v0.0.42/job/submit "$SLURM_JWT" '{"script": "#!/bin/sh\ntrue", "job": {')
assert_match '^400 .*expected' "$out" "malformed JSON is 400 and says what was expected"
out=$(rest POST /slurm/v0.0.42/job/submit "$SLURM_JWT" '{"script": "#!/bin/sh\ntrue", "job": {"tasks": "two"}}')
assert_match '^400 .*job.tasks: expected an integer' "$out" "a field of the wrong type is 400 naming it"
out=$(rest POST /slurm/v0.0.42/job/submit "$SLURM_JWT" '{"script": "#!/bin/sh\ntrue", "job": {"colour": "blue"}}')
assert_match '^400 .*job.colour: unknown field' "$out" "an unknown field is 400 naming it"
out=$(rest POST /slurm/v0.0.42/job/submit "$SLURM_JWT" '{"job": {"name": "x"}}')
assert_match '^400 .*script' "$out" "a submission without a script is 400"
out=$(rest POST /slurm/v0.0.42/job/submit "$SLURM_JWT" '{"script": "#!/bin/sh\ntrue", "job": {"time_limit": {"number": 5, "set": true}, "partition": "nope"}}')
assert_match '^400 .*[Ii]nvalid partition' "$out" "the controller's refusal comes back as 400"
{ printf '{"script":"'; head -c 1100000 /dev/zero | tr '\0' 'a'; printf '"}'; } > big.json
assert_eq 413 "$(curl -s -o /dev/null -w '%{http_code}' -H "X-SLURM-USER-TOKEN: $SLURM_JWT" \
  -H 'Content-Type: application/json' --data-binary @big.json "$URL/slurm/v0.0.42/job/submit")" \
  "a body over 1 MiB is 413"
assert_eq "$before" "$(squeue -h | wc -l)" "no refused request queued anything"
assert_eq 200 "$(rest GET /slurm/v0.0.42/ping "$SLURM_JWT" | cut -d' ' -f1)" "and the daemon still answers"

if [ "$MULTI" = 1 ]; then
  user_tok=$(as drvtest1 scontrol token); user_tok=${user_tok#SLURM_JWT=}
  assert_match '^[A-Za-z0-9_.-]+$' "$user_tok" "a user gets a token of their own"
  assert_match "Only root or SlurmUser" "$(as drvtest1 scontrol token username=root 2>&1)" \
    "but none for another user"
  out=$(rest POST /slurm/v0.0.42/job/submit "$user_tok" '{"script":"#!/bin/bash\nsleep 300","job":{"name":"mine","current_working_directory":"/tmp","standard_output":"/dev/null"}}')
  mine=$(echo "$out" | body | field 'd["job_id"]')
  assert_eq drvtest1 "$(squeue -h -j "$mine" -o %u)" "a job submitted with a user's token is that user's ($out)"
  theirs=$(rest POST /slurm/v0.0.42/job/submit "$SLURM_JWT" '{"script":"#!/bin/bash\nsleep 300","job":{"name":"theirs","current_working_directory":"/tmp","standard_output":"/dev/null"}}' | body | field 'd["job_id"]')
  out=$(rest DELETE "/slurm/v0.0.42/job/$theirs" "$user_tok")
  assert_match '^403 ' "$out" "a user's token cannot cancel root's job"
  assert_match '^(PD|R)$' "$(squeue -h -j "$theirs" -o %t)" "which goes on"
  assert_eq 403 "$(rest POST /slurm/v0.0.41/node/n1 "$user_tok" '{"state": ["DRAIN"], "reason": "x"}' | cut -d' ' -f1)" \
    "a user's token cannot drain a node"
  assert_eq 403 "$(rest GET /slurm/v0.0.42/reconfigure "$user_tok" | cut -d' ' -f1)" \
    "a user's token cannot reconfigure the controller"
  assert_eq 401 "$(rest GET /slurm/v0.0.42/jobs "$user_tok" "" drvtest2 | cut -d' ' -f1)" \
    "a user's token cannot act as another user (X-SLURM-USER-NAME)"
  as_user=$(rest POST /slurm/v0.0.42/job/submit "$SLURM_JWT" '{"script":"#!/bin/bash\ntrue","job":{"current_working_directory":"/tmp","standard_output":"/dev/null"}}' drvtest2 | body | field 'd["job_id"]')
  assert_eq drvtest2 "$(squeue -h -t all -j "$as_user" -o %u 2>/dev/null || sacct -n -X -P -j "$as_user" -o User)" \
    "root's token with X-SLURM-USER-NAME acts as that user"
  scancel "$mine" "$theirs"

  # rest_auth/local: whoever is on the UNIX socket.
  "$BIN/core/restd/drover-restd" -f "$T/c/slurm.conf" -a rest_auth/local "unix:$T/rest.sock" > restd-local.log 2>&1 &
  echo $! > "$T/c/restd-local.pid"
  wait_until 30 test -S "$T/rest.sock" || fail "the local drover-restd did not start"
  local_id=$(as drvtest1 curl -s --unix-socket "$T/rest.sock" -H 'Content-Type: application/json' \
    --data-binary '{"script":"#!/bin/bash\nsleep 300","job":{"current_working_directory":"/tmp","standard_output":"/dev/null"}}' \
    http://x/slurm/v0.0.42/job/submit | field 'd["job_id"]')
  assert_eq drvtest1 "$(squeue -h -j "$local_id" -o %u)" "rest_auth/local submits as the socket's user"
  scancel "$local_id"
fi
finish
