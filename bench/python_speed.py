#!/usr/bin/env python3
"""Speed of the Python module (docs/benchmarks.md#python-module): NumPy batch evaluation
against the C++ evaluator's rate per hand, and a strategy query from Python.

Usage (Debian's python3, after `make build`):
  PYTHONPATH=build/release/python /usr/bin/python3 bench/python_speed.py \
      [--strategy runs/hulhe-quick.strategy] [--cpp build/release/bench/bench_hand_evaluator]

--cpp runs the C++ benchmark of the same task (RandomSevenCards: 10M random 7-card hands, 7
adds and a rank each) in the same session, so the two rates come from the same machine state.
"""
import argparse
import re
import statistics
import subprocess
import time

import numpy as np

import hulhe


def random_hands(n, seed=1):
    rng = np.random.default_rng(seed)
    out = np.empty((n, 7), dtype=np.uint8)
    for start in range(0, n, 500_000):
        k = min(500_000, n - start)
        out[start:start + k] = np.argpartition(rng.random((k, 52), dtype=np.float32), 7,
                                               axis=1)[:, :7]
    return out


# CPU time, as Google Benchmark's items_per_second: on a shared machine wall time measures the
# other jobs (evaluate_batch runs on the calling thread, so process time is its time).
clock = time.process_time


def batch_rate(hands, repeats):
    times = []
    for _ in range(repeats):
        t = clock()
        hulhe.evaluate_batch(hands)
        times.append(clock() - t)
    return len(hands) / statistics.median(times)


def cpp_rate(binary):
    out = subprocess.run([binary, "--benchmark_filter=RandomSevenCards", "--benchmark_repetitions=5",
                          "--benchmark_report_aggregates_only=true"], capture_output=True,
                         text=True, check=True).stdout
    m = re.search(r"RandomSevenCards_median.*items_per_second=([\d.]+)([kMG]?)/s", out)
    scale = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[m.group(2)]
    return float(m.group(1)) * scale


def query_micros(strategy, spots, repeats=20000):
    """Mean µs of strategy.probabilities(match_state) over `spots` in turn."""
    best = float("inf")
    for _ in range(5):
        t = clock()
        for i in range(repeats):
            strategy.probabilities(spots[i % len(spots)])
        best = min(best, (clock() - t) / repeats * 1e6)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--strategy", help="a HULHE strategy file (e.g. runs/hulhe-quick.strategy)")
    ap.add_argument("--cpp", help="build/release/bench/bench_hand_evaluator, for the C++ rate")
    ap.add_argument("--hands", type=int, default=10_000_000)
    args = ap.parse_args()

    hands = random_hands(args.hands)
    hulhe.evaluate_batch(hands[:1000])  # the evaluator's tables, built once
    rate = batch_rate(hands, 7)
    print(f"evaluate_batch: {args.hands} random 7-card hands: {rate / 1e6:.0f} M hands/s "
          f"({1e9 / rate:.2f} ns a hand, CPU time, median of 7)")
    if args.cpp:
        c = cpp_rate(args.cpp)
        print(f"C++ RandomSevenCards (median of 5): {c / 1e6:.0f} M hands/s; "
              f"C++ / Python = {c / rate:.2f}")
    t = clock()
    for i in range(100_000):
        hulhe.evaluate([0, 5, 10, 15, 20, 25, 30])
    single = (clock() - t) / 100_000 * 1e6
    print(f"evaluate(list of 7 ids) one hand at a time: {single:.2f} µs a call")

    if args.strategy:
        s = hulhe.Strategy(args.strategy)
        spots = []
        rng = np.random.default_rng(2)
        for _ in range(64):
            cards = hulhe.cards_str([int(c) for c in rng.permutation(52)[:7]])
            hole, board = cards[:4], cards[4:]
            spots += [f"MATCHSTATE:1:0::|{hole}", f"MATCHSTATE:0:0:r:{hole}|",
                      f"MATCHSTATE:0:0:rc/:{hole}|/{board[:6]}",
                      f"MATCHSTATE:0:0:rc/cc/:{hole}|/{board[:6]}/{board[6:8]}",
                      f"MATCHSTATE:0:0:rc/cc/cc/:{hole}|/{board[:6]}/{board[6:8]}/{board[8:10]}"]
        by_round = {r: query_micros(s, spots[r::5], 5000) for r in range(4)}
        river = query_micros(s, spots[4::5], 5000)
        print(f"strategy.probabilities(match state) on {s.name}, CPU time: preflop {by_round[0]:.1f} µs "
              f"(first and facing a raise: {by_round[1]:.1f}), flop {by_round[2]:.1f}, "
              f"turn {by_round[3]:.1f}, river {river:.1f} µs a query (best of 5)")
        st = [hulhe.State(x) for x in spots]
        t = clock()
        for i in range(20000):
            s.probabilities(st[i % len(st)])
        print(f"strategy.probabilities(State), all rounds mixed: "
              f"{(clock() - t) / 20000 * 1e6:.1f} µs a query")


if __name__ == "__main__":
    main()
