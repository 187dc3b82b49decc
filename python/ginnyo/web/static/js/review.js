// The game review: a finished game stepped through move by move (buttons, arrow keys), each move
// against the best by score and by equity with its grade (win probability lost), the scores over the
// game in an SVG chart, each player's summary with their accuracy.
import { ApiError, api, gameEndWords, rackCodes, readFragment, t, text } from "./common.js";
import { BoardView, tileRow } from "./board-view.js";

const $ = (id) => document.getElementById(id);
const COLOURS = ["#2f6f3e", "#1f5fa8", "#c2571a", "#7b1fa2"];
const SVG = "http://www.w3.org/2000/svg";
const MAX_RECORD = 1024 * 1024;
const state = { review: null, step: 0 };
const board = new BoardView($("board"));

function say(message, error = false) {
  $("status").textContent = message;
  $("status").classList.toggle("error", error);
}

function show(review, note) {
  state.review = review;
  state.step = 0;
  say(note);
  $("cutoff").textContent = `${t("js.review.marked", { loss: review.big_loss })} ${gradeCuts(review.grade_cuts)}`;
  drawSummary();
  drawTurnList();
  go(0);
}

/** Steps 0 .. n-1 are the turns, step n the end of the game. */
function steps() { return state.review ? state.review.turns.length + 1 : 0; }

function go(step) {
  if (!state.review) return;
  state.step = Math.max(0, Math.min(steps() - 1, step));
  const review = state.review;
  const turns = review.turns;
  const atEnd = state.step === turns.length;
  $("first").disabled = $("prev").disabled = state.step === 0;
  $("next").disabled = $("last").disabled = atEnd;
  if (atEnd) {
    $("where").textContent = t("js.review.end-of-game", { count: turns.length });
    board.draw(review.layout_grid, review.final.board);
    $("rack-label").textContent = t("js.review.racks-left");
    $("rack").replaceChildren(text("span", finalReason(review), "note"));
    $("compare").replaceChildren(...review.names.map((name, seat) => row([name,
      t("js.review.penalty", { points: (review.final.penalties || [])[seat] ?? 0 }),
      t("js.review.final-score", { score: (review.final.scores || [])[seat] ?? "" })])));
    $("analyse").classList.add("hidden");
  } else {
    const turn = turns[state.step];
    const after = state.step + 1 < turns.length ? turns[state.step + 1].board : review.final.board;
    const placed = Object.fromEntries(turn.squares.map((square) => [square, after[square]]));
    $("where").textContent = t("js.review.turn-of", { turn: turn.turn, turns: turns.length, name: turn.name });
    board.draw(review.layout_grid, turn.board, { placed });
    $("rack-label").textContent = t("js.review.rack-of", { name: turn.name });
    $("rack").replaceChildren(tileRow(rackCodes(turn.rack)));
    drawComparison(turn);
    $("analyse").classList.remove("hidden");
    $("analyse").href = `/analysis#position=${encodeURIComponent(JSON.stringify(turn.position))}`;
  }
  for (const [index, item] of [...$("turns").children].entries()) {
    item.classList.toggle("current", index === state.step);
    if (index === state.step) item.scrollIntoView({ block: "nearest" });
  }
  drawChart();
}

function row(cells, header = false) {
  const tr = document.createElement("tr");
  for (const cell of cells) {
    const td = document.createElement(header ? "th" : "td");
    if (cell instanceof Node) td.append(cell); else td.textContent = cell;
    if (typeof cell === "number") td.className = "num";
    tr.append(td);
  }
  return tr;
}

function code(words) { return text("code", words); }

const percent = (share) => `${(100 * share).toFixed(1)}%`;

/** The grade cut-offs in words (ginnyo.analysis.grades): by the win probability lost, an endgame move by the points lost. */
function gradeCuts(cuts) {
  if (!cuts) return "";
  const words = (bounds, below, unit) => bounds.map(([name, cut]) => (cut === null
    ? t("js.review.cut.beyond", { grade: gradeName(name) }) : t(below, { grade: gradeName(name), cut: unit(cut) }))).join(", ");
  return t("js.review.cuts", { win: words(cuts.win_lost, "js.review.cut.below", percent),
    spread: words(cuts.spread_lost, "js.review.cut.up-to", String) });
}

/** A grade's name in words (none, small, medium, large: ginnyo.analysis.grades). */
function gradeName(grade) { return t(`js.review.grade.${grade}`); }

/** A move's grade as a badge (none, small, medium, large). */
function gradeBadge(grade) { return text("span", gradeName(grade), `grade grade-${grade}`); }

/** The graded review of a move, where the review has it: win probability before and after, or an endgame's spreads. */
function gradeRows(turn) {
  if (turn.grade === undefined) return [];
  const rows = [row([t("js.review.win-probability"), t("js.review.win", { best: percent(turn.win_before), played: percent(turn.win_after) }),
    t("js.review.lost", { lost: percent(turn.win_lost) }), gradeBadge(turn.grade)])];
  if (turn.endgame) {
    rows.push(row([t("js.review.endgame"), t("js.review.spread", { best: turn.spread_best, played: turn.spread_played }),
      t("js.review.lost-points", { count: turn.spread_lost }), turn.proven ? t("js.review.proven") : t("js.review.not-proven")]));
  }
  return rows;
}

/** A move's notation for the reader: a pass and a return in the page's words, a play as written. */
function moveWords(notation) {
  if (notation === "pass") return t("js.review.move.pass");
  if (notation.startsWith("return ")) return t("js.review.move.return", { tiles: notation.slice("return ".length) });
  return notation;
}

function drawComparison(turn) {
  const best = turn.best;
  const rows = [
    row(["", t("js.review.move"), t("js.review.score"), t("js.review.equity")], true),
    row([t("js.review.played"), code(moveWords(turn.played.notation)), turn.played.score, turn.played.equity]),
    row([t("js.review.best-score"), best ? code(moveWords(best.notation)) : t("js.review.no-play"), best ? best.score : 0, ""]),
    row([t("js.review.best-equity"), code(moveWords(turn.equity.notation)), turn.equity.score, turn.equity.equity]),
  ];
  const lost = document.createElement("span");
  lost.className = `lost${turn.big_loss ? " big" : ""}`;
  lost.textContent = t(turn.big_loss ? "js.review.lost-move-big" : "js.review.lost-move", { points: turn.points_lost, equity: turn.equity_lost });
  rows.push(row(["", lost, "", ""]));
  $("compare").replaceChildren(...rows, ...gradeRows(turn));
}

function drawTurnList() {
  const list = $("turns");
  list.replaceChildren();
  state.review.turns.forEach((turn, index) => {
    const item = document.createElement("li");
    item.append(text("span", `${turn.name}: ${moveWords(turn.played.notation)} (${turn.played.score})`));
    if (turn.points_lost || turn.equity_lost) item.append(text("span", ` — ${t("js.review.lost-short", { points: turn.points_lost, equity: turn.equity_lost })}`, "lost"));
    if (turn.grade !== undefined && turn.grade !== "none") item.append(" ", gradeBadge(turn.grade));
    item.classList.toggle("big-loss", turn.big_loss);
    item.dataset.turn = turn.turn;
    item.addEventListener("click", () => go(index));
    list.append(item);
  });
  const end = text("li", t("js.review.the-end"));
  end.addEventListener("click", () => go(state.review.turns.length));
  list.append(end);
}

function drawSummary() {
  const review = state.review;
  const graded = review.summary.some((player) => player.accuracy !== undefined);
  const rows = [row(["player", "turns", "points-lost", "equity-lost", "best-score", "best-equity",
    ...(graded ? ["accuracy", "grades"] : []), "final"].map((key) => t(`js.review.${key}`)), true)];
  for (const player of review.summary) {
    const share = (value) => (value === null ? "—" : `${Math.round(100 * value)}%`);
    const grades = graded ? [player.accuracy === null ? "—" : player.accuracy.toFixed(1),
      Object.entries(player.grades || {}).map(([name, count]) => `${count} ${gradeName(name)}`).join(", ")] : [];
    rows.push(row([review.names[player.player], player.turns, player.points_lost, player.equity_lost,
      share(player.best_moves), share(player.best_equity_moves), ...grades, (review.final.scores || [])[player.player] ?? ""]));
  }
  $("summary").replaceChildren(...rows);
  const winners = (review.final.winners || []).map((seat) => review.names[seat]).join(` ${t("js.review.and")} `);
  $("final").textContent = `${finalReason(review)}. ${winners ? t("js.review.won-by", { names: winners }) : t("js.review.won-by-nobody")}`;
}

/** How the reviewed game ended, in the reader's words. */
function finalReason(review) {
  const final = review.final;
  return gameEndWords(final.reason_code, final.reason_args, final.reason, review.names);
}

function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

/** The running scores, a line a player, with the final scores (penalties taken off) at the right,
 *  the big losses as red dots and the step shown as a vertical line. */
function drawChart() {
  const review = state.review;
  const turns = review.turns;
  const width = 640, height = 240, left = 40, right = 12, top = 12, bottom = 26;
  const series = review.names.map((_, seat) => [0, ...turns.map((turn) => turn.scores[seat]),
    (review.final.scores || [])[seat] ?? turns[turns.length - 1].scores[seat]]);
  const all = series.flat();
  const low = Math.min(0, ...all), high = Math.max(1, ...all);
  const x = (index) => left + (index / (turns.length + 1)) * (width - left - right);
  const y = (value) => top + (1 - (value - low) / (high - low)) * (height - top - bottom);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `${t("js.review.chart-label")}: ${review.names.map((name, seat) => `${name} ${series[seat][series[seat].length - 1]}`).join(", ")}` });
  for (const value of [low, Math.round((low + high) / 2), high]) {
    chart.append(svg("line", { x1: left, x2: width - right, y1: y(value), y2: y(value), stroke: "#e4dfd2" }));
    const label = svg("text", { x: left - 4, y: y(value) + 4, "text-anchor": "end", "font-size": 11, fill: "#5b5b5b" });
    label.textContent = String(value);
    chart.append(label);
  }
  const axis = svg("text", { x: width - right, y: height - 6, "text-anchor": "end", "font-size": 11, fill: "#5b5b5b" });
  axis.textContent = t("js.review.axis", { count: turns.length });
  chart.append(axis);
  chart.append(svg("line", { x1: x(state.step + 1), x2: x(state.step + 1), y1: top, y2: height - bottom,
    stroke: "#1d1d1d", "stroke-dasharray": "3 3", class: "step" }));
  series.forEach((points, seat) => {
    const played = points.slice(0, -1).map((value, index) => `${x(index)},${y(value)}`).join(" ");
    chart.append(svg("polyline", { points: played, fill: "none", stroke: COLOURS[seat % COLOURS.length], "stroke-width": 2 }));
    const last = points.length - 1;
    chart.append(svg("line", { x1: x(last - 1), y1: y(points[last - 1]), x2: x(last), y2: y(points[last]),
      stroke: COLOURS[seat % COLOURS.length], "stroke-width": 2, "stroke-dasharray": "4 3" }));
  });
  turns.forEach((turn, index) => {
    if (!turn.big_loss) return;
    const dot = svg("circle", { cx: x(index + 1), cy: y(turn.scores[turn.player]), r: 4, fill: "#a31515", class: "big-loss" });
    const title = svg("title", {});
    title.textContent = t("js.review.dot", { turn: turn.turn, name: turn.name, equity: turn.equity_lost });
    dot.append(title);
    dot.addEventListener("click", () => go(index));
    chart.append(dot);
  });
  $("chart").replaceChildren(chart);
  $("legend").replaceChildren(...review.names.map((name, seat) => {
    const item = text("span", name);
    const swatch = text("span", "", "swatch");
    swatch.style.background = COLOURS[seat % COLOURS.length];
    item.prepend(swatch);
    return item;
  }));
}

// -- where the game comes from ----------------------------------------------------------------
async function reviewText(content, name) {
  if (content.length > MAX_RECORD) { say(t("js.review.too-large", { name, bytes: MAX_RECORD }), true); return; }
  say(t("js.review.reviewing", { name }));
  let response;
  try {
    response = await fetch("/api/review", { method: "POST", headers: { "Content-Type": "text/plain" }, body: content });
  } catch (error) {
    say(t("js.review.refused", { reason: t("js.common.unreachable") }), true);
    return;
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) { say(t("js.review.refused", { reason: data && data.error ? data.error : response.status }), true); return; }
  show(data, t("js.review.of-record", { name, count: data.turns.length }));
}

async function fromLocation() {
  const parts = location.pathname.replace(/\/+$/, "").split("/");
  if (parts.length < 3) return;
  const game = decodeURIComponent(parts[parts.length - 1]);
  const [token] = readFragment(location.hash).values();
  try {
    const review = await api("GET", `/api/games/${encodeURIComponent(game)}/review`, { token });
    show(review, t("js.review.of-game", { game, count: review.turns.length }));
    $("upload").classList.add("hidden");
  } catch (error) {
    say(t("js.review.no-review", { reason: error instanceof ApiError ? error.message : error }), true);
  }
}

$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (file) await reviewText(await file.text(), file.name);
  $("file").value = "";
});
$("paste-review").addEventListener("click", () => reviewText($("paste").value, t("js.review.pasted")));
$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(state.step - 1));
$("next").addEventListener("click", () => go(state.step + 1));
$("last").addEventListener("click", () => go(steps() - 1));
const KEYS = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
document.addEventListener("keydown", (event) => {
  if (!state.review || event.target.closest("input, textarea, select")) return;
  if (event.key in KEYS) go(state.step + KEYS[event.key]);
  else if (event.key === "Home") go(0);
  else if (event.key === "End") go(steps() - 1);
  else return;
  event.preventDefault();
});
fromLocation();
