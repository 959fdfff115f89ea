#!/usr/bin/env bash
# bad_input_test.sh - malformed, oversized, truncated, forged, tampered, misdirected and replayed
# frames are refused by both daemons, which keep serving; queued jobs are not harmed; a malformed config or
# #SBATCH line is refused with what and where.
source "$(dirname "$0")/lib.sh"
start_cluster 1
cd "$T"
held=$(sbatch --parsable --hold -J keepme --wrap true)
ctld_port=$(awk -F= '/^SlurmctldPort/ {print $2}' "$SLURM_CONF")
node_port=$(awk '/^NodeName=n1 / {for (i=1;i<=NF;i++) if ($i ~ /^Port=/) {sub("Port=","",$i); print $i}}' "$SLURM_CONF")

for target in "controller:localhost:$ctld_port" "node:n1:$node_port"; do
  who=${target%%:*}; port=${target##*:}; name=${target#*:}; name=${name%%:*}
  out=$("$BIN/tests/integration/frame_tool" 127.0.0.1 "$port" "$T/c/auth.socket" "$name" bad)
  get() { echo "$out" | awk -v k="$1" '$1 == k {sub(k" ", ""); print}'; }
  assert_eq closed "$(get garbage)" "$who: garbage is refused and the connection closed"
  assert_eq closed "$(get oversize)" "$who: a frame claiming 4 GiB is refused before reading it"
  assert_eq closed "$(get truncated)" "$who: a truncated frame is dropped"
  assert_eq closed "$(get corrupt)" "$who: a corrupted body fails its digest"
  assert_match "^error: Authentication failure: ControllerPingRequest: credential (malformed|signature invalid)" "$(get forged)" "$who: a forged credential is refused"
  assert_match "^error: Authentication failure" "$(get tampered)" "$who: a credential over another body is refused"
  assert_eq "error: Authentication failure: ControllerPingRequest for '${name}x' reached '$name'" "$(get misdirected)" \
    "$who: a frame sealed for another daemon is refused"
  if [ "$who" = controller ]; then
    assert_eq ControllerPingResponse "$(get first)" "$who: a good request is answered"
  else
    assert_match "^error: unexpected message|^error: only the controller" "$(get first)" "$who: a good frame gets a reasoned answer"
  fi
  assert_match "^error: Authentication failure: ControllerPingRequest: credential replayed" "$(get replay)" "$who: the same frame sent again is a replay"
  assert_match "ControllerPingResponse|^error: (unexpected|only)" "$(get after)" "$who: still serving after all that"
done
assert_eq "PENDING" "$(squeue -h -j "$held" -o %T)" "the queued job was not harmed"
assert_match "n1 +idle|n1 +1 +debug\* +idle" "$(sinfo -N -h)" "the node is still up"

# Configuration and directive errors say what and where.
printf 'ClusterName=x\nNodeName=a CPUs=zz\n' > bad.conf
err=$(SLURM_CONF=$T/bad.conf sinfo 2>&1)
assert_match "bad.conf:2" "$err" "a bad config line is reported with file and line"
printf '#!/bin/sh\n#SBATCH --time=banana\necho hi\n' > bad.sh
err=$(sbatch bad.sh 2>&1); rc=$?
assert_eq 1 "$rc" "a bad #SBATCH directive fails sbatch"
assert_match "line 2" "$err" "and names the script line"
assert_eq 1 "$(squeue -h | wc -l)" "nothing was submitted by the refused scripts"
finish
