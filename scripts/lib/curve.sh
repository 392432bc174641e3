# Sourced by scripts/lib/process-test.sh. With TANDEM_CURVE=1, `curve_setup TANDEM` (after the
# build) makes a key pair and a key store in the work directory and exports the environment
# variables every process reads, so that the test's leaders run with CURVE keys and its
# followers, workers and `tandem` commands connect with them: TANDEM_KEY (the key pair: the
# leader's own, and the clients', all one admin key), TANDEM_KEYS (the leader's key store) and
# TANDEM_LEADER_KEY (the pinned leader key). Without it, nothing changes (plain mode).
curve_setup() {
  [ "${TANDEM_CURVE:-0}" = 1 ] || return 0
  local tandem=$1
  "$tandem" keygen --name tandem-test --out "$WORK/keys" >"$WORK/keys.log" 2>&1 || return 1
  "$tandem" keys add --store "$WORK/keys/store" --role admin "$WORK/keys/tandem-test.key" \
    >>"$WORK/keys.log" 2>&1 || return 1
  export TANDEM_KEY="$WORK/keys/tandem-test.secret"
  export TANDEM_LEADER_KEY="$WORK/keys/tandem-test.key"
  export TANDEM_KEYS="$WORK/keys/store"
  echo "$TEST_NAME: CURVE on (keys in $WORK/keys)"
}
