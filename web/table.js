// The web table of `hulhe serve`. Everything it shows comes from the JSON API
// (docs/serve-api.md): the engine deals, checks actions and does all chip arithmetic; this
// file only draws the state it is given and sends the person's clicks and keys.
//
// The session id is kept in sessionStorage: a reload (or a crash of the tab) resumes the
// session, the running hand included (GET /api/session/ID). Each request that changes the
// table carries the state number it was made against and the buttons are disabled while one
// is in flight, so a double click acts once. When the session is gone (the server restarted,
// or it expired), the page says so and offers to sit down again.
"use strict";

const $ = (id) => document.getElementById(id);
const STORAGE_KEY = "hulhe-session";
let sessionId = null;
let lastState = null;
let busy = false;

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError("the server does not answer (is hulhe serve still running?)", 0);
  }
  let json = null;
  try {
    json = await response.json();
  } catch (e) {
    json = null;
  }
  if (!response.ok) {
    throw new ApiError((json && json.error) || response.status + " " + response.statusText,
                       response.status);
  }
  return json;
}

const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };

// "5sTd" -> "5♠T♦": the cards in a line of text, as the table draws them.
function withSuits(text) {
  return text.replace(/\b(?:[2-9TJQKA][shdc])+\b/g,
                      (cards) => cards.replace(/([2-9TJQKA])([shdc])/g, (m, r, s) => r + SUITS[s]));
}

function cardElement(card) {
  const div = document.createElement("div");
  div.className = "card";
  if (card === null) {
    div.classList.add("back");
    return div;
  }
  const suit = card[1];
  div.textContent = card[0] + (SUITS[suit] || suit);
  div.dataset.card = card;
  if (suit === "h" || suit === "d") div.classList.add("red");
  return div;
}

function drawCards(id, cards, hidden) {
  const box = $(id);
  box.replaceChildren();
  for (const c of cards) box.appendChild(cardElement(c));
  for (let i = 0; i < hidden; ++i) box.appendChild(cardElement(null));
}

function percent(x) {
  return (100 * x).toFixed(1) + "%";
}

function plural(n, word) {
  return n + " " + word + (n === 1 ? "" : "s");
}

function equityText(e) {
  if (!e) return "–";
  // The 95% half-width, in percentage points like the equity.
  return percent(e.equity) + (e.exact ? "" : " ± " + (196 * e.std_error).toFixed(1) + "%");
}

function probabilitiesText(list) {
  if (!list) return "(no probabilities: a bot)";
  return list.map((p) => p.name + " " + percent(p.p)).join(" · ");
}

function setBusy(value) {
  busy = value;
  document.body.dataset.busy = value ? "1" : "0";
  for (const id of ["act-f", "act-c", "act-r", "next-hand", "leave"]) $(id).disabled = value;
}

// Keeps the keyboard on the table: the action area holds the focus after each answer.
function focusActions() {
  const active = document.activeElement;
  if (active && active.tagName === "INPUT" && active.type !== "checkbox") return;
  $("actions").focus({ preventScroll: true });
}

function drawActions(state) {
  const list = $("hand-actions");
  list.replaceChildren();
  const showProbabilities = $("show-probabilities").checked;
  let opponentIndex = 0;
  for (const a of state.actions) {
    const li = document.createElement("li");
    li.className = a.by === "you" ? "mine" : "theirs";
    li.textContent = state.round_names[a.round] + ": " + (a.by === "you" ? "you " + a.name : "it " + a.name + "s");
    if (a.by !== "you") {
      const opponent = state.opponent_actions[opponentIndex++];
      if (showProbabilities && opponent) {
        const div = document.createElement("div");
        div.className = "probabilities";
        div.textContent = probabilitiesText(opponent.probabilities);
        li.appendChild(div);
      }
    }
    list.appendChild(li);
  }
}

function draw(state) {
  lastState = state;
  // A counter of answers drawn: the browser test waits on it after each click.
  document.body.dataset.draws = String(Number(document.body.dataset.draws || 0) + 1);
  document.body.dataset.stateNumber = String(state.state_number);
  $("pot").textContent = state.pot;
  $("your-chips").textContent = state.your_chips;
  $("opponent-chips").textContent = state.opponent_chips;
  $("your-position").textContent = state.hand > 0 ? "(" + state.position_name + ")" : "";
  $("opponent-position").textContent = state.hand > 0 ? "(" + state.opponent_position_name + ")" : "";
  drawCards("your-cards", state.your_cards, 0);
  const showOpponent = state.opponent_cards.length > 0;
  drawCards("opponent-cards", state.opponent_cards,
            showOpponent || state.hand === 0 ? 0 : state.your_cards.length);
  drawCards("board", state.board, 0);

  if (!state.in_hand) $("turn").textContent = state.hand === 0 ? "deal the first hand" : "hand over";
  else $("turn").textContent = state.your_turn ? "your turn" : "opponent's turn";
  $("turn").dataset.turn = state.in_hand ? (state.your_turn ? "you" : "opponent") : "none";

  for (const letter of ["f", "c", "r"]) {
    const button = $("act-" + letter);
    const legal = state.your_turn ? state.legal.find((a) => a.letter === letter) : undefined;
    button.hidden = legal === undefined;
    if (legal) button.textContent = legal.label;
  }
  $("next-hand").hidden = state.in_hand;
  $("next-hand").textContent = state.hand === 0 ? "Deal the first hand" : "Deal next hand";

  drawActions(state);
  const last = state.opponent_actions[state.opponent_actions.length - 1];
  $("opponent-last").textContent = last && state.in_hand ? last.name : "";

  $("result").textContent = state.result ? withSuits(state.result.text) : "";
  $("result").dataset.won = state.result ? state.result.won : "";

  const odds = state.odds;
  $("eq-random").textContent = odds ? equityText(odds.vs_random) : "–";
  $("eq-range").textContent = odds ? equityText(odds.vs_range) : "–";
  $("range-note").textContent = odds && !odds.range_from_strategy ? "(uniform: a bot)" : "";
  const categories = $("categories");
  categories.replaceChildren();
  if (odds) {
    for (const c of odds.categories) {
      if (c.chance <= 0) continue;
      const tr = document.createElement("tr");
      tr.innerHTML = "<td></td><td><span class=bar></span></td><td></td>";
      tr.children[0].textContent = c.name;
      tr.children[1].firstChild.style.width = (60 * c.chance).toFixed(1) + "px";
      tr.children[2].textContent = percent(c.chance);
      categories.appendChild(tr);
    }
  }

  const t = state.totals;
  $("hands").textContent = plural(t.hands, "hand");
  $("session-result").textContent =
      t.hands === 0 ? "–" : t.mbb_per_game.toFixed(0) + " ± " + t.ci95_mbb.toFixed(0) + " mbb/g";
}

function drawProfile(profile) {
  const parts = profile.results.map(
      (r) => r.game + ": " + plural(r.hands, "hand") + ", " + r.mbb_per_game.toFixed(0) + " ± " +
             r.ci95_mbb.toFixed(0) + " mbb/g");
  $("lifetime").textContent =
      parts.length ? "lifetime (" + profile.player + "): " + parts.join("; ") : "no hands stored yet";
}

// Seated: the table shows; not seated: the form to sit down, with `notice` above it.
function showSeated(seated, notice) {
  $("table-area").hidden = !seated;
  $("seat-form").hidden = seated;
  $("notice").textContent = notice || "";
  $("notice").hidden = !notice;
  if (!seated) {
    sessionId = null;
    lastState = null;
    sessionStorage.removeItem(STORAGE_KEY);
    delete document.body.dataset.session;
  }
}

function seat(id, player) {
  sessionId = id;
  sessionStorage.setItem(STORAGE_KEY, id);
  document.body.dataset.session = id;
  $("your-name").textContent = player;
  $("player-name").value = player;  // to sit down again under the same name
  $("history-link").href = "/api/session/" + id + "/history";
  $("history-link").download = "hulhe-" + id + ".log";
  showSeated(true);
}

const SESSION_GONE =
    "Your session has ended (the server was restarted, or the table was left idle too long). " +
    "Every hand you completed is stored, and a hand left running was finished by a fold at " +
    "your decision. Sit down again to play on.";

// Runs a request of the table; its error goes under the buttons, except a session that is
// gone (back to the seat form) and a stale request (the table is drawn as it is now).
async function guarded(work) {
  if (busy) return;
  $("error").textContent = "";
  setBusy(true);
  try {
    await work();
  } catch (e) {
    if (e.status === 404 && sessionId !== null) {
      showSeated(false, SESSION_GONE);
    } else if (e.status === 409 && sessionId !== null) {
      try {
        draw(await api("GET", "/api/session/" + sessionId));
      } catch (e2) {
        $("error").textContent = e2.message;
      }
    } else {
      $("error").textContent = e.message;
    }
  } finally {
    setBusy(false);
    if (sessionId !== null) focusActions();
  }
}

async function refreshTotals() {
  const totals = await api("GET", "/api/session/" + sessionId + "/totals");
  drawProfile(totals.profile);
}

$("sit-down").addEventListener("click", async () => {
  $("seat-error").textContent = "";
  try {
    const player = $("player-name").value.trim();
    const started = await api("POST", "/api/session", { player });
    seat(started.session, started.player);
    drawProfile(started.profile);
    draw(started.state);
    focusActions();
  } catch (e) {
    $("seat-error").textContent = e.message;
  }
});
$("player-name").addEventListener("keydown", (e) => {
  if (e.key === "Enter") $("sit-down").click();
});

function act(letter) {
  return guarded(async () => {
    draw(await api("POST", "/api/session/" + sessionId + "/act",
                   { action: letter, state_number: lastState.state_number }));
    if (!lastState.in_hand) await refreshTotals();
  });
}

function deal() {
  return guarded(async () => {
    draw(await api("POST", "/api/session/" + sessionId + "/hand",
                   { state_number: lastState.state_number }));
    if (!lastState.in_hand) await refreshTotals();
  });
}

// A double click's second click (detail 2) is not a second action: it would land on the
// buttons of the answer to the first.
for (const letter of ["f", "c", "r"]) {
  $("act-" + letter).addEventListener("click", (e) => {
    if (e.detail <= 1) act(letter);
  });
}
$("next-hand").addEventListener("click", (e) => {
  if (e.detail <= 1) deal();
});

// Leaving ends a running hand by the same rule as a session that expires: a fold at the
// person's decision where there is a bet to face, a check otherwise; the hand is stored.
$("leave").addEventListener("click", () => guarded(async () => {
  const state = await api("POST", "/api/session/" + sessionId + "/leave",
                          { state_number: lastState.state_number });
  const text = state.result && state.hand > 0 ? "Last hand: " + withSuits(state.result.text) + ". " : "";
  showSeated(false, text + "You left the table after " + plural(state.totals.hands, "hand") + ".");
}));

// Keys: f, c (check or call), r (bet or raise); space or Enter deals the next hand.
document.addEventListener("keydown", (e) => {
  if (sessionId === null || lastState === null || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.repeat) {  // a key held down acts once
    if ([" ", "f", "c", "r"].includes(e.key.toLowerCase())) e.preventDefault();
    return;
  }
  const target = e.target;
  const typing = target && ((target.tagName === "INPUT" && target.type !== "checkbox") ||
                            target.tagName === "TEXTAREA");
  if (typing) return;
  const key = e.key.toLowerCase();
  if (["f", "c", "r"].includes(key)) {
    e.preventDefault();
    if (!$("act-" + key).hidden && !busy) act(key);
  } else if (key === " " || key === "enter") {
    // A focused button's or checkbox's own click.
    if (target && (target.tagName === "BUTTON" || target.tagName === "INPUT")) return;
    e.preventDefault();
    if (!$("next-hand").hidden && !busy) deal();
  }
});

$("show-probabilities").addEventListener("change", () => {
  if (lastState) drawActions(lastState);
});

async function start() {
  const info = await api("GET", "/api/info");
  $("game-line").textContent = info.game + " against " + info.opponent;
  $("opponent-name").textContent = info.opponent;
  const saved = sessionStorage.getItem(STORAGE_KEY);
  if (saved) {
    // A reload: the same session, the running hand included.
    try {
      const state = await api("GET", "/api/session/" + saved);
      const totals = await api("GET", "/api/session/" + saved + "/totals");
      seat(saved, totals.profile.player);
      drawProfile(totals.profile);
      draw(state);
      focusActions();
    } catch (e) {
      showSeated(false, e.status === 404 ? SESSION_GONE : e.message);
    }
  } else {
    showSeated(false);
  }
}

start().catch((e) => {
  $("notice").textContent = e.message;
  $("notice").hidden = false;
}).finally(() => {
  document.body.dataset.ready = "1";
});
