#!/usr/bin/env python3
"""Real-game exploitability against core-hours for HULHE solver configurations.

Reproduces the frontier table of docs/strategy-quality.md. Each row is a shipped pipeline
config (quick or standard) with one solver change (algorithm, schedule option, threads); the
script writes a variant of the config per row, runs `hulhe run` on it for a solve budget with
sampled real-game estimates at fixed intervals, and collects every estimate. All rows of one
abstraction share its bucket map (built once) and the estimates' flops (the same evaluate
seed and count: common random numbers, so rows differ by the solver, not by the flops drawn).

    scripts/strategy_frontier.py --rows quick-es,quick-es-plain --seconds 600 --every 150

writes, under --out (default runs/frontier):
    <row>.toml, <row>.curve.csv, <row>.report.json, <row>.log   one per row
    frontier.md    the table (markdown), one line per estimate
    frontier.csv   the same as CSV
    frontier.svg   every row's curve, exploitability against core-hours (where gnuplot is)

Rows already run (their report exists) are read, not run again, so a table can grow.
Core-hours are threads x solve seconds / 3600 (the estimates' time is not solve time).
"""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Schedule options of the shipped configs ([solve.parameters]); a row lists what it changes.
OFF = {"discount_interval": 0, "discount_until": 0, "average_delay": 0, "prune_after": 0}

# Abstractions: name -> (shipped config, {round: {key: value}} overrides). Rows of one
# abstraction share its bucket map. The variants compare features at the shipped sizes
# (Johanson et al. 2013's KE-KO: k-means under the 1-D EMD of hand-strength histograms on the
# flop and turn, OCHS on the river; and E[HS] percentile buckets on every round) and bucket
# counts at the standard tables' memory. Table size is buckets x decision nodes summed over
# the rounds (HULHE: 70 flop, 630 turn, 5,670 river nodes); k-means samples stay at 30 hands
# a bucket.
KE = {"method": "distribution", "bins": 50}
EHS = {"method": "ehs"}
# Potential-aware flop and turn (Ganzfried & Sandholm 2014), the standard config's until KE
# beat it at its split (docs/strategy-quality.md).
PA = {"method": "potential", "candidates": 4}


def split(flop, turn, river):
    return {"flop": {"buckets": flop, "sample": 30 * flop},
            "turn": {"buckets": turn, "sample": 30 * turn}, "river": {"buckets": river}}


def with_features(rounds, **features):
    out = {r: dict(v) for r, v in rounds.items()}
    for r, f in features.items():
        out.setdefault(r, {}).update(f)
    return out


# The standard config's split until the feature/size rows (docs/strategy-quality.md): 1,000
# buckets on every round, 6.37M information sets; the shipped split, 3,000-3,000-740, has
# 6.30M; the river-heavy one, 200-500-1,060, 6.34M.
STANDARD_1000 = split(1000, 1000, 1000)
ABSTRACTIONS = {
    "quick": ("quick", {}),
    "quick-ke": ("quick", {"flop": KE, "turn": KE}),
    "quick-ehs": ("quick", {"flop": EHS, "turn": EHS, "river": EHS}),
    "quick-pp-ehs": ("quick", {"river": EHS}),
    "standard": ("standard", {}),
    "standard-ke": ("standard", {"flop": KE, "turn": KE}),
    "standard-pa": ("standard", {"flop": PA, "turn": PA}),
    "standard-ehs": ("standard", {"flop": EHS, "turn": EHS, "river": EHS}),
    "standard-1000": ("standard", STANDARD_1000),
    "standard-1000-ke": ("standard", with_features(STANDARD_1000, flop=KE, turn=KE)),
    "standard-1000-ehs": ("standard", with_features(STANDARD_1000, flop=EHS, turn=EHS,
                                                    river=EHS)),
    "standard-river-heavy": ("standard", split(200, 500, 1060)),
    "standard-flop-turn-heavy": ("standard", split(3000, 3000, 740)),
    # The shipped split with medoid centres on the turn (its mean steps are never kept).
    "standard-turn-medoid": ("standard", {"turn": {"centres": "medoid"}}),
}

# name: (abstraction, description, [solve] overrides, [solve.parameters] overrides)
ROWS = {
    "quick-es": ("quick", "external sampling, shipped schedule (linear discounting, average "
                 "delay, pruning)", {}, {}),
    "quick-es-plain": ("quick", "external sampling, no schedule option", {}, dict(OFF)),
    "quick-es-no-discount": ("quick", "shipped schedule without linear discounting", {},
                             {"discount_interval": 0, "discount_until": 0}),
    "quick-es-no-delay": ("quick", "shipped schedule without the average delay", {},
                          {"average_delay": 0}),
    "quick-es-no-prune": ("quick", "shipped schedule without pruning", {}, {"prune_after": 0}),
    "quick-pcs": ("quick", "public chance sampling, shipped schedule", {"algorithm": "pcs"}, {}),
    "quick-cfr-br": ("quick", "CFR-BR, sampled with the hybrid opponent (real-game trunk: "
                     "preflop and flop; best response in the turn-and-river subgames; the "
                     "schedule options do not apply)", {"algorithm": "cfr-br"}, {}),
    "quick-ke-es": ("quick-ke", "KE-KO features (hand-strength histograms, 1-D EMD, on the flop "
                    "and turn; OCHS river), external sampling, shipped schedule", {}, {}),
    "quick-ehs-es": ("quick-ehs", "E[HS] percentile buckets on every round, external sampling, "
                     "shipped schedule", {}, {}),
    "quick-pp-ehs-es": ("quick-pp-ehs", "potential-aware flop and turn, E[HS] river, external "
                        "sampling, shipped schedule", {}, {}),
    "standard-es": ("standard", "external sampling, shipped schedule", {}, {}),
    "standard-es-plain": ("standard", "external sampling, no schedule option", {}, dict(OFF)),
    "standard-pcs": ("standard", "public chance sampling, shipped schedule",
                     {"algorithm": "pcs"}, {}),
    "standard-cfr-br": ("standard", "CFR-BR, sampled with the hybrid opponent (as quick-cfr-br)",
                        {"algorithm": "cfr-br"}, {}),
    "standard-ke-es": ("standard-ke", "KE-KO features, external sampling, shipped schedule", {},
                       {}),
    "standard-pa-es": ("standard-pa", "potential-aware flop and turn (the standard config "
                       "before KE), external sampling, shipped schedule", {}, {}),
    "standard-ehs-es": ("standard-ehs", "E[HS] percentile buckets on every round, external "
                        "sampling, shipped schedule", {}, {}),
    "standard-1000-es": ("standard-1000", "169-1000-1000-1000 (the standard split before the "
                         "feature/size rows), external sampling", {}, {}),
    "standard-1000-ke-es": ("standard-1000-ke", "169-1000-1000-1000, KE-KO features, external "
                            "sampling", {}, {}),
    "standard-1000-ehs-es": ("standard-1000-ehs", "169-1000-1000-1000, E[HS] percentile "
                             "buckets on every round, external sampling", {}, {}),
    "standard-river-heavy-es": ("standard-river-heavy", "169-200-500-1060 (the standard tables' "
                                "memory, buckets moved to the river), external sampling", {}, {}),
    "standard-flop-turn-heavy-es": ("standard-flop-turn-heavy", "169-3000-3000-740 (the "
                                    "standard tables' memory, buckets moved to the flop and "
                                    "turn; the shipped split), external sampling", {}, {}),
    "standard-turn-medoid-es": ("standard-turn-medoid", "the shipped standard abstraction with "
                                "medoid turn centres, external sampling", {}, {}),
}


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v)
    return str(v)


def set_key(text, table, key, value):
    """Sets key = value inside [table] of a TOML text (adds the key if the table lacks it)."""
    lines = text.split("\n")
    start = None
    for i, line in enumerate(lines):
        if line.strip() == "[" + table + "]":
            start = i
            break
    if start is None:
        lines += ["", "[" + table + "]", key + " = " + toml_value(value)]
        return "\n".join(lines)
    end = len(lines)
    for i in range(start + 1, len(lines)):
        if lines[i].strip().startswith("["):
            end = i
            break
    pattern = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
    for i in range(start + 1, end):
        if pattern.match(lines[i]):
            lines[i] = key + " = " + toml_value(value)
            return "\n".join(lines)
    lines.insert(start + 1, key + " = " + toml_value(value))
    return "\n".join(lines)


def set_top(text, key, value):
    pattern = re.compile(r"^" + re.escape(key) + r"\s*=.*$", re.M)
    return pattern.sub(key + " = " + toml_value(value), text, count=1)


def variant(row, args, out):
    abstraction, _, solve, params = ROWS[row]
    base, rounds = ABSTRACTIONS[abstraction]
    src = os.path.join(ROOT, "configs", "hulhe-" + base + ".toml")
    text = open(src).read()
    game = re.search(r'^game\s*=\s*"([^"]+)"', text, re.M).group(1)
    text = set_top(text, "game", os.path.join(ROOT, "configs", game))
    # One map per abstraction, shared by its rows (the description is unchanged).
    text = set_top(text, "output", os.path.join(out, "hulhe-" + abstraction + ".buckets"))
    for round_name, keys in rounds.items():
        for k, v in keys.items():
            text = set_key(text, round_name, k, v)
    text = set_key(text, "solve", "seconds", args.seconds)
    if args.iterations:
        text = set_key(text, "solve", "iterations", args.iterations)
    text = set_key(text, "solve", "threads", args.threads)
    text = set_key(text, "solve", "checkpoint", os.path.join(out, row + ".ckpt"))
    text = set_key(text, "solve", "checkpoint_every_seconds", 0)
    text = set_key(text, "solve", "progress_every_seconds", 30)
    for k, v in solve.items():
        text = set_key(text, "solve", k, v)
    for k, v in params.items():
        text = set_key(text, "solve.parameters", k, v)
    text = set_key(text, "export", "strategy", os.path.join(out, row + ".strategy"))
    text = set_key(text, "evaluate", "flops", args.flops)
    text = set_key(text, "evaluate", "every_seconds", args.every)
    text = set_key(text, "evaluate", "seed", args.seed)
    text = set_key(text, "evaluate", "curve", os.path.join(out, row + ".curve.csv"))
    text = set_key(text, "evaluate", "plot", "")
    text = set_key(text, "evaluate", "report", os.path.join(out, row + ".report.json"))
    path = os.path.join(out, row + ".toml")
    with open(path, "w") as f:
        f.write(text)
    return path


def run_row(row, args, out):
    report = os.path.join(out, row + ".report.json")
    if os.path.exists(report) and not args.again:
        print(f"{row}: already run ({report})", flush=True)
        return
    config = variant(row, args, out)
    # A fresh solve: an old checkpoint of the row would be resumed.
    for suffix in (".ckpt", ".curve.csv"):
        if os.path.exists(os.path.join(out, row + suffix)):
            os.remove(os.path.join(out, row + suffix))
    print(f"{row}: hulhe run --config {config}", flush=True)
    with open(os.path.join(out, row + ".log"), "w") as log:
        status = subprocess.call([args.hulhe, "run", "--config", config], cwd=out, stdout=log,
                                 stderr=subprocess.STDOUT)
    if status != 0:
        sys.exit(f"{row}: hulhe run exited {status}; see {out}/{row}.log")


def map_of(row, out):
    return os.path.join(out, "hulhe-" + ROWS[row][0] + ".buckets")


def paired_file(row, baseline, out):
    return os.path.join(out, row + ".vs-" + baseline + ".json")


def run_paired(row, baseline, args, out):
    """Exploits the row's final strategy and the baseline row's on the same flops (`hulhe
    exploit --baseline`): the difference with its paired 95% interval."""
    path = paired_file(row, baseline, out)
    if os.path.exists(path) and not args.again:
        return
    strategies = [os.path.join(out, r + ".strategy") for r in (row, baseline)]
    if not all(os.path.exists(s) for s in strategies):
        print(f"{row}: no paired estimate (a strategy file is missing)", flush=True)
        return
    cmd = [args.hulhe, "exploit", "--strategy", strategies[0], "--buckets", map_of(row, out),
           "--baseline", strategies[1], "--baseline-buckets", map_of(baseline, out),
           "--flops", str(args.flops), "--seed", str(args.seed), "--threads", str(args.threads),
           "--quiet", "--json"]
    print(f"{row}: paired with {baseline}: {' '.join(cmd)}", flush=True)
    r = subprocess.run(cmd, cwd=out, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{row}: hulhe exploit --baseline exited {r.returncode}: {r.stderr.strip()}")
    with open(path + ".tmp", "w") as f:
        f.write(r.stdout)
    os.replace(path + ".tmp", path)


def collect(rows, args, out):
    table = []
    for row in rows:
        base, description, _, _ = ROWS[row]  # base: the row's abstraction
        curve = os.path.join(out, row + ".curve.csv")
        report = os.path.join(out, row + ".report.json")
        if not os.path.exists(curve) or not os.path.exists(report):
            continue
        with open(report) as f:
            rep = json.load(f)
        threads = rep.get("solve", {}).get("threads", args.threads)
        with open(curve) as f:
            for p in csv.DictReader(f):
                table.append({
                    "row": row, "abstraction": base, "description": description,
                    "threads": threads,
                    "core_hours": threads * float(p["solve_seconds"]) / 3600.0,
                    "iterations": int(p["iterations"]),
                    "mbb": float(p["exploitability_mbb"]), "ci95": float(p["ci95_mbb"]),
                    "exact": p["exact"] == "1"})
    with open(os.path.join(out, "frontier.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["row", "abstraction", "threads", "core_hours", "iterations", "mbb", "ci95",
                    "exact"])
        for t in table:
            w.writerow([t["row"], t["abstraction"], t["threads"], f"{t['core_hours']:.4f}",
                        t["iterations"], f"{t['mbb']:.1f}", f"{t['ci95']:.1f}",
                        int(t["exact"])])
    lines = ["| row | what | core-hours | iterations | real-game mbb/g (95%) |",
             "|---|---|---|---|---|"]
    for t in table:
        value = f"{t['mbb']:.1f} exact" if t["exact"] else f"{t['mbb']:.1f} ± {t['ci95']:.1f}"
        lines.append(f"| {t['row']} | {t['description']} | {t['core_hours']:.3f} | "
                     f"{t['iterations'] / 1e6:.1f}M | {value} |")
    if args.paired_with:
        lines += ["", f"Each row's final strategy against `{args.paired_with}`'s, the same "
                  "flops (`hulhe exploit --baseline`):", "",
                  f"| row | real-game mbb/g | {args.paired_with} | row − {args.paired_with}, "
                  "paired 95% |", "|---|---|---|---|"]
        for row in rows:
            path = paired_file(row, args.paired_with, out)
            if row == args.paired_with or not os.path.exists(path):
                continue
            with open(path) as f:
                j = json.load(f)
            lines.append(f"| {row} | {j['exploitability_mbb']:.1f} ± {j['ci95_mbb']:.1f} | "
                         f"{j['baseline']['exploitability_mbb']:.1f} ± "
                         f"{j['baseline']['ci95_mbb']:.1f} | {j['difference_mbb']:+.1f} ± "
                         f"{j['difference_ci95_mbb']:.1f} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "frontier.md"), "w") as f:
        f.write(text)
    print(text)
    plot(table, out)


def plot(table, out):
    if shutil.which("gnuplot") is None or not table:
        return
    rows = []
    for t in table:
        if t["row"] not in rows:
            rows.append(t["row"])
    script = ["set terminal svg size 900,560 dynamic",
              "set output '" + os.path.join(out, "frontier.svg") + "'",
              "set title 'HULHE: real-game exploitability against core-hours'",
              "set xlabel 'core-hours of solving'", "set ylabel 'mbb/g (95% interval)'",
              "set key outside right", "set grid"]
    plots = []
    for i, row in enumerate(rows):
        script.append(f"$d{i} << EOD")
        for t in table:
            if t["row"] == row:
                script.append(f"{t['core_hours']} {t['mbb']} {t['ci95']}")
        script.append("EOD")
        plots.append(f"$d{i} using 1:2:3 with yerrorlines title '{row}'")
    script.append("plot " + ", ".join(plots))
    subprocess.run(["gnuplot"], input="\n".join(script) + "\n", text=True, check=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hulhe", default=os.path.join(ROOT, "build", "release", "cli", "hulhe"))
    ap.add_argument("--out", default=os.path.join(os.getcwd(), "runs", "frontier"))
    ap.add_argument("--rows", default="quick-es,quick-es-plain",
                    help="comma-separated, of: " + ", ".join(ROWS))
    ap.add_argument("--seconds", type=float, default=600, help="solve budget of each row")
    ap.add_argument("--iterations", type=int, default=0,
                    help="iteration cap of each row's solve (0: the config's); equal budgets "
                    "on a loaded machine")
    ap.add_argument("--every", type=float, default=150, help="seconds of solve between estimates")
    ap.add_argument("--flops", type=int, default=30, help="sampled canonical flops per estimate")
    ap.add_argument("--seed", type=int, default=1, help="seed of the estimates' flops")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--again", action="store_true", help="rerun rows that have a report")
    ap.add_argument("--collect-only", action="store_true", help="only rebuild the table")
    ap.add_argument("--prepare-only", action="store_true",
                    help="only write the rows' configs (e.g. to build their maps first)")
    ap.add_argument("--paired-with", default="",
                    help="a row of --rows: after the solves, every other row's final strategy "
                    "is exploited together with this row's on the same flops, and the table "
                    "gets their differences with paired intervals")
    args = ap.parse_args()
    rows = [r for r in args.rows.split(",") if r]
    unknown = [r for r in rows if r not in ROWS]
    if unknown:
        ap.error("unknown rows: " + ", ".join(unknown))
    if args.paired_with and args.paired_with not in rows:
        ap.error("--paired-with must be one of --rows")
    if not os.access(args.hulhe, os.X_OK):
        ap.error(f"no hulhe binary at {args.hulhe} (build it: make build)")
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    if args.prepare_only:
        for row in rows:
            print(variant(row, args, out))
        return
    if not args.collect_only:
        for row in rows:
            run_row(row, args, out)
        if args.paired_with:
            for row in rows:
                if row != args.paired_with:
                    run_paired(row, args.paired_with, args, out)
    collect(rows, args, out)


if __name__ == "__main__":
    main()
