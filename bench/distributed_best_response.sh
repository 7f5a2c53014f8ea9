#!/bin/sh
# Real-game best response over MPI ranks against one process (docs/distributed.md): work
# units per second of `hulhe exploit` with 1 process × 2 threads and with 2 ranks × 1 thread,
# in interleaved pairs (a shared machine's load drifts), on the 12-card 4-round hold'em game
# (220 flops, each its own unit) against a short external-sampling solve of it. Prints one
# line per run and the median ratio. Writes only in a temporary folder.
#
#   bench/distributed_best_response.sh [PAIRS] [HULHE] [MPIRUN]
set -eu
pairs=${1:-3}
hulhe=$(realpath "${2:-build/release/cli/hulhe}")
mpirun=${3:-mpirun}
games=$(dirname "$(realpath "$0")")/../configs/games
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/small.toml" <<TOML
game = "$games/holdem.limit.2p.12card.4rounds.game"
abstraction = "lossless"
algorithm = "external"
iterations = 20000
threads = 1
seed = 3
TOML
"$hulhe" solve --config "$dir/small.toml" --checkpoint "$dir/small.ckpt" >/dev/null 2>&1
rate() {  # units per second of one run's JSON report
  python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["units_computed"]/j["seconds"])'
}
ratios=""
i=1
while [ "$i" -le "$pairs" ]; do
  one=$("$hulhe" exploit --checkpoint "$dir/small.ckpt" --threads 2 --json 2>/dev/null | rate)
  two=$("$mpirun" --oversubscribe --allow-run-as-root --bind-to none -np 2 \
        "$hulhe" exploit --checkpoint "$dir/small.ckpt" --threads 1 --json 2>/dev/null | rate)
  ratio=$(python3 -c "print($two/$one)")
  printf 'pair %d: 1 process x 2 threads %.1f units/s, 2 ranks x 1 thread %.1f units/s, ratio %.3f\n' \
    "$i" "$one" "$two" "$ratio"
  ratios="$ratios $ratio"
  i=$((i + 1))
done
python3 -c "import statistics; print('median ratio (2 ranks / 1 process): %.3f' % statistics.median([$(echo $ratios | tr ' ' ',')]))"
