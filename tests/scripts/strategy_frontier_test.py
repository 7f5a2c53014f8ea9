#!/usr/bin/env python3
"""Tests of scripts/strategy_frontier.py: the configs it writes per row (--prepare-only) and
the table it collects from finished rows (--collect-only), without running a solve.

Usage: strategy_frontier_test.py HULHE_BINARY (any executable: the script only checks it is)
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import tomllib
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "strategy_frontier.py")
HULHE = None


def frontier(*args):
    return subprocess.run([sys.executable, SCRIPT, "--hulhe", HULHE, *args],
                          capture_output=True, text=True)


class PrepareOnly(unittest.TestCase):
    def test_rows_get_their_overrides_and_share_maps_by_abstraction(self):
        with tempfile.TemporaryDirectory() as out:
            rows = ["quick-es", "quick-es-plain", "quick-pcs", "quick-ke-es", "quick-ehs-es"]
            r = frontier("--rows", ",".join(rows), "--out", out, "--prepare-only",
                         "--seconds", "120", "--every", "60", "--flops", "7", "--threads", "3",
                         "--iterations", "5000000")
            self.assertEqual(r.returncode, 0, r.stderr)
            cfg = {}
            for row in rows:
                with open(os.path.join(out, row + ".toml"), "rb") as f:
                    cfg[row] = tomllib.load(f)
            for row, c in cfg.items():
                self.assertTrue(os.path.isabs(c["game"]) and os.path.exists(c["game"]), row)
                self.assertEqual(c["solve"]["seconds"], 120)
                self.assertEqual(c["solve"]["threads"], 3)
                self.assertEqual(c["solve"]["iterations"], 5000000)
                self.assertEqual(c["solve"]["checkpoint"], os.path.join(out, row + ".ckpt"))
                self.assertEqual(c["export"]["strategy"], os.path.join(out, row + ".strategy"))
                self.assertEqual(c["evaluate"]["flops"], 7)
                self.assertEqual(c["evaluate"]["every_seconds"], 60)
                self.assertEqual(c["evaluate"]["plot"], "")
                self.assertEqual(c["evaluate"]["curve"], os.path.join(out, row + ".curve.csv"))
            # Schedule and algorithm overrides.
            self.assertEqual(cfg["quick-es"]["solve"]["algorithm"], "external")
            self.assertEqual(cfg["quick-pcs"]["solve"]["algorithm"], "pcs")
            self.assertGreater(cfg["quick-es"]["solve"]["parameters"]["prune_after"], 0)
            for k in ("discount_interval", "discount_until", "average_delay", "prune_after"):
                self.assertEqual(cfg["quick-es-plain"]["solve"]["parameters"][k], 0, k)
            # One map per abstraction: the solver rows share the shipped one, each feature
            # variant has its own with its rounds changed and the others kept.
            maps = {row: c["output"] for row, c in cfg.items()}
            self.assertEqual(maps["quick-es"], os.path.join(out, "hulhe-quick.buckets"))
            self.assertEqual(maps["quick-es-plain"], maps["quick-es"])
            self.assertEqual(maps["quick-pcs"], maps["quick-es"])
            self.assertEqual(maps["quick-ke-es"], os.path.join(out, "hulhe-quick-ke.buckets"))
            self.assertEqual(maps["quick-ehs-es"], os.path.join(out, "hulhe-quick-ehs.buckets"))
            ke, base = cfg["quick-ke-es"], cfg["quick-es"]
            for rnd in ("flop", "turn"):
                self.assertEqual(base[rnd]["method"], "potential")
                self.assertEqual(ke[rnd]["method"], "distribution")
                self.assertEqual(ke[rnd]["bins"], 50)
                self.assertEqual(ke[rnd]["buckets"], base[rnd]["buckets"])
            self.assertEqual(ke["river"], base["river"])
            self.assertEqual(ke["preflop"], base["preflop"])
            for rnd in ("flop", "turn", "river"):
                self.assertEqual(cfg["quick-ehs-es"][rnd]["method"], "ehs")

    def test_unknown_row_is_a_usage_error(self):
        with tempfile.TemporaryDirectory() as out:
            r = frontier("--rows", "quick-es,no-such-row", "--out", out, "--prepare-only")
            self.assertEqual(r.returncode, 2)
            self.assertIn("no-such-row", r.stderr)
            self.assertEqual(os.listdir(out), [])


class CollectOnly(unittest.TestCase):
    def test_table_from_curves_and_reports(self):
        with tempfile.TemporaryDirectory() as out:
            curves = {
                "quick-es": [(900, 30000000, 391.44, 31.96, 0), (1800, 61000000, 386.25, 28.9, 0)],
                "quick-pcs": [(3600, 1000000, 3480.0, 0.0, 1)],
            }
            threads = {"quick-es": 2, "quick-pcs": 4}
            for row, points in curves.items():
                with open(os.path.join(out, row + ".curve.csv"), "w") as f:
                    f.write("solve_seconds,iterations,exploitability_mbb,ci95_mbb,exact\n")
                    for p in points:
                        f.write(",".join(str(x) for x in p) + "\n")
                with open(os.path.join(out, row + ".report.json"), "w") as f:
                    json.dump({"solve": {"threads": threads[row]}}, f)
            # A row without a report (not run) is left out.
            r = frontier("--rows", "quick-es,quick-pcs,quick-es-plain", "--out", out,
                         "--collect-only")
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(out, "frontier.csv")) as f:
                rows = list(csv.DictReader(f))
            self.assertEqual([x["row"] for x in rows], ["quick-es", "quick-es", "quick-pcs"])
            self.assertEqual(rows[0]["core_hours"], "0.5000")  # 2 threads x 900 s
            self.assertEqual(rows[1]["core_hours"], "1.0000")
            self.assertEqual(rows[2]["core_hours"], "4.0000")  # 4 threads x 3600 s
            self.assertEqual(rows[1]["iterations"], "61000000")
            self.assertEqual(rows[0]["mbb"], "391.4")
            self.assertEqual(rows[2]["exact"], "1")
            with open(os.path.join(out, "frontier.md")) as f:
                md = f.read().splitlines()
            self.assertEqual(len(md), 2 + 3)
            self.assertIn("| 0.500 | 30.0M | 391.4 ± 32.0 |", md[2])
            self.assertIn("| 1.000 | 61.0M | 386.2 ± 28.9 |", md[3])
            self.assertIn("| 4.000 | 1.0M | 3480.0 exact |", md[4])


class PairedWith(unittest.TestCase):
    def test_rows_are_exploited_against_the_baseline_row_on_the_same_flops(self):
        with tempfile.TemporaryDirectory() as out:
            # Two finished rows (reports, curves, strategies) and a stand-in hulhe that
            # records its arguments and prints what `exploit --baseline --json` prints.
            for row in ("quick-es", "quick-ke-es"):
                with open(os.path.join(out, row + ".curve.csv"), "w") as f:
                    f.write("solve_seconds,iterations,exploitability_mbb,ci95_mbb,exact\n"
                            "600,37200000,391.0,32.9,0\n")
                with open(os.path.join(out, row + ".report.json"), "w") as f:
                    json.dump({"solve": {"threads": 2}}, f)
                open(os.path.join(out, row + ".strategy"), "w").close()
            args_file = os.path.join(out, "args.txt")
            fake = os.path.join(out, "fake-hulhe")
            answer = {"exploitability_mbb": 380.25, "ci95_mbb": 30.5,
                      "baseline": {"exploitability_mbb": 391.0, "ci95_mbb": 32.0},
                      "difference_mbb": -10.75, "difference_ci95_mbb": 6.25}
            with open(fake, "w") as f:
                f.write("#!/bin/sh\necho \"$@\" >> " + args_file + "\necho '" +
                        json.dumps(answer) + "'\n")
            os.chmod(fake, 0o755)
            r = subprocess.run([sys.executable, SCRIPT, "--hulhe", fake, "--rows",
                                "quick-es,quick-ke-es", "--paired-with", "quick-es", "--out",
                                out, "--flops", "12", "--seed", "3"],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(args_file) as f:
                calls = f.read().splitlines()
            self.assertEqual(len(calls), 1)  # the baseline row is not paired with itself
            call = calls[0].split()
            self.assertEqual(call[0], "exploit")
            expect = {"--strategy": os.path.join(out, "quick-ke-es.strategy"),
                      "--buckets": os.path.join(out, "hulhe-quick-ke.buckets"),
                      "--baseline": os.path.join(out, "quick-es.strategy"),
                      "--baseline-buckets": os.path.join(out, "hulhe-quick.buckets"),
                      "--flops": "12", "--seed": "3"}
            for k, v in expect.items():
                self.assertEqual(call[call.index(k) + 1], v, k)
            with open(os.path.join(out, "frontier.md")) as f:
                md = f.read()
            self.assertIn("| quick-ke-es | 380.2 ± 30.5 | 391.0 ± 32.0 | -10.8 ± 6.2 |", md)
            # Done once: a second run reads the stored result instead of exploiting again.
            r = subprocess.run([sys.executable, SCRIPT, "--hulhe", fake, "--rows",
                                "quick-es,quick-ke-es", "--paired-with", "quick-es", "--out",
                                out], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(args_file) as f:
                self.assertEqual(len(f.read().splitlines()), 1)

    def test_the_baseline_must_be_a_row(self):
        with tempfile.TemporaryDirectory() as out:
            r = frontier("--rows", "quick-es", "--paired-with", "quick-ke-es", "--out", out)
            self.assertEqual(r.returncode, 2)
            self.assertIn("--paired-with", r.stderr)


if __name__ == "__main__":
    HULHE = sys.argv.pop(1)
    unittest.main()
