"""Agents and matches against `hulhe match --json`; Python agents (objects and callables)."""
import os
import signal
import threading

import pytest

import hulhe
from conftest import GAMES


def match_json(cli, a, b, hands, seed, duplicate, game=None):
    args = ["match", "--a", a, "--b", b, "--hands", hands, "--seed", seed, "--json", "--quiet"]
    if duplicate:
        args.append("--duplicate")
    if game:
        args += ["--game", game]
    return cli.json(*args)


@pytest.mark.parametrize("a,b,duplicate", [("bot:equity", "bot:uniform", True),
                                           ("bot:always-raise", "bot:always-call", False)])
def test_bot_matches_are_the_cli_s(cli, a, b, duplicate):
    r = hulhe.match(a, hulhe.Agent(b), hands=3000, seed=4, duplicate=duplicate, threads=2)
    j = match_json(cli, a, b, 3000, 4, duplicate)
    assert r["hands"] == j["hands"]
    assert r["mbb_per_game"] == pytest.approx(j["mbb_per_game"], abs=1e-9)
    assert r["ci95_mbb"] == pytest.approx(j["ci95_mbb"], abs=1e-9)


def test_strategy_file_match_and_its_log(cli, leduc_strategy):
    s = hulhe.Strategy(leduc_strategy)
    r = hulhe.match(s, "bot:equity", hands=2000, seed=9, duplicate=True, log=True)
    j = match_json(cli, leduc_strategy, "bot:equity", 2000, 9, True, game=GAMES / "leduc.game")
    assert r["game"] == "leduc" and r["mbb_per_game"] == pytest.approx(j["mbb_per_game"])
    lines = r["log"].splitlines()
    assert len(lines) == 2001 and lines[0].startswith("STATE:0:") and lines[-1].startswith("SCORE:")
    (cli.cwd / "m.log").write_text(r["log"])
    replay = cli.json("logs", "m.log", "--game", GAMES / "leduc.game", "--json")  # read back
    assert (replay["hands"], replay["mismatches"], replay["bad_lines"]) == (2000, 0, 0)
    assert replay["score_line"] == "agrees"


def test_a_python_agent_plays_like_the_bot_it_copies(cli):
    # always-call as a callable and as an object: the same hands as bot:always-call, to the chip.
    class Caller:
        def __init__(self):
            self.hands = 0
            self.seen = []

        def new_hand(self):
            self.hands += 1

        def act(self, state):
            self.seen.append((state.viewer, state.current_player, state.hole_cards(),
                              state.hole_cards(1 - state.viewer)))
            return "c"

    bot = hulhe.match("bot:always-call", "bot:uniform", hands=1000, seed=2, duplicate=True)
    caller = Caller()
    for agent in (lambda state: "call", caller):
        r = hulhe.match(agent, "bot:uniform", hands=1000, seed=2, duplicate=True)
        assert r["total_chips"] == bot["total_chips"] and r["ci95_mbb"] == bot["ci95_mbb"]
    assert caller.hands == 1000
    # An agent sees its own view: its hole cards, never the opponent's.
    assert all(v == p and h is not None and o is None for v, p, h, o in caller.seen)
    assert r["a"] == "Caller"


def test_python_agent_errors_reach_the_caller():
    def bad(state):
        return "x"

    with pytest.raises(hulhe.InputError, match="agent bad returned 'x'"):
        hulhe.match(bad, "bot:always-call", hands=10)

    def boom(state):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        hulhe.match(boom, "bot:always-call", hands=10)
    with pytest.raises(hulhe.InputError, match="an agent is"):
        hulhe.match(3, "bot:always-call", hands=10)
    with pytest.raises(hulhe.InputError) as e:
        hulhe.Agent("bot:nope")
    assert "nope" in str(e.value)
    with pytest.raises(hulhe.InputError, match="at least one hand"):
        hulhe.match("bot:always-call", "bot:always-call", hands=0)


def test_leduc_agents_and_the_game_of_a_bot():
    leduc = hulhe.Game(GAMES / "leduc.game")
    r = hulhe.match("bot:always-raise", lambda s: "c", hands=500, game=leduc, duplicate=True)
    assert r["game"] == "leduc" and r["hands"] == 500
    assert hulhe.Agent("bot:equity", leduc).probabilities("MATCHSTATE:0:0::Ks|") is None
    assert hulhe.Agent("bot:always-raise").act("MATCHSTATE:1:0::|AhKh") == "r"
    assert "equity" in hulhe.bots()


def test_progress_and_ctrl_c_stop_a_match():
    calls = []
    hulhe.match("bot:always-call", "bot:uniform", hands=20000,
                progress=lambda done, total, s: calls.append((done, total)))
    assert calls[-1] == (20000, 20000) and len(calls) >= 2

    def stop(done, total, seconds):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        hulhe.match("bot:always-call", "bot:uniform", hands=20000, progress=stop)
    # A real SIGINT while the match runs without the GIL: KeyboardInterrupt at the next block.
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            hulhe.match("bot:always-call", "bot:uniform", hands=10**9, threads=2)
    finally:
        timer.cancel()
    # A Python agent is interrupted between its decisions.
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            hulhe.match(lambda s: "c", "bot:uniform", hands=10**9)
    finally:
        timer.cancel()
