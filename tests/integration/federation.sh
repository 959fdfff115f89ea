# federation.sh - helpers for tests of a federation: clusters c1 (in $T/c), c2 and c3 (in $T/c2,
# $T/c3), each one node and a controller, on the PostgreSQL store pg_test_setup started (PGCONF)
# and one shared key (federated clusters trust each other's commands and controllers). Sourced
# after lib.sh and pg/server.sh.

# member_dir NAME: where cluster NAME lives.
member_dir() { [ "$1" = c1 ] && echo "$T/c" || echo "$T/$1"; }

# make_member NAME [CTLD_ADDR NODE_ADDR]: writes the config of cluster NAME, on ports of its own;
# with addresses, its controller (ctl-NAME) listens on CTLD_ADDR and its node on NODE_ADDR. The
# lines of MEMBER_CONF go into every member's config.
make_member() {
  local name=$1 dir ctld_port node_port line
  dir=$(member_dir "$name")
  ctld_port=$(free_port) && node_port=$(reserve_ports 20000 31000 1) || { fail "no free ports"; finish; exit 1; }
  mkdir -p "$dir"
  [ -f "$T/c/drover.key" ] && cp "$T/c/drover.key" "$dir/drover.key"
  write_config "$dir" 1 "$ctld_port" "$((node_port - 1))"
  sed -i "s/^ClusterName=.*/ClusterName=$name/; s|^AuthInfo=.*|&,cred_expire=10|" "$dir/slurm.conf"
  if [ $# -ge 3 ]; then
    sed -i "s/^SlurmctldHost=.*/SlurmctldHost=ctl-$name($2)/; s/NodeAddr=127.0.0.1/NodeAddr=$3/" "$dir/slurm.conf"
  fi
  for line in "${PGCONF[@]}" ${MEMBER_CONF[@]+"${MEMBER_CONF[@]}"}; do
    sed -i "/^${line%%=*}=/d" "$dir/slurm.conf"
    sed -i "/^PartitionName=/i $line" "$dir/slurm.conf"
  done
}

# on NAME COMMAND...: runs a command against cluster NAME.
on() { local c=$1; shift; SLURM_CONF=$(member_dir "$c")/slurm.conf "$@"; }

# stop_members: the EXIT trap's part for c2 and c3 (lib.sh's cleanup stops c1); it keeps the
# status the test exits with for pg_cleanup, which runs after it.
stop_members() {
  local rc=$?
  cluster_stop "$T/c2" 2>/dev/null; cluster_stop "$T/c3" 2>/dev/null
  return $rc
}

# fed_view NAME / knows_members NAME COUNT: scontrol show federation on NAME lists COUNT-1
# siblings.
fed_view() { on "$1" scontrol show federation 2>&1; }
knows_members() { [ "$(fed_view "$1" | grep -c '^Sibling:')" = "$(($2 - 1))" ]; }

# each_ran_once IDS_FILE OUT_DIR: how many of the jobs listed ran exactly once (one line in
# OUT_DIR/ID.out).
each_ran_once() {
  local id once=0
  for id in $(cat "$1"); do [ "$(grep -c . "$2/$id.out" 2>/dev/null)" = 1 ] && once=$((once + 1)); done
  echo "$once"
}
# completed_once IDS_FILE: how many of the jobs listed sacct --federation shows exactly once, COMPLETED.
completed_once() {
  sacct --federation -n -X -P -o JobID,State 2>/dev/null | grep -xFf <(sed 's/$/|COMPLETED/' "$1") | sort | uniq -u | wc -l
}
