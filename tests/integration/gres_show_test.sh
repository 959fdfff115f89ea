#!/usr/bin/env bash
# gres_show_test.sh - droverd -G prints the generic resources a node would report from the
# gres.conf beside slurm.conf, one line per unit, and exits without starting a daemon or reaching
# a controller (none runs here): files that exist count, a missing one is warned about on stderr,
# count-only records print their count, AutoDetect=nvml on a host without NVML says so and falls
# back, and a bad gres.conf is fatal.
source "$(dirname "$0")/lib.sh"
make_cluster 2
droverd=$BIN/core/noded/droverd
show() { timeout 20 "$droverd" -G -f "$SLURM_CONF" "$@" 2>"$T/err"; }

out=$(show -N n1); rc=$?
assert_eq "0|" "$rc|$out" "no gres.conf: nothing to report"
assert_match "no $T/c/gres.conf: node n1 reports no generic resources" "$(cat "$T/err")" "and says why"

mkdir -p "$T/dev"
touch "$T/dev/nvidia0" "$T/dev/nvidia1" "$T/dev/nvidia3"
cat > "$T/c/gres.conf" <<CONF
NodeName=n1 Name=gpu Type=a100 File=$T/dev/nvidia[0-2] Cores=0-7
NodeName=n2 Name=gpu File=$T/dev/nvidia3
Name=nic Count=2
CONF
out=$(show -N n1); rc=$?
assert_eq 0 "$rc" "droverd -G exits 0"
assert_eq "Gres Name=gpu Type=a100 Count=1 Index=0 File=$T/dev/nvidia0 Cores=0-7 UniqueId=(null)
Gres Name=gpu Type=a100 Count=1 Index=1 File=$T/dev/nvidia1 Cores=0-7 UniqueId=(null)
Gres Name=nic Type=(null) Count=2 Index=(null) File=(null) Cores=(null) UniqueId=(null)" \
  "$out" "n1: one line per existing device file, then the count-only record"
assert_eq "droverd: warning: gres gpu: $T/dev/nvidia2 does not exist; not counted" \
  "$(cat "$T/err")" "the missing file is warned about on stderr"
assert_eq "Gres Name=gpu Type=(null) Count=1 Index=0 File=$T/dev/nvidia3 Cores=(null) UniqueId=(null)
Gres Name=nic Type=(null) Count=2 Index=(null) File=(null) Cores=(null) UniqueId=(null)" \
  "$(show -N n2)" "n2: its own records, untyped"
assert_eq "" "$(cat "$T/err")" "n2: nothing to warn about"
assert_eq "" "$(ls "$T/c/log")" "no daemon started, nothing logged"

# AutoDetect=nvml on a host without NVIDIA's library or GPUs: a warning, and nothing detected.
if ! ldconfig -p 2>/dev/null | grep -q 'libnvidia-ml\.so\.1 ' && ! ls /dev/nvidia[0-9]* >/dev/null 2>&1; then
  cp "$T/c/gres.conf" "$T/gres.conf.saved"
  printf 'AutoDetect=nvml\nName=nic Count=1\n' > "$T/c/gres.conf"
  assert_eq "Gres Name=nic Type=(null) Count=1 Index=(null) File=(null) Cores=(null) UniqueId=(null)" \
    "$(show -N n1)" "AutoDetect=nvml without NVML finds no GPU here"
  assert_match "^droverd: warning: AutoDetect=nvml: cannot load NVML: libnvidia-ml\.so\.1: .*; looking for /dev/nvidia<N> device files instead$" \
    "$(cat "$T/err")" "and says that NVML could not be loaded"
  cp "$T/gres.conf.saved" "$T/c/gres.conf"
else
  echo "# skipped the AutoDetect=nvml fallback check: this host has NVML or NVIDIA GPUs"
fi

echo "NodeName=n1 Name=gpu Bogus=1" >> "$T/c/gres.conf"
out=$(show -N n1); rc=$?
assert_eq "1|" "$rc|$out" "a bad gres.conf is fatal, and stdout stays empty"
assert_match "^droverd: fatal: $T/c/gres.conf:4: unknown key 'bogus'" "$(cat "$T/err")" "with the line"

help=$(timeout 20 "$droverd" --help); rc=$?
assert_eq 0 "$rc" "droverd --help exits 0"
assert_contains "-G  print the generic resources this node would report" "$help" "--help names -G"
finish
