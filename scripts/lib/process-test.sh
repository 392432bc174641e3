# Shared by the process-level test scripts (scripts/integration-test, scripts/crash-test):
# a work directory, background processes killed on exit, deadlines, and pass/fail lines.
# Source it after setting TEST_NAME; KEEP_WORK=1 keeps the work directory.
SCRIPT_START=$SECONDS
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tandem-$TEST_NAME.XXXXXX")
PASSED=0
FAILED=0
declare -A PIDS=()

cleanup() {
  local name pid
  for name in "${!PIDS[@]}"; do
    pid=${PIDS[$name]}
    kill -CONT "$pid" 2>/dev/null
    kill -KILL "$pid" 2>/dev/null
  done
  wait 2>/dev/null
  if [ "$FAILED" -gt 0 ] || [ "${KEEP_WORK:-0}" = 1 ]; then
    echo "$TEST_NAME: logs and status files kept in $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT

pass() {
  PASSED=$((PASSED + 1))
  printf 'ok    %-62s (%ds)\n' "$1" $((SECONDS - SCRIPT_START))
}

# fail DESCRIPTION [LOG...]: records a failure and shows the tail of the logs given.
fail() {
  FAILED=$((FAILED + 1))
  printf 'FAIL  %s\n' "$1"
  shift
  local log
  for log in "$@"; do
    [ -f "$log" ] && { echo "      --- $(basename "$log")"; tail -n 15 "$log" | sed 's/^/      /'; }
  done
}

# check DESCRIPTION COMMAND...: one step that passes when COMMAND succeeds.
check() {
  local description=$1
  shift
  if "$@" >"$WORK/check.out" 2>&1; then pass "$description"; else fail "$description" "$WORK/check.out"; fi
}

# The steps after the build share one time budget, so that even a run where every wait times
# out ends in under 3 minutes; no single wait may go past it.
BUDGET_END=$((SECONDS + 600))
deadline_in() {
  local deadline=$((SECONDS + $1))
  [ "$deadline" -gt "$BUDGET_END" ] && deadline=$BUDGET_END
  echo "$deadline"
}

# wait_until SECONDS COMMAND...: polls COMMAND every 0.1 s until it succeeds or the deadline.
wait_until() {
  local deadline
  deadline=$(deadline_in "$1")
  shift
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -ge "$deadline" ] && return 1
    sleep 0.1
  done
}

# start NAME COMMAND...: runs COMMAND in the background, stdout to NAME.out, stderr to NAME.log.
start() {
  local name=$1
  shift
  "$@" >"$WORK/$name.out" 2>"$WORK/$name.log" </dev/null &
  PIDS[$name]=$!
}

# stop_process NAME SIGNAL SECONDS: sends SIGNAL, waits for the exit, and sets STOP_STATUS to the
# exit status (or `timeout`, after which the process is killed).
stop_process() {
  local name=$1 signal=$2 seconds=$3 pid=${PIDS[$1]}
  kill "-$signal" "$pid" 2>/dev/null
  local deadline
  deadline=$(deadline_in "$seconds")
  while kill -0 "$pid" 2>/dev/null && [ "$(ps -o stat= -p "$pid" | cut -c1)" != Z ]; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      kill -KILL "$pid" 2>/dev/null
      wait "$pid" 2>/dev/null
      unset "PIDS[$name]"
      STOP_STATUS=timeout
      return
    fi
    sleep 0.05
  done
  wait "$pid"
  STOP_STATUS=$?
  unset "PIDS[$name]"
}

# json FILE EXPRESSION: evaluates a Python expression over the JSON document `d` in FILE.
json() {
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}


source "$(dirname "${BASH_SOURCE[0]}")/curve.sh"
