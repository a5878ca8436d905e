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
#   perf/harness.sh flashsale.jar 'flashsale.jar#-XX:+UseZGC -Xmx1g'
#                                   JVM options of the jar's service after '#' (space-separated; before '@' and '%'),
#                                   after HARNESS_JVM_OPTS, e.g. two collectors side by side
#   perf/harness.sh flashsale.jar apart:flashsale.jar
#                                   'apart:' runs the order pipeline (relay, order consumer) in a second instance of
#                                   the jar under nice -n ${PIPELINE_NICE:-19}, the buyers' instance without it
#                                   (--flashsale.relay.enabled=false --spring.kafka.listener.auto-startup=false)
#   WARMUP=20s perf/harness.sh      the unreported warm-up runs before the rows (ceiling, reserve, sold-out each)
#   PROFILE=/tmp/profiles perf/harness.sh   also records the reserve run with JFR (<jar>.jfr there); render it with
#                                           java perf/FlameGraph.java /tmp/profiles/flashsale.jar.jfr out.png ""
#   JFR_OPTIONS='settings=profile jdk.ExecutionSample#period=2ms' PROFILE=... perf/harness.sh
#                                           JFR.start options instead of settings=profile (e.g. denser sampling)
#   GROWTH=2000000 perf/harness.sh          instead of the rows: reserve in 10 s slices until the hot sale holds that many
#                                           reservations; prints each slice, the first tenth's rate against the last
#                                           slice's, the slow log over the growth and the bytes per reservation at the end
#   REDIS_NICE=-10 perf/harness.sh          runs each jar's Redis at that nice level (below 0 needs root), so the kernel
#                                           lets it wait for a core less often: on a shared machine a slow-log entry then
#                                           says more about Redis than about the cores it shares with the rest
#   RAW_CEILING=0 perf/harness.sh           skips the reference row: a plain servlet on the first jar's own Tomcat
#                                           (perf/RawServletCeiling.java), the stack's ceiling without the framework
#   SIGN_IN_AHEAD=400000 perf/harness.sh    after the ceiling row, the hot rows' buyers are signed in ahead (each
#                                           next token of the pool shown to the service once) so that the reserve rows
#                                           meet remembered tokens only: at most this many (default: the rest of the pool)
#
# A second table gives the hot store's own figures per jar: Redis's CPU per reservation over its whole life (the
# reserve row's INFO cpu delta until the pipeline settled it, divided by the reservations), the bytes the sale's keys
# hold per reservation once settled (MEMORY USAGE ... SAMPLES 0), the slow log of the reserve row, script calls per
# keyed sold-out answer (a fresh requestId each, as the buyer page sends), and MySQL statements per sale read.
#
# A third table gives what a sale costs the database, per jar: SHOW GLOBAL STATUS deltas (Questions, Com_commit +
# Com_rollback, Com_insert, Com_update, Com_delete, Com_select) over the reserve row and the pipeline's catch-up after it,
# divided by the reservations the row accepted; and the latency of an unrelated client of the same MariaDB
# (perf/DatabaseProbe.java: an indexed single-row SELECT every 10 ms on a table of its own schema) while the reserve row
# runs and, just before it, with no sale running. The probe's own queries are taken out of Questions and Com_select; the
# counters are the server's, so other users of the machine's MariaDB count too: the table gives their rate (statements/s
# while no sale ran, the probe's aside) to judge by.
#
# Each row also gives the CPU time per answer of the service's JVM, its Redis, the machine's MariaDB (shared with
# whatever else uses it) and the whole machine (every process, the other users' included), from /proc; and after
# each row it waits until the order pipeline has placed what the row reserved, so one row's backlog does not run in
# the next one: the row's last column says how many reservations it left to the pipeline and how long they took
# (the CPU columns do not include that catch-up; the order consumer holds batches while buyers queue, ADR 65). The
# Redis commands behind each row's count go to stderr.
#
# Needs wrk, redis-server, redis-cli, curl, java 21+. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-20s}
CONNECTIONS=${CONNECTIONS:-50}
THREADS=${THREADS:-2}
WARMUP=${WARMUP:-20s}
JAVA=${JAVA:-$( (ls -d /usr/lib/jvm/*25*/bin/java /usr/lib/jvm/*21*/bin/java 2>/dev/null || true) | head -1)}
JAVA=${JAVA:-java}
TOKEN=harness-token-0123456789abcdef0123456789
WORK=$(mktemp -d /tmp/flashsale-harness.XXXXXX)
# Buyers sign in (ADR 80): TOKENS tokens of a key pair made for this run, signed before any measurement
# (perf/BuyerTokens.java); the jars verify them with its public key. The reserve runs on the hot sale take fresh
# buyers from the pool in turn (past its end buyers come back, and the per-buyer limit refuses them); the other
# rows walk the pool from its start. A growing sale (GROWTH) needs a buyer per reservation: its pool is twice GROWTH
# (each slice skips the tokens its slower thread did not reach: with the service on one core a growth spent 1.6 tokens
# a reservation), or the sale stops growing where the pool ends (the per-buyer limit refuses returning buyers); its
# warm-up runs on a sale of its own, so it spends none of them.
if [ -n "${GROWTH:-}" ] && [ "$GROWTH" -gt 100000 ]; then
  TOKENS=${TOKENS:-$(( GROWTH * 2 ))}
else
  TOKENS=${TOKENS:-200000}
fi
HOT_NEXT=0
# A growing sale outlives 15 minutes: its reservations must not expire (and give their units back) while it grows.
PAYMENT_TIMEOUT=${GROWTH:+86400}; PAYMENT_TIMEOUT=${PAYMENT_TIMEOUT:-900}
JARS=("$@")
[ ${#JARS[@]} -gt 0 ] || JARS=(bootstrap/target/flashsale.jar)

bearer_of() { # bearer_of N: the Authorization value of the pool's buyer hbN
  printf 'Bearer %s%s' "$(cat "$WORK/buyer-token-header.txt")" "$(sed -n "$(($1 + 1))p" "$WORK/buyer-tokens.txt")"
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
log() { printf '[harness] %s\n' "$*" >&2; }

SERVICE_PID=""; PIPE_PID=""; REDIS_PORT=""; DB=""; RAW_PID=""; CPU_PIDS=""
PROBE_DB=flashsale_probe_$RANDOM$RANDOM
cleanup() {
  [ -n "$RAW_PID" ] && kill "$RAW_PID" 2>/dev/null && wait "$RAW_PID" 2>/dev/null || true
  RAW_PID=""
  [ -n "$SERVICE_PID" ] && kill "$SERVICE_PID" 2>/dev/null && wait "$SERVICE_PID" 2>/dev/null || true
  [ -n "$PIPE_PID" ] && kill "$PIPE_PID" 2>/dev/null && wait "$PIPE_PID" 2>/dev/null || true
  [ -n "$REDIS_PORT" ] && redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  [ -n "$DB" ] && mariadb -h 127.0.0.1 -uroot -e "DROP DATABASE IF EXISTS $DB" 2>/dev/null || true
  SERVICE_PID=""; PIPE_PID=""; REDIS_PORT=""; DB=""
}
trap 'cleanup; mariadb -h 127.0.0.1 -uroot -e "DROP DATABASE IF EXISTS $PROBE_DB" 2>/dev/null; rm -rf "$WORK"' EXIT

commands() { # total calls and evalsha calls since the server started
  redis-cli -p "$REDIS_PORT" info commandstats | tr -d '\r' | awk -F'[:=,]' '
    /^cmdstat_/ { total += $3; if ($1 == "cmdstat_evalsha" || $1 == "cmdstat_eval") scripts += $3 }
    END { print total + 0, scripts + 0 }'
}

per_command() { # "command calls" per line since the server started (commands inside scripts included)
  redis-cli -p "$REDIS_PORT" info commandstats | tr -d '\r' | awk -F'[:=,]' '/^cmdstat_/ { print substr($1, 9), $3 }'
}

TICK=$(getconf CLK_TCK)
ticks_of() { # CPU ticks (user + system) the given processes have used, all their threads; 0 for none
  local pid total=0
  for pid in "$@"; do
    [ -r "/proc/$pid/stat" ] && total=$((total + $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat")))
  done
  echo "$total"
}
machine_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; } # busy, every process
cpu_snapshot() { # service, its Redis, the machine's MariaDB (shared with whoever else uses it), the whole machine
  # shellcheck disable=SC2086 # the buyers' instance (or the raw servlet), then the pipeline's instance (or none)
  echo "$(ticks_of $CPU_PIDS) $(ticks_of $PIPE_PID) $(ticks_of "$(redis-cli -p "$REDIS_PORT" info server | tr -d '\r' |
    awk -F: '/^process_id:/ { print $2 }')") $(ticks_of "$(pgrep -o -x mariadbd || pgrep -o -x mysqld || true)")" \
    "$(machine_ticks)"
}

settle() { # waits until the order pipeline has settled what earlier rows reserved (or stopped moving), at most 120 s
  local left last=-1 still=0 waited=0
  while [ "$waited" -lt 240 ]; do
    left=$(redis-cli -p "$REDIS_PORT" hlen 'fs:{hot}:inflight' 2>/dev/null || echo 0)
    [ "$left" = 0 ] && break
    if [ "$left" = "$last" ]; then still=$((still + 1)); [ "$still" -ge 6 ] && break; else still=0; fi
    last=$left; sleep 0.5; waited=$((waited + 1))
  done
  [ "$waited" -gt 0 ] && log "waited $((waited / 2)) s for the pipeline to settle ($left reservations still in flight)"
  SETTLED_IN="$((waited / 2)).$((waited % 2 * 5)) s"
  return 0
}

api() { # api METHOD PATH [JSON]
  curl -s -o /dev/null -w '%{http_code}' -X "$1" "http://127.0.0.1:$PORT$2" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' ${3:+-d "$3"}
}

sale() { # sale ID STOCK: create and warm up a sale open for the next hour
  local from to
  from=$(date -u -d '-1 min' +%Y-%m-%dT%H:%M:%SZ); to=$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)
  api POST /api/v1/activities "{\"id\":\"$1\",\"name\":\"harness\",\"startsAt\":\"$from\",\"endsAt\":\"$to\",
    \"perUserLimit\":1,\"paymentTimeoutSeconds\":$PAYMENT_TIMEOUT,\"items\":[{\"skuId\":\"unit\",\"stock\":$2}]}" >/dev/null
  api POST "/api/v1/activities/$1/warm-up" >/dev/null
}

run() { # run LABEL PATH [DELAY_MS [CONNECTIONS [keyed]]]: one wrk run; prints a table row (WRK_SCRIPT: another script)
  local before after cpu_before cpu_after stats_before out
  before=$(commands); stats_before=$(per_command); cpu_before=$(cpu_snapshot)
  local first=0 hot=""; [ "${2#*/activities/hot/}" != "$2" ] && hot=1 && first=$HOT_NEXT
  out=$(wrk -t"$THREADS" -c"${4:-$CONNECTIONS}" -d"$DURATION" -s "${WRK_SCRIPT:-perf/buyers.lua}" "http://127.0.0.1:$PORT" \
    -- "$2" unit "${3:-0}" "r$RANDOM$RANDOM" "${5:-}" "$WORK" "$first" "$THREADS" 2>&1 | grep '^RESULT' || true)
  LAST_REQUESTS=$(grep -o 'requests=[0-9]*' <<<"$out" | cut -d= -f2 || true)
  if [ -n "$hot" ]; then # past every token a thread of this run took (buyers.lua: furthest x threads)
    local furthest; furthest=$(grep -o 'furthest=[0-9]*' <<<"$out" | cut -d= -f2 || true)
    HOT_NEXT=$((HOT_NEXT + ${furthest:-${LAST_REQUESTS:-0}} * THREADS))
    [ "$HOT_NEXT" -gt "$TOKENS" ] && log "the hot sale has had $HOT_NEXT attempts from a pool of $TOKENS buyers:" \
      "buyers came back (TOKENS=... for more)"
  fi
  cpu_after=$(cpu_snapshot); after=$(commands)
  if [ -z "$out" ]; then # wrk got no answer at all (the service died or hung): say so, do not stop the run
    echo "| $JAR_LABEL | $1 | no answer | | | | | | |"; return
  fi
  local requests; requests=$(grep -o 'requests=[0-9]*' <<<"$out" | cut -d= -f2)
  # The commands that make up the count, per answer, largest first (stderr: a look behind the table's figure).
  log "$JAR_LABEL, $1, Redis commands per answer: $(join -a2 -e0 -o 0,1.2,2.2 \
    <(sort <<<"$stats_before") <(per_command | sort) | awk -v n="$requests" '
      { d = $3 - $2; if (d > 0) printf "%s %.2f\n", $1, d / n }' | sort -k2 -nr | head -8 | tr '\n' ' ');" \
    "not yet settled by the order pipeline: $(redis-cli -p "$REDIS_PORT" hlen 'fs:{hot}:inflight' 2>/dev/null)"
  # What the row left to the order pipeline, and how long it took to place it (ADR 65 holds orders while buyers
  # queue): the row's rate is the buyers' answers, the orders may come after it.
  local left; left=$(redis-cli -p "$REDIS_PORT" hlen 'fs:{hot}:inflight' 2>/dev/null || echo 0)
  settle
  echo "$out" | awk -v label="$1" -v jar="$JAR_LABEL" -v b="$before" -v a="$after" -v cb="$cpu_before" \
      -v ca="$cpu_after" -v tick="$TICK" -v left="$left" -v settled="$SETTLED_IN" '{
    for (i = 2; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] }
    split(b, B, " "); split(a, A, " "); split(cb, CB, " "); split(ca, CA, " ")
    rate = r["requests"] / (r["duration_us"] / 1e6)
    for (i = 1; i <= 5; i++) cpu[i] = (CA[i] - CB[i]) * 1e6 / tick / r["requests"]
    apart = cpu[2] > 0 ? sprintf(" (+%.0f pipeline)", cpu[2]) : ""
    printf "| %s | %s | %.0f/s | %.1f ms | %.1f ms | %d | %.2f (%.2f scripts) | %.0f%s / %.0f / %.0f / %.0f | %d (%s) |\n",
      jar, label, rate, r["p50_us"] / 1000, r["p99_us"] / 1000, r["non2xx"] + r["socket_errors"],
      (A[1] - B[1]) / r["requests"], (A[2] - B[2]) / r["requests"], cpu[1], apart, cpu[3], cpu[4], cpu[5], left,
      settled }'
  echo "$out" >> "$WORK/raw.txt"
}

rate_of() { grep -o '| [0-9]*/s' <<<"$1" | tr -dc 0-9; }

# The hot rows' buyers signed in ahead: the ceiling endpoint verifies each of the next $1 tokens of the hot sale's pool
# once, so the reserve and half-rate rows meet remembered tokens only, as a buyer's every attempt after the first does,
# and two jars' rows measure the same path (before, a row met the tokens its jar's ceiling rows had not reached: a
# share that differed by jar and by run, 2026-12-07). One wrk thread, so that it leaves no token out between threads;
# each 10 s run starts where the last one's requests ended, less the ones that may have been in flight.
sign_in_ahead() { # sign_in_ahead N
  local covered=0 out furthest started=$SECONDS
  while [ "$covered" -lt "$1" ]; do
    out=$(wrk -t1 -c"$CONNECTIONS" -d10s -s perf/buyers.lua "http://127.0.0.1:$PORT" -- /harness/ceiling/reservations \
      unit 0 "s$RANDOM" "" "$WORK" "$((HOT_NEXT + covered))" 1 2>&1 | grep '^RESULT' || true)
    furthest=$(grep -o 'furthest=[0-9]*' <<<"$out" | cut -d= -f2 || true)
    if [ "${furthest:-0}" -le "$CONNECTIONS" ]; then log "signing in ahead: no answers ($out)"; return; fi
    covered=$((covered + furthest - CONNECTIONS))
  done
  log "signed in $covered buyers ahead of the hot rows in $((SECONDS - started)) s"
}

# The hot store's own figures (the second table): Redis's CPU over a reservation's whole life, the bytes a settled
# reservation leaves in Redis, the slow log, and what a sale read costs the database.
redis_cpu() { redis-cli -p "$REDIS_PORT" info cpu | tr -d '\r' | awk -F: '/^used_cpu_(user|sys):/ { t += $2 } END { printf "%.6f", t }'; }
sale_units() { # units reserved or sold at the hot sale: one per accepted reservation, as every attempt asks for one
  redis-cli -p "$REDIS_PORT" hmget 'fs:{hot}:stock' unit:reserved unit:sold | awk '{ t += $1 } END { print t + 0 }'
}
sale_bytes() { # MEMORY USAGE of the hot sale's keys, the buyers' short-lived rate-limit buckets (fs:{hot}:rl:*) aside
  redis-cli -p "$REDIS_PORT" --scan --pattern 'fs:{hot}:*' | grep -v ':rl:' | while read -r key; do
    redis-cli -p "$REDIS_PORT" memory usage "$key" samples 0; done | awk '{ t += $1 } END { print t + 0 }'
}
slowlog_start() { # every command of 1 ms or more from now on
  redis-cli -p "$REDIS_PORT" config set slowlog-log-slower-than 1000 >/dev/null
  redis-cli -p "$REDIS_PORT" config set slowlog-max-len 100000 >/dev/null
  redis-cli -p "$REDIS_PORT" slowlog reset >/dev/null
  : > "$WORK/slowlog.jsonl"; SLOW_SEEN=0
}
slowlog_collect() { # appends the entries logged since the last collect to $WORK/slowlog.jsonl
  # Only the new entries are read (SLOWLOG GET of the whole log stalled Redis 155 ms at 18,000 entries); an entry
  # logged between LEN and GET shifts the list by one, so a margin is read and entries already kept are skipped by id.
  local len; len=$(redis-cli -p "$REDIS_PORT" slowlog len)
  redis-cli -p "$REDIS_PORT" --json slowlog get $((len - SLOW_SEEN + 16)) | python3 -c '
import json, sys
path = sys.argv[1]
seen = set()
with open(path) as kept:
    for line in kept:
        seen.add(json.loads(line)[0])
with open(path, "a") as kept:
    for entry in reversed(json.load(sys.stdin)):
        if entry[0] not in seen:
            kept.write(json.dumps(entry) + "\n")' "$WORK/slowlog.jsonl"
  SLOW_SEEN=$len
}
slowlog_summary() { # the slowest command since slowlog_start and how many took over 5 ms
  slowlog_collect
  python3 -c '
import json, sys
# The SLOWLOG commands of the harness itself are not work of the sale.
entries = [e for e in map(json.loads, open(sys.argv[1])) if str(e[3][0]).lower() != "slowlog"]
if not entries:
    print("none over 1 ms")
else:
    slowest = max(entries, key=lambda e: e[2])
    print("%.1f ms (%s), %d over 5 ms" % (slowest[2] / 1000, " ".join(slowest[3][:2])[:24],
                                           sum(1 for e in entries if e[2] > 5000)))' "$WORK/slowlog.jsonl"
}
db_statements() { # statements the machine's MariaDB has run since it started, every client's (the harness is alone)
  mariadb -h 127.0.0.1 -uroot -N -e "SHOW GLOBAL STATUS LIKE 'Questions'" | awk '{ print $2 }'
}

db_status() { # "name=value ..." of the server's counters behind the third table, every client's
  mariadb -h 127.0.0.1 -uroot -N -e "SHOW GLOBAL STATUS WHERE Variable_name IN
    ('Questions', 'Com_commit', 'Com_rollback', 'Com_insert', 'Com_update', 'Com_delete', 'Com_select')" |
    awk '{ printf "%s=%s ", $1, $2 }'
}
probe_seconds() { # the probe's measured time: the row's duration less 5 s for its JVM's start and warm-up
  local secs=${DURATION%s}; secs=${secs//[^0-9]/}; echo $(( ${secs:-20} > 10 ? ${secs:-20} - 5 : 5 ))
}
probe() { # probe SECONDS: the unrelated client's latency line (perf/DatabaseProbe.java)
  "$JAVA" -cp "$(ls "$WORK"/driver/BOOT-INF/lib/mysql-connector-j-*.jar)" perf/DatabaseProbe.java \
    "jdbc:mysql://127.0.0.1:3306/$PROBE_DB?useSSL=false&allowPublicKeyRetrieval=true" "$1" 2>&1 | grep '^PROBE' || true
}

growth() { # GROWTH=N: reserve in 10 s slices until the hot sale holds N reservations; the rate of the first and the
  local slice rates="" units=0 n=0       # last tenth of the sale, the slow log over the whole growth, the bytes at the end
  slowlog_start
  while [ "$units" -lt "$GROWTH" ]; do
    # Not in $(...): run advances HOT_NEXT, and a subshell would lose it (every slice would send the same buyers).
    n=$((n + 1)); DURATION=10s run "growth slice $n" /api/v1/activities/hot/reservations > "$WORK/row.txt"
    slice=$(cat "$WORK/row.txt")
    local before=$units
    units=$(sale_units); rates="$rates$units $(rate_of "$slice")"$'\n'
    log "growth slice $n: $units reservations, $(rate_of "$slice")/s, slow log: $(slowlog_summary)"
    if [ "$units" -le "$before" ]; then log "the sale stopped growing at $units reservations"; break; fi
  done
  # Each line of $rates: the reservations after a slice and the slice's rate. First tenth: the slices that ended
  # within it (at least the first); last tenth: the slices that began in it (at least the last).
  awk -v g="$GROWTH" -v jar="$JAR_LABEL" -v slow="$(slowlog_summary)" \
      -v bytes="$(awk -v b="$(sale_bytes)" -v u="$units" 'BEGIN { printf "%.0f", b / u }')" '
    NF == 2 { n++; end[n] = $1; rate[n] = $2 }
    END {
      for (i = 1; i <= n; i++) if (i == 1 || end[i] <= g / 10) { f += rate[i]; fn++ }
      for (i = 1; i <= n; i++) if (i == n || (i > 1 && end[i - 1] >= g * 0.9)) { l += rate[i]; ln++ }
      printf "| %s | growth to %d in %d slices | first tenth %.0f/s | last tenth %.0f/s (%+.0f%%) | slow log %s | %s bytes per reservation |\n",
        jar, g, n, f / fn, l / ln, (l / ln - f / fn) * 100 / (f / fn), slow, bytes }' <<<"$rates"
}

start_service() { # start_service PORT PREFIX ARGS...: one instance of $JAR on the run's Redis, database and broker;
  local port=$1 prefix=$2; shift 2     # its pid in STARTED_PID once its readiness probe answers 200
  local management; management=$(free_port)  # the actuator's own port (jars before it answer on $port)
  # shellcheck disable=SC2086 # the prefix (nice) and the JVM options are words
  SERVER_PORT=$port MANAGEMENT_SERVER_PORT=$management SPRING_DATA_REDIS_PORT=$REDIS_PORT FLASHSALE_ADMIN_TOKEN=$TOKEN \
  SPRING_DATASOURCE_USERNAME=root SPRING_DATASOURCE_PASSWORD= \
  SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_PUBLIC_KEY_LOCATION="file:$WORK/buyer-issuer.pem" \
  FLASHSALE_SECURITY_TOKEN_CACHE_SIZE=$TOKENS \
  SPRING_DATASOURCE_URL="jdbc:mysql://127.0.0.1:3306/$DB?createDatabaseIfNotExist=true&useSSL=false&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true" \
    $prefix "$JAVA" ${HARNESS_JVM_OPTS:-} ${JAR_JVM_OPTS:-} -jar "$JAR" --flashsale.kafka.embedded.data-dir="$WORK/kafka-$port" \
    --flashsale.harness.ceiling-endpoint=true --logging.level.root=WARN --flashsale.embedded.enabled=true "$@" \
    > "$WORK/service-$port.log" 2>&1 &
  STARTED_PID=$!
  for _ in $(seq 1 $((2 * ${START_TIMEOUT:-300}))); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$management/actuator/health/readiness")" = 200 ] && return 0
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/actuator/health")" = 200 ] && return 0
    kill -0 "$STARTED_PID" 2>/dev/null || { log "$JAR did not start:"; tail -20 "$WORK/service-$port.log" >&2; exit 1; }
    sleep 0.5
  done
  log "$JAR was not ready within ${START_TIMEOUT:-300} s (machine load: $(uptime))"
  tail -20 "$WORK/service-$port.log" >&2; exit 1
}

log "signing $TOKENS buyer tokens (perf/BuyerTokens.java)"
FIRST_JAR=${JARS[0]#apart:}; FIRST_JAR=${FIRST_JAR%%[#@%]*}
unzip -o -q -d "$WORK/driver" "$FIRST_JAR" 'BOOT-INF/lib/mysql-connector-j-*.jar'
mariadb -h 127.0.0.1 -uroot -e "CREATE DATABASE $PROBE_DB"
"$JAVA" -cp "$(ls "$WORK"/driver/BOOT-INF/lib/mysql-connector-j-*.jar)" perf/DatabaseProbe.java \
  "jdbc:mysql://127.0.0.1:3306/$PROBE_DB?useSSL=false&allowPublicKeyRetrieval=true" create
"$JAVA" perf/BuyerTokens.java "$WORK" "$TOKENS"
echo "load before: $(uptime)"
echo
echo "| jar | path | rate | p50 | p99 | non-2xx/errors | Redis commands per answer | CPU µs per answer: service / Redis / MariaDB / machine | left to the order pipeline (placed within) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for SPEC in "${JARS[@]}"; do
  APART=""; [ "${SPEC#apart:}" != "$SPEC" ] && APART=1 && SPEC=${SPEC#apart:}
  REDIS_FLAGS=""; [ "${SPEC#*%}" != "$SPEC" ] && REDIS_FLAGS=${SPEC#*%} && SPEC=${SPEC%%\%*}
  JAR=${SPEC%%@*}; EXTRA=""; [ "$SPEC" != "$JAR" ] && EXTRA=${SPEC#*@}
  JAR_JVM_OPTS=""; [ "${JAR#*#}" != "$JAR" ] && JAR_JVM_OPTS=${JAR#*#} && JAR=${JAR%%#*}
  JAR_LABEL=$(basename "$JAR")${JAR_JVM_OPTS:+ jvm: $JAR_JVM_OPTS}${EXTRA:+ $EXTRA}${REDIS_FLAGS:+ redis: $REDIS_FLAGS}
  JAR_LABEL=$JAR_LABEL${APART:+ (pipeline apart)}
  JAR_LABEL=$JAR_LABEL${REDIS_NICE:+ (redis at nice $REDIS_NICE)}
  # Each jar has a Redis of its own, so its hot rows take the pool from its start again: the same buyers, whose tokens
  # its own ceiling row verified first, as every other jar of the run.
  HOT_NEXT=0
  REDIS_PORT=$(free_port); PORT=$(free_port); KAFKA_PORT=$(free_port)
  DB=flashsale_harness_$RANDOM$RANDOM
  mkdir -p "$WORK/redis-$REDIS_PORT"
  # shellcheck disable=SC2086 # the flags are words for redis-server, the prefix (nice) words too
  ${REDIS_NICE:+nice -n $REDIS_NICE} redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no \
    --dir "$WORK/redis-$REDIS_PORT" $REDIS_FLAGS --daemonize yes --logfile "$WORK/redis-$REDIS_PORT.log" >/dev/null
  for _ in $(seq 1 40); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.25; done
  log "redis on $REDIS_PORT: appendonly $(redis-cli -p "$REDIS_PORT" config get appendonly | tail -1)," \
    "appendfsync $(redis-cli -p "$REDIS_PORT" config get appendfsync | tail -1)"
  # shellcheck disable=SC2086 # EXTRA is words for the service
  if [ -n "$APART" ]; then
    start_service "$PORT" "" --flashsale.kafka.embedded.port="$KAFKA_PORT" --flashsale.relay.enabled=false \
      --spring.kafka.listener.auto-startup=false $EXTRA
    SERVICE_PID=$STARTED_PID
    PIPE_PORT=$(free_port)
    start_service "$PIPE_PORT" "nice -n ${PIPELINE_NICE:-19}" --spring.kafka.bootstrap-servers="127.0.0.1:$KAFKA_PORT" $EXTRA
    PIPE_PID=$STARTED_PID
  else
    start_service "$PORT" "" --flashsale.kafka.embedded.port="$KAFKA_PORT" $EXTRA
    SERVICE_PID=$STARTED_PID
  fi
  CPU_PIDS=$SERVICE_PID
  sale "hot" 100000000
  [ -n "${GROWTH:-}" ] && sale "warm" 100000000
  sale "gone" 1
  curl -s -o /dev/null -X POST "http://127.0.0.1:$PORT/api/v1/activities/gone/reservations" -H 'X-User-Id: first' \
    -H "Authorization: $(bearer_of 0)" \
    -H 'Content-Type: application/json' -d '{"items":[{"skuId":"unit","quantity":1}]}'
  CEILING=""
  [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$PORT/harness/ceiling/reservations" \
      -H 'X-User-Id: probe' -H "Authorization: $(bearer_of 1)" -H 'Content-Type: application/json' -d '{"items":[{"skuId":"unit","quantity":1}]}')" = 202 ] \
    && CEILING=1
  # Warm-up runs for the JIT, not reported: a 5 s one left the first rows measuring the compiler (18:22 UTC,
  # 2026-12-01: the ceiling's first 20 s ran at 3,935/s, the next 15 s at 13,227/s).
  [ -n "$CEILING" ] && DURATION=$WARMUP run warm-up /harness/ceiling/reservations >/dev/null
  # A growing sale warms up on a sale of its own: the hot sale then holds only the growth's reservations, and the
  # growth's buyer pool is not spent before it starts (run walks the pool from its start on any other sale).
  DURATION=$WARMUP run warm-up "/api/v1/activities/${GROWTH:+warm}${GROWTH:-hot}/reservations" >/dev/null
  DURATION=$WARMUP run warm-up /api/v1/activities/gone/reservations >/dev/null
  if [ -n "$CEILING" ]; then
    settle; run ceiling /harness/ceiling/reservations
  else
    echo "| $JAR_LABEL | ceiling | (no ceiling endpoint in this jar) | | | | | | |"
  fi
  # The rest of the pool, or SIGN_IN_AHEAD tokens: no earlier row tells how many the reserve row will take (the
  # warm-up's rate is the verifications', 2026-12-08). Nothing to verify with buyers by the gateway's header.
  if [ -z "${GROWTH:-}" ] && [ -n "$CEILING" ] && [ "${EXTRA#*buyer-auth=trusted-header}" = "$EXTRA" ]; then
    ahead=$((TOKENS - HOT_NEXT)); [ -n "${SIGN_IN_AHEAD:-}" ] && [ "$SIGN_IN_AHEAD" -lt "$ahead" ] && ahead=$SIGN_IN_AHEAD
    settle; sign_in_ahead "$ahead"
  fi
  JCMD=$(dirname "$JAVA")/jcmd
  [ -n "${PROFILE:-}" ] && mkdir -p "$PROFILE" && "$JCMD" "$SERVICE_PID" JFR.start name=reserve ${JFR_OPTIONS:-settings=profile} \
    filename="$PROFILE/${JAR_LABEL//[^A-Za-z0-9._-]/_}.jfr" >/dev/null
  if [ -n "${GROWTH:-}" ]; then growth; cleanup; continue; fi
  # The database's other users, with no sale running: the probe alone, and the statements other clients ran meanwhile.
  settle; calm_before=$(db_status); calm_started=$(date +%s.%N)
  calm_probe=$(probe "$(probe_seconds)")
  calm_after=$(db_status); calm_seconds=$(awk -v a="$calm_started" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  settle; slowlog_start; life_cpu=$(redis_cpu); life_units=$(sale_units); db_before=$(db_status)
  probe "$(probe_seconds)" > "$WORK/probe-sale.txt" & PROBE_PID=$!
  # Not in $(...), which would lose HOT_NEXT: the half-load row would send the reserve row's buyers again.
  run reserve /api/v1/activities/hot/reservations > "$WORK/row.txt"   # run waits for the pipeline to settle
  row=$(cat "$WORK/row.txt"); echo "$row"
  wait "$PROBE_PID" || true
  echo "$JAR_LABEL|$db_before|$(db_status)|$(sale_units)|$life_units|$(cat "$WORK/probe-sale.txt")|$calm_before|$calm_after|$calm_seconds|$calm_probe" \
    >> "$WORK/database.txt"
  life_cpu=$(awk -v a="$life_cpu" -v b="$(redis_cpu)" -v u="$life_units" -v v="$(sale_units)" \
    'BEGIN { printf "%.1f", (v > u ? (b - a) * 1e6 / (v - u) : 0) }')
  slow=$(slowlog_summary)
  [ -n "${PROFILE:-}" ] && "$JCMD" "$SERVICE_PID" JFR.stop name=reserve >/dev/null
  settle; run sold-out /api/v1/activities/gone/reservations
  settle; before_keyed=$(commands)
  run "sold-out, keyed" /api/v1/activities/gone/reservations 0 "$CONNECTIONS" keyed
  # Script calls and all commands per answer: a call may carry a batch of attempts (ADR 68), the commands do not hide it.
  keyed_scripts=$(awk -v a="$before_keyed" -v b="$(commands)" -v n="$LAST_REQUESTS" \
    'BEGIN { split(a, A, " "); split(b, B, " "); if (n > 0) printf "%.3f (%.2f commands)", (B[2] - A[2]) / n, (B[1] - A[1]) / n }')
  settle; before_statements=$(db_statements)
  WRK_SCRIPT=perf/reads.lua run "sale read" /api/v1/activities/hot
  read_statements=$(awk -v a="$before_statements" -v b="$(db_statements)" -v n="$LAST_REQUESTS" \
    'BEGIN { printf "%.3f", (n > 0 ? (b - a) / n : 0) }')
  bytes=$(awk -v b="$(sale_bytes)" -v u="$(sale_units)" 'BEGIN { printf "%.0f", (u > 0 ? b / u : 0) }')
  echo "| $JAR_LABEL | $life_cpu | $bytes | $slow | $keyed_scripts | $read_statements |" >> "$WORK/hot-store.txt"
  half=$(( $(rate_of "$row") / 2 ))
  # Fewer connections, each pausing between requests: roughly half the saturation rate (the row shows what it got).
  pace_connections=16
  pause=$(( half > 0 ? pace_connections * 1000 / half - 1 : 0 )); [ "$pause" -ge 0 ] || pause=0
  settle; run "reserve at ~1/2 ($half/s asked)" /api/v1/activities/hot/reservations "$pause" "$pace_connections"
  cleanup
done
if [ "${RAW_CEILING:-1}" = 1 ]; then
  JAR_LABEL="raw servlet (reference)"; PORT=$(free_port)
  unzip -o -q -d "$WORK/raw" "${JARS[0]%%@*}" 'BOOT-INF/lib/tomcat-embed-core-*.jar'
  "$JAVA" -cp "$(ls "$WORK"/raw/BOOT-INF/lib/tomcat-embed-core-*.jar)" perf/RawServletCeiling.java "$PORT" \
    > "$WORK/raw-$PORT.log" 2>&1 &
  RAW_PID=$!; CPU_PIDS=$RAW_PID
  for _ in $(seq 1 240); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/")" = 200 ] && break
    kill -0 "$RAW_PID" 2>/dev/null || { log "the raw servlet did not start:"; tail -20 "$WORK/raw-$PORT.log" >&2; exit 1; }
    sleep 0.5
  done
  REDIS_PORT=$(free_port)   # a Redis of its own only so that the row's command count reads 0
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
    --logfile "$WORK/redis-$REDIS_PORT.log" >/dev/null
  for _ in $(seq 1 40); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.25; done
  DURATION=$WARMUP run warm-up /harness/ceiling/reservations >/dev/null
  run ceiling /harness/ceiling/reservations
  cleanup
fi
echo
echo "| jar | Redis CPU µs per reservation over its life (reserve row until settled) | bytes per reservation left in Redis once settled | slow log in the reserve row (>= 1 ms) | scripts per keyed sold-out answer | MySQL statements per sale read |"
echo "| --- | --- | --- | --- | --- | --- |"
cat "$WORK/hot-store.txt" 2>/dev/null || true
echo
echo "| jar | MySQL statements per accepted reservation (reserve row until settled) | transactions (commit + rollback) | inserts / updates / deletes / selects | other clients' statements/s, no sale | unrelated SELECT p50 / p99 / max, no sale | unrelated SELECT p50 / p99 / max, during the reserve row |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
[ -f "$WORK/database.txt" ] && awk -F'|' '
  function parse(text, into,   parts, i, kv) { delete into; split(text, parts, " ")
    for (i in parts) { split(parts[i], kv, "="); into[kv[1]] = kv[2] } }
  function lat(text,   p) { parse(text, p); return p["queries"] == "" ? "no answer" :
    sprintf("%.2f / %.2f / %.2f ms", p["p50_us"] / 1000, p["p99_us"] / 1000, p["max_us"] / 1000) }
  {
    parse($2, B); parse($3, A); parse($6, P); parse($7, CB); parse($8, CA)
    n = $4 - $5; if (n <= 0) n = 1
    calm_probe_q = 0; split($10, cp, /queries=/); if (cp[2] != "") calm_probe_q = cp[2] + 0
    printf "| %s | %.3f | %.3f | %.3f / %.3f / %.3f / %.3f | %.0f | %s | %s |\n", $1,
      (A["Questions"] - B["Questions"] - P["queries"]) / n, (A["Com_commit"] - B["Com_commit"] + A["Com_rollback"] - B["Com_rollback"]) / n,
      (A["Com_insert"] - B["Com_insert"]) / n, (A["Com_update"] - B["Com_update"]) / n,
      (A["Com_delete"] - B["Com_delete"]) / n, (A["Com_select"] - B["Com_select"] - P["queries"]) / n,
      ($9 > 0 ? (CA["Questions"] - CB["Questions"] - calm_probe_q) / $9 : 0), lat($10), lat($6)
  }' "$WORK/database.txt"
echo
echo "load after: $(uptime)"
