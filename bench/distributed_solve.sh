#!/bin/sh
# MCCFR over MPI ranks against one process (docs/distributed.md), from a Release build:
# external-sampling iterations per second on HULHE quick-size tables with 1 process × 2
# threads and with 2 ranks × 1 thread, in interleaved pairs (a shared machine's load
# drifts), then the cost of one table sync (seconds, bytes each rank sends) for the quick,
# standard and large table sizes on 2 ranks. Each figure comes with the 1-minute load
# average read just before it. Prints a table, then one JSON object on the last line.
# Writes only in a temporary folder. Needs ~2.5 GiB of memory for the large tables.
#
#   bench/distributed_solve.sh [PAIRS] [SECONDS] [BENCH] [MPIRUN]
#
# PAIRS: 5; SECONDS per run: 5; BENCH: build/release/bench/bench_distributed.
set -eu
pairs=${1:-5}
seconds=${2:-5}
bench=$(realpath "${3:-build/release/bench/bench_distributed}")
mpirun=${4:-mpirun}
# shellcheck source=bench/interleaved_pairs.sh
. "$(dirname "$(realpath "$0")")/interleaved_pairs.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
field() {  # field KEY FILE: the quick size's KEY in bench_distributed's JSON
  python3 -c 'import json,sys; print(json.load(open(sys.argv[2]))["sizes"][0][sys.argv[1]])' "$1" "$2"
}
mpi() { "$mpirun" --oversubscribe --allow-run-as-root --bind-to none -np 2 "$@"; }
one_process() {
  "$bench" --seconds="$seconds" --threads=2 --sizes=quick --json="$dir/one.json" >/dev/null
  field iterations_per_second "$dir/one.json"
}
two_ranks() {
  mpi "$bench" --seconds="$seconds" --threads=1 --sizes=quick --syncs=0 --json="$dir/two.json" >/dev/null
  field iterations_per_second "$dir/two.json"
}
interleaved_pairs "$pairs" '%.0f it/s'
# One sync of each table size, median of 3 (2 ranks, 1 thread each, 1 s of iterations first).
l3=$(load)
mpi "$bench" --seconds=1 --threads=1 --syncs=3 --sizes=quick,standard,large --json="$dir/sync.json" >/dev/null
python3 - "$dir/sync.json" "$l3" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print("sync on 2 ranks (load %s): size, table MiB, seconds (median of 3), MB each rank sends" % sys.argv[2])
for s in j["sizes"]:
    print("  %-8s %8.1f %8.3f %10.1f" % (s["size"], s["table_bytes"] / 2**20, s["sync_seconds"],
                                         s["sync_bytes_per_rank"] / 1e6))
PY
python3 - "$dir/sync.json" "$l3" "[$json_pairs]" "$median" <<'PY'
import json, sys
sync = json.load(open(sys.argv[1]))
print(json.dumps({"iterations_per_second_pairs": json.loads(sys.argv[3]),
                  "median_ratio": float(sys.argv[4]),
                  "sync": {"ranks": sync["ranks"], "load": float(sys.argv[2]),
                           "sizes": sync["sizes"]}}))
PY
