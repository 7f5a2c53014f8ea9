#!/usr/bin/env python3
"""`hulhe play --human` in a real terminal: tmux (a private server, `tmux -L <unique>`) runs
the command, the test types actions with `send-keys` and reads the screen with `capture-pane`.

For Leduc and heads-up limit hold'em against a bot it plays at least 10 hands and checks what
the screen says against the rules of limit poker, worked out here from the betting the table
prints (not by hulhe): the chips each side has put in, the pot, the actions offered (fold
only when facing a bet, raise only below the round's cap) and the number of board cards. A
bad word, an illegal action and a request for probabilities are answered without ending the
session. It then quits (q; hold'em: the end of --hands) and checks the summary against the
hands' printed results, and replays the written dealer log through `hulhe logs` (0
mismatches). End of input on stdin ends a session with its summary too. The tmux server is
killed at the end whatever happens.

usage: play_human_tmux_test.py HULHE_BINARY
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HULHE = os.path.abspath(sys.argv[1])
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The rules of the two games (configs/games/*.game), positions 0-based.
GAMES = {
    "leduc": dict(path=os.path.join(ROOT, "configs/games/leduc.game"), blind=[1, 1],
                  raise_size=[2, 4], max_raises=[2, 2], first=[0, 0], board=[0, 1]),
    "holdem": dict(path="", blind=[10, 5], raise_size=[10, 10, 20, 20], max_raises=[3, 4, 4, 4],
                   first=[1, 0, 0, 0], board=[0, 3, 4, 5]),
}


def fail(message):
    raise AssertionError(message)


def replay(game, betting):
    """Chips put in per position, the round, raises this round and who acts, from ACPC betting."""
    spent = list(game["blind"])
    rnd, raises, player = 0, 0, game["first"][0]
    for ch in betting:
        if ch == "/":
            rnd, raises = rnd + 1, 0
            player = game["first"][rnd]
            continue
        if ch == "c":
            spent[player] = max(spent)
        elif ch == "r":
            spent[player] = max(spent) + game["raise_size"][rnd]
            raises += 1
        elif ch != "f":
            fail(f"unknown action {ch!r} in betting {betting!r}")
        player = 1 - player
    return spent, rnd, raises, player


class Tmux:
    def __init__(self, folder):
        self.socket = f"hulhe-test-{os.getpid()}-{random.randrange(1 << 30)}"
        self.conf = os.path.join(folder, "tmux.conf")
        with open(self.conf, "w") as f:
            f.write("set -g history-limit 100000\n")

    def run(self, *args, check=True):
        return subprocess.run(["tmux", "-L", self.socket, "-f", self.conf, *args], check=check,
                              capture_output=True, text=True)

    def start(self, command):
        # The shell keeps the pane open after hulhe exits, with its exit status on screen.
        self.run("new-session", "-d", "-s", "t", "-x", "200", "-y", "50",
                 f"{command}; echo HULHE-EXITED $?; sleep 600")

    def screen(self):
        return self.run("capture-pane", "-p", "-J", "-t", "t", "-S", "-100000").stdout

    def type(self, text):
        # Plain letters and words: no tmux key name among them, so one call sends both.
        self.run("send-keys", "-t", "t", text, "Enter")

    def kill(self):
        self.run("kill-server", check=False)


def wait_for(tmux, predicate, what, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        text = tmux.screen()
        if predicate(text):
            return text
        time.sleep(0.02)
    fail(f"timed out waiting for {what}; screen:\n{tmux.screen()[-3000:]}")


TABLE = re.compile(r"pot (\d+) · you put in (\d+) · opponent put in (\d+) · betting '([^']*)'")
HAND = re.compile(r"=== hand (\d+) · you are position (\d) ")
BOARD = re.compile(r"board: (.+?)\s+you: ")
TURN = re.compile(r"your turn: (.*)  \(\[p\] probabilities, \[q\] quit\)")
RESULT = re.compile(r"  you (win|lose) (\d+) chips? |  split pot: you (win) (0) chips")
SUMMARY = re.compile(r"session \((\S+) against (\S+)\): (\d+) hands? · you won (-?\d+) chips · "
                     r"([-+]\d+\.\d) ± (\d+\.\d) mbb/g \(95%\)")


def check_prompt(game, screen):
    """The last table and prompt on screen against the rules; returns the offered keys."""
    hand = HAND.findall(screen)[-1]
    position = int(hand[1])
    pot, mine, theirs, betting = TABLE.findall(screen)[-1]
    spent, rnd, raises, player = replay(game, betting)
    if player != position:
        fail(f"prompted at betting {betting!r} but position {player} is to act, not {position}")
    if (int(mine), int(theirs)) != (spent[position], spent[1 - position]):
        fail(f"betting {betting!r}: screen says {mine}/{theirs} put in, rules {spent}")
    if int(pot) != sum(spent):
        fail(f"pot {pot} is not {sum(spent)}")
    board = BOARD.findall(screen)[-1].strip()
    cards = 0 if board == "-" else len(board.split())
    if cards != game["board"][rnd]:
        fail(f"round {rnd} shows {cards} board cards")
    offered = re.findall(r"\[([fcr])\] ([a-z]+)", TURN.findall(screen)[-1])
    keys = [k for k, _ in offered]
    to_call = max(spent) - spent[position]
    expected = (["f"] if to_call > 0 else []) + ["c"] + (
        ["r"] if raises < game["max_raises"][rnd] else [])
    if keys != expected:
        fail(f"betting {betting!r}: offered {keys}, the rules allow {expected}")
    words = dict(offered)
    if words["c"] != ("check" if to_call == 0 else "call"):
        fail(f"'c' is offered as {words['c']!r} with {to_call} to call")
    return keys


def play(name, bot, hands_option, quit_after, folder, rng):
    game = GAMES[name]
    log = os.path.join(folder, f"{name}.log")
    tmux = Tmux(folder)
    command = f"{HULHE} play --human --bot {bot} --seed 7 --name ada --log {log}"
    if game["path"]:
        command += f" --game {game['path']}"
    if hands_option:
        command += f" --hands {hands_option}"
    try:
        tmux.start(command)
        prompts, extras_done = 0, set()
        while True:
            screen = wait_for(
                tmux, lambda s: s.count("your turn:") > prompts or "HULHE-EXITED" in s,
                "a prompt or the end")
            if "HULHE-EXITED" in screen:
                break
            prompts = screen.count("your turn:")
            done = len(RESULT.findall(screen))
            keys = check_prompt(game, screen)
            if quit_after and done >= quit_after:
                tmux.type("q")
                continue
            # Once per session: a word that is no action, an illegal one, the probabilities.
            if "bad" not in extras_done:
                extras_done.add("bad")
                tmux.type("xyzzy")
                wait_for(tmux, lambda s: "'xyzzy' is not an action" in s, "the bad-word answer")
                continue
            if "f" not in keys and "illegal" not in extras_done:
                extras_done.add("illegal")
                tmux.type("f")
                wait_for(tmux, lambda s: "not now:" in s, "the illegal-action answer")
                continue
            if "p" not in extras_done and re.search(r"^  \S[^:]*  opponent: ", screen.split("===")[-1],
                                                    re.M):
                extras_done.add("p")
                tmux.type("p")
                wait_for(tmux, lambda s: "drawn from:" in s, "the probabilities")
                continue
            # Mostly calls, so that hands reach the later rounds and showdowns.
            tmux.type(rng.choice(keys + ["c", "c"]))
        screen = tmux.screen()
        if "HULHE-EXITED 0" not in screen:
            fail(f"{name}: hulhe did not exit 0:\n{screen[-3000:]}")
        missing = {"bad", "illegal", "p"} - extras_done
        if missing:
            fail(f"{name}: never tried {missing}")
        results = RESULT.findall(screen)
        summary = SUMMARY.findall(screen)
        if len(summary) != 1:
            fail(f"{name}: no summary line:\n{screen[-2000:]}")
        who, against, hands, chips, mbb, ci = summary[0]
        hands, chips = int(hands), int(chips)
        if who != "ada" or against != bot:
            fail(f"{name}: summary names {who} against {against}")
        if hands < 10 or hands != len(results):
            fail(f"{name}: summary says {hands} hands, the screen shows {len(results)} results")
        won = sum(int(n1 or n2) * (-1 if w1 == "lose" else 1) for w1, n1, _, n2 in results)
        if won != chips:
            fail(f"{name}: summary says {chips} chips, the hands add up to {won}")
        big_blind = max(game["blind"])
        if abs(float(mbb) - 1000.0 * chips / hands / big_blind) > 0.051:
            fail(f"{name}: {mbb} mbb/g is not {chips} chips over {hands} hands")
        if "showdown:" not in screen:
            fail(f"{name}: no showdown in {hands} hands")
        # The history replays through the logs command with no mismatch.
        args = [HULHE, "logs", "--json", log] + (["--game", game["path"]] if game["path"] else [])
        report = json.loads(subprocess.run(args, check=True, capture_output=True,
                                           text=True).stdout)
        if report["hands"] != hands or report["mismatches"] != 0 or report["bad_lines"] != 0:
            fail(f"{name}: logs replay {report}")
        print(f"{name}: {hands} hands against {bot}, {chips} chips, {mbb} ± {ci} mbb/g; "
              f"{prompts} prompts checked; log replays with 0 mismatches")
    finally:
        tmux.kill()


def end_of_input(folder):
    """stdin closed at the first prompt: a clean end with the summary, exit status 0."""
    r = subprocess.run([HULHE, "play", "--human", "--bot", "always-call", "--game",
                        GAMES["leduc"]["path"]], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 0 or "(end of input)" not in r.stdout or not SUMMARY.search(r.stdout):
        fail(f"end of input: status {r.returncode}\n{r.stdout}\n{r.stderr}")
    if "0 hands" not in r.stdout:
        fail("end of input: the unfinished hand was counted")


def interrupted(folder):
    """Ctrl-C at a prompt ends the session as q does: the summary, exit status 0."""
    tmux = Tmux(folder)
    try:
        tmux.start(f"{HULHE} play --human --bot always-call --game {GAMES['leduc']['path']}")
        wait_for(tmux, lambda s: "your turn:" in s, "the first prompt")
        tmux.run("send-keys", "-t", "t", "C-c")
        screen = wait_for(tmux, lambda s: "HULHE-EXITED" in s, "the end after Ctrl-C")
        if "(interrupted)" not in screen or not SUMMARY.search(screen):
            fail(f"Ctrl-C: no summary:\n{screen[-2000:]}")
        if "HULHE-EXITED 0" not in screen:
            fail(f"Ctrl-C: hulhe did not exit 0:\n{screen[-2000:]}")
    finally:
        tmux.kill()


def main():
    if shutil.which("tmux") is None:
        fail("tmux is not installed (Makefile DEBIAN_PACKAGES)")
    with tempfile.TemporaryDirectory() as folder:
        # The two sessions run side by side (each its own tmux server): the test waits on
        # the screen far more than it computes.
        errors = []

        def run(*args):
            try:
                play(*args)
            except Exception as e:  # reported below, after both ended
                errors.append(e)

        sessions = [threading.Thread(target=run, args=a) for a in (
            ("leduc", "always-raise", 0, 10, folder, random.Random(12)),
            ("holdem", "uniform", 10, 0, folder, random.Random(13)))]
        for t in sessions:
            t.start()
        end_of_input(folder)
        interrupted(folder)
        for t in sessions:
            t.join()
        if errors:
            raise errors[0]
    print("ok")


if __name__ == "__main__":
    main()
