# shellcheck shell=sh
# Sourced by bench/distributed_solve.sh and bench/distributed_best_response.sh: one process
# against two MPI ranks, measured in interleaved pairs (a shared machine's load drifts).
#
#   interleaved_pairs PAIRS UNIT
#
# The caller defines one_process and two_ranks, each printing the rate of one run. Prints a
# line per pair (rates with the 1-minute load average read just before each run, in UNIT,
# a printf format such as '%.3f units/s') and the median ratio; leaves json_pairs (the pairs
# as JSON objects, comma-separated) and median set.
load() { cut -d' ' -f1 /proc/loadavg; }
interleaved_pairs() {
  json_pairs=""
  ratios=""
  i=1
  while [ "$i" -le "$1" ]; do
    l1=$(load)
    one=$(one_process)
    l2=$(load)
    two=$(two_ranks)
    ratio=$(python3 -c "print($two/$one)")
    printf "pair %d: 1 process x 2 threads $2 (load %s), 2 ranks x 1 thread $2 (load %s), ratio %.3f\n" \
      "$i" "$one" "$l1" "$two" "$l2" "$ratio"
    json_pairs="$json_pairs{\"one_process_2_threads\":$one,\"load_one\":$l1,\"two_ranks_1_thread\":$two,\"load_two\":$l2,\"ratio\":$ratio},"
    ratios="$ratios,$ratio"
    i=$((i + 1))
  done
  json_pairs=${json_pairs%,}
  median=$(python3 -c "import statistics; print(statistics.median([${ratios#,}]))")
  printf 'median ratio (2 ranks / 1 process): %.3f\n' "$median"
}
