// The strategy explorer of `hulhe serve`: a betting sequence (and the board after the first
// round) -> GET /api/explorer -> the grid of hand classes (human_play/strategy_grid.h), each
// square split by its action probabilities, with the bucket of each combination on hover.
"use strict";

const $ = (id) => document.getElementById(id);
const COLOURS = { fold: "#ef9a9a", check: "#a5d6a7", call: "#a5d6a7", bet: "#90caf9", raise: "#90caf9" };

function percent(x) {
  return (100 * x).toFixed(1) + "%";
}

function cellText(grid, cell) {
  if (cell.probabilities.length === 0) return cell.hand + ": every combination touches the board";
  const mix = grid.actions.map((a, i) => a + " " + percent(cell.probabilities[i])).join(", ");
  const buckets = cell.combos.map((c) => c.hole + " bucket " + c.bucket).join("\n  ");
  return cell.hand + ": " + mix + "\n  " + buckets;
}

function draw(grid) {
  $("where").textContent = "'" + grid.sequence + "' · round " + (grid.round + 1) + " · position " +
                           grid.player + " to act" + (grid.board ? " · board " + grid.board : "");
  const legend = $("legend");
  legend.replaceChildren();
  for (const a of grid.actions) {
    const span = document.createElement("span");
    span.textContent = a;
    span.style.background = COLOURS[a] || "#ccc";
    legend.appendChild(span);
  }
  const table = $("grid");
  table.replaceChildren();
  const n = grid.ranks.length;
  const header = document.createElement("tr");
  header.appendChild(document.createElement("th"));
  for (const r of grid.ranks) {
    const th = document.createElement("th");
    th.textContent = r;
    header.appendChild(th);
  }
  table.appendChild(header);
  for (let row = 0; row < n; ++row) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = grid.ranks[row];
    tr.appendChild(th);
    for (let col = 0; col < n; ++col) {
      const cell = grid.cells[row * n + col];
      const td = document.createElement("td");
      td.dataset.hand = cell.hand;
      td.dataset.probabilities = JSON.stringify(cell.probabilities);
      td.title = cellText(grid, cell);
      const mix = document.createElement("div");
      mix.className = "mix";
      cell.probabilities.forEach((p, i) => {
        const bar = document.createElement("div");
        bar.style.flex = String(p);
        bar.style.background = COLOURS[grid.actions[i]] || "#ccc";
        mix.appendChild(bar);
      });
      if (cell.probabilities.length === 0) td.style.background = "#555";
      td.appendChild(mix);
      const label = document.createElement("span");
      label.className = "label";
      label.textContent = cell.hand;
      td.appendChild(label);
      td.addEventListener("mouseenter", () => { $("cell-detail").textContent = td.title; });
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  document.body.dataset.ready = "1";
}

// "as kd 7H" -> "AsKd7h": ranks upper case, suits lower case, no separators.
function normalBoard(text) {
  return text.replace(/[\s,]+/g, "").replace(/([0-9a-z])([a-z])/gi,
                                               (m, r, s) => r.toUpperCase() + s.toLowerCase());
}

// The server's messages name `hulhe show`'s options; the page's fields have names of their own.
function pageWords(message) {
  return message.replace(/--board/g, "the board").replace(/--sequence/g, "the betting sequence");
}

function clearGrid() {
  $("grid").replaceChildren();
  $("legend").replaceChildren();
  $("where").textContent = "";
  $("cell-detail").textContent = "";
}

async function show() {
  $("error").textContent = "";
  $("board").value = normalBoard($("board").value);
  const params = new URLSearchParams({ sequence: $("sequence").value.trim(), board: $("board").value });
  let json = null;
  let ok = false;
  try {
    const response = await fetch("/api/explorer?" + params);
    ok = response.ok;
    json = await response.json();
  } catch (e) {
    json = { error: "the server does not answer (is hulhe serve still running?)" };
  }
  if (!ok) {
    // No grid of an earlier query beside the error of this one.
    clearGrid();
    $("error").textContent = pageWords(json.error || "the server refused the query");
    document.body.dataset.ready = "1";
    return;
  }
  draw(json);
}

$("show").addEventListener("click", show);
for (const id of ["sequence", "board"])
  $(id).addEventListener("keydown", (e) => { if (e.key === "Enter") show(); });

fetch("/api/info").then((r) => r.json()).then((info) => {
  $("game-line").textContent = info.game + " against " + info.opponent;
  if (!info.explorer) $("error").textContent = "this opponent has no strategy table to explore";
  else show();
});
