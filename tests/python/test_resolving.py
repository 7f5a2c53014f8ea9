"""Re-solving from Python (python/resolving.cpp): hulhe.resolve against an independent
computation of its ranges and against the agent resolve:FILE, best_response(resolve=...) and
matches of the agent against `hulhe exploit --resolve` and `hulhe match`, on a 10-iteration
CFR+ blueprint of the 12-card 4-round game (exact and fast: ~20 s for the file on one core)."""
import itertools
import math

import numpy as np
import pytest

import hulhe
from conftest import GAMES

GAME = GAMES / "holdem.limit.2p.12card.4rounds.game"
# Turn spots (round 2): position 0 to act at the round's start, position 1 after a check.
TURN = "MATCHSTATE:0:0:cc/cc/:KhQd|/As/Kd"
TURN_AFTER_CHECK = "MATCHSTATE:1:0:rc/cc/c:|KhQd/As/Kd"
RIVER = "MATCHSTATE:0:0:cc/cc/rc/:AhKd|/As/Kh/Qc"
FLOP = "MATCHSTATE:0:0:rc/:QhQd|/Ac"


@pytest.fixture(scope="module")
def blueprint(tmp_path_factory):
    """10 CFR+ iterations on the lossless abstraction, exported at 8 bits: (path, Strategy)."""
    path = tmp_path_factory.mktemp("resolving") / "toy4.strategy"
    hulhe.solve(GAME, algorithm="cfr+", iterations=10).export(path)
    return path, hulhe.Strategy(path)


def test_hands_are_the_decks_pairs_in_card_id_order(blueprint):
    _, strategy = blueprint
    r = hulhe.resolve(strategy, TURN, iterations=1)
    deck = sorted(hulhe.parse_cards(strategy.game.deck))
    assert r.hands == [hulhe.cards_str(pair) for pair in itertools.combinations(deck, 2)]
    assert len(r.hands) == 66 and r.hand("KhQd") == r.hands.index("QdKh") == r.hand("QdKh")
    with pytest.raises(hulhe.InputError, match="not a hand of game"):
        r.hand("2c2d")


def trunk_reach(strategy, game, betting, board, hand, position):
    """The product of the blueprint's probabilities of `position`'s actions on `betting` (the
    rounds before the subgame), asked one decision at a time with hand=."""
    per_round = list(itertools.accumulate(game.board_cards))
    state, reach = game.new_state(), 1.0
    for action in betting.replace("/", ""):
        if state.round > 0:
            state.set_board(board[:per_round[state.round]])
        if state.current_player == position:
            reach *= strategy.probabilities(state, hand=hand)[action]
        state.apply(action)
    return reach


@pytest.mark.parametrize("spot", [TURN, TURN_AFTER_CHECK, RIVER, FLOP])
def test_ranges_are_the_blueprints_reach_over_the_trunk(blueprint, spot):
    _, strategy = blueprint
    r = hulhe.resolve(strategy, spot, iterations=1, gadget="unsafe")
    state = hulhe.State(spot, strategy.game)
    assert (r.round, r.betting, r.board) == (state.round, state.betting, state.board)
    trunk = "/".join(state.betting.split("/")[:state.round]) + "/"  # up to the round's start
    board = hulhe.parse_cards(state.board)
    assert r.ranges.shape == (2, 66) and r.ranges.dtype == np.float64
    for h, hand in enumerate(r.hands):
        for position in (0, 1):
            if set(hulhe.parse_cards(hand)) & set(board):
                expected = 0.0
            else:
                expected = trunk_reach(strategy, strategy.game, trunk, board, hand, position)
            assert r.ranges[position, h] == pytest.approx(expected, abs=1e-12), (hand, position)
    assert len(np.unique(r.ranges)) > 5  # the blueprint's play, not a constant


@pytest.mark.parametrize("spot,spec_round,options", [
    (TURN, "street=turn", dict(iterations=60)),
    (TURN_AFTER_CHECK, "street=turn", dict(iterations=40, gadget="resolve", algorithm="cfr+")),
    (RIVER, "street=river", dict(iterations=50, precision="double")),
    (FLOP, "round=1", dict(iterations=20, gadget="unsafe")),
])
def test_the_spots_strategy_is_the_agents(blueprint, spot, spec_round, options):
    path, strategy = blueprint
    r = hulhe.resolve(strategy, spot, **options)
    spec = ":".join([f"resolve:{path}", spec_round] + [f"{k}={v}" for k, v in options.items()])
    agent = hulhe.Agent(spec)
    assert agent.game == strategy.game
    state = hulhe.State(spot, strategy.game)
    assert r.actions == state.legal_actions() and r.player == state.current_player == r.resolver
    assert r.iterations == options["iterations"]
    assert r.gadget == options.get("gadget", "maxmargin")
    theirs = agent.probabilities(spot)
    mine = r.probabilities()  # the state's own hand
    assert mine.keys() == theirs.keys()
    for action in mine:
        assert mine[action] == pytest.approx(theirs[action], abs=1e-6)
    own = r.hand(state.hole_cards())
    assert [mine[a] for a in r.actions] == list(r.strategy[own])
    # Every hand that misses the board has a distribution, the others a row of zeros.
    board = set(hulhe.parse_cards(state.board))
    for h, hand in enumerate(r.hands):
        total = r.strategy[h].sum()
        assert total == (0.0 if set(hulhe.parse_cards(hand)) & board else pytest.approx(1.0))
    assert r.strategy.shape == (66, len(r.actions))
    assert r.probabilities("KcKs") == dict(zip(r.actions, r.strategy[r.hand("KcKs")]))
    with pytest.raises(hulhe.InputError, match="shares a card with the board"):
        r.probabilities(hulhe.cards_str([board.pop(), hulhe.parse_card("Qs")]))


def test_safe_gadgets_excess_shrinks_and_unsafe_has_no_values(blueprint):
    _, strategy = blueprint
    for gadget in ("resolve", "maxmargin"):
        excess = [hulhe.resolve(strategy, TURN, iterations=n, gadget=gadget).excess
                  for n in (10, 30, 300)]
        assert all(e >= 0 for e in excess) and excess[0] > 1.0
        assert excess[0] > excess[1] >= excess[2] and excess[2] < 1e-6 * excess[0], gadget
        r = hulhe.resolve(strategy, TURN, iterations=10, gadget=gadget)
        assert r.terminate_values.shape == (66,)
        # T(o) is the opponent's value: 0 for its hands that touch the board.
        assert r.terminate_values[r.hand("AsKc")] == 0 and np.any(r.terminate_values != 0)
    r = hulhe.resolve(strategy, TURN, iterations=10, gadget="unsafe")
    assert r.terminate_values.shape == (0,) and r.excess == 0.0
    # A time budget runs whole iterations until it is spent.
    timed = hulhe.resolve(strategy, TURN, seconds=0.05)
    assert timed.iterations >= 1 and timed.seconds >= 0.05


def compare_exploit(cli, r, j):
    for key in ("br_value_vs_seat", "ci95_vs_seat", "exploitability_chips", "exploitability_mbb",
                "ci95_mbb", "nash_conv"):
        mine = r[key] if isinstance(r[key], list) else [r[key]]
        theirs = j[key] if isinstance(j[key], list) else [j[key]]
        for a, b in zip(mine, theirs):
            if b is None:  # JSON's null for the unbounded interval of one sampled flop
                assert not math.isfinite(a), key
            else:
                assert a == pytest.approx(b, rel=1e-9, abs=1e-9), key


@pytest.mark.parametrize("resolve,flops", [("street=turn:iterations=3:gadget=resolve", 0),
                                           ("street=river:iterations=5:gadget=unsafe", 0),
                                           ("turn", 1)])
def test_best_response_to_the_agent_is_exploit_resolve(cli, blueprint, resolve, flops):
    path, strategy = blueprint
    progress = []
    r = hulhe.best_response(strategy, resolve=resolve, flops=flops, progress=progress.append,
                            progress_every=0.0)
    args = ["exploit", "--strategy", path, "--resolve", resolve, "--json", "--quiet"]
    j = cli.json(*args, *(["--flops", flops] if flops else []))
    assert r["resolve"] == j["resolve"] == resolve and r["exact"] == (flops == 0)
    compare_exploit(cli, r, j)
    # Progress of the flop units (stage '') and of the re-solves, each to its end.
    assert {p["stage"] for p in progress} == {"", "re-solves"}
    for stage in ("", "re-solves"):
        last = [p for p in progress if p["stage"] == stage][-1]
        assert last["last"] and last["done"] == last["total"] > 0
    plain = hulhe.best_response(strategy, flops=flops)
    assert plain["resolve"] is None and plain["exploitability_chips"] != r["exploitability_chips"]


def test_matches_with_the_resolving_agent_are_hulhe_match_s(cli, blueprint):
    path, strategy = blueprint
    spec = f"resolve:{path}:street=river:iterations=20"
    r = hulhe.match(hulhe.Agent(spec), strategy, hands=200, seed=3, duplicate=True)
    j = cli.json("match", "--a", spec, "--b", path, "--hands", 200, "--seed", 3, "--duplicate",
                 "--game", GAME, "--json", "--quiet")
    assert r["game"] == strategy.game.name and r["a"] == "resolve:toy4.strategy"
    assert r["total_chips"] == j["total_chips"] and r["ci95_mbb"] == pytest.approx(j["ci95_mbb"])
    # Two re-solving agents: the game is their blueprint's, not HULHE.
    r = hulhe.match(spec, hulhe.Agent(spec), hands=20, seed=3)
    assert r["game"] == strategy.game.name and r["hands"] == 20


def test_bad_input_is_refused(cli, blueprint):
    path, strategy = blueprint
    with pytest.raises(hulhe.InputError, match=r"round 0 \(the preflop\)"):
        hulhe.resolve(strategy, "MATCHSTATE:1:0::|KhQd")
    with pytest.raises(hulhe.InputError, match="unknown re-solving gadget 'magic'"):
        hulhe.resolve(strategy, TURN, gadget="magic")
    with pytest.raises(hulhe.InputError, match=r"iterations=0 \(1 or more\)"):
        hulhe.resolve(strategy, TURN, iterations=0)
    with pytest.raises(hulhe.InputError, match=r"precision=half \(single or double\)"):
        hulhe.resolve(strategy, TURN, precision="half")
    with pytest.raises(hulhe.InputError, match="not a value"):
        hulhe.resolve(strategy, TURN, gadget="unsafe:nested=1")
    with pytest.raises(hulhe.InputError, match="the hand is over"):
        hulhe.resolve(strategy, "MATCHSTATE:0:0:cc/cc/cc/cc:KhQd|QsQc/As/Kd/Ah")
    # A strategy of another game, and a state of another game.
    leduc = hulhe.Strategy.baseline("uniform", GAMES / "leduc.game")
    with pytest.raises(hulhe.InputError, match="needs a 2-player limit hold'em game"):
        hulhe.resolve(leduc, "MATCHSTATE:0:0:cc/:Ks|/Qh")
    three = hulhe.State("MATCHSTATE:0:0:cc/:KhQd|/AsKdQs",
                        GAMES / "holdem.limit.2p.12card.3rounds.game")
    with pytest.raises(hulhe.InputError, match="the state is of game"):
        hulhe.resolve(strategy, three)
    # The agent's and the command's messages.
    with pytest.raises(hulhe.InputError, match="unknown option 'depth'"):
        hulhe.Agent(f"resolve:{path}:depth=2")
    for resolve in ("street=flop", "street=river:seconds=1", "street=river:depth=2"):
        message = cli.error("exploit", "--strategy", path, "--resolve", resolve)
        with pytest.raises(hulhe.InputError) as e:
            hulhe.best_response(strategy, resolve=resolve)
        assert str(e.value) == message
    with pytest.raises(hulhe.InputError, match="needs a 2-player limit hold'em game"):
        hulhe.best_response(leduc, resolve="river")


def test_stop_after_gives_exploit_s_interim(cli, tmp_path):
    """best_response(stop_after=) stops part way as `hulhe exploit --stop-after`: an interim
    on the finished flops, the baseline measured on the same flops, then the whole run."""
    game = GAMES / "holdem.limit.2p.12card.3rounds.game"
    uniform = hulhe.Strategy.baseline("uniform", game)
    call = hulhe.Strategy.baseline("always-call", game)
    journal = tmp_path / "py.brr"
    part = hulhe.best_response(uniform, flops=8, seed=3, baseline=call, resume_file=journal,
                               stop_after=3)
    j = cli.json("exploit", "--game", game, "--policy", "uniform", "--flops", "8", "--seed", "3",
                 "--baseline", "bot:always-call", "--resume-file", tmp_path / "cli.brr",
                 "--stop-after", "3", "--json", "--quiet")
    assert not part["complete"] and part["units_done"] == 3
    assert "exploitability_mbb" not in part
    for key in ("exploitability_mbb", "ci95_mbb", "difference_mbb", "difference_ci95_mbb",
                "sampled_flops", "units"):
        assert part["interim"][key] == pytest.approx(j["interim"][key], rel=1e-12), key
    assert part["interim"]["baseline"]["exploitability_mbb"] == pytest.approx(
        j["interim"]["baseline"]["exploitability_mbb"], rel=1e-12)
    same = hulhe.best_response(uniform, flops=8, seed=3, baseline=call, resume_file=journal,
                               stop_after=0)
    assert same["units_done"] == 3 and same["interim"] == part["interim"]
    whole = hulhe.best_response(uniform, flops=8, seed=3, baseline=call, resume_file=journal)
    assert whole["complete"] and "interim" not in whole
    assert whole["exploitability_mbb"] == pytest.approx(1373.917, abs=1e-3)  # docs/commands.md
    with pytest.raises(hulhe.InputError, match="stop_after"):
        hulhe.best_response(uniform, flops=8, stop_after=-1)


def test_baseline_and_resume_file_are_exploit_s(cli, blueprint, tmp_path):
    """best_response(baseline=, resume_file=) gives `hulhe exploit --baseline --resume-file`'s
    paired difference, and a rerun on the journals reads every unit and deal back."""
    path, strategy = blueprint
    resolve = "street=river:iterations=5"
    journal = tmp_path / "py.brr"
    r = hulhe.best_response(strategy, resolve=resolve, baseline=strategy, resume_file=journal)
    j = cli.json("exploit", "--strategy", path, "--resolve", resolve, "--baseline", path,
                 "--resume-file", tmp_path / "cli.brr", "--json", "--quiet")
    for key in ("difference_chips", "difference_mbb", "difference_ci95_mbb"):
        assert r[key] == pytest.approx(j[key], rel=1e-9, abs=1e-9), key
    for key in ("exploitability_chips", "exploitability_mbb"):
        assert r["baseline"][key] == pytest.approx(j["baseline"][key], rel=1e-9), key
    assert r["baseline"]["strategy"] == "toy4.strategy"
    assert r["difference_mbb"] == pytest.approx(
        r["exploitability_mbb"] - r["baseline"]["exploitability_mbb"], abs=1e-9)
    assert r["deals_resumed"] == 0
    assert journal.stat().st_size > 0 and (tmp_path / "py.brr.baseline").stat().st_size > 0
    again = hulhe.best_response(strategy, resolve=resolve, baseline=strategy, resume_file=journal)
    assert again["difference_chips"] == r["difference_chips"]
    # Outputs that are inputs, and a baseline of another game, are refused before any work.
    with pytest.raises(hulhe.InputError, match="resume file"):
        hulhe.best_response(strategy, resolve=resolve, resume_file=path)
    # The baseline's journal, FILE.baseline, would be the baseline's own file.
    base_path = tmp_path / "b.brr.baseline"
    base_path.write_bytes(path.read_bytes())
    with pytest.raises(hulhe.InputError, match="resume file"):
        hulhe.best_response(strategy, baseline=hulhe.Strategy(base_path),
                            resume_file=tmp_path / "b.brr")
    assert base_path.read_bytes() == path.read_bytes() and not (tmp_path / "b.brr").exists()
    leduc = hulhe.Strategy.baseline("uniform", GAMES / "leduc.game")
    with pytest.raises(hulhe.InputError, match="baseline is a strategy of another game"):
        hulhe.best_response(strategy, baseline=leduc)
