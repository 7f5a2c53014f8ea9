"""Solving Kuhn and Leduc with every algorithm, exact best response of strategies and Python
policies, and the real-game best response on sampled flops: against `hulhe solve` and
`hulhe exploit` on the same games and files."""
import re

import pytest

import hulhe
from conftest import GAMES, SOURCE_DIR

KUHN = GAMES / "kuhn.game"
LEDUC = GAMES / "leduc.game"


def cli_solve(cli, config, algorithm, iterations):
    out = cli.run("solve", "--config", config, "--algorithm", algorithm, "--iterations",
                  iterations, "--checkpoint", f"{algorithm}.ckpt", "--overwrite").stdout
    value = float(re.search(r"game value \(seat 0\): (\S+)", out).group(1))
    expl = float(re.search(r"exploitability: (\S+) chips/hand", out).group(1))
    return value, expl


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "dcfr", "cfr-br", "pcs", "external",
                                       "outcome"])
def test_every_algorithm_on_kuhn_as_hulhe_solve(cli, algorithm):
    iterations = 2000 if algorithm in ("external", "outcome") else 300
    s = hulhe.solve(KUHN, algorithm=algorithm, iterations=iterations)
    assert s.iterations == iterations and s.algorithm == algorithm
    e = s.exploitability()
    value, expl = cli_solve(cli, SOURCE_DIR / "configs" / "kuhn.toml", algorithm, iterations)
    assert e["game_value"] == pytest.approx(value, abs=1e-9)  # printed to 9 decimals
    assert e["exploitability_chips"] == pytest.approx(expl, rel=2e-6)  # printed to 7 digits
    assert e["nash_conv"] == pytest.approx(2 * e["exploitability_chips"])
    assert e["exploitability_mbb"] is None  # Kuhn posts antes: no big blind


def test_leduc_cfr_plus_converges_and_exports(cli, tmp_path):
    progress = []
    s = hulhe.solve(str(LEDUC), algorithm="cfr+", iterations=2000, progress_every=0.001,
                    progress=progress.append)
    e = s.exploitability()
    value, expl = cli_solve(cli, SOURCE_DIR / "configs" / "leduc.toml", "cfr+", 2000)
    assert e["exploitability_chips"] == pytest.approx(expl, rel=2e-6)
    assert e["game_value"] == pytest.approx(-0.085606424078, abs=1e-3)
    assert progress and progress[-1]["iterations"] == 2000
    # Exported, the file is measured as `hulhe exploit --strategy` measures it.
    s.export(tmp_path / "py.strategy")
    mine = hulhe.exploitability(hulhe.Strategy(tmp_path / "py.strategy"))
    theirs = cli.json("exploit", "--strategy", tmp_path / "py.strategy", "--json")
    for key in ("br_value_vs_seat", "exploitability_chips", "nash_conv", "game_value"):
        assert mine[key] == pytest.approx(theirs[key], abs=1e-12)
    # The solution's own strategy plays and answers queries.
    assert set(s.strategy.probabilities("MATCHSTATE:0:0::Ks|")) == {"c", "r"}
    with pytest.raises(hulhe.InputError, match="unknown solver parameter"):
        hulhe.solve(LEDUC, parameters={"alpha": 1})
    with pytest.raises(hulhe.InputError):
        hulhe.solve(LEDUC, algorithm="magic")


@pytest.mark.parametrize("game,nash_conv", [(KUHN, 11 / 12), (LEDUC, 4.747222222222222)])
def test_a_python_uniform_policy_is_measured_exactly(cli, game, nash_conv):
    def uniform(state):
        n = len(state.legal_actions())
        return [1 / n] * n

    e = hulhe.exploitability(uniform, game=game)
    assert e["nash_conv"] == pytest.approx(nash_conv, abs=1e-12)
    theirs = cli.json("exploit", "--game", game, "--policy", "uniform", "--json")
    assert e["br_value_vs_seat"] == pytest.approx(theirs["br_value_vs_seat"], abs=1e-12)
    assert hulhe.exploitability(hulhe.Strategy.baseline("uniform", game))["nash_conv"] == \
        pytest.approx(nash_conv, abs=1e-12)


def test_a_python_policy_read_from_a_strategy_file_measures_as_the_file(cli, leduc_strategy):
    s = hulhe.Strategy(leduc_strategy)
    seen = []

    def policy(state):
        seen.append(state.match_state())
        return s.probabilities(state)  # a dict by action

    mine = hulhe.exploitability(policy, game=LEDUC)
    theirs = cli.json("exploit", "--strategy", leduc_strategy, "--json")
    for key in ("br_value_vs_seat", "exploitability_chips", "nash_conv", "game_value"):
        assert mine[key] == pytest.approx(theirs[key], abs=1e-9)
    # Called once per information set of Leduc's lossless abstraction that a deal reaches.
    assert len(seen) == len(set(seen)) == 936
    # A bad policy is refused with the spot named.
    with pytest.raises(hulhe.InputError, match="returned 1 probabilities for 2 legal actions"):
        hulhe.exploitability(lambda st: [1.0], game=LEDUC)
    with pytest.raises(hulhe.InputError, match="negative"):
        hulhe.exploitability(lambda st: [-1.0] + [1.0] * (len(st.legal_actions()) - 1), game=KUHN)
    with pytest.raises(hulhe.InputError, match="needs game="):
        hulhe.exploitability(lambda st: [1.0])


def test_real_game_best_response_on_sampled_flops(cli):
    toy = GAMES / "holdem.limit.2p.12card.3rounds.game"
    progress = []
    r = hulhe.best_response(hulhe.Strategy.baseline("uniform", toy), flops=8, seed=1,
                            progress=progress.append, progress_every=0.0)
    j = cli.json("exploit", "--game", toy, "--policy", "uniform", "--flops", 8, "--quiet",
                 "--json")
    for key in ("br_value_vs_seat", "ci95_vs_seat", "exploitability_chips", "exploitability_mbb",
                "ci95_mbb", "nash_conv"):
        assert r[key] == pytest.approx(j[key], rel=1e-9, abs=1e-12), key
    assert not r["exact"] and r["units"] == 8
    assert progress and progress[-1]["last"] and progress[-1]["done"] == 8
    # HULHE always-fold: exactly 750 mbb/g on any flops.
    r = hulhe.best_response(hulhe.Strategy.baseline("always-fold"), flops=2, threads=2)
    assert r["exploitability_mbb"] == pytest.approx(750.0, abs=1e-6)

    def stop(p):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        hulhe.best_response(hulhe.Strategy.baseline("uniform", toy), progress=stop,
                            progress_every=0.0)


def test_ctrl_c_stops_a_solve():
    # SolverRun answers SIGINT after the chunk under way (~0.1 s); the module raises it.
    import os
    import signal
    import threading

    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            hulhe.solve(LEDUC, algorithm="external", iterations=2**49)
    finally:
        timer.cancel()
    # Python's own handler is back: the next Ctrl-C is Python's KeyboardInterrupt again.
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
