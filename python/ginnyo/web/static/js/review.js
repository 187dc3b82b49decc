// The game review: a finished game stepped through move by move (buttons, arrow keys), each move
// against the best by score and by equity with its grade (win probability lost), the scores over the
// game in an SVG chart, each player's summary with their accuracy.
import { ApiError, api, rackCodes, readFragment, text } from "./common.js";
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
  $("cutoff").textContent = `Marked in red: a move that lost ${review.big_loss} points of equity or more against the best by equity. `
    + gradeCuts(review.grade_cuts);
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
    $("where").textContent = `End of the game (${turns.length} turns)`;
    board.draw(review.layout_grid, review.final.board);
    $("rack-label").textContent = "Racks left";
    $("rack").replaceChildren(text("span", review.final.reason || "", "note"));
    $("compare").replaceChildren(...review.names.map((name, seat) => row([name,
      `penalty −${(review.final.penalties || [])[seat] ?? 0}`, `final ${(review.final.scores || [])[seat] ?? ""}`])));
    $("analyse").classList.add("hidden");
  } else {
    const turn = turns[state.step];
    const after = state.step + 1 < turns.length ? turns[state.step + 1].board : review.final.board;
    const placed = Object.fromEntries(turn.squares.map((square) => [square, after[square]]));
    $("where").textContent = `Turn ${turn.turn} of ${turns.length}: ${turn.name}`;
    board.draw(review.layout_grid, turn.board, { placed });
    $("rack-label").textContent = `${turn.name}'s rack`;
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
    ? `${name} beyond` : `${name} ${below} ${unit(cut)}`)).join(", ");
  return `Grades by the win probability lost: ${words(cuts.win_lost, "below", percent)}; `
    + `an endgame move by the points lost: ${words(cuts.spread_lost, "up to", String)}.`;
}

/** A move's grade as a badge (none, small, medium, large). */
function gradeBadge(grade) { return text("span", grade, `grade grade-${grade}`); }

/** The graded review of a move, where the review has it: win probability before and after, or an endgame's spreads. */
function gradeRows(turn) {
  if (turn.grade === undefined) return [];
  const rows = [row(["win probability", `${percent(turn.win_before)} with the best, ${percent(turn.win_after)} as played`,
    `lost ${percent(turn.win_lost)}`, gradeBadge(turn.grade)])];
  if (turn.endgame) {
    rows.push(row(["endgame (exact)", `spread ${turn.spread_best} with the best, ${turn.spread_played} as played`,
      `lost ${turn.spread_lost} points`, turn.proven ? "proven" : "not proven"]));
  }
  return rows;
}

function drawComparison(turn) {
  const best = turn.best;
  const rows = [
    row(["", "move", "score", "equity"], true),
    row(["played", code(turn.played.notation), turn.played.score, turn.played.equity]),
    row(["best by score", best ? code(best.notation) : "no legal play", best ? best.score : 0, ""]),
    row(["best by equity", code(turn.equity.notation), turn.equity.score, turn.equity.equity]),
  ];
  const lost = document.createElement("span");
  lost.className = `lost${turn.big_loss ? " big" : ""}`;
  lost.textContent = `lost ${turn.points_lost} points and ${turn.equity_lost} equity${turn.big_loss ? " — a big loss" : ""}`;
  rows.push(row(["", lost, "", ""]));
  $("compare").replaceChildren(...rows, ...gradeRows(turn));
}

function drawTurnList() {
  const list = $("turns");
  list.replaceChildren();
  state.review.turns.forEach((turn, index) => {
    const item = document.createElement("li");
    item.append(text("span", `${turn.name}: ${turn.played.notation} (${turn.played.score})`));
    if (turn.points_lost || turn.equity_lost) item.append(text("span", ` — lost ${turn.points_lost} pts, ${turn.equity_lost} eq`, "lost"));
    if (turn.grade !== undefined && turn.grade !== "none") item.append(" ", gradeBadge(turn.grade));
    item.classList.toggle("big-loss", turn.big_loss);
    item.dataset.turn = turn.turn;
    item.addEventListener("click", () => go(index));
    list.append(item);
  });
  const end = text("li", "the end");
  end.addEventListener("click", () => go(state.review.turns.length));
  list.append(end);
}

function drawSummary() {
  const review = state.review;
  const graded = review.summary.some((player) => player.accuracy !== undefined);
  const rows = [row(["player", "turns", "points lost", "equity lost", "best by score", "best by equity",
    ...(graded ? ["accuracy", "grades"] : []), "final"], true)];
  for (const player of review.summary) {
    const share = (value) => (value === null ? "—" : `${Math.round(100 * value)}%`);
    const grades = graded ? [player.accuracy === null ? "—" : player.accuracy.toFixed(1),
      Object.entries(player.grades || {}).map(([name, count]) => `${count} ${name}`).join(", ")] : [];
    rows.push(row([review.names[player.player], player.turns, player.points_lost, player.equity_lost,
      share(player.best_moves), share(player.best_equity_moves), ...grades, (review.final.scores || [])[player.player] ?? ""]));
  }
  $("summary").replaceChildren(...rows);
  const winners = (review.final.winners || []).map((seat) => review.names[seat]).join(" and ");
  $("final").textContent = `${review.final.reason || ""}. Won by ${winners || "nobody"}.`;
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
    "aria-label": `scores over the game: ${review.names.map((name, seat) => `${name} ${series[seat][series[seat].length - 1]}`).join(", ")}` });
  for (const value of [low, Math.round((low + high) / 2), high]) {
    chart.append(svg("line", { x1: left, x2: width - right, y1: y(value), y2: y(value), stroke: "#e4dfd2" }));
    const label = svg("text", { x: left - 4, y: y(value) + 4, "text-anchor": "end", "font-size": 11, fill: "#5b5b5b" });
    label.textContent = String(value);
    chart.append(label);
  }
  const axis = svg("text", { x: width - right, y: height - 6, "text-anchor": "end", "font-size": 11, fill: "#5b5b5b" });
  axis.textContent = `turn (${turns.length}), then the final scores`;
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
    title.textContent = `turn ${turn.turn}: ${turn.name} lost ${turn.equity_lost} equity`;
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
  if (content.length > MAX_RECORD) { say(`Refused: ${name} is larger than ${MAX_RECORD} bytes`, true); return; }
  say(`Reviewing ${name}…`);
  let response;
  try {
    response = await fetch("/api/review", { method: "POST", headers: { "Content-Type": "text/plain" }, body: content });
  } catch (error) {
    say("Refused: the server cannot be reached", true);
    return;
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) { say(`Refused: ${data && data.error ? data.error : response.status}`, true); return; }
  show(data, `The review of ${name}: ${data.turns.length} turns.`);
}

async function fromLocation() {
  const parts = location.pathname.replace(/\/+$/, "").split("/");
  if (parts.length < 3) return;
  const game = decodeURIComponent(parts[parts.length - 1]);
  const [token] = readFragment(location.hash).values();
  try {
    const review = await api("GET", `/api/games/${encodeURIComponent(game)}/review`, { token });
    show(review, `The review of game ${game}: ${review.turns.length} turns.`);
    $("upload").classList.add("hidden");
  } catch (error) {
    say(`No review: ${error instanceof ApiError ? error.message : error}`, true);
  }
}

$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (file) await reviewText(await file.text(), file.name);
  $("file").value = "";
});
$("paste-review").addEventListener("click", () => reviewText($("paste").value, "the pasted record"));
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
