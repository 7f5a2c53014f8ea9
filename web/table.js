// The web table of `hulhe serve`. Everything it shows comes from the JSON API
// (docs/serve-api.md): the engine deals, checks actions and does all chip arithmetic; this
// file only draws the state it is given and sends the person's clicks.
"use strict";

const $ = (id) => document.getElementById(id);
let sessionId = null;
let lastState = null;

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(json.error || response.statusText);
  return json;
}

const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };

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

function equityText(e) {
  if (!e) return "–";
  return percent(e.equity) + (e.exact ? "" : " ± " + (196 * e.std_error).toFixed(1));
}

function probabilitiesText(list) {
  if (!list) return "(no probabilities: a bot)";
  return list.map((p) => p.name + " " + percent(p.p)).join(" · ");
}

function draw(state) {
  lastState = state;
  // A counter of answers drawn: the browser test waits on it after each click.
  document.body.dataset.draws = String(Number(document.body.dataset.draws || 0) + 1);
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

  const actions = $("opponent-actions");
  actions.replaceChildren();
  const showProbabilities = $("show-probabilities").checked;
  for (const a of state.opponent_actions) {
    const li = document.createElement("li");
    li.textContent = state.round_names[a.round] + ": " + a.name;
    if (showProbabilities) {
      const span = document.createElement("div");
      span.className = "probabilities";
      span.textContent = probabilitiesText(a.probabilities);
      li.appendChild(span);
    }
    actions.appendChild(li);
  }
  const last = state.opponent_actions[state.opponent_actions.length - 1];
  $("opponent-last").textContent = last ? last.name : "";

  $("result").textContent = state.result ? state.result.text : "";
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
  $("hands").textContent = t.hands;
  $("session-result").textContent =
      t.hands === 0 ? "–" : t.mbb_per_game.toFixed(0) + " ± " + t.ci95_mbb.toFixed(0) + " mbb/g";
}

function drawProfile(profile) {
  const parts = profile.results.map(
      (r) => r.game + ": " + r.hands + " hands, " + r.mbb_per_game.toFixed(0) + " ± " +
             r.ci95_mbb.toFixed(0) + " mbb/g");
  $("lifetime").textContent =
      parts.length ? "lifetime (" + profile.player + "): " + parts.join("; ") : "no hands stored yet";
}

async function guarded(work) {
  $("error").textContent = "";
  try {
    await work();
  } catch (e) {
    $("error").textContent = e.message;
  }
}

async function refreshTotals() {
  const totals = await api("GET", "/api/session/" + sessionId + "/totals");
  drawProfile(totals.profile);
}

$("sit-down").addEventListener("click", () => guarded(async () => {
  const player = $("player-name").value.trim();
  const started = await api("POST", "/api/session", { player });
  sessionId = started.session;
  document.body.dataset.session = sessionId;
  $("your-name").textContent = started.player;
  $("history-link").href = "/api/session/" + sessionId + "/history";
  $("table-area").hidden = false;
  drawProfile(started.profile);
  draw(started.state);
}));

for (const letter of ["f", "c", "r"]) {
  $("act-" + letter).addEventListener("click", () => guarded(async () => {
    draw(await api("POST", "/api/session/" + sessionId + "/act", { action: letter }));
    if (!lastState.in_hand) await refreshTotals();
  }));
}

$("next-hand").addEventListener("click", () => guarded(async () => {
  draw(await api("POST", "/api/session/" + sessionId + "/hand"));
  if (!lastState.in_hand) await refreshTotals();
}));

$("show-probabilities").addEventListener("change", () => {
  if (lastState) draw(lastState);
});

api("GET", "/api/info").then((info) => {
  $("game-line").textContent = info.game + " against " + info.opponent;
  $("opponent-name").textContent = info.opponent;
  document.body.dataset.ready = "1";
});
