#!/usr/bin/env bash
# node_events_test.sh - node events (sacctmgr show event) in accounting/lmdb, the default store:
# the scenario of node_events.sh.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/integration/node_events.sh"
start_cluster 3 "SlurmdTimeout=3"
cd "$T"
node_events_scenario
finish
