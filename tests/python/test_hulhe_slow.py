"""HULHE end to end (slow: builds a small HULHE strategy file with the CLI first): a Python
equity-threshold agent against the strategy for 10,000 duplicate hands matches the same agent
as a hulhe bot (bot:equity), and the strategy's grid is `hulhe show`'s. (The real-game best
response of a HULHE strategy takes minutes a flop; tests/python/test_solving.py checks it on a
reduced deck.)"""
import pytest

import hulhe

pytestmark = pytest.mark.slow


class EquityThreshold:
    """bot:equity's rule (agents/equity_threshold_bot.h) in Python: raise when the equity
    against a random hand is at least max(0.65 + 0.08 * raises this round, pot odds), check
    when free, call at pot odds, else fold. The equity is hulhe.equity's Monte Carlo estimate
    (the bot draws 400 deals; here a standard error of 0.005), kept per canonical hand."""

    name = "py-equity"

    def __init__(self):
        self.cache = {}

    def equity(self, hole, board):
        key = (len(board), hulhe.holdem_index(hole, board))
        if key not in self.cache:
            r = hulhe.equity(hole, "random", board=board, method="monte-carlo", stderr=0.005,
                             seed=key[1], threads=1)
            self.cache[key] = r["players"][0]["equity"]
        return self.cache[key]

    def act(self, state):
        w = self.equity(state.hole_cards(), state.board)
        c = state.to_call
        pot_odds = c / (state.pot + c)
        if w >= max(0.65 + 0.08 * state.num_raises, pot_odds) and "r" in state.legal_actions():
            return "r"
        if c == 0 or w >= pot_odds:
            return "c"
        return "f"


def test_python_equity_agent_matches_bot_equity_over_10000_duplicate_hands(hulhe_strategy):
    strategy = hulhe.Strategy(hulhe_strategy)
    assert strategy.game.name == "holdem.limit.2p.reverse_blinds"
    py = hulhe.match(EquityThreshold(), strategy, hands=10000, seed=1, duplicate=True)
    bot = hulhe.match("bot:equity", strategy, hands=10000, seed=1, duplicate=True, threads=2)
    assert py["hands"] == bot["hands"] == 10000 and py["illegal_actions"] == 0
    print(f"python agent {py['mbb_per_game']:+.1f} ± {py['ci95_mbb']:.1f} mbb/g in "
          f"{py['seconds']:.1f} s; bot:equity {bot['mbb_per_game']:+.1f} ± {bot['ci95_mbb']:.1f}")
    # The same agent: each result lies in the other's 95% interval.
    assert abs(py["mbb_per_game"] - bot["mbb_per_game"]) <= min(py["ci95_mbb"], bot["ci95_mbb"])


def test_hulhe_strategy_queries_and_best_response(cli, hulhe_strategy):
    s = hulhe.Strategy(hulhe_strategy)
    text = cli.run("show", "--strategy", hulhe_strategy, "--sequence", "").stdout
    assert text.split("\n", 2)[2] == s.grid("").text()
    j = cli.json("show", "--strategy", hulhe_strategy, "--sequence", "rc/", "--board", "Td9c2s",
                 "--json")
    grid = s.grid("rc/", "Td9c2s")
    cell = j["cells"][0]  # AA
    assert grid.probabilities[:, 0, 0] == pytest.approx(cell["probabilities"], abs=1e-12)
    p = s.probabilities("MATCHSTATE:0:0:rc/:AsAh|/Td9c2s")
    assert list(p) == ["c", "r"]
    assert s.bits == 8 and not s.compact


def test_the_compact_file_answers_as_the_full_file(hulhe_strategy):
    full = hulhe.Strategy(hulhe_strategy)
    compact = hulhe.Strategy(hulhe_strategy.with_name("tiny-compact.strategy"))
    assert compact.compact and not full.compact and compact.buckets == full.buckets == [169, 8, 8, 8]
    assert compact.grid("").text() == full.grid("").text()
    # Spots the strategy's own play reaches (each the player's first decision of its round):
    # the compact file stores them and plays the full file's values; the river's buckets are
    # computed at play time (OCHS) instead of read from an array.
    rng = __import__("random").Random(4)
    for _ in range(40):
        cards = hulhe.cards_str(rng.sample(range(52), 7))
        hole, f, t, r = cards[:4], cards[4:10], cards[10:12], cards[12:14]
        for ms in (f"MATCHSTATE:1:0::|{hole}", f"MATCHSTATE:0:0:r:{hole}|",
                   f"MATCHSTATE:0:0:rc/:{hole}|/{f}", f"MATCHSTATE:0:0:rc/cc/:{hole}|/{f}/{t}",
                   f"MATCHSTATE:0:0:rc/cc/cc/:{hole}|/{f}/{t}/{r}"):
            assert compact.probabilities(ms) == full.probabilities(ms), ms
