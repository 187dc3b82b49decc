// The Crazy Rummy table: one seat's view (over the WS), its turn made step by step, each step judged by the server.
import { LANGUAGE, SUITS, api, gameEndWords, readFragment, refusal, showWatchers, storeGame, t, tileElement, text } from "./common.js";
import { chatPanel } from "./chat.js";
import { drawClockCells } from "./clocks.js";
import { setUpEndings } from "./endings.js";

const gameId = decodeURIComponent(location.pathname.split("/").pop());
const seats = readFragment(location.hash);
const watching = !seats.size;   // no seat in the URL: a watcher of a game open to watchers
let chat = { heard: () => {}, catchUp: () => {} };   // the chat panel (chat.js), once drawn
const $ = (id) => document.getElementById(id);
const state = { view: null, seat: null, token: null, chosen: new Set(), busy: false, covered: false, roundEnd: false,
  viewAt: 0 };   // viewAt: performance.now() when the view arrived: a timed game's running clock ticks from then
// the last round whose end this screen has shown, per game and the seats it holds (a reload shows it once)
const shownKey = `crazy-round-shown:${gameId}:${watching ? "watch" : [...seats.keys()].join(",")}`;

function say(message, error = false) {
  const status = $("status");
  status.textContent = message;
  status.classList.toggle("error", error);
}

function pickSeat(view) {
  // hot-seat: the seat to move when this screen holds its token, else the first seat
  if (view && view.to_move !== null && seats.has(view.to_move)) return view.to_move;
  return state.seat ?? [...seats.keys()][0];
}

function codes(cards) { return String(cards || "").split(/\s+/).filter(Boolean); }

function cardElement(code) {
  const [physical] = code.split("=");
  const tile = tileElement(physical);
  tile.dataset.code = physical;
  if (code.includes("=")) {
    tile.classList.add("wild");
    tile.title = t("js.crazy.wild-for", { card: code.split("=")[1] });
    tile.append(text("span", `=${code.split("=")[1]}`, "stands"));
  }
  return tile;
}

// -- the server's lines in the reader's words: each line's code and arguments (docs/WEB.md), worded by the
// page's messages; an English page shows the server's own line (it says most), as does a line of a code
// this page has no words for.

/** Card codes in signs, the same in every language: "7D=KC TH" -> "7♦=K♣ 10♥". */
function signs(cards) {
  return String(cards).replace(/\b(10|[A2-9TJQK])([CDHS])\b/gi,
    (whole, rank, suit) => `${rank.toUpperCase() === "T" ? "10" : rank.toUpperCase()}${SUITS[suit.toUpperCase()]}`);
}

/** A line's message `key` (of its code) with its arguments made readable (cards in signs, a seat by its
 *  name, a meld by its kind), else the server's `english` line. */
function worded(key, args, english, view) {
  if (LANGUAGE === "en" || key.endsWith(".undefined")) return english;
  const words = {};
  for (const [name, value] of Object.entries(args || {})) {
    words[name] = ["card", "wild", "cards", "meld", "draws"].includes(name) ? signs(value) : value;
  }
  if (args && "kind" in args) words.meld = t(`js.crazy.meld-kind.${args.kind}`, { cards: signs(args.meld) });
  if (args && "seat" in args) words.name = view.names[args.seat] ?? String(args.seat + 1);
  if (args && "owner" in args) words.name = view.names[args.owner] ?? String(args.owner + 1);
  const line = t(key, words);
  return line === key ? english : line;
}

/** A history entry in the reader's words. */
function historyWords(entry, view) { return worded(`js.crazy.history.${entry.code}`, entry.args, entry.text, view); }

/** The advisor's hint, line by line, in the reader's words (an English page: the server's lines). */
function hintWords(answer, view) {
  if (LANGUAGE === "en" || !Array.isArray(answer.steps)) return answer.lines;
  return answer.steps.map((step) => worded(`js.crazy.hint.${step.code}`, step.args, step.code, view));
}

/** How a round ended, in the reader's words. */
function endWords(last) { return last.end_code ? t(`js.crazy.end.${last.end_code}`) : last.end; }

function shownRound() {
  try { return Number(sessionStorage.getItem(shownKey)) || 0; } catch { return 0; }
}

function showRoundEnd(view) {
  // the hands left are public at a round's end (RULES §7); the new hand stays off the page until "next round"
  const last = view.last_round;
  state.roundEnd = true;
  $("round-end-title").textContent = last.out !== null
    ? t("js.crazy.round-over-out", { round: last.round, name: view.names[last.out] })
    : t(last.end === "stock empty" ? "js.crazy.round-over-stock" : "js.crazy.round-over-limit", { round: last.round });
  const table = $("round-end-hands");
  table.replaceChildren();
  const head = document.createElement("tr");
  head.append(text("th", t("js.crazy.player")), text("th", t("js.crazy.cards-left")),
    text("th", t("js.crazy.points"), "num"), text("th", t("js.crazy.total"), "num"));
  table.append(head);
  view.names.forEach((name, seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = String(seat);
    const cards = document.createElement("td");
    const left = document.createElement("div");
    left.className = "cards-left";
    for (const code of codes(last.hands[seat])) left.append(cardElement(code));
    if (!left.children.length) left.append(text("span", t("js.crazy.no-cards-left"), "note"));
    cards.append(left);
    row.append(text("td", name), cards, text("td", String(last.points[seat]), "num points"),
      text("td", String(view.scores[seat]), "num total"));
    table.append(row);
  });
  $("round-end-next").textContent = view.finished ? t("js.crazy.to-result") : t("js.crazy.next-round");
  $("round-end").classList.remove("hidden");
  $("round-end-next").focus();
}

function hideRoundEnd() {
  if (!state.roundEnd) return;
  state.roundEnd = false;
  $("round-end").classList.add("hidden");
  draw();
  if (state.covered) $("cover-show").focus();
}

function draw() {
  const view = state.view;
  if (!view) return;
  document.body.dataset.version = String(view.version);   // for tests and scripts: the view shown
  document.body.dataset.seat = String(view.seat);
  const mine = view.your_turn;
  const turn = view.turn;
  $("round").innerHTML = "";
  $("round").append(text("span", `${t("js.crazy.round", { round: view.round, rounds: view.rounds })} `),
    text("span", "ATJQK".includes(view.wild) ? t(`js.crazy.wild.${view.wild}`)
      : t("js.crazy.wild.number", { rank: view.wild }), "wild-rank"));
  $("turn").textContent = view.finished ? t("js.crazy.game-over")
    : mine ? (turn.drawn ? t("js.crazy.your-turn-play") : t("js.crazy.your-turn-draw"))
      : t("js.crazy.to-move", { name: view.names[view.to_move] });
  // players
  const players = $("players");
  players.replaceChildren();
  const head = document.createElement("tr");
  const titles = ["", t("js.crazy.player"), t("js.crazy.cards"), t("js.crazy.score")];
  if (view.clocks) titles.push(t("js.table.clock"));
  for (const title of titles) head.append(text("th", title));
  players.append(head);
  view.names.forEach((name, seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = String(seat);
    if (seat === view.to_move) row.className = "to-move";
    row.append(text("td", seat === view.dealer ? t("js.crazy.dealer") : ""), text("td", seat === view.seat ? t("js.crazy.you", { name }) : name),
      text("td", String(view.hand_sizes[seat])), text("td", String(view.scores[seat])));
    if (view.out_on_time.includes(seat)) row.children[1].append(text("span", ` ${t("js.crazy.out-on-time")}`, "note out-on-time"));
    if (view.resigned.includes(seat)) row.children[1].append(text("span", ` ${t("js.crazy.resigned")}`, "note resigned"));
    if (view.clocks) {
      const clock = text("td", "", "num clock");
      clock.setAttribute("aria-live", "off");   // the ticking digits are read when asked for, not every second
      row.append(clock);
    }
    players.append(row);
  });
  drawClocks();
  const last = view.last_round;
  $("last-round").textContent = last ? `${last.out !== null ? t("js.crazy.round-ended-out", { round: last.round, end: endWords(last), name: view.names[last.out] })
    : t("js.crazy.round-ended", { round: last.round, end: endWords(last) })} `
    + last.points.map((points, seat) => `${view.names[seat]} ${points}${last.hands[seat] ? ` (${signs(last.hands[seat])})` : ""}`).join(", ") : "";
  // melds
  const melds = $("melds");
  melds.replaceChildren();
  view.melds.forEach((list, owner) => {
    const line = document.createElement("div");
    line.className = "seat-melds";
    line.append(text("span", `${view.names[owner]}: `, "note"));
    list.forEach((meld, number) => {
      const box = document.createElement("button");
      box.type = "button";
      box.className = "meld";
      box.dataset.seat = owner;
      box.dataset.number = number;
      box.setAttribute("aria-label", t("js.crazy.meld-label", { name: view.names[owner], number: number + 1, meld }));
      for (const code of codes(meld)) box.append(cardElement(code));
      box.addEventListener("click", () => onto(owner, number));
      line.append(box);
    });
    if (!list.length) line.append(text("span", t("js.crazy.no-melds"), "note"));
    melds.append(line);
  });
  // piles
  const pile = codes(view.discard);
  const top = pile[pile.length - 1];
  $("stock").textContent = t("js.crazy.draw-stock", { count: view.stock });
  $("discard-pile").textContent = top ? t("js.crazy.take-discard", { card: top }) : t("js.crazy.discard-empty");
  const toDraw = mine && !turn.drawn;
  $("stock").disabled = !toDraw || state.busy;
  $("discard-pile").disabled = !toDraw || !turn.may_take_discard || state.busy;
  // hand
  const hand = $("hand");
  hand.replaceChildren();
  $("cover").classList.toggle("hidden", !state.covered);
  $("cover-title").textContent = t("js.crazy.pass-screen", { name: view.names[state.seat] });
  $("cover-show").disabled = view.seat !== state.seat;   // the next seat's view is still on its way
  for (const code of state.covered || state.roundEnd ? [] : codes(view.hand)) {
    const tile = cardElement(code);
    tile.tabIndex = 0;
    tile.setAttribute("role", "button");
    if (state.chosen.has(code)) tile.classList.add("chosen");
    if (turn && turn.card === code && view.your_turn) tile.classList.add("drawn");
    const toggle = () => { state.chosen.has(code) ? state.chosen.delete(code) : state.chosen.add(code); draw(); };
    tile.addEventListener("click", toggle);
    tile.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(); } });
    hand.append(tile);
  }
  const playing = mine && turn.drawn && !state.busy;
  $("meld").disabled = !playing || state.chosen.size < 3;
  $("discard").disabled = !playing || state.chosen.size !== 1;
  $("hint").disabled = !mine || state.busy;
  // history
  const history = $("history");
  history.replaceChildren();
  for (const entry of view.history.slice(-30)) {
    const round = t("js.crazy.history-round", { round: entry.round });
    history.append(text("li", `${round} ${view.names[entry.seat]}: ${historyWords(entry, view)}`));
  }
  history.scrollTop = history.scrollHeight;
  // end
  $("end").classList.toggle("hidden", !view.finished);
  if (view.finished) {
    const result = view.result;
    const names = (seats) => seats.map((seat) => view.names[seat]).join(", ");
    $("end-winners").textContent = result.aborted ? "" : t("js.crazy.final", {
      scores: result.final_scores.map((score, seat) => `${view.names[seat]} ${score}`).join(", "),
      winners: result.winners.map((seat) => view.names[seat]).join(` ${t("js.crazy.and")} `) });
    const onTime = names(result.out.filter((seat) => view.out_on_time.includes(seat)));
    if (onTime) $("end-winners").textContent += ` ${t("js.crazy.final-out", { names: onTime })}`;
    const resigned = names(result.out.filter((seat) => view.resigned.includes(seat)));
    if (resigned) $("end-winners").textContent += ` ${t("js.crazy.final-resigned", { names: resigned })}`;
    $("end-reason").textContent = endReason(result, view);
  }
  drawEnding(view);
}

/** How the game ended, when not by its 13 rounds: who resigned or lost on time last, or the abort
 *  (`js.table.end.CODE`, the Ginny-O table's words). */
function endReason(result, view) {
  return result.reason_code === "rounds-played" ? ""
    : gameEndWords(result.reason_code, result.reason_args, result.reason, view.names);
}

// -- resigning and aborting: asked first in a dialog, for the seat this screen shows (on a hot seat, the
// seat to move when the screen holds it) --
function drawEnding(view) {
  const out = view.finished || watching || view.seat === null || view.out_on_time.includes(view.seat)
    || view.resigned.includes(view.seat);
  $("resign").classList.toggle("hidden", out);
  $("abort").classList.toggle("hidden", out || !view.may_abort);
  $("resign").disabled = state.busy;
  $("abort").disabled = state.busy;
}

setUpEndings({
  gameId,
  who() {
    const view = state.view;
    return !view || view.finished ? null : { seat: view.seat, token: state.token, name: view.names[view.seat] };
  },
  busy(on) { state.busy = on; draw(); },
  answered(seat, seen) { if (seen.seat === state.seat) onView(seen); },
  say,
  words: { resign: { confirm: "js.crazy.resign.confirm" } },   // a resignation here ends one's own game alone
});

async function act(action) {
  state.busy = true;
  draw();
  const sent = [...state.chosen].sort().join(" ");
  try {
    const view = await api("POST", `/api/games/${gameId}/actions`, { token: state.token, body: { action, version: state.view.version } });
    // the cards chosen for the action are done with; a choice made while it was on its way (the socket's view
    // of a draw can come first) is kept
    if ([...state.chosen].sort().join(" ") === sent) state.chosen.clear();
    hideOptions();
    onView(view);
    say("");
  } catch (error) {
    say(t("js.crazy.refused", { reason: error.message }), true);
  } finally {
    state.busy = false;
    draw();
  }
}

function hideOptions() { $("options").classList.add("hidden"); $("options-list").replaceChildren(); }

function stepText(step) {
  if (step.swap) return t("js.crazy.step.swap", { card: step.card, wild: step.wild });
  if (step.lay_off) return t("js.crazy.step.lay-off", { meld: step.meld });
  return t("js.crazy.step.meld", { meld: step.meld });
}

async function choose(body) {
  try {
    const answer = await api("POST", `/api/games/${gameId}/preview`, { token: state.token, body });
    if (!answer.options.length) {
      say(t("js.crazy.refused", { reason: refusal(answer.reason_code, answer.reason_args, answer.reason) }), true);
      return;
    }
    if (answer.options.length === 1) { await act(answer.options[0]); return; }
    const list = $("options-list");
    list.replaceChildren();
    for (const step of answer.options) {
      const button = text("button", stepText(step), "btn");
      button.type = "button";
      button.dataset.step = JSON.stringify(step);
      button.addEventListener("click", () => act(step));
      list.append(button);
    }
    $("options").classList.remove("hidden");
    say(t("js.crazy.choose-wild"));
  } catch (error) {
    say(t("js.crazy.refused", { reason: error.message }), true);
  }
}

function onto(owner, number) {
  if (!state.view || !state.view.your_turn) return;
  if (!state.chosen.size) { say(t("js.crazy.choose-first")); return; }
  choose({ cards: [...state.chosen], onto: [owner, number] });
}

$("round-end-next").addEventListener("click", hideRoundEnd);
document.addEventListener("keydown", (event) => {   // Enter on the focused button clicks it; Esc anywhere
  if (state.roundEnd && event.key === "Escape") { event.preventDefault(); hideRoundEnd(); }
});
$("cover-show").addEventListener("click", () => {
  if (state.view && state.view.seat === state.seat) { state.covered = false; draw(); }
});
$("stock").addEventListener("click", () => act({ draw: "stock" }));
$("discard-pile").addEventListener("click", () => act({ draw: "discard" }));
$("meld").addEventListener("click", () => choose({ cards: [...state.chosen], onto: null }));
$("discard").addEventListener("click", () => act({ discard: [...state.chosen][0] }));
$("hint").addEventListener("click", async () => {
  try {
    const answer = await api("POST", `/api/games/${gameId}/preview`, { token: state.token, body: { hint: true } });
    $("hint-text").textContent = hintWords(answer, state.view).join("\n");
    $("hint-text").classList.remove("hidden");
  } catch (error) { say(t("js.crazy.no-hint", { reason: error.message }), true); }
});
/** The rematch's page for this screen's seats, each seat's place read from its own view (a rematch
 *  answer holds the asker's seat only); null until the rematch is made. */
async function rematchUrl() {
  const entries = await Promise.all([...seats].map(([, token]) =>
    api("GET", `/api/games/${gameId}`, { token }).then((view) => view.rematch)));
  if (entries.some((entry) => !entry)) return null;
  if (entries.length === 1) return entries[0].url;
  return `/play/${entries[0].id}#hotseat=${entries.map((entry) => `${entry.seat}:${entry.token}`).join(",")}`;
}

$("rematch").addEventListener("click", async () => {
  try {
    if (!(state.view && state.view.rematch)) {
      storeGame(await api("POST", `/api/games/${gameId}/rematch`, { token: state.token }));
    }
    const url = await rematchUrl();
    if (url) location.assign(url);
    else say(t("js.crazy.no-rematch-seat"), true);
  } catch (error) { say(t("js.crazy.no-rematch", { reason: error.message }), true); }
});
$("record").addEventListener("click", async (event) => {
  event.preventDefault();
  const response = await fetch(`/api/games/${gameId}/record`, { headers: { Authorization: `Bearer ${state.token}` } });
  if (!response.ok) { say(t("js.crazy.record-later"), true); return; }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = `crazy-${gameId}.jsonl`;
  document.body.append(link);
  link.click();
  link.remove();
});

/** Each seat's clock as of now (a timed game's). */
function drawClocks() {
  const view = state.view;
  if (view && view.clocks) drawClockCells($("players"), view.clocks, (performance.now() - state.viewAt) / 1000);
}

setInterval(drawClocks, 1000);

function onView(view) {
  if (state.view && view.version < state.view.version) return;
  const seat = watching ? null : pickSeat(view);
  if (seat !== view.seat) {   // hot-seat: the next seat's view, its hand covered until its player is here
    state.seat = seat;
    state.covered = true;
    state.chosen.clear();
    $("hint-text").classList.add("hidden");
    state.token = seats.get(seat);
    api("GET", `/api/games/${gameId}`, { token: state.token }).then(onView, (error) => say(error.message, true));
    return;
  }
  if (!state.view || state.view.version !== view.version) $("hint-text").classList.add("hidden");
  // a game already over when the page opens has its result in #end: no panel over it
  const openedOver = !state.view && view.finished;
  state.view = view;
  state.viewAt = performance.now();
  for (const code of [...state.chosen]) if (!codes(view.hand).includes(code)) state.chosen.delete(code);
  const ended = view.last_round;
  if (ended && ended.round > shownRound() && !openedOver) {
    try { sessionStorage.setItem(shownKey, String(ended.round)); } catch { /* a private window: shown each load */ }
    showRoundEnd(view);
  }
  draw();
}

function connect(seat, token, attempt = 0) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/events`);
  socket.addEventListener("open", () => {
    // the token stays out of the URL; a watcher has none
    socket.send(JSON.stringify(token === null ? { type: "watch" } : { type: "auth", token }));
    $("conn").textContent = t("js.common.live");
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.presence) chat.catchUp();   // a socket's first view: what was said before it listened, read again
    if (message.type === "view") showWatchers(message.view.watchers);
    else if (message.type === "presence") showWatchers(message.watchers);
    if (message.type === "view" && message.view.seat === state.seat) onView(message.view);
    else if (message.type === "view") api("GET", `/api/games/${gameId}`, { token: state.token }).then(onView, () => {});
    else if (message.type === "chat") chat.heard(message.message);
    else if (message.type === "error") say(message.error, true);
  });
  socket.addEventListener("close", (event) => {
    $("conn").textContent = t("js.common.offline");
    if (event.code < 4000) setTimeout(() => connect(seat, token, attempt + 1), Math.min(5000, 200 * 2 ** attempt));
  });
}

if (watching) {
  api("GET", `/api/games/${gameId}`).then((seen) => {   // a game open to watchers: no hand, no controls
    document.body.classList.add("watching");
    $("watching").textContent = t("js.common.watching");
    $("watching").classList.remove("hidden");
    onView(seen);
    connect(null, null);
    chat = chatPanel($("chat"), gameId, null);
  }, () => say(t("js.common.needs-link"), true));
} else {
  state.seat = [...seats.keys()][0];
  state.token = seats.get(state.seat);
  const [firstSeat, firstToken] = [...seats.entries()][0];
  connect(firstSeat, firstToken);
  chat = chatPanel($("chat"), gameId, firstToken);
}
