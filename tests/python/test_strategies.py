"""Strategy files: probabilities at ACPC states, seeded draws and the grid of `hulhe show`,
against the CLI's `show --json` on the same file."""
import math

import numpy as np
import pytest

import hulhe


def show(cli, strategy, sequence, board=None):
    args = ["show", "--strategy", strategy, "--sequence", sequence]
    if board:
        args += ["--board", board]
    text = cli.run(*args).stdout
    j = cli.json(*args, "--json")
    return text, j


@pytest.mark.parametrize("sequence,board,viewer", [("", None, 1), ("r", None, 0),
                                                   ("cc/", "AsKhKd", 0), ("rc/cr", "AhQsKd", 0)])
def test_grid_and_probabilities_are_hulhe_show_s(cli, toy_strategy, sequence, board, viewer):
    s = hulhe.Strategy(toy_strategy)
    text, j = show(cli, toy_strategy, sequence, board)
    grid = s.grid(sequence, board)
    assert text.split("\n", 2)[2] == grid.text()
    assert grid.action_names == j["actions"] and grid.ranks == "".join(j["ranks"])
    assert (grid.round, grid.player) == (j["round"], j["player"]) and grid.player == viewer
    probs = grid.probabilities
    n = len(grid.ranks)
    assert probs.shape == (len(grid.actions), n, n)
    for i, cell in enumerate(j["cells"]):
        row, col = divmod(i, n)
        assert grid.labels[row][col] == cell["hand"]
        assert grid.combos(row, col) == [(c["hole"], c["bucket"]) for c in cell["combos"]]
        if not cell["combos"]:
            assert np.isnan(probs[:, row, col]).all()
            continue
        assert probs[:, row, col] == pytest.approx(cell["probabilities"], abs=1e-12)
        # Each combination queried at its ACPC match state: the class mean is the cell's.
        total = np.zeros(len(grid.actions))
        for c in cell["combos"]:
            holes = f"{c['hole']}|" if viewer == 0 else f"|{c['hole']}"
            ms = f"MATCHSTATE:{viewer}:0:{sequence}:{holes}" + (f"/{board}" if board else "")
            p = s.probabilities(ms)
            assert list(p) == grid.actions
            assert sum(p.values()) == pytest.approx(1.0, abs=1e-12)
            total += [p[a] for a in grid.actions]
            # The same through a State and hand=.
            st = hulhe.State(ms, s.game)
            assert s.probabilities(st, hand=c["hole"]) == p
        assert total / len(cell["combos"]) == pytest.approx(cell["probabilities"], abs=1e-12)


def test_file_facts(toy_strategy, leduc_strategy):
    s = hulhe.Strategy(str(toy_strategy))
    assert (s.algorithm, s.iterations, s.bits, s.compact) == ("cfr+", 30, 8, False)
    assert s.game.name == "holdem.limit.2p.12card.2rounds"
    leduc = hulhe.Strategy(leduc_strategy)
    assert leduc.game.name == "leduc" and leduc.iterations == 300
    # The probabilities of the file are its quantised values: multiples of 1/255.
    p = leduc.probabilities("MATCHSTATE:0:0::Ks|")
    for v in p.values():
        assert v * 255 == pytest.approx(round(v * 255), abs=1e-9)


def test_seeded_draws_follow_the_probabilities(toy_strategy):
    s = hulhe.Strategy(toy_strategy)
    ms = "MATCHSTATE:0:0:r:KsQs|"
    p = s.probabilities(ms)
    n = 4000
    draws = [s.sample(ms, seed=k) for k in range(n)]
    assert s.sample(ms, seed=11) == s.sample(ms, seed=11)
    for a, q in p.items():
        sd = math.sqrt(q * (1 - q) / n)
        assert abs(draws.count(a) / n - q) <= 5 * sd + 1e-9, (a, q)
    # Agent('x.strategy') plays the file the same way.
    agent = hulhe.Agent(str(toy_strategy))
    assert agent.probabilities(ms) == p
    assert [agent.act(ms, seed=k) for k in range(50)] == draws[:50]


def test_bad_strategy_queries(cli, toy_strategy):
    with pytest.raises(hulhe.InputError) as e:
        hulhe.Strategy("/nonexistent.strategy")
    assert str(e.value) == cli.error("show", "--strategy", "/nonexistent.strategy", "--sequence", "")
    s = hulhe.Strategy(toy_strategy)
    with pytest.raises(hulhe.InputError) as e:
        s.grid("rf")
    assert str(e.value) == cli.error("show", "--strategy", toy_strategy, "--sequence", "rf")
    with pytest.raises(hulhe.InputError, match="position 0's turn"):
        s.probabilities("MATCHSTATE:1:0:r:|KsQs")
    with pytest.raises(hulhe.InputError, match="hand is over"):
        s.probabilities("MATCHSTATE:0:0:rf:KsQs|")
    with pytest.raises(hulhe.InputError, match="game"):
        s.probabilities(hulhe.State("MATCHSTATE:0:0:r:AsAh|"))  # a HULHE state
