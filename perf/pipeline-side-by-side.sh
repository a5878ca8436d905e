#!/usr/bin/env bash
# The order pipeline's load harness (acceptance-tests' OrderPipelineLoadHarness) against several service jars, one
# scenario after the other in one run, without Maven in the measured window: before/after figures side by side.
#
#   perf/pipeline-side-by-side.sh classpath-file out-dir < plan
#
# classpath-file: the harness's test classpath, made once beforehand (it installs nothing):
#   ./mvnw -B -q -pl acceptance-tests -am test-compile dependency:build-classpath \
#       -Dmdep.includeScope=test -Dmdep.outputFile=$PWD/acceptance-tests/target/harness.classpath
# plan: one scenario a line, "label jar seconds -Dflashsale.load.x=y ...", where seconds is how long the scenario is
# expected to take; with STOP_BY (epoch seconds) a scenario that would end later is skipped, not started.
#   backlog-after  bootstrap/target/flashsale.jar 240 -Dflashsale.load.scenario=backlog -Dflashsale.load.backlog=100000
# Each scenario's output goes to out-dir/label.txt, with the load average before and after it.
set -euo pipefail
cd "$(dirname "$0")/.."

CLASSPATH_FILE=$1
OUT=$2
JAVA=${JAVA:-$( (ls -d /usr/lib/jvm/*25*/bin/java /usr/lib/jvm/*21*/bin/java 2>/dev/null || true) | head -1)}
JAVA=${JAVA:-java}
STOP_BY=${STOP_BY:-0}
HARNESS=$PWD/acceptance-tests
CP="$HARNESS/target/test-classes:$HARNESS/target/classes:$(cat "$CLASSPATH_FILE")"
mkdir -p "$OUT"

while read -r label jar seconds args; do
  [ -z "$label" ] || [ "${label:0:1}" = "#" ] && continue
  now=$(date +%s)
  if [ "$STOP_BY" -gt 0 ] && [ $((now + seconds)) -gt "$STOP_BY" ]; then
    echo "[side-by-side] $label SKIPPED: expected to end at $(date -u -d @$((now + seconds)) +%T), after the stop" \
      | tee "$OUT/$label.txt"
    continue
  fi
  jar=$(realpath "$jar")
  echo "[side-by-side] $label: $jar $args (from $(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg))"
  {
    echo "# $label: $jar $args"
    echo "# start $(date -u +%FT%TZ) load $(cat /proc/loadavg)"
    # shellcheck disable=SC2086
    (cd "$HARNESS" && timeout $((seconds * 2 + 120)) "$JAVA" -Dflashsale.jar="$jar" $args \
      -Dlogback.configurationFile="$HARNESS/target/test-classes/load-harness-logback.xml" \
      -cp "$CP" io.flashsale.load.OrderPipelineLoadHarness) || echo "# harness exit status $?"
    echo "# end $(date -u +%FT%TZ) load $(cat /proc/loadavg)"
  } > "$OUT/$label.txt" 2>&1
  grep -E 'DRAIN RATE|p50 .*p99|orders/s into|client:|EXPIRY LATENESS|SKIPPED|exit status' "$OUT/$label.txt" || true
done
