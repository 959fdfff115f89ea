#!/usr/bin/env bash
# postgres_events_test.sh - node events (sacctmgr show event) in accounting/postgres against a
# real PostgreSQL server the test starts (pg/server.sh): the scenario of node_events.sh, with the
# database stopped and started again in the middle; the rows as psql sees them. Skipped (passing)
# when the PostgreSQL server or the plugin is not installed/built.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/integration/pg/server.sh"
source "$ROOT/tests/integration/node_events.sh"
pg_test_setup
start_cluster 3 "SlurmdTimeout=3" "${PGCONF[@]}"
cd "$T"
db_down() { pg_stop fast; }
db_up() { pg_start "$PG_PORT" || fail "PostgreSQL did not restart"; }
node_events_scenario db_down db_up
assert_eq "local|n2|t|2|1|disk swap|0" \
  "$(pg_sql "$DB" "SELECT cluster, node_name, end_time > start_time, state, flags, reason, reason_uid
                   FROM node_events WHERE node_name = 'n2'" 2>&1)" \
  "psql: the drained node's row (IDLE, DRAIN, by root)"
finish
