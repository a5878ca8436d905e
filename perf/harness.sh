#!/usr/bin/env bash
# The load harness: starts each given service jar in turn on its own Redis (so INFO commandstats counts only
# this service), the machine's MariaDB (a database it creates and drops) and the jar's in-process broker, then
# measures with wrk: the stack's ceiling (a fixed 202 after reading the same headers and body, when the jar has
# the endpoint), reserve with stock left, the sold-out answer, and reserve at about half of its saturation rate.
#
#   perf/harness.sh [jar ...]       default: bootstrap/target/flashsale.jar
#   DURATION=20s CONNECTIONS=50 THREADS=2 perf/harness.sh old.jar new.jar
#   perf/harness.sh flashsale.jar 'flashsale.jar@--flashsale.rate-limit.buyer.enabled=false'
#                                   the same jar with service arguments after '@' (space-separated), side by side
#   perf/harness.sh 'flashsale.jar%--appendonly yes --appendfsync always' 'flashsale.jar@--x=y%--appendonly yes'
#                                   flags for the jar's own redis-server after '%' (last; default no persistence,
#                                   --save "" --appendonly no; later flags win), e.g. the durability modes side by side
#   PROFILE=/tmp/profiles perf/harness.sh   also records the reserve run with JFR (<jar>.jfr there); render it with
#                                           java perf/FlameGraph.java /tmp/profiles/flashsale.jar.jfr out.png ""
#   RAW_CEILING=0 perf/harness.sh           skips the reference row: a plain servlet on the first jar's own Tomcat
#                                           (perf/RawServletCeiling.java), the stack's ceiling without the framework
#
# Needs wrk, redis-server, redis-cli, curl, java 21+. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-20s}
CONNECTIONS=${CONNECTIONS:-50}
THREADS=${THREADS:-2}
JAVA=${JAVA:-$( (ls -d /usr/lib/jvm/*25*/bin/java /usr/lib/jvm/*21*/bin/java 2>/dev/null || true) | head -1)}
JAVA=${JAVA:-java}
TOKEN=harness-token
WORK=$(mktemp -d /tmp/flashsale-harness.XXXXXX)
JARS=("$@")
[ ${#JARS[@]} -gt 0 ] || JARS=(bootstrap/target/flashsale.jar)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
log() { printf '[harness] %s\n' "$*" >&2; }

SERVICE_PID=""; REDIS_PORT=""; DB=""; RAW_PID=""
cleanup() {
  [ -n "$RAW_PID" ] && kill "$RAW_PID" 2>/dev/null && wait "$RAW_PID" 2>/dev/null || true
  RAW_PID=""
  [ -n "$SERVICE_PID" ] && kill "$SERVICE_PID" 2>/dev/null && wait "$SERVICE_PID" 2>/dev/null || true
  [ -n "$REDIS_PORT" ] && redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  [ -n "$DB" ] && mariadb -h 127.0.0.1 -uroot -e "DROP DATABASE IF EXISTS $DB" 2>/dev/null || true
  SERVICE_PID=""; REDIS_PORT=""; DB=""
}
trap 'cleanup; rm -rf "$WORK"' EXIT

commands() { # total calls and evalsha calls since the server started
  redis-cli -p "$REDIS_PORT" info commandstats | tr -d '\r' | awk -F'[:=,]' '
    /^cmdstat_/ { total += $3; if ($1 == "cmdstat_evalsha" || $1 == "cmdstat_eval") scripts += $3 }
    END { print total + 0, scripts + 0 }'
}

api() { # api METHOD PATH [JSON]
  curl -s -o /dev/null -w '%{http_code}' -X "$1" "http://127.0.0.1:$PORT$2" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' ${3:+-d "$3"}
}

sale() { # sale ID STOCK: create and warm up a sale open for the next hour
  local from to
  from=$(date -u -d '-1 min' +%Y-%m-%dT%H:%M:%SZ); to=$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)
  api POST /api/v1/activities "{\"id\":\"$1\",\"name\":\"harness\",\"startsAt\":\"$from\",\"endsAt\":\"$to\",
    \"perUserLimit\":1,\"paymentTimeoutSeconds\":900,\"items\":[{\"skuId\":\"unit\",\"stock\":$2}]}" >/dev/null
  api POST "/api/v1/activities/$1/warm-up" >/dev/null
}

run() { # run LABEL PATH [DELAY_MS [CONNECTIONS]]: one wrk run; prints a table row
  local before after out
  before=$(commands)
  out=$(wrk -t"$THREADS" -c"${4:-$CONNECTIONS}" -d"$DURATION" -s perf/buyers.lua "http://127.0.0.1:$PORT" \
    -- "$2" unit "${3:-0}" "r$RANDOM$RANDOM" 2>&1 | grep '^RESULT' || true)
  after=$(commands)
  if [ -z "$out" ]; then # wrk got no answer at all (the service died or hung): say so, do not stop the run
    echo "| $JAR_LABEL | $1 | no answer | | | | |"; return
  fi
  echo "$out" | awk -v label="$1" -v jar="$JAR_LABEL" -v b="$before" -v a="$after" '{
    for (i = 2; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] }
    split(b, B, " "); split(a, A, " ")
    rate = r["requests"] / (r["duration_us"] / 1e6)
    printf "| %s | %s | %.0f/s | %.1f ms | %.1f ms | %d | %.2f (%.2f scripts) |\n", jar, label, rate,
      r["p50_us"] / 1000, r["p99_us"] / 1000, r["non2xx"] + r["socket_errors"],
      (A[1] - B[1]) / r["requests"], (A[2] - B[2]) / r["requests"] }'
  echo "$out" >> "$WORK/raw.txt"
}

rate_of() { grep -o '| [0-9]*/s' <<<"$1" | tr -dc 0-9; }

echo "load before: $(uptime)"
echo
echo "| jar | path | rate | p50 | p99 | non-2xx/errors | Redis commands per answer |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for SPEC in "${JARS[@]}"; do
  REDIS_FLAGS=""; [ "${SPEC#*%}" != "$SPEC" ] && REDIS_FLAGS=${SPEC#*%} && SPEC=${SPEC%%\%*}
  JAR=${SPEC%%@*}; EXTRA=""; [ "$SPEC" != "$JAR" ] && EXTRA=${SPEC#*@}
  JAR_LABEL=$(basename "$JAR")${EXTRA:+ $EXTRA}${REDIS_FLAGS:+ redis: $REDIS_FLAGS}
  REDIS_PORT=$(free_port); PORT=$(free_port)
  DB=flashsale_harness_$RANDOM$RANDOM
  mkdir -p "$WORK/redis-$REDIS_PORT"
  # shellcheck disable=SC2086 # the flags are words for redis-server
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$WORK/redis-$REDIS_PORT" \
    $REDIS_FLAGS --daemonize yes --logfile "$WORK/redis-$REDIS_PORT.log" >/dev/null
  for _ in $(seq 1 40); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.25; done
  log "redis on $REDIS_PORT: appendonly $(redis-cli -p "$REDIS_PORT" config get appendonly | tail -1)," \
    "appendfsync $(redis-cli -p "$REDIS_PORT" config get appendfsync | tail -1)"
  SERVER_PORT=$PORT SPRING_DATA_REDIS_PORT=$REDIS_PORT FLASHSALE_ADMIN_TOKEN=$TOKEN \
  SPRING_DATASOURCE_URL="jdbc:mysql://127.0.0.1:3306/$DB?createDatabaseIfNotExist=true&useSSL=false&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true" \
    "$JAVA" ${HARNESS_JVM_OPTS:-} -jar "$JAR" --flashsale.kafka.embedded.port=0 \
    --flashsale.kafka.embedded.data-dir="$WORK/kafka-$PORT" --flashsale.harness.ceiling-endpoint=true \
    --logging.level.root=WARN $EXTRA > "$WORK/service-$PORT.log" 2>&1 &
  SERVICE_PID=$!
  for _ in $(seq 1 240); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/actuator/health")" = 200 ] && break
    kill -0 "$SERVICE_PID" 2>/dev/null || { log "$JAR did not start:"; tail -20 "$WORK/service-$PORT.log" >&2; exit 1; }
    sleep 0.5
  done
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/actuator/health")" = 200 ] \
    || { log "$JAR did not answer on /actuator/health within 120 s (machine load: $(uptime))"; exit 1; }
  sale "hot" 100000000
  sale "gone" 1
  curl -s -o /dev/null -X POST "http://127.0.0.1:$PORT/api/v1/activities/gone/reservations" -H 'X-User-Id: first' \
    -H 'Content-Type: application/json' -d '{"items":[{"skuId":"unit","quantity":1}]}'
  # A short warm-up run for the JIT, not reported.
  DURATION=5s run warm-up /api/v1/activities/hot/reservations >/dev/null
  if [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$PORT/harness/ceiling/reservations" \
      -H 'X-User-Id: probe' -H 'Content-Type: application/json' -d '{"items":[{"skuId":"unit","quantity":1}]}')" = 202 ]; then
    run ceiling /harness/ceiling/reservations
  else
    echo "| $JAR_LABEL | ceiling | (no ceiling endpoint in this jar) | | | | |"
  fi
  JCMD=$(dirname "$JAVA")/jcmd
  [ -n "${PROFILE:-}" ] && mkdir -p "$PROFILE" && "$JCMD" "$SERVICE_PID" JFR.start name=reserve settings=profile \
    filename="$PROFILE/${JAR_LABEL//[^A-Za-z0-9._-]/_}.jfr" >/dev/null
  row=$(run reserve /api/v1/activities/hot/reservations); echo "$row"
  [ -n "${PROFILE:-}" ] && "$JCMD" "$SERVICE_PID" JFR.stop name=reserve >/dev/null
  run sold-out /api/v1/activities/gone/reservations
  half=$(( $(rate_of "$row") / 2 ))
  # Fewer connections, each pausing between requests: roughly half the saturation rate (the row shows what it got).
  pace_connections=16
  pause=$(( half > 0 ? pace_connections * 1000 / half - 1 : 0 )); [ "$pause" -ge 0 ] || pause=0
  run "reserve at ~1/2 ($half/s asked)" /api/v1/activities/hot/reservations "$pause" "$pace_connections"
  cleanup
done
if [ "${RAW_CEILING:-1}" = 1 ]; then
  JAR_LABEL="raw servlet (reference)"; PORT=$(free_port)
  unzip -o -q -d "$WORK/raw" "${JARS[0]%%@*}" 'BOOT-INF/lib/tomcat-embed-core-*.jar'
  "$JAVA" -cp "$(ls "$WORK"/raw/BOOT-INF/lib/tomcat-embed-core-*.jar)" perf/RawServletCeiling.java "$PORT" \
    > "$WORK/raw-$PORT.log" 2>&1 &
  RAW_PID=$!
  for _ in $(seq 1 240); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/")" = 200 ] && break
    kill -0 "$RAW_PID" 2>/dev/null || { log "the raw servlet did not start:"; tail -20 "$WORK/raw-$PORT.log" >&2; exit 1; }
    sleep 0.5
  done
  REDIS_PORT=$(free_port)   # a Redis of its own only so that the row's command count reads 0
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
    --logfile "$WORK/redis-$REDIS_PORT.log" >/dev/null
  for _ in $(seq 1 40); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.25; done
  DURATION=5s run warm-up /harness/ceiling/reservations >/dev/null
  run ceiling /harness/ceiling/reservations
  cleanup
fi
echo
echo "load after: $(uptime)"
