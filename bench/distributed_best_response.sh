#!/bin/sh
# Real-game best response over MPI ranks against one process (docs/distributed.md): work
# units per second of `hulhe exploit` with 1 process × 2 threads and with 2 ranks × 1 thread,
# in interleaved pairs (a shared machine's load drifts). Units per second come from the JSON
# report (units computed / seconds of the run, MPI start-up excluded). Prints one line per
# run and the median ratio. Writes only in a temporary folder.
#
#   bench/distributed_best_response.sh [PAIRS] [WORKLOAD] [HULHE] [MPIRUN]
#
# WORKLOAD: hulhe (default: HULHE against always-call, 12 sampled flops: units of ~1–3 s)
# or small (the 12-card 4-round game, exact, against a short external-sampling solve of it:
# 220 units of ~30 ms).
set -eu
pairs=${1:-5}
workload=${2:-hulhe}
hulhe=$(realpath "${3:-build/release/cli/hulhe}")
mpirun=${4:-mpirun}
here=$(dirname "$(realpath "$0")")
# shellcheck source=bench/interleaved_pairs.sh
. "$here/interleaved_pairs.sh"
games=$here/../configs/games
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ "$workload" = small ]; then
  cat > "$dir/small.toml" <<TOML
game = "$games/holdem.limit.2p.12card.4rounds.game"
abstraction = "lossless"
algorithm = "external"
iterations = 20000
threads = 1
seed = 3
TOML
  "$hulhe" solve --config "$dir/small.toml" --checkpoint "$dir/small.ckpt" >/dev/null 2>&1
  what="--checkpoint $dir/small.ckpt"
else
  what="--game $games/holdem.limit.2p.reverse_blinds.game --policy always-call --flops 12"
fi
rate() {  # units per second of one run's JSON report
  python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["units_computed"]/j["seconds"])'
}
# shellcheck disable=SC2086
one_process() { "$hulhe" exploit $what --threads 2 --json 2>/dev/null | rate; }
# shellcheck disable=SC2086
two_ranks() {
  "$mpirun" --oversubscribe --allow-run-as-root --bind-to none -np 2 \
    "$hulhe" exploit $what --threads 1 --json 2>/dev/null | rate
}
interleaved_pairs "$pairs" '%.3f units/s'
printf '{"workload":"%s","units_per_second_pairs":[%s],"median_ratio":%s}\n' \
  "$workload" "$json_pairs" "$median"
