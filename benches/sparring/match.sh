#!/bin/bash
# One arm of a match against a sparring engine, as the RESULTS sections since 2026-11-27
# measure them: 500 ms per move, 30 s per game, one game at a time, every opening of the
# file with both colours; two arms may run side by side on a 2-core machine.
#
#   benches/sparring/match.sh NAME RULE OPENINGS [more sente-arbiter options, e.g. --info1 sente.mlp=FILE]
#
# Environment: ENG (Sente binary, default target/release/pbrain-sente), OPP (opponent
# command, default ~/sparring/pentazen/pbrain-pentazen; benches/sparring/rapfi-guard.py for
# Rapfi), ARBITER (default target/release/sente-arbiter), TURN (500), MATCH (30000),
# SIZE (15; 20 for freestyle 20x20), GAMES (twice the openings). Writes NAME/ (records,
# games.tsv) and NAME.log (the arbiter's report) in the current folder.
set -euo pipefail
NAME=$1 RULE=$2 OPEN=$3
shift 3
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ENG=${ENG:-$ROOT/target/release/pbrain-sente}
ARBITER=${ARBITER:-$ROOT/target/release/sente-arbiter}
OPP=${OPP:-$HOME/sparring/pentazen/pbrain-pentazen}
N=$(grep -vc '^#' "$OPEN")
exec "$ARBITER" --engine1 "$ENG" --name1 sente --engine2 "$OPP" \
    --rule "$RULE" --size "${SIZE:-15}" --turn-ms "${TURN:-500}" --match-ms "${MATCH:-30000}" \
    --start-ms 10000 --openings "$OPEN" --games "${GAMES:-$((2 * N))}" --concurrency 1 \
    --out-dir "$NAME" "$@" >"$NAME.log" 2>&1
