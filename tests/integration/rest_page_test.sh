#!/usr/bin/env bash
# rest_page_test.sh - drover-restd's status page (--status-page) in a real headless browser:
# Debian's chromium driven by puppeteer-core (pinned, from the npm registry, installed into the
# build tree). The page takes a token, shows a job submitted here and follows it to COMPLETED
# without a reload, shows a drained node's reason, counts the ended job in its chart, filters the
# queue and opens the job's page with its steps (rest_page.js). Without the page, /status is 404.
source "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
PUPPETEER=puppeteer-core@25.16.0
command -v chromium >/dev/null || { fail "chromium is not installed (scripts/install-deps.sh)"; finish; exit 1; }
modules=$BIN/tests/integration/page-node
if [ ! -d "$modules/node_modules/puppeteer-core" ]; then
  mkdir -p "$modules"
  timeout 300 npm install --prefix "$modules" --no-audit --no-fund --silent "$PUPPETEER" > "$T/npm.log" 2>&1 ||
    { fail "npm install $PUPPETEER: $(tail -3 "$T/npm.log")"; finish; exit 1; }
fi
make_cluster 2 "AuthAltTypes=auth/jwt" "AuthAltParameters=jwt_key=$T/c/jwt.key"
head -c 32 /dev/urandom > "$T/c/jwt.key"
cluster_start "$T/c" 2
cd "$T"
port=$(free_port) || { fail "no free port"; finish; exit 1; }
"$BIN/core/restd/drover-restd" -f "$T/c/slurm.conf" --status-page "127.0.0.1:$port" > restd.log 2>&1 &
echo $! > "$T/c/restd.pid"
URL=http://127.0.0.1:$port
wait_until 30 curl -sf -o /dev/null "$URL/status" || fail "drover-restd did not serve /status: $(cat restd.log)"
assert_match '^text/html' "$(curl -s -o /dev/null -w '%{content_type}' "$URL/status")" "/status is an HTML page"

id=$(sbatch --parsable -w n1 -o /dev/null --wrap "$(gate page)")
wait_running "$id" || fail "job $id did not start"
scontrol update NodeName=n2 State=DRAIN Reason="broken fan"
tok=$(scontrol token); tok=${tok#SLURM_JWT=}
while IFS= read -r line; do
  case "$line" in
    "ok - "*) ok "${line#ok - }" ;;
    "not ok - "*) fail "${line#not ok - }" ;;
  esac
done < <(NODE_PATH=$modules/node_modules timeout 240 node "$HERE/rest_page.js" \
  "$URL" "$tok" "$id" "$T/gate.page" n2 "broken fan" 2>&1)
[ "$PASSES" -ge 9 ] || fail "the browser checks did not all run ($PASSES passed)"
open_gate page

# Off by default.
port2=$(free_port) || { fail "no free port"; finish; exit 1; }
"$BIN/core/restd/drover-restd" -f "$T/c/slurm.conf" "127.0.0.1:$port2" > restd2.log 2>&1 &
echo $! > "$T/c/restd2.pid"
wait_until 30 curl -s -o /dev/null "http://127.0.0.1:$port2/openapi/v3" || fail "the second drover-restd did not start"
assert_eq 404 "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port2/status")" \
  "without --status-page there is no page"
finish
