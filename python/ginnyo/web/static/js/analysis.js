// The analysis board: a position's plays by score, by equity and by simulation (POST /api/analysis and
// the simulation jobs of docs/WEB-ANALYSIS.md); every edit is checked by the server before it is kept.
import { api, rackCodes, t, text } from "./common.js";
import { BoardView, tileRow } from "./board-view.js";

const $ = (id) => document.getElementById(id);
const LIMIT = 10;
const state = { answer: null, cursor: null, shown: null, job: null, events: null };
const board = new BoardView($("board"), squareClicked);

function say(message, error = false) {
  $("status").textContent = message;
  $("status").classList.toggle("error", error);
}

let asked = Promise.resolve();   // the analyses asked for, each sent once the one before is answered

/** Analyses `position` (a FORMAT.md object or a position line, or a function making it from the position
 *  then shown) once the analyses asked before are answered: an edit builds on the edits before it, never on
 *  a position they have replaced.  The position is kept only when the server accepts it. */
function analyse(position, options = {}) {
  asked = asked.then(() => analyseNow(typeof position === "function" ? position(edited()) : position, options))
    .catch(() => false);
  return asked;
}

async function analyseNow(position, { edit = false, note = null } = {}) {
  let answer;
  try {
    answer = await api("POST", "/api/analysis", { body: { position, limit: LIMIT } });
  } catch (error) {
    say(t(edit ? "js.analysis.edit-refused" : "js.analysis.refused", { reason: error.message }), true);
    return false;
  }
  stopSimulation();
  clearSimulation();   // its candidates and progress were of the position before
  state.answer = answer;
  state.shown = null;
  say(note || t(edit ? "js.analysis.edit-accepted" : "js.analysis.analysed"));
  $("source").value = JSON.stringify(answer.position);
  render();
  return true;
}

/** A copy of the position shown, to edit. */
function edited() {
  return JSON.parse(JSON.stringify(state.answer ? state.answer.position : { board: {}, rack: "" }));
}

function render() {
  const answer = state.answer;
  const shown = state.shown;
  board.draw(answer.layout_grid, answer.position.board, {
    placed: shown ? shown.placements : {},
    marked: shown ? shown.melds.flatMap((meld) => meld.squares) : [],
    cursor: state.cursor,
  });
  $("rack").replaceChildren(tileRow(rackCodes(answer.position.rack)));
  $("facts").textContent = t("js.analysis.facts", { players: answer.players, seat: answer.to_move,
    scores: answer.scores.join(" – "), box: answer.box, unseen: answer.unseen });
  // one row a group: the orderings of one set of tiles on the same squares (moves --group)
  drawPlays($("by-score"), answer.by_score, (play) => `${play.notation}  ${t("js.analysis.pts", { score: play.score })}`
    + (play.orderings > 1 ? `  (${t("js.analysis.orderings", { count: play.orderings })})` : ""));
  if (!answer.by_score.length && answer.no_play) {
    const { reason_code: code, reason_args: args } = answer.no_play;
    // the reason in the reader's words by its code (position/plays_json.py), else the server's line
    const key = `js.analysis.no-play-reason.${code}`, worded = code ? t(key, args || {}) : key;
    const reason = worded === key ? answer.no_play.reason : worded;
    $("by-score").replaceChildren(text("li", reason ? t("js.analysis.no-play-because", { reason }) : t("js.analysis.no-play"), "note"));
  }
  // a 2-player endgame or pre-endgame: the solver's move first (best-move --equity's answer), the static ranking after it
  const solver = answer.endgame;
  drawPlays($("by-equity"), solver ? [solver, ...answer.by_equity] : answer.by_equity,
    (play) => (play === solver
      ? `${play.notation}  ${t("js.analysis.pts", { score: play.score })}, ${spreadWords(play)}`
        + (play.proven ? "" : ` ${t("js.analysis.not-proven-mark")}`)
      : `${play.notation}  ${t("js.analysis.pts", { score: play.score })}, ${t("js.analysis.equity", { equity: play.equity.toFixed(1) })}`));
  if (solver) $("by-equity").firstElementChild.classList.add("solver");
  $("equity-note").textContent = solver
    ? t(`js.analysis.solver-note.${solver.source === "endgame" ? "endgame" : "pre-endgame"}`, {
      box: solver.source === "endgame" ? t("js.analysis.box-empty") : t("js.analysis.box-tiles", { count: solver.box }),
      spread: signed(solver.spread), proven: t(solver.proven ? "js.analysis.proven" : "js.analysis.not-proven") })
    : "";
  fillForms(answer.position);
}

function signed(value) { return `${value > 0 ? "+" : ""}${value}`; }

/** The solver's spread in words: "endgame spread +5", or "expected spread +3.2" before the endgame. */
function spreadWords(solved) {
  return t(solved.source === "endgame" ? "js.analysis.endgame-spread" : "js.analysis.expected-spread", { spread: signed(solved.spread) });
}

function drawPlays(list, plays, words) {
  list.replaceChildren();
  for (const play of plays) {
    const item = document.createElement("li");
    const button = text("button", words(play));
    button.type = "button";
    button.dataset.notation = play.notation;
    button.addEventListener("click", () => showPlay(play));
    if (state.shown && state.shown.notation === play.notation) item.classList.add("shown");
    item.append(button);
    list.append(item);
  }
}

/** A play on the board with its melds and their scores. */
function showPlay(play) {
  state.shown = { notation: play.notation, placements: play.placements || {}, melds: play.melds || [] };
  const parts = [t("js.analysis.detail", { notation: play.notation, count: play.score })];
  if (play.equity !== undefined) {
    parts.push(t("js.analysis.detail.leave", { leave: (play.leave || []).join(" ") || "—",
      value: `${play.leave_value >= 0 ? "+" : ""}${play.leave_value}`, equity: play.equity }));
  }
  if (play.mean !== undefined && play.mean !== null) parts.push(t("js.analysis.detail.simulated", { mean: play.mean }));
  if (play.line) parts.push(t("js.analysis.detail.line", { spread: signed(play.spread), line: play.line.join(" | ") }));
  $("detail-text").textContent = parts.join("; ");
  $("detail-melds").replaceChildren(...state.shown.melds.map((meld) => text("li",
    `${t(`js.common.meld.${meld.kind}`)} ${meld.squares[0]}–${meld.squares[meld.squares.length - 1]}: ${(meld.tiles || []).join(" ")} = ${meld.score}`)));
  if (!state.shown.melds.length) $("detail-melds").replaceChildren(text("li", t("js.analysis.no-meld"), "note"));
  render();
}

function fillForms(position) {
  // the field being typed in is left as it is: an answer to an edit before may come meanwhile
  const fill = (id, value) => { if (document.activeElement !== $(id)) $(id).value = value; };
  fill("rack-text", position.rack);
  fill("sets", String(position.sets || 1));
  fill("players", position.players ?? "");
  fill("to-move", position.to_move ?? "");
  fill("scores", Array.isArray(position.scores) ? position.scores.join(" ") : "");
  fill("unseen", position.unseen ?? "");
  fill("layout", Array.isArray(position.layout) ? position.layout.join("\n") : (position.layout || "standard"));
}

// -- edits --------------------------------------------------------------------------------
function squareClicked(name) {
  state.cursor = name;
  $("square-name").textContent = name;
  const code = state.answer && state.answer.position.board[name];
  $("tile-code").value = code || "";
  $("tile-code").focus();
  if (state.answer) render();
}

function placeTile(event) {
  event.preventDefault();
  if (!state.cursor) { say(t("js.analysis.square-first"), true); return; }
  const square = state.cursor, code = $("tile-code").value.trim();
  analyse((position) => {
    if (code) position.board[square] = code; else delete position.board[square];
    return position;
  }, { edit: true });
}

function removeTile() {
  if (!state.cursor) { say(t("js.analysis.square-first"), true); return; }
  const square = state.cursor;
  analyse((position) => { delete position.board[square]; return position; }, { edit: true });
}

function setRack(event) {
  event.preventDefault();
  const rack = $("rack-text").value.trim();
  analyse((position) => Object.assign(position, { rack }), { edit: true });
}

/** A whole number typed, or the text itself (so that the server names what is wrong). */
function number(value) {
  return /^-?\d+$/.test(value.trim()) ? Number(value) : value.trim();
}

function setFields(event) {
  event.preventDefault();
  const fields = { sets: number($("sets").value) };   // as typed now; a field left empty is taken out
  for (const [id, key] of [["players", "players"], ["to-move", "to_move"]]) {
    const value = $(id).value.trim();
    fields[key] = value ? number(value) : undefined;
  }
  const scores = $("scores").value.trim();
  fields.scores = scores ? scores.split(/[\s,]+/).map(number) : undefined;
  fields.unseen = $("unseen").value.trim() || undefined;
  const layout = $("layout").value.trim();
  fields.layout = !layout || layout === "standard" ? "standard" : layout.split(/\s*\n\s*/);
  analyse((position) => {
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) delete position[key]; else position[key] = value;
    }
    return position;
  }, { edit: true });
}

// -- the position as text ---------------------------------------------------------------------
/** The text box's position: sent as text (JSON or a line), read by the server as best-move reads a file. */
function sourceValue() {
  const source = $("source").value.trim();
  if (!source) { say(t("js.analysis.paste-first"), true); return null; }
  return source;
}

async function copy(what) {
  if (!state.answer) { say(t("js.analysis.analyse-first"), true); return; }
  const content = what === "json" ? JSON.stringify(state.answer.position) : state.answer.line;
  $("source").value = content;
  $("source").select();
  try {
    await navigator.clipboard.writeText(content);
    say(t(what === "json" ? "js.analysis.copied-json" : "js.analysis.copied-line"));
  } catch (error) {
    say(t(what === "json" ? "js.analysis.selected-json" : "js.analysis.selected-line"));
  }
}

// -- the simulation -----------------------------------------------------------------------------
async function startSimulation(event) {
  event.preventDefault();
  if (!state.answer) { say(t("js.analysis.analyse-first"), true); return; }
  stopSimulation();
  const body = { position: state.answer.position };
  for (const key of ["rollouts", "candidates", "plies", "seed"]) body[key] = number($(`sim-${key}`).value);
  let job;
  try {
    job = await api("POST", "/api/analysis/simulations", { body });
  } catch (error) {
    say(t("js.analysis.sim-refused", { reason: error.message }), true);
    return;
  }
  state.job = job;
  drawSimulation(job);
  const events = new EventSource(job.events);
  state.events = events;
  const update = (message) => {
    const snapshot = JSON.parse(message.data);
    // a snapshot taken before the stop may come after the stop's answer: a finished job is never shown running again
    const stale = state.job && finished(state.job) && !finished(snapshot);
    if (state.job && snapshot.id === state.job.id && !stale) { state.job = snapshot; drawSimulation(snapshot); }
  };
  events.addEventListener("progress", update);
  events.addEventListener("end", (message) => { update(message); events.close(); if (state.events === events) state.events = null; });
  events.onerror = () => {
    if (state.events === events && state.job && !finished(state.job)) say(t("js.analysis.stream-broke"), true);
    events.close();
  };
}

function finished(job) { return ["done", "stopped", "failed"].includes(job.state); }

async function stopClicked() {
  const job = state.job;
  if (!job || finished(job)) return;
  try {
    const stopped = await api("POST", `/api/analysis/simulations/${job.id}/stop`);
    if (state.job && state.job.id === stopped.id) { state.job = stopped; drawSimulation(stopped); }
  } catch (error) {
    say(t("js.analysis.stop-refused", { reason: error.message }), true);
  }
}

/** Stops the job under way (its position is no longer the one shown). */
function stopSimulation() {
  if (state.events) { state.events.close(); state.events = null; }
  const job = state.job;
  if (job && !finished(job)) api("POST", `/api/analysis/simulations/${job.id}/stop`).catch(() => {});
  state.job = null;
  $("sim-stop").disabled = true;
}

/** Empties the simulation's list, progress and bar. */
function clearSimulation() {
  $("by-sim").replaceChildren();
  $("sim-progress").textContent = "";
  delete $("sim-progress").dataset.state;
  $("sim-bar").value = 0;
}

function drawSimulation(job) {
  const words = job.state === "failed" && job.error ? job.error : t(`js.analysis.job.${job.state}`);
  $("sim-progress").textContent = `${t("js.analysis.rollouts", { done: job.rollouts, asked: job.asked, state: words })}`
    + (job.to_end ? ` ${t("js.analysis.to-end")}` : `, ${t("js.analysis.plies", { count: job.plies })}`);
  $("sim-progress").dataset.state = job.state;
  $("sim-bar").max = job.asked;
  $("sim-bar").value = job.rollouts;
  $("sim-stop").disabled = finished(job);
  drawPlays($("by-sim"), job.candidates, (play) => {
    if (play.mean === null) return `${play.notation}  …`;
    const ci = play.ci95 ? ` [${play.ci95[0].toFixed(1)}, ${play.ci95[1].toFixed(1)}]` : "";
    // the win chance best-move --sim prints: the share of wins when played to the end, else the model's
    const chance = play.win_probability !== undefined ? play.win_probability : play.wins;
    const wins = chance !== undefined
      ? `, ${t(job.to_end ? "js.analysis.wins" : "js.analysis.win-chance", { percent: (100 * chance).toFixed(1) })}` : "";
    return `${play.notation}  ${play.mean >= 0 ? "+" : ""}${play.mean.toFixed(1)}${ci}${wins}`;
  });
}

// -- where the position comes from ------------------------------------------------------------
async function fromFragment() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (params.has("game") && params.has("token")) {
    const game = params.get("game");
    try {
      // the seat's own position; refused while people play the game (fair play: it opens once it is over)
      const view = await api("GET", `/api/games/${encodeURIComponent(game)}/analysis`, { token: params.get("token") });
      await analyse(view.position, { note: t(view.finished ? "js.analysis.seat-view-finished" : "js.analysis.seat-view",
        { seat: view.seat + 1, name: view.names[view.seat], game }) });
    } catch (error) {
      say(t("js.analysis.no-game", { reason: error.message }), true);
    }
    return;
  }
  if (params.has("position")) {
    await analyse(params.get("position"), { note: t("js.analysis.from-review") });
    return;
  }
  await analyse({ board: {}, rack: "" }, { note: t("js.analysis.empty") });
}

$("analyse").addEventListener("click", () => { const value = sourceValue(); if (value) analyse(value); });
$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (!file) return;
  if (file.size > 64 * 1024) { say(t("js.analysis.too-large", { name: file.name }), true); return; }
  $("source").value = await file.text();
  const value = sourceValue();
  if (value) analyse(value, { note: t("js.analysis.analysed-file", { name: file.name }) });
  $("file").value = "";
});
$("square-form").addEventListener("submit", placeTile);
$("remove").addEventListener("click", removeTile);
$("rack-form").addEventListener("submit", setRack);
$("state-form").addEventListener("submit", setFields);
$("copy-json").addEventListener("click", () => copy("json"));
$("copy-line").addEventListener("click", () => copy("line"));
$("sim-form").addEventListener("submit", startSimulation);
$("sim-stop").addEventListener("click", stopClicked);
window.addEventListener("hashchange", fromFragment);
fromFragment();
