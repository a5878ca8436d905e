#!/usr/bin/env bash
# Redis's own cost of a reservation over its whole life, command by command: starts the jar on a Redis of its own,
# reserves as fast as wrk goes for DURATION (a fresh buyer per request, one unit each), waits until the order pipeline
# has settled every reservation (reserve -> relay -> broker -> order consumer -> settle and acknowledge), then prints
# INFO commandstats divided by the reservations (calls and µs per reservation; commands run inside scripts count
# under their own name and again inside evalsha's µs), Redis's INFO cpu per reservation, and the bytes the sale's
# keys hold per settled reservation. Every command the service sent from just before the run until the last
# reservation settled is counted: reserve, relay reads, acknowledge, settle, reconciliation, heartbeats.
#
#   perf/redis-cost.sh [jar]          default: bootstrap/target/flashsale.jar
#   DURATION=10s WARMUP=5s perf/redis-cost.sh old.jar
#
# Needs wrk, redis-server, redis-cli, curl, java 21+, the machine's MariaDB. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."

JAR=${1:-bootstrap/target/flashsale.jar}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-5s}
JAVA=${JAVA:-$( (ls -d /usr/lib/jvm/*25*/bin/java /usr/lib/jvm/*21*/bin/java 2>/dev/null || true) | head -1)}
JAVA=${JAVA:-java}
TOKEN=cost-token-0123456789abcdef0123456789
# Signed-in buyers (ADR 80): tokens signed before the runs (perf/BuyerTokens.java), the warm-up from the pool's start,
# the measured run from its middle.
TOKENS=${TOKENS:-200000}
WORK=$(mktemp -d /tmp/flashsale-cost.XXXXXX)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
log() { printf '[cost] %s\n' "$*" >&2; }
REDIS_PORT=$(free_port); PORT=$(free_port); MANAGEMENT_PORT=$(free_port); KAFKA_PORT=$(free_port); DB="fs_cost_$$"; SERVICE_PID=""

cleanup() {
  [ -n "$SERVICE_PID" ] && kill "$SERVICE_PID" 2>/dev/null && wait "$SERVICE_PID" 2>/dev/null || true
  redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  mariadb -h 127.0.0.1 -uroot -e "DROP DATABASE IF EXISTS $DB" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

rc() { redis-cli -p "$REDIS_PORT" "$@"; }
api() { # api METHOD PATH [JSON]
  curl -s -o /dev/null -w '%{http_code}' -X "$1" "http://127.0.0.1:$PORT$2" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' ${3:+-d "$3"}
}
units() { rc hmget 'fs:{hot}:stock' unit:reserved unit:sold | awk '{ t += $1 } END { print t + 0 }'; }
settle() { # until nothing is in flight (at most 120 s, or 3 s without progress)
  local left last=-1 still=0 waited=0
  while [ "$waited" -lt 240 ]; do
    left=$(rc hlen 'fs:{hot}:inflight'); [ "$left" = 0 ] && break
    if [ "$left" = "$last" ]; then still=$((still + 1)); [ "$still" -ge 6 ] && break; else still=0; fi
    last=$left; sleep 0.5; waited=$((waited + 1))
  done
  log "settled after $((waited / 2)) s, $left still in flight"
}
buyers() { # buyers DURATION TAG FIRST-TOKEN
  wrk -t2 -c50 -d"$1" -s perf/buyers.lua "http://127.0.0.1:$PORT" -- /api/v1/activities/hot/reservations unit 0 "$2" \
    "" "$WORK" "$3" 2 | grep '^RESULT' >&2 || true
}

redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$WORK" --daemonize yes \
  --logfile "$WORK/redis.log" >/dev/null
for _ in $(seq 1 40); do rc ping >/dev/null 2>&1 && break; sleep 0.25; done
log "signing $TOKENS buyer tokens (perf/BuyerTokens.java)"
"$JAVA" perf/BuyerTokens.java "$WORK" "$TOKENS"
SERVER_PORT=$PORT MANAGEMENT_SERVER_PORT=$MANAGEMENT_PORT SPRING_DATA_REDIS_PORT=$REDIS_PORT FLASHSALE_ADMIN_TOKEN=$TOKEN \
SPRING_DATASOURCE_USERNAME=root SPRING_DATASOURCE_PASSWORD= \
SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_PUBLIC_KEY_LOCATION="file:$WORK/buyer-issuer.pem" \
SPRING_DATASOURCE_URL="jdbc:mysql://127.0.0.1:3306/$DB?createDatabaseIfNotExist=true&useSSL=false&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true" \
  "$JAVA" -jar "$JAR" --flashsale.kafka.embedded.data-dir="$WORK/kafka" --flashsale.kafka.embedded.port="$KAFKA_PORT" \
  --flashsale.embedded.enabled=true --logging.level.root=WARN > "$WORK/service.log" 2>&1 &
SERVICE_PID=$!
for _ in $(seq 1 600); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$MANAGEMENT_PORT/actuator/health/readiness")" = 200 ] \
    && break
  kill -0 "$SERVICE_PID" 2>/dev/null || { tail -20 "$WORK/service.log" >&2; exit 1; }
  sleep 0.5
done
from=$(date -u -d '-1 min' +%Y-%m-%dT%H:%M:%SZ); to=$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)
api POST /api/v1/activities "{\"id\":\"hot\",\"name\":\"cost\",\"startsAt\":\"$from\",\"endsAt\":\"$to\",
  \"perUserLimit\":1,\"paymentTimeoutSeconds\":900,\"items\":[{\"skuId\":\"unit\",\"stock\":100000000}]}" >/dev/null
api POST /api/v1/activities/hot/warm-up >/dev/null

buyers "$WARMUP" "w$RANDOM" 0; settle
before=$(units)
rc config resetstat >/dev/null
# Every top-level command with its µs in the slow log (commands inside a script are not logged on their own), so that
# each script's share of evalsha can be told apart by its first key.
rc config set slowlog-max-len 1000000 >/dev/null; rc config set slowlog-log-slower-than 0 >/dev/null; rc slowlog reset >/dev/null
cpu_before=$(rc info cpu | tr -d '\r' | awk -F: '/^used_cpu_(user|sys):/ { t += $2 } END { printf "%.6f", t }')
buyers "$DURATION" "r$RANDOM" $((TOKENS / 2)); settle
stats=$(rc info commandstats | tr -d '\r')
rc config set slowlog-log-slower-than 10000 >/dev/null
scripts=$(rc --json slowlog get 1000000)
cpu_after=$(rc info cpu | tr -d '\r' | awk -F: '/^used_cpu_(user|sys):/ { t += $2 } END { printf "%.6f", t }')
n=$(( $(units) - before ))
bytes=$(rc --scan --pattern 'fs:{hot}:*' | grep -v ':rl:' | while read -r key; do rc memory usage "$key" samples 0; done |
  awk -v u="$(units)" '{ t += $1 } END { printf "%.0f", t / u }')

echo "reservations: $n, Redis CPU (INFO cpu) per reservation: $(awk -v a="$cpu_before" -v b="$cpu_after" -v n="$n" \
  'BEGIN { printf "%.1f µs", (b - a) * 1e6 / n }'), bytes per settled reservation: $bytes"
echo
echo "| command | calls per reservation | µs per reservation |"
echo "| --- | --- | --- |"
awk -F'[:=,]' -v n="$n" '/^cmdstat_/ { printf "| %s | %.2f | %.2f |\n", substr($1, 9), $3 / n, $5 / n }' <<<"$stats" |
  sort -t'|' -k4 -g -r
echo
echo "| script (by its first key) | calls per reservation | µs per reservation | µs per call |"
echo "| --- | --- | --- | --- |"
python3 -c '
import json, sys, collections
n = int(sys.argv[1]); calls = collections.Counter(); usec = collections.Counter()
for entry in json.loads(sys.stdin.read()):
    args = entry[3]
    if args and args[0].lower() == "evalsha":
        name = {"meta": "reserve.lua", "stock": "settle_batch.lua or another ledger script",
                "outbox": "acknowledge.lua or outbox_backlog.lua"}.get(args[3].split(":")[-1] if len(args) > 3 else "",
                                                                         args[3] if len(args) > 3 else "?")
    else:
        name = "(command; Redis 7.0 logs those run inside scripts too) " + args[0].lower() if args else "?"
    calls[name] += 1; usec[name] += entry[2]
for name, total in usec.most_common():
    print("| %s | %.4f | %.2f | %.1f |" % (name, calls[name] / n, total / n, total / calls[name]))
' "$n" <<<"$scripts"
