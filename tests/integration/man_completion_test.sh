#!/usr/bin/env bash
# man_completion_test.sh - the man pages and the bash completion the build makes from the
# commands' own option tables (and slurm.conf(5) from the admin guide's key tables): every page
# renders without a roff warning and documents what the command's --help does; completion offers options, and the job ids, partitions and node
# names of the live cluster where an option or argument names them.
source "$(dirname "$0")/lib.sh"

# ---- man pages ----
pages=("$BIN"/man/man1/*.1 "$BIN"/man/man5/*.5 "$BIN"/man/man8/*.8)
assert_eq 20 "${#pages[@]}" "a page for each of the 16 commands, slurm.conf and the 3 daemons"
for p in "${pages[@]}"; do
  warn=$(MANWIDTH=100 man --warnings -E UTF-8 -l "$p" 2>&1 >/dev/null)
  [ -z "$warn" ] || fail "$(basename "$p"): $warn"
done
ok "every page renders without a warning"
squeue_page=$(MANWIDTH=100 man -E UTF-8 -l "$BIN/man/man1/squeue.1" 2>/dev/null)
assert_match "squeue - list the jobs and steps in the queue" "$squeue_page" "NAME says what it is"
assert_match "-t, --states=states" "$squeue_page" "an option as --help spells it"
assert_match "comma separated list of states to view" "$squeue_page" "with what --help says of it"
# Each option line of a command's --help is in its page.
for cmd in squeue sinfo sbatch scancel sacct srun; do
  page=$(MANWIDTH=200 man -E UTF-8 -l "$BIN/man/man1/$cmd.1" 2>/dev/null | tr -s ' ')
  missing=$("$BIN/core/cli/$cmd" --help | grep -oE '^ +-[-a-zA-Z]+' | tr -d ' ' |
    while read -r o; do grep -qF -- "$o" <<<"$page" || echo "$o"; done)
  assert_eq "" "$missing" "$cmd.1 documents every option of $cmd --help"
done
conf_page=$(MANWIDTH=200 man -E UTF-8 -l "$BIN/man/man5/slurm.conf.5" 2>/dev/null)
for key in ClusterName SlurmctldHost MaxArraySize StateSaveMaxSize; do
  assert_contains "$key" "$conf_page" "slurm.conf(5) has $key, as the admin guide's tables do"
done
# Every key the configuration parser reads by name (core/common/config_keys.cpp, and the power
# saving keys of config_power.cpp) is in the page, but FrontendName (its lines are skipped with a
# warning; the guide says so beside the table).
lower_page=$(tr 'A-Z' 'a-z' <<<"$conf_page")
missing=$(grep -hoE '(k|lkey) == "[a-z_]+"' "$ROOT/core/common/config_keys.cpp" \
    "$ROOT/core/common/config_power.cpp" | grep -oE '"[a-z_]+"' |
  tr -d '"' | sort -u | grep -vx frontendname | while read -r k; do
    grep -qw -- "$k" <<<"$lower_page" || echo "$k"; done)
assert_eq "" "$missing" "slurm.conf(5) documents every key the parser reads"
assert_match "droverctld - the Drover controller" \
  "$(MANWIDTH=100 man -E UTF-8 -l "$BIN/man/man8/droverctld.8" 2>/dev/null)" "droverctld(8)"
assert_match "tls-cert" "$(MANWIDTH=100 man -E UTF-8 -l "$BIN/man/man8/drover-restd.8" 2>/dev/null)" \
  "drover-restd(8) lists its options"

# ---- completion against a live cluster ----
start_cluster 2
cd "$T"
source "$BIN/completion/drover"
# completes WORD...: COMPREPLY for the last word, the words as bash splits them ('=' apart).
completes() {
  COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
  _drover_complete
  printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
held=$(sbatch --parsable -H --wrap true)
assert_eq "--partition" "$(completes squeue --par)" "an option name"
assert_eq "--parsable --partition" "$(completes sbatch --pa)" "sbatch's options that start so"
assert_eq "debug" "$(completes squeue -p '')" "-p takes a partition"
assert_eq "debug" "$(completes squeue --partition = de)" "--partition=de"
assert_eq "n1 n2" "$(completes sinfo --nodes = '')" "sinfo --nodes= takes node names"
assert_eq "n1 n2" "$(completes squeue -w '')" "squeue -w takes node names"
assert_eq "$held" "$(completes scancel '')" "scancel takes job ids"
assert_eq "$held" "$(completes squeue -j '')" "squeue -j takes job ids"
assert_eq "" "$(completes squeue -o '')" "a format is not guessed"
assert_eq "show shutdown" "$(completes scontrol sh)" "scontrol's commands"
assert_eq "node" "$(completes scontrol show no)" "what show takes"
assert_eq "n1 n2" "$(completes scontrol show node '')" "scontrol show node takes node names"
assert_eq "$held" "$(completes scontrol update JobId = '')" "scontrol update JobId= takes job ids"
assert_eq "$held" "$(completes scontrol release '')" "scontrol release takes job ids"
scancel "$held"
finish
