// The lobby: create a game (seats, bots, think time, seed) and list this browser's games with their state.
import { ApiError, LANGUAGE, api, forgetGame, storedGames, t, text } from "./common.js";
import { GAMES_CHANGED, createGame, nameInput, say } from "./created-game.js";

/** The graded bots (ginnyo.players.levels), in a player's words: the option, then the few words. */
const LEVELS = ["level1", "level2", "level3", "level4", "level5"].map((level) =>
  [level, t(`js.lobby.${level}.option`), t(`js.lobby.${level}.words`)]);
const DEFAULT_BOT = "level3";
const PERSON_WORDS = t("js.lobby.person-words");
const lobby = document.querySelector("main.lobby");
/** Every bot kind's few words and the kinds that think (a sim), as the server fills them in (players/kinds.py). */
const BOT_KINDS = JSON.parse(lobby.dataset.botKinds);
const MORE_KINDS = Object.keys(BOT_KINDS.help).filter((kind) => !LEVELS.some(([level]) => level === kind));
/** The games whose state the list asks the server for: the newest, one request each, one at a time. */
const STATUS_LIMIT = 10;
const seatsBox = document.getElementById("seats");
const more = document.getElementById("more-kinds");

function kindWords(kind) {
  if (kind === "human") return PERSON_WORDS;
  const level = LEVELS.find(([value]) => value === kind);
  return level ? level[2] : `${kind}: ${BOT_KINDS.help[kind]}.`;
}

function kindSelect(index, kind) {
  const select = document.createElement("select");
  select.id = `kind-${index}`;
  select.name = "kind";
  select.append(new Option(t("js.lobby.person"), "human"));
  for (const [value, words] of LEVELS) select.append(new Option(words, value));
  // the raw kinds are offered once "More bot kinds" is open; a seat that holds one keeps it
  const shown = more.open ? MORE_KINDS : MORE_KINDS.filter((value) => value === kind);
  if (shown.length) {
    const group = document.createElement("optgroup");
    group.label = t("js.lobby.more-bots");
    for (const value of shown) group.append(new Option(t("js.lobby.bot", { kind: value }), value));
    select.append(group);
  }
  select.value = kind;
  return select;
}

function seatRow(index, kind, name) {
  const row = document.createElement("div");
  row.className = "seat-row";
  const label = text("label", t("js.lobby.seat", { number: index + 1 }));
  label.htmlFor = `kind-${index}`;
  const select = kindSelect(index, kind);
  const input = nameInput(`name-${index}`, t("js.lobby.seat-name", { number: index + 1 }));
  input.value = name;
  const note = text("p", kindWords(kind), "note kind-note");
  note.id = `kind-note-${index}`;
  select.setAttribute("aria-describedby", note.id);
  select.addEventListener("change", () => { note.textContent = kindWords(select.value); showThink(); });
  row.append(label, select, input, note);
  return row;
}

function seatKinds() {
  return [...seatsBox.querySelectorAll("select")].map((select) => select.value);
}

/** The think time is asked only when a seat's bot thinks (a sim kind). */
function showThink() {
  const thinks = seatKinds().some((kind) => BOT_KINDS.sim.includes(kind));
  document.getElementById("think-field").classList.toggle("hidden", !thinks);
}

function drawSeats() {
  const count = Number(document.getElementById("players").value);
  const kinds = seatKinds();
  const names = [...seatsBox.querySelectorAll("input")].map((input) => input.value);
  seatsBox.replaceChildren();
  for (let index = 0; index < count; index += 1) {
    seatsBox.append(seatRow(index, kinds[index] || (index === 0 ? "human" : DEFAULT_BOT), names[index] || ""));
  }
  showThink();
}

function drawMoreKinds() {
  const list = document.getElementById("more-kinds-list");
  for (const kind of MORE_KINDS) list.append(text("dt", kind), text("dd", BOT_KINDS.help[kind]));
}

function defaultName(kind, index) {
  if (kind === "human") return t("js.lobby.default-player", { number: index + 1 });
  return kind.startsWith("level") ? t("js.lobby.default-level", { level: kind.slice(5) }) : t("js.lobby.default-bot", { kind });
}

async function create(event) {
  event.preventDefault();
  const seats = seatKinds();
  const names = [...seatsBox.querySelectorAll("input")].map((input, index) =>
    input.value.trim() || defaultName(seats[index], index));
  if (!seats.includes("human")) {
    say(t("js.lobby.need-person"), true);
    return;
  }
  const body = { seats, names };
  const think = Number(document.getElementById("think").value);
  if (seats.some((kind) => BOT_KINDS.sim.includes(kind))) {
    if (!(think > 0 && think <= 10)) { say(t("js.lobby.think-bad"), true); return; }
    body.think = think;
  }
  await createGame(body, "seed", document.getElementById("create-button"));
}

let listing = 0;   // the list drawn last: the states asked for an older one are dropped

function drawGames() {
  listing += 1;
  const list = document.getElementById("games");
  list.replaceChildren();
  const games = storedGames();
  if (!games.length) list.append(text("li", t("js.lobby.none"), "note"));
  const states = [];
  for (const game of games) {
    const item = document.createElement("li");
    item.dataset.game = game.id;
    const when = new Date(game.created);
    item.append(text("span", `${game.seats.map((seat) => seat.name).join(` ${t("js.lobby.versus")} `)} — ${when.toLocaleString(LANGUAGE)} `));
    const state = text("span", "", "game-state");
    item.append(state);
    states.push([game, state]);
    for (const seat of game.seats.filter((entry) => entry.url)) {
      const link = text("a", t("js.lobby.as", { name: seat.name }));
      link.href = seat.url;
      item.append(" ", link);
    }
    if (game.hotseat_url) {
      const link = text("a", t("js.lobby.hotseat"));
      link.href = game.hotseat_url;
      item.append(" ", link);
    }
    const forget = text("button", t("js.lobby.forget"), "btn");
    forget.type = "button";
    forget.style.marginLeft = ".5rem";
    forget.addEventListener("click", () => { forgetGame(game.id); drawGames(); });
    item.append(forget);
    list.append(item);
  }
  showStates(states.slice(0, STATUS_LIMIT), listing);
}

/** Fills in each game's state, asking the server for one game after another. */
async function showStates(states, drawn) {
  for (const [game, shown] of states) {
    const state = await gameState(game);
    if (drawn !== listing) return;
    if (state === null) continue;
    shown.dataset.state = state.key;
    shown.textContent = state.words;
  }
}

/** A stored game's state for this browser's seats, from a seat's view (GET /api/games/{id}). */
async function gameState(game) {
  const held = game.seats.filter((seat) => seat.token);
  if (!held.length) return null;
  try {
    const view = await api("GET", `/api/games/${encodeURIComponent(game.id)}`, { token: held[0].token });
    if (view.finished) return { key: "finished", words: t("js.lobby.state.finished") };
    if (held.some((seat) => seat.seat === view.to_move)) return { key: "your-turn", words: t("js.lobby.state.your-turn") };
    return { key: "waiting", words: t("js.lobby.state.waiting", { name: view.names[view.to_move] }) };
  } catch (error) {
    if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
      return { key: "gone", words: t("js.lobby.state.gone") };
    }
    return null;
  }
}

/** Shows the links to the analysis board and the game review when this server has them (issue 28). */
async function probeTools() {
  try {
    const served = (await fetch("/analysis", { method: "HEAD" })).ok;
    document.getElementById("tools").classList.toggle("hidden", !served);
  } catch (error) { /* not served: no links */ }
}

document.getElementById("players").addEventListener("change", drawSeats);
document.getElementById("create").addEventListener("submit", create);
more.addEventListener("toggle", drawSeats);
document.addEventListener(GAMES_CHANGED, drawGames);
drawMoreKinds();
drawSeats();
drawGames();
probeTools();
