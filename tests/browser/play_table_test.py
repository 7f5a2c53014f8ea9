#!/usr/bin/env python3
"""The page of `hulhe serve` in a real headless browser (Debian's chromium, driven over the
Chrome DevTools protocol with Debian's python3-websockets).

    play_table_test.py HULHE_BINARY SOURCE_DIR [--hands N] [--screenshots DIR]

It solves a small strategy (the 12-card, 2-round hold'em of configs/games, 30 CFR+
iterations), starts `hulhe serve --strategy toy.strategy --port 0 --db <tmp>`, sits down on
the page and plays N hands (default 50) by clicking the page's buttons with mouse events.
After every click it compares what the page shows (cards, board, pot, each side's chips,
whose turn, the legal buttons, the result with each showdown hand's category, the hand's
actions, the odds panel, the session's hand count) with the API's state of the same session.
Then it downloads the hand history through the page's link and replays it with `hulhe logs`
(0 mismatches), checks the lifetime results the page shows against the store, opens the
explorer and checks grid cells against `hulhe show --json`.

What a person could trip on is checked on the page too (issue 38): the table stays hidden
until one sits down; a double click (and a doubled key) acts once; the keys c / r / f and
space play; a reload mid-hand resumes that hand, which is then played out and stored; a
fold that completes a hand while another process holds the database is refused on the page
with the hand unchanged, and stored when clicked again;
"Leave the table" mid-hand ends the hand by the documented rule (a fold facing a bet, else a
check) and stores it; after a server restart on the same port and database the open page
says the session ended and sits down again, and the hand left running at the stop is stored;
at 390 px neither the table nor the explorer scrolls sideways; the explorer takes a
lower-case board and clears its grid on an error.

Everything it writes is in one temporary folder; the server and the browser are always
stopped (finally).

--screenshots DIR: instead, serve the HULHE strategy given by --strategy (default: the uniform
bot, whose table the explorer shows too; a HULHE strategy file needs a bucket map), play a few
hands and write DIR/play-table.png and DIR/explorer.png (the README's screenshots).
"""
import argparse
import asyncio
import base64
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import urllib.request

import websockets


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Browser:
    """One page of a headless chromium, over the DevTools protocol."""

    def __init__(self, folder):
        self.folder = folder
        self.process = None
        self.socket = None
        self.next_id = 0
        self.pending = {}
        self.exceptions = []
        self.reader = None

    async def start(self):
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        check(chromium is not None, "no chromium on PATH (Debian package chromium)")
        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
             "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
             "--user-data-dir=" + os.path.join(self.folder, "chromium-profile"),
             "--window-size=1280,900", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port = None
        for line in self.process.stderr:
            m = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break
        check(port is not None, "chromium printed no DevTools address")
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t["type"] == "page")
        self.socket = await websockets.connect(page["webSocketDebuggerUrl"], max_size=None)
        self.reader = asyncio.ensure_future(self.read())
        await self.send("Runtime.enable")
        await self.send("Page.enable")
        await self.send("Emulation.setDeviceMetricsOverride",
                        {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})

    async def read(self):
        async for message in self.socket:
            m = json.loads(message)
            if "id" in m and m["id"] in self.pending:
                self.pending.pop(m["id"]).set_result(m)
            elif m.get("method") == "Runtime.exceptionThrown":
                self.exceptions.append(m["params"]["exceptionDetails"])

    async def send(self, method, params=None):
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        await self.socket.send(json.dumps({"id": self.next_id, "method": method,
                                           "params": params or {}}))
        m = await asyncio.wait_for(future, 30)
        check("error" not in m, f"{method}: {m.get('error')}")
        return m["result"]

    async def eval(self, expression):
        r = await self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                 "returnByValue": True})
        check("exceptionDetails" not in r, f"page error in {expression}: {r.get('exceptionDetails')}")
        return r["result"].get("value")

    async def wait_for(self, expression, what, seconds=20):
        for _ in range(int(seconds / 0.05)):
            value = await self.eval(expression)
            if value:
                return value
            await asyncio.sleep(0.05)
        raise Failure("timed out waiting for " + what)

    async def goto(self, url):
        await self.send("Page.navigate", {"url": url})
        await self.wait_for("document.readyState === 'complete' && document.body && "
                            "document.body.dataset.ready === '1'", "the page at " + url)

    async def click(self, element_id, double=False):
        """A real click: mouse pressed and released at the centre of the visible element
        (twice at once, the second with clickCount 2, for a double click)."""
        box = await self.eval(
            f"(() => {{ const e = document.getElementById({json.dumps(element_id)});"
            " if (!e || e.hidden) return null; e.scrollIntoView({block: 'center'});"
            " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        check(box is not None, f"#{element_id} is not on the page")
        for count in ((1, 2) if double else (1,)):
            for kind in ("mousePressed", "mouseReleased"):
                await self.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0],
                                                             "y": box[1], "button": "left",
                                                             "clickCount": count})

    async def key(self, key, held=False):
        """A key typed on the page (keyDown with its text, then keyUp); `held`: held down
        long enough to repeat once."""
        code = {" ": "Space"}.get(key, "Key" + key.upper())
        for repeat in ((False, True) if held else (False,)):
            await self.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": key,
                                                       "code": code, "text": key,
                                                       "autoRepeat": repeat})
        await self.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code})

    async def width(self, pixels):
        await self.send("Emulation.setDeviceMetricsOverride",
                        {"width": pixels, "height": 900, "deviceScaleFactor": 1, "mobile": False})

    async def reload(self):
        await self.send("Page.reload", {"ignoreCache": True})
        await self.wait_for("document.readyState === 'complete' && document.body && "
                            "document.body.dataset.ready === '1'", "the reloaded page")

    async def screenshot(self, path):
        r = await self.send("Page.captureScreenshot", {"format": "png"})
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))

    async def close(self):
        if self.reader:
            self.reader.cancel()
        if self.socket:
            await self.socket.close()
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_server(binary, args, folder):
    process = subprocess.Popen([binary, "serve", *args], stdout=subprocess.PIPE,
                               stderr=open(os.path.join(folder, "serve.err"), "w"), text=True)
    for line in process.stdout:
        m = re.match(r"hulhe serve: listening on (http://127\.0\.0\.1:\d+/)", line)
        if m:
            return process, m.group(1)
    raise Failure("hulhe serve printed no address: " +
                  open(os.path.join(folder, "serve.err")).read())


def stop_server(process):
    if process and process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            return process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return None


def get_json(url):
    with urllib.request.urlopen(url) as r:
        return json.load(r)


SUITS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}


def with_suits(text):
    """The cards in a line of the API ("5sTd") as the page writes them ("5♠T♦")."""
    return re.sub(r"\b(?:[2-9TJQKA][shdc])+\b",
                  lambda m: re.sub(r"([2-9TJQKA])([shdc])",
                                   lambda n: n.group(1) + SUITS[n.group(2)], m.group(0)), text)


def hands_text(n):
    return f"{n} hand" + ("" if n == 1 else "s")


RANK_CHARS = "23456789TJQKA"


def game_deck(game_file):
    """The ranks (high to low) and suits of a game file's deck: its numRanks highest ranks."""
    numbers = {}
    with open(game_file) as f:
        for line in f:
            m = re.match(r"\s*(numRanks|numSuits)\s*=\s*(\d+)", line)
            if m:
                numbers[m.group(1)] = int(m.group(2))
    ranks = RANK_CHARS[len(RANK_CHARS) - numbers["numRanks"]:][::-1]
    return ranks, "cdhs"[:numbers["numSuits"]]


def expected_grid(ranks, suits, board):
    """The hand classes of the explorer's grid, row-major, worked out here from the deck alone
    (not by the grid code of strategies/ that the server and `hulhe show` share): row i, column
    j is the pair on the diagonal, the suited class above it and the offsuit one below, each with
    the set of its two-card combinations that touch no board card."""
    dead = {board[i:i + 2] for i in range(0, len(board), 2)}
    cells = []
    for i, high in enumerate(ranks):
        for j, low in enumerate(ranks):
            a, b = (high, low) if i <= j else (low, high)
            label = a + b if i == j else a + b + ("s" if i < j else "o")
            combos = set()
            for s in suits:
                for t in suits:
                    one, two = a + s, b + t
                    if one == two or one in dead or two in dead:
                        continue
                    if (i == j and s >= t) or (i < j and s != t) or (i > j and s == t):
                        continue
                    combos.add(frozenset((one, two)))
            cells.append((label, combos))
    return cells


# Each square of the explorer's grid as the page shows it: its class, probabilities and the
# combinations its tooltip lists ("AhKh bucket 12").
GRID_VIEW = """[...document.querySelectorAll('#grid td')].map((td) => ({
  hand: td.dataset.hand, probabilities: JSON.parse(td.dataset.probabilities),
  holes: [...td.title.matchAll(/^\\s+(\\S\\S)(\\S\\S) bucket/gm)].map((m) => [m[1], m[2]])}))"""


def check_grid_classes(page_cells, expected, where):
    """The page's squares are the expected classes with the expected combinations; returns the
    number checked."""
    check(len(page_cells) == len(expected),
          f"explorer {where}: {len(page_cells)} squares, {len(expected)} classes")
    for cell, (label, combos) in zip(page_cells, expected):
        check(cell["hand"] == label, f"explorer {where}: square {cell['hand']}, expected {label}")
        holes = {frozenset(h) for h in cell["holes"]}
        check(holes == combos and len(cell["holes"]) == len(combos),
              f"explorer {where} {label}: combinations {sorted(map(sorted, holes))}, expected "
              f"{sorted(map(sorted, combos))}")
        check((len(cell["probabilities"]) == 0) == (len(combos) == 0),
              f"explorer {where} {label}: probabilities {cell['probabilities']} for "
              f"{len(combos)} live combinations")
    return len(page_cells)


# What the page shows, read from its elements.
PAGE_VIEW = """(() => {
  const text = (id) => document.getElementById(id).textContent;
  const cards = (id) => [...document.getElementById(id).children].map((c) => c.dataset.card || null);
  return {
    pot: text('pot'), your_chips: text('your-chips'), opponent_chips: text('opponent-chips'),
    your_cards: cards('your-cards'), opponent_cards: cards('opponent-cards'), board: cards('board'),
    turn: document.getElementById('turn').dataset.turn,
    buttons: ['f', 'c', 'r'].filter((l) => !document.getElementById('act-' + l).hidden),
    labels: ['f', 'c', 'r'].map((l) => document.getElementById('act-' + l).textContent),
    next_hand: !document.getElementById('next-hand').hidden,
    result: text('result'), hands: text('hands'), error: text('error'),
    draws: Number(document.body.dataset.draws || 0),
    busy: document.body.dataset.busy === '1',
    actions: [...document.getElementById('hand-actions').children].map((li) => li.firstChild.textContent),
    eq_random: text('eq-random'),
    seated: !document.getElementById('table-area').hidden,
    session: document.body.dataset.session || null,
  };
})()"""


def compare_with_api(page, state, where):
    def same(a, b, what):
        check(a == b, f"{where}: the page shows {what} {a!r}, the API {b!r}")

    same(page["error"], "", "an error")
    same(page["pot"], str(state["pot"]), "pot")
    same(page["your_chips"], str(state["your_chips"]), "your chips")
    same(page["opponent_chips"], str(state["opponent_chips"]), "the opponent's chips")
    same(page["your_cards"], state["your_cards"], "your cards")
    same(page["board"], state["board"], "the board")
    shown = [c for c in page["opponent_cards"] if c is not None]
    same(shown, state["opponent_cards"], "the opponent's cards")
    turn = "none" if not state["in_hand"] else ("you" if state["your_turn"] else "opponent")
    same(page["turn"], turn, "whose turn")
    legal = [a["letter"] for a in state["legal"]] if state["your_turn"] else []
    same(page["buttons"], legal, "the buttons")
    for a in state["legal"] if state["your_turn"] else []:
        same(page["labels"]["fcr".index(a["letter"])], a["label"], "the button's label")
    same(page["next_hand"], not state["in_hand"], "the next-hand button")
    same(page["result"], with_suits(state["result"]["text"]) if state["result"] else "",
         "the result")
    result = state["result"]
    if result and result["showdown"]:
        # Each category beside its own hand (issue 38: the opponent's was put on the person's).
        for whose, cards, category in (("your", state["your_cards"], result["your_category"]),
                                       ("its", state["opponent_cards"],
                                        result["opponent_category"])):
            words = f"{whose} {with_suits(''.join(cards))} ({category})"
            check(words in page["result"], f"{where}: the showdown line {page['result']!r} "
                  f"lacks {words!r}")
    same(page["hands"], hands_text(state["totals"]["hands"]), "hands played")
    same(page["actions"], [state["round_names"][a["round"]] + ": " +
                           ("you " + a["name"] if a["by"] == "you" else "it " + a["name"] + "s")
                           for a in state["actions"]], "the hand's actions")
    same(page["eq_random"] == "\u2013", state["odds"] is None, "an empty odds panel")


async def wait_for_draw(browser, draws_before):
    """Waits until the page drew an answer and has no request in flight."""
    await browser.wait_for(f"(Number(document.body.dataset.draws || 0) > {draws_before} || "
                           "document.getElementById('error').textContent !== '' || "
                           "!document.getElementById('notice').hidden) && "
                           "document.body.dataset.busy !== '1'",
                           "the page to draw the answer")
    return await browser.eval(PAGE_VIEW)


async def deal_to_decision(browser, url, session, rng):
    """Deals hands (playing out any that end before the person acts) until the person is to
    act in a running hand; returns the page and the API state."""
    for _ in range(40):
        page = await browser.eval(PAGE_VIEW)
        await browser.click("next-hand")
        page = await wait_for_draw(browser, page["draws"])
        state = get_json(url + "api/session/" + session)
        if state["in_hand"] and state["your_turn"]:
            return page, state
    raise Failure("40 hands ended before the person acted")


def person_actions(state):
    return [a for a in state["actions"] if a["by"] == "you"]


async def play(browser, url, session, hands, rng):
    played = 0
    while played < hands:
        page = await browser.eval(PAGE_VIEW)
        await browser.click("next-hand")
        page = await wait_for_draw(browser, page["draws"])
        state = get_json(url + "api/session/" + session)
        compare_with_api(page, state, f"hand {played + 1} dealt")
        while state["in_hand"]:
            check(state["your_turn"], "a hand in progress waits for the opponent")
            letters = page["buttons"]
            weights = {"f": 1, "c": 5, "r": 3}
            letter = rng.choices(letters, [weights[x] for x in letters])[0]
            await browser.click("act-" + letter)
            page = await wait_for_draw(browser, page["draws"])
            state = get_json(url + "api/session/" + session)
            compare_with_api(page, state, f"hand {played + 1} after '{letter}'")
        played += 1
        check(state["totals"]["hands"] == played, f"the API counts {state['totals']['hands']} "
              f"hands after {played}")
    return state


async def main_test(args, folder):
    hulhe = args.binary
    game = os.path.join(args.source, "configs/games/holdem.limit.2p.12card.2rounds.game")
    config = open(os.path.join(args.source, "configs/leduc.toml")).read()
    config = config.replace("games/leduc.game", game)
    with open(os.path.join(folder, "toy.toml"), "w") as f:
        f.write(config)
    for command in (["solve", "--config", "toy.toml", "--iterations", "30", "--checkpoint",
                     "toy.ckpt"], ["export", "--checkpoint", "toy.ckpt", "--out", "toy.strategy"]):
        subprocess.run([hulhe, *command], cwd=folder, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    strategy = os.path.join(folder, "toy.strategy")
    db = os.path.join(folder, "play.sqlite")
    server, browser = None, Browser(folder)
    try:
        server, url = start_server(hulhe, ["--strategy", strategy, "--port", "0", "--db", db,
                                           "--seed", "5"], folder)
        await browser.start()
        await browser.goto(url)
        # Before sitting down: the form only, no empty table, no history link to click.
        shown = await browser.eval(
            "['seat-form', 'table-area', 'history-link'].map((id) => "
            "document.getElementById(id).getClientRects().length > 0)")
        check(shown == [True, False, False], f"before sitting down, [form, table, history "
              f"link] shown: {shown}")
        await browser.eval("document.getElementById('player-name').value = 'Browser Tester'")
        await browser.click("sit-down")
        session = await browser.wait_for("document.body.dataset.session", "a session")
        state = await play(browser, url, session, args.hands, random.Random(7))
        print(f"played {state['totals']['hands']} hands by clicking: "
              f"{state['totals']['mbb_per_game']:.0f} ± {state['totals']['ci95_mbb']:.0f} mbb/g")

        # The history, through the page's own link.
        href = await browser.eval("document.getElementById('history-link').href")
        log = os.path.join(folder, "history.log")
        with urllib.request.urlopen(href) as r, open(log, "wb") as f:
            f.write(r.read())
        replay = subprocess.run([hulhe, "logs", "--json", "--game", game, log],
                                capture_output=True, text=True)
        check(replay.returncode == 0, "hulhe logs: " + replay.stdout + replay.stderr)
        report = json.loads(replay.stdout)
        check(report["hands"] == args.hands and report["mismatches"] == 0 and
              report["bad_lines"] == 0, f"hulhe logs on the downloaded history: {report}")
        print(f"hulhe logs replayed the downloaded history: {report['hands']} hands, "
              f"{report['mismatches']} mismatches")

        # The lifetime results the page shows are the store's.
        profile = get_json(url + "api/player/Browser%20Tester")
        check(profile["results"][0]["hands"] == args.hands, f"the store holds {profile}")
        lifetime = await browser.wait_for(
            f"(t => t.includes('{hands_text(args.hands)},') && t)"
            "(document.getElementById('lifetime').textContent)", "the lifetime results")
        check(profile["player"] in lifetime, f"the page's lifetime line: {lifetime!r}")

        rng = random.Random(9)

        # A double click acts once: the buttons are disabled while a request is in flight
        # (and the API refuses a repeated state number).
        page, state = await deal_to_decision(browser, url, session, rng)
        before = state
        letter = "c"
        await browser.click("act-" + letter, double=True)
        page = await wait_for_draw(browser, page["draws"])
        state = get_json(url + "api/session/" + session)
        check(len(person_actions(state)) == len(person_actions(before)) + 1 and
              state["state_number"] == before["state_number"] + 1,
              f"a double click on act-{letter}: {person_actions(before)} -> "
              f"{person_actions(state)}, state {before['state_number']} -> "
              f"{state['state_number']}")
        compare_with_api(page, state, "after a double click")
        # And a key held down until it repeats, the same.
        while state["in_hand"]:
            before = state
            await browser.key("c", held=True)
            page = await wait_for_draw(browser, page["draws"])
            state = get_json(url + "api/session/" + session)
            check(state["state_number"] == before["state_number"] + 1,
                  f"'c' held: state {before['state_number']} -> {state['state_number']}")
            compare_with_api(page, state, "after 'c' held")
        # Space deals; the focus stays on the table's action area after each answer.
        focus = await browser.eval("document.activeElement.id")
        check(focus == "actions", f"the focus after a hand is on #{focus}, not the actions")
        before = state
        await browser.key(" ")
        page = await wait_for_draw(browser, page["draws"])
        state = get_json(url + "api/session/" + session)
        check(state["hand"] == before["hand"] + 1, "space did not deal one hand")
        compare_with_api(page, state, "after space")
        while state["in_hand"]:
            await browser.key(rng.choice([a["letter"] for a in state["legal"]]))
            page = await wait_for_draw(browser, page["draws"])
            state = get_json(url + "api/session/" + session)
            compare_with_api(page, state, "after a key")
        print("a double click and a held key act once; c / r / f and space play")

        # A reload mid-hand resumes that hand; played out, it is stored.
        page, state = await deal_to_decision(browser, url, session, rng)
        await browser.reload()
        page = await browser.eval(PAGE_VIEW)
        check(page["session"] == session, f"after a reload the page is in session "
              f"{page['session']}, not {session}")
        compare_with_api(page, get_json(url + "api/session/" + session), "after a reload")
        check(page["your_cards"] == state["your_cards"], "the reload changed the hand")
        while state["in_hand"]:
            await browser.click("act-" + rng.choice([a["letter"] for a in state["legal"]]))
            page = await wait_for_draw(browser, page["draws"])
            state = get_json(url + "api/session/" + session)
            compare_with_api(page, state, "in the resumed hand")
        stored = get_json(url + "api/player/Browser%20Tester")["results"][0]["hands"]
        check(stored == state["totals"]["hands"], f"the store holds {stored} hands, the session "
              f"{state['totals']['hands']}")
        print(f"a reload mid-hand resumed it; {stored} hands in the session and the store")

        # A hand the store cannot take (another process holds the database) is refused: the
        # page says so, the hand is as it was, and the same click later completes it.
        for _ in range(40):
            page, state = await deal_to_decision(browser, url, session, rng)
            if "f" in [a["letter"] for a in state["legal"]]:
                break
            while state["in_hand"]:
                await browser.click("act-c")
                page = await wait_for_draw(browser, page["draws"])
                state = get_json(url + "api/session/" + session)
        check("f" in [a["letter"] for a in state["legal"]], "no hand with a bet to fold to")
        stored = get_json(url + "api/player/Browser%20Tester")["results"][0]["hands"]
        lock = sqlite3.connect(db, isolation_level=None)
        try:
            lock.execute("BEGIN EXCLUSIVE")
            await browser.click("act-f")
            await browser.wait_for("document.getElementById('error').textContent !== '' && "
                                   "document.body.dataset.busy !== '1'", "the refusal", 60)
            error = await browser.eval("document.getElementById('error').textContent")
            check("could not be stored" in error, f"the page's words on a locked store: {error!r}")
            check(get_json(url + "api/session/" + session) == state,
                  "a refused hand changed the session")
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        check(get_json(url + "api/player/Browser%20Tester")["results"][0]["hands"] == stored,
              "a refused hand was stored")
        page = await browser.eval(PAGE_VIEW)
        await browser.click("act-f")
        page = await wait_for_draw(browser, page["draws"])
        state = get_json(url + "api/session/" + session)
        compare_with_api(page, state, "the fold sent again")
        stored = get_json(url + "api/player/Browser%20Tester")["results"][0]["hands"]
        check(not state["in_hand"] and stored == state["totals"]["hands"],
              f"after the fold sent again: {stored} hands stored, {state['totals']['hands']} "
              "in the session")
        print("a hand the locked store could not take was refused on the page, then stored")

        # Leaving mid-hand ends the hand by the rule (a fold facing a bet, else a check) and
        # stores it.
        page, state = await deal_to_decision(browser, url, session, rng)
        facing = state["legal"][0]["name"] == "fold"
        await browser.click("leave")
        await browser.wait_for("!document.getElementById('seat-form').hidden", "the seat form")
        left = get_json(url + "api/session/" + session)
        check(not left["in_hand"] and left["totals"]["hands"] == state["totals"]["hands"] + 1,
              f"after leaving: {left['in_hand']}, {left['totals']['hands']} hands")
        first = person_actions(left)[len(person_actions(state))]
        check(first["name"] == ("fold" if facing else "check"),
              f"leaving {'facing' if facing else 'not facing'} a bet played {first['name']}")
        stored = get_json(url + "api/player/Browser%20Tester")["results"][0]["hands"]
        check(stored == left["totals"]["hands"], f"after leaving the store holds {stored} hands,"
              f" the session {left['totals']['hands']}")
        notice = await browser.eval("document.getElementById('notice').textContent")
        check("left the table" in notice, f"the notice after leaving: {notice!r}")
        print(f"leaving mid-hand played '{first['name']}' and stored the hand")

        # A reload after sitting down again, then a server restart under the open page.
        await browser.click("sit-down")
        await browser.wait_for(f"document.body.dataset.session && "
                               f"document.body.dataset.session !== '{session}'", "a new session")
        session = await browser.eval("document.body.dataset.session")
        page, state = await deal_to_decision(browser, url, session, rng)
        stored_before = get_json(url + "api/player/Browser%20Tester")["results"][0]["hands"]
        port = int(re.search(r":(\d+)/$", url).group(1))
        status = stop_server(server)
        check(status == 0, f"hulhe serve exited with {status} on SIGTERM")
        server, url2 = start_server(hulhe, ["--strategy", strategy, "--port", str(port), "--db",
                                            db, "--seed", "6"], folder)
        check(url2 == url, f"restarted on {url2}, not {url}")
        stored = get_json(url + "api/player/Browser%20Tester")["results"][0]["hands"]
        check(stored == stored_before + 1, f"the hand running at the stop: {stored} hands "
              f"stored, {stored_before} before it")
        await browser.click("act-" + state["legal"][0]["letter"])
        await browser.wait_for("!document.getElementById('seat-form').hidden",
                               "the seat form after a restart")
        notice = await browser.eval("document.getElementById('notice').textContent")
        check("session has ended" in notice and "/api/" not in notice,
              f"the notice after a restart: {notice!r}")
        await browser.click("sit-down")
        session = await browser.wait_for("document.body.dataset.session", "a session after it")
        page, state = await deal_to_decision(browser, url, session, rng)
        print("after a restart the page said so and sat down again; the running hand was stored")

        # 390 px: the table, mid-hand, and the explorer fit the screen's width: this table, and
        # a HULHE one (five board cards, the 13 x 13 grid) against the uniform bot.
        await browser.width(390)
        await browser.reload()
        page = await browser.eval(PAGE_VIEW)
        check(page["session"] == session and page["buttons"], "the table at 390 px")
        wide = await browser.eval("document.documentElement.scrollWidth")
        check(wide <= 390, f"the table at 390 px is {wide} px wide")
        holdem, holdem_url = start_server(hulhe, ["--bot", "bot:uniform", "--port", "0", "--db",
                                                  os.path.join(folder, "holdem.sqlite")], folder)
        try:
            await browser.goto(holdem_url)
            await browser.click("sit-down")
            holdem_session = await browser.wait_for("document.body.dataset.session", "a session")
            for _ in range(40):  # to the river, with every button there is
                page, state = await deal_to_decision(browser, holdem_url, holdem_session, rng)
                while state["in_hand"] and len(state["board"]) < 5:
                    await browser.click("act-c")
                    page = await wait_for_draw(browser, page["draws"])
                    state = get_json(holdem_url + "api/session/" + holdem_session)
                if state["in_hand"]:
                    break
            wide = await browser.eval("document.documentElement.scrollWidth")
            check(wide <= 390, f"the HULHE table on the river at 390 px is {wide} px wide")
            await browser.goto(holdem_url + "explorer.html")
            await browser.wait_for("document.querySelectorAll('#grid td').length === 169 || "
                                   "document.getElementById('error').textContent",
                                   "the explorer's grid")
            error = await browser.eval("document.getElementById('error').textContent")
            check(not error, f"the explorer at 390 px: {error}")
            wide = await browser.eval("document.documentElement.scrollWidth")
            check(wide <= 390, f"the explorer at 390 px is {wide} px wide")
            spill = await browser.eval(
                "(() => { const p = document.getElementById('grid').closest('.panel')"
                ".getBoundingClientRect(); const g = document.getElementById('grid')"
                ".getBoundingClientRect(); return g.right - p.right; })()")
            check(spill <= 0, f"the explorer's grid spills {spill} px out of its panel")
            # The uniform bot's table: every class of the 13 x 13 grid plays each action of the
            # position with probability 1 / (its number of actions), preflop (fold, call, raise)
            # and on a flop of three aces (check, bet), where no combination of AA is live.
            ranks, suits = game_deck(os.path.join(args.source, "configs/games/"
                                                  "holdem.limit.2p.reverse_blinds.game"))
            uniform_checked = 0
            for sequence, board, actions in (("", "", ["fold", "call", "raise"]),
                                             ("cc/", "AsAhAd", ["check", "bet"])):
                if sequence:
                    before = await browser.eval("document.getElementById('where').textContent")
                    await browser.eval(f"document.getElementById('sequence').value = "
                                       f"{json.dumps(sequence)}; document.getElementById("
                                       f"'board').value = {json.dumps(board)}")
                    await browser.click("show")
                    await browser.wait_for(f"document.getElementById('where').textContent !== "
                                           f"{json.dumps(before)}", "the explorer's flop grid")
                legend = await browser.eval(
                    "[...document.getElementById('legend').children].map((e) => e.textContent)")
                check(legend == actions, f"explorer '{sequence}': actions {legend}, not {actions}")
                expected = expected_grid(ranks, suits, board)
                page_cells = await browser.eval(GRID_VIEW)
                uniform_checked += check_grid_classes(page_cells, expected, f"HULHE '{sequence}'")
                for cell, (label, combos) in zip(page_cells, expected):
                    want = [1 / len(actions)] * len(actions) if combos else []
                    check(len(cell["probabilities"]) == len(want) and
                          all(abs(p - q) < 1e-12 for p, q in zip(cell["probabilities"], want)),
                          f"explorer HULHE '{sequence}' {label}: {cell['probabilities']}, "
                          f"uniform is {want}")
            check(uniform_checked == 2 * 169, f"explorer: {uniform_checked} HULHE cells checked")
            print(f"explorer: {uniform_checked} HULHE cells of the uniform bot are uniform")
        finally:
            status = stop_server(holdem)
        check(status == 0, f"the HULHE hulhe serve exited with {status} on SIGTERM")
        await browser.width(1280)
        print("at 390 px the tables and the explorer are at most 390 px wide")

        # The explorer: grid cells against `hulhe show --json` of the same file; a lower-case
        # board is taken; an error leaves no grid and speaks of the page's fields.
        await browser.goto(url + "explorer.html")
        await browser.eval("document.getElementById('board').value = 'zz'")
        await browser.click("show")
        await browser.wait_for("document.getElementById('error').textContent", "an error")
        error = await browser.eval("document.getElementById('error').textContent")
        cells = await browser.eval("document.querySelectorAll('#grid td').length")
        check(cells == 0 and "--" not in error, f"the explorer's error {error!r} beside "
              f"{cells} grid cells")
        # Each square's class and combinations against expected_grid (worked out from the
        # deck here); its probabilities against `hulhe show --json`, which reads them through the
        # same grid code as the server: a second reader of the strategy file in this script would
        # be a second implementation of its format. The uniform HULHE table below is checked
        # against probabilities known without the file.
        toy_ranks, toy_suits = game_deck(game)
        checked = 0
        for sequence, board in (("r", ""), ("cc/", "as kh Kd")):
            before = await browser.eval("document.getElementById('where').textContent")
            await browser.eval(f"document.getElementById('sequence').value = {json.dumps(sequence)};"
                               f"document.getElementById('board').value = {json.dumps(board)}")
            await browser.click("show")
            await browser.wait_for(f"document.getElementById('where').textContent !== {json.dumps(before)}",
                                   "the explorer's grid")
            normal = board.replace(" ", "")
            normal = "".join(normal[i].upper() + normal[i + 1].lower()
                             for i in range(0, len(normal), 2))
            shown = subprocess.run([hulhe, "show", "--strategy", strategy, "--sequence", sequence,
                                    *(["--board", normal] if board else []), "--json"],
                                   capture_output=True, text=True, check=True)
            grid = json.loads(shown.stdout)
            page_cells = await browser.eval(GRID_VIEW)
            checked += check_grid_classes(page_cells, expected_grid(toy_ranks, toy_suits, normal),
                                          f"'{sequence}'")
            check(len(grid["cells"]) == len(page_cells), f"explorer '{sequence}': hulhe show has "
                  f"{len(grid['cells'])} cells, the page {len(page_cells)}")
            for cell, page_cell in zip(grid["cells"], page_cells):
                check(page_cell["probabilities"] == cell["probabilities"],
                      f"explorer '{sequence}' {cell['hand']}: page {page_cell['probabilities']}, "
                      f"hulhe show {cell['probabilities']}")
        # Two positions of the 3-rank deck: 9 classes each.
        check(checked == 2 * len(toy_ranks) ** 2, f"explorer: {checked} grid cells checked")
        print(f"explorer: {checked} grid cells are the deck's classes and agree with hulhe show --json")
        check(not browser.exceptions, f"JavaScript exceptions: {browser.exceptions}")
    finally:
        await browser.close()
        status = stop_server(server)
    check(status == 0, f"hulhe serve exited with {status} on SIGTERM")
    print("hulhe serve stopped cleanly on SIGTERM")


async def main_screenshots(args, folder):
    hulhe = args.binary
    opponent = ["--strategy", args.strategy] if args.strategy else ["--bot", "bot:uniform"]
    server, browser = None, Browser(folder)
    os.makedirs(args.screenshots, exist_ok=True)
    try:
        server, url = start_server(hulhe, [*opponent, "--port", "0", "--db",
                                           os.path.join(folder, "play.sqlite"), "--seed", "3"],
                                   folder)
        await browser.start()
        await browser.goto(url)
        await browser.eval("document.getElementById('player-name').value = 'Alice'")
        await browser.click("sit-down")
        session = await browser.wait_for("document.body.dataset.session", "a session")
        await play(browser, url, session, args.hands, random.Random(11))
        # One more hand, stopped on the flop or later with the odds showing.
        for _ in range(40):
            page = await browser.eval(PAGE_VIEW)
            await browser.click("next-hand")
            page = await wait_for_draw(browser, page["draws"])
            while page["turn"] == "you" and len(page["board"]) == 0:
                await browser.click("act-c")
                page = await wait_for_draw(browser, page["draws"])
            if page["turn"] == "you":
                break
        await browser.click("show-probabilities")
        await asyncio.sleep(0.3)
        await browser.screenshot(os.path.join(args.screenshots, "play-table.png"))
        await browser.goto(url + "explorer.html")
        await browser.eval("document.getElementById('sequence').value = ''")
        await browser.click("show")
        await asyncio.sleep(0.5)
        await browser.eval("document.querySelector('td[data-hand=\"AKs\"]')"
                           ".dispatchEvent(new Event('mouseenter'))")
        await browser.screenshot(os.path.join(args.screenshots, "explorer.png"))
        print("wrote", os.path.join(args.screenshots, "play-table.png"), "and",
              os.path.join(args.screenshots, "explorer.png"))
    finally:
        await browser.close()
        stop_server(server)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("source")
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--screenshots")
    parser.add_argument("--strategy")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    args.source = os.path.abspath(args.source)
    folder = tempfile.mkdtemp(prefix="hulhe_browser_")
    try:
        if args.screenshots:
            args.screenshots = os.path.abspath(args.screenshots)
            if args.hands == 50:
                args.hands = 3
            asyncio.run(main_screenshots(args, folder))
        else:
            asyncio.run(main_test(args, folder))
    except Failure as e:
        print("FAILED:", e, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
