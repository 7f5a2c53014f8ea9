#!/usr/bin/env bash
# Runs every libFuzzer harness of build/asan (the clang sanitizer build; HULHE_FUZZ_BUILD:
# another build folder; NAME: only the harnesses whose name contains it) for SECONDS each
# (default 20) on a copy of its seed corpus (fuzz/corpus/<name>/, never modified), under
# ASan + UBSan, with libFuzzer's seed FUZZ_SEED (default 1, so a run can be repeated; 0 lets
# libFuzzer pick one). Prints executions per harness; exits 1 if any harness had a finding
# (crash, sanitizer report, uncaught exception, leak, timeout, out-of-memory) or none was
# built, leaving reproducers in build/asan/findings/<name>/. The harnesses' temporary folders
# live inside the run's own folder (TMPDIR), removed at the end. `make test` runs it with
# FUZZ_SECONDS (default 10).
#   cmake --preset asan && cmake --build --preset asan && fuzz/run_all.sh 20 [NAME]
# ASan's operator new reports an allocation it cannot satisfy instead of throwing
# std::bad_alloc, so a file that announces a huge table is a finding here even where the
# release build turns the bad_alloc into an InputError.
set -euo pipefail
seconds=${1:-20}
only=${2:-}  # optional: run only the harnesses whose name contains this
root=$(cd "$(dirname "$0")/.." && pwd)
build_root=$(cd "${HULHE_FUZZ_BUILD:-$root/build/asan}" && pwd)  # HULHE_FUZZ_BUILD: another build folder
build=$build_root/fuzz
seed=${FUZZ_SEED:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/hulhe_fuzz_run.XXXXXX")
trap 'rm -rf "$work"' EXIT
findings="$build_root/findings"
status=0
ran=0
printf '%-28s %12s %10s %8s\n' harness executions exec/s result
for harness in "$build"/fuzz_*; do
  [ -x "$harness" ] || continue
  name=$(basename "$harness")
  [[ -z "$only" || "$name" == *"$only"* ]] || continue
  corpus="$work/$name"
  mkdir -p "$corpus" "$findings/$name"
  if [ -d "$root/fuzz/corpus/$name" ]; then cp -r "$root/fuzz/corpus/$name/." "$corpus/"; fi
  log="$work/$name.log"
  ran=$((ran + 1))
  if (cd "$work" && TMPDIR="$work" ASAN_OPTIONS=allocator_may_return_null=1 "$harness" "$corpus" -seed="$seed" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$findings/$name/" >"$log" 2>&1); then
    result=ok
  else
    result=FINDING
    status=1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  runs=${runs:-0}
  rate=$(( runs / (seconds > 0 ? seconds : 1) ))
  printf '%-28s %12s %10s %8s\n' "$name" "$runs" "$rate" "$result"
  if [ "$result" = FINDING ]; then
    grep -E 'ERROR|SUMMARY|terminate|what\(\)' "$log" | head -5 || true
    ls "$findings/$name" | head -3
  fi
done
if [ "$ran" = 0 ]; then echo "no harness found in $build (build the asan preset with clang first)"; exit 1; fi
exit $status
