// The puzzle page: a puzzle's position on the board, tiles put down from the rack (tap or drag, or
// the keyboard) with the table's preview, then Submit; the verdict, the solution on the board and why.
import { api, columnLetter, rackCodes, t, text, tileElement, tileWords } from "./common.js";
import { BoardView } from "./board-view.js";

const $ = (id) => document.getElementById(id);
const words = $("puzzle-page").dataset;   // the page's words, in its language (data-msg-*)
const say = (message, error = false) => { $("status").textContent = message; $("status").classList.toggle("error", error); };
const fill = (template, values) => template.replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));
/** A puzzle theme (puzzles/themes.py) in the reader's words. */
const themeWords = (theme) => { const key = `js.puzzles.theme.${theme}`, words = t(key); return words === key ? theme : words; };

const state = { puzzle: null, placements: new Map(), selected: null, cursor: "H8", preview: null, seq: 0,
  answer: null, suppressClick: false };

const boardView = new BoardView($("board"), (name, byKeyboard) => squareClicked(name, byKeyboard),
  { onPointerDown: (event, name) => startDrag(event, { square: name }) });

const grid = () => state.puzzle.layout_grid;
const rack = () => (state.puzzle ? rackCodes(state.puzzle.position.rack) : []);
const board = () => (state.puzzle ? state.puzzle.position.board || {} : {});
const usedSlots = () => new Set([...state.placements.values()].map((placed) => placed.slot));
const answered = () => state.answer !== null;

// -- loading a puzzle ----------------------------------------------------------------------------
async function load(path) {
  say(words.msgLoading);
  try {
    show(await api("GET", path));
    say(words.msgPick);
  } catch (error) { say(error.message, true); }
}

function show(puzzle) {
  Object.assign(state, { puzzle, answer: null, preview: null, selected: null });
  state.seq += 1;   // a preview asked for the puzzle shown before is no answer for this one
  state.placements.clear();
  boardView.build(grid());
  state.cursor = boardView.centre();
  $("player-rating").textContent = String(puzzle.player_rating);
  const kind = words[`msgKind${puzzle.kind[0].toUpperCase()}${puzzle.kind.slice(1)}`] || puzzle.kind;
  $("task").textContent = (puzzle.daily ? `${words.msgDaily} — ` : "") + kind;
  $("facts").textContent = `${puzzle.id} · ${puzzle.rating} · ${puzzle.themes.map(themeWords).join(", ")}`;
  $("why").replaceChildren();
  $("verdict").textContent = "";
  $("verdict").className = "note";
  render();
}

// -- placing tiles ---------------------------------------------------------------------------------
function squareClicked(name, byKeyboard) {
  if (state.suppressClick) { state.suppressClick = false; return; }
  state.cursor = name;
  if (!state.puzzle || answered()) { render(); return; }
  if (state.placements.has(name)) { state.placements.delete(name); preview(); return; }
  if (board()[name]) { say(fill(words.msgTaken, { square: name })); render(); return; }
  if (state.selected === null) {
    if (byKeyboard && state.preview && state.preview.legal) { submit(); return; }
    say(words.msgPick); render(); return;
  }
  place(state.selected, name);
}

function place(slot, name) {
  const code = rack()[slot];
  if (code === undefined || usedSlots().has(slot)) return;
  state.placements.set(name, { slot, code });
  state.selected = null;
  say(`${tileWords(code)} → ${name}`);
  preview();
}

function rackClicked(slot, byKeyboard) {
  if (state.suppressClick) { state.suppressClick = false; return; }
  if (answered()) return;
  state.selected = state.selected === slot ? null : slot;
  render();
  if (byKeyboard && state.selected !== null) boardView.squares.get(state.cursor).focus();
}

function recall() {
  if (answered() || !state.placements.size) return;
  state.placements.clear();
  state.selected = null;
  preview();
}

// dragging (pointer events): rack -> square, square -> square, square -> rack
function startDrag(event, from) {
  if (event.button !== 0 || answered() || !state.puzzle) return;
  if (from.square && !state.placements.has(from.square)) return;
  const code = from.square ? state.placements.get(from.square).code : rack()[from.slot];
  const origin = { x: event.clientX, y: event.clientY };
  const pointer = event.pointerId;
  let ghost = null;
  event.currentTarget.setPointerCapture(pointer);
  const move = (moved) => {
    if (moved.pointerId !== pointer) return;
    if (!ghost && Math.hypot(moved.clientX - origin.x, moved.clientY - origin.y) < 6) return;
    if (!ghost) { ghost = tileElement(code); ghost.classList.add("drag-ghost"); document.body.append(ghost); }
    ghost.style.left = `${moved.clientX}px`;
    ghost.style.top = `${moved.clientY}px`;
  };
  const end = (ended) => {
    if (ended.pointerId !== pointer) return;
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", end);
    window.removeEventListener("pointercancel", end);
    if (!ghost) return;   // a click, handled by the click listener
    ghost.remove();
    if (ended.type === "pointercancel") return;
    state.suppressClick = true;
    setTimeout(() => { state.suppressClick = false; }, 0);
    const target = document.elementFromPoint(ended.clientX, ended.clientY);
    const square = target && target.closest(".sq");
    const name = square && square.dataset.square;
    const free = name && !state.placements.has(name) && !board()[name];
    if (from.square) {
      const placed = state.placements.get(from.square);
      if (free) { state.placements.delete(from.square); state.placements.set(name, placed); preview(); }
      else if (target && target.closest("#rack")) { state.placements.delete(from.square); preview(); }
    } else if (free) {
      place(from.slot, name);
    }
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
}

// -- the preview: the table's own judging of the placement -----------------------------------------
async function preview() {
  const seq = ++state.seq;
  state.preview = null;
  render();
  if (!state.placements.size) return;
  const placements = Object.fromEntries([...state.placements].map(([name, placed]) => [name, placed.code]));
  let result;
  try {
    result = await api("POST", `/api/puzzles/${encodeURIComponent(state.puzzle.id)}/preview`, { body: { placements } });
  } catch (error) {
    result = { legal: false, reason: error.message, score: 0, melds: [], joker_options: {} };
  }
  if (seq !== state.seq) return;
  state.preview = result;
  render();
}

function drawJoker() {
  const open = [...state.placements].find(([, placed]) => placed.code === "*");
  const options = open && state.preview && state.preview.joker_options ? state.preview.joker_options[open[0]] || [] : [];
  $("joker").classList.toggle("hidden", !open || !options.length);
  if (!open || !options.length) return;
  const select = $("joker-card");
  select.replaceChildren(text("option", "—", ""), ...options.map((code) => {
    const option = text("option", tileWords(code.toUpperCase()), "");
    option.value = code;
    return option;
  }));
  select.dataset.square = open[0];
}

// -- submitting and the verdict --------------------------------------------------------------------
async function submit(notation = null) {
  const action = notation || (state.preview && state.preview.legal ? state.preview.notation : null);
  if (!action || answered()) return;
  const puzzle = state.puzzle;
  try {
    const answer = await api("POST", `/api/puzzles/${encodeURIComponent(puzzle.id)}/attempt`, { body: { action } });
    if (state.puzzle !== puzzle) return;   // Next or Daily was clicked while it was on its way: of a puzzle gone
    state.answer = answer;
    $("player-rating").textContent = String(answer.rating);
    const verdict = $("verdict");
    verdict.textContent = `${answer.correct ? words.msgCorrect : words.msgWrong}${answer.rated ? "" : ` (${words.msgNotRated})`}`;
    verdict.className = `note ${answer.correct ? "correct" : "wrong"}`;
    say(verdict.textContent);
    const why = [fill(words.msgSolution, { solution: answer.solution.join(" · ") }),
      fill(words.msgMargin, { margin: answer.margin })];
    if (answer.second) why.push(fill(words.msgSecond, { notation: answer.second.notation, value: secondValue(answer.second) }));
    $("why").replaceChildren(...why.map((line) => text("li", line, "")));
    $("facts").textContent = `${state.puzzle.id} · ${answer.puzzle_rating} · ${state.puzzle.themes.map(themeWords).join(", ")}`;
    render();
    $("next").focus();
  } catch (error) { if (state.puzzle === puzzle) say(error.message, true); }
}

function secondValue(second) {
  if (second.spread !== undefined) return `${second.spread}`;
  if (second.mean !== undefined) return `${second.mean}`;
  return fill(words.msgPoints, { score: second.score });
}

// -- drawing ---------------------------------------------------------------------------------------
function render() {
  if (!state.puzzle) return;
  const pending = Object.fromEntries([...state.placements].map(([name, placed]) => [name, placed.code]));
  const shown = answered() ? state.answer.solution_placements || {} : {};
  boardView.draw(grid(), board(), { placed: shown, pending: answered() ? {} : pending, cursor: state.cursor });
  drawRack();
  drawJoker();
  const legal = Boolean(state.preview && state.preview.legal);
  $("submit").disabled = answered() || !legal;
  $("recall").disabled = answered() || !state.placements.size;
  if (!answered() && state.placements.size) {
    $("verdict").className = "note";
    $("verdict").textContent = state.preview === null ? words.msgChecking
      : legal ? fill(words.msgLegal, { notation: state.preview.notation, score: state.preview.score }) : state.preview.reason;
  }
}

function drawRack() {
  const box = $("rack");
  const codes = rack();
  const slots = [...box.querySelectorAll(".slot")];
  for (const extra of slots.splice(codes.length)) extra.remove();
  const used = usedSlots();
  codes.forEach((code, slot) => {
    let button = slots[slot];
    if (!button) {
      button = document.createElement("button");
      button.type = "button";
      button.className = "slot";
      button.dataset.slot = slot;
      button.addEventListener("click", (event) => rackClicked(slot, event.detail === 0));
      button.addEventListener("pointerdown", (event) => startDrag(event, { slot }));
      box.append(button);
    }
    if (button.dataset.code !== code) { button.dataset.code = code; button.replaceChildren(tileElement(code)); }
    button.classList.toggle("used", used.has(slot));
    button.classList.toggle("selected", state.selected === slot);
    button.setAttribute("aria-label", tileWords(code));
    button.setAttribute("aria-pressed", String(state.selected === slot));
    button.disabled = used.has(slot) || answered();
  });
}

// -- the keyboard and the controls ------------------------------------------------------------------
const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
$("board").addEventListener("keydown", (event) => {
  if (!ARROWS[event.key] || !boardView.grid) return;
  event.preventDefault();
  const square = boardView.squares.get(state.cursor);
  const [rows, cols] = ARROWS[event.key];
  const row = Math.max(0, Math.min(boardView.grid.length - 1, Number(square.dataset.row) + rows));
  const col = Math.max(0, Math.min(boardView.grid[0].length - 1, Number(square.dataset.col) + cols));
  state.cursor = `${columnLetter(col)}${row + 1}`;
  render();
  boardView.squares.get(state.cursor).focus();
});
$("rack").addEventListener("keydown", (event) => {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  const slots = [...$("rack").querySelectorAll(".slot:not(:disabled)")];
  const next = slots[Math.max(0, Math.min(slots.length - 1, slots.indexOf(document.activeElement) + (event.key === "ArrowLeft" ? -1 : 1)))];
  if (next) { event.preventDefault(); next.focus(); }
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && !(event.target.closest && event.target.closest("input, select"))) recall();
});
$("joker-card").addEventListener("change", (event) => {
  const placed = state.placements.get(event.target.dataset.square);
  if (placed && event.target.value) { placed.code = event.target.value; preview(); }
});
$("submit").addEventListener("click", () => submit());
$("recall").addEventListener("click", recall);
$("next").addEventListener("click", () => load(`/api/puzzles/next${$("theme").value ? `?theme=${encodeURIComponent($("theme").value)}` : ""}`));
$("daily").addEventListener("click", () => load("/api/puzzles/daily"));
$("theme").addEventListener("change", () => $("next").click());
$("notation").addEventListener("submit", (event) => {
  event.preventDefault();
  const typed = $("notation-text").value.trim();
  if (typed) submit(typed);
});

async function start() {
  try {
    const { themes } = await api("GET", "/api/puzzles/themes");
    for (const [theme, count] of Object.entries(themes)) {
      if (!count) continue;
      const option = text("option", `${themeWords(theme)} (${count})`, "");
      option.value = theme;
      $("theme").append(option);
    }
  } catch (error) { say(error.message, true); }
  await load(new URLSearchParams(location.search).has("daily") ? "/api/puzzles/daily" : "/api/puzzles/next");
}
start();
