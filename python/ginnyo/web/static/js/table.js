// The table: the board, the seat's rack, live legality and scores, actions, live updates, the end.
import { api, cardWords, columnLetter, gameEndWords, rackCodes, readFragment, refusal, showWatchers, storeGame, t, text, tileElement, tileWords } from "./common.js";
import { BoardView } from "./board-view.js";
import { chime, setSound, soundOn } from "./chime.js";
import { arrange, forgetOrder, loadOrder, movedIndexes, saveOrder, shuffledIndexes } from "./rack-order.js";
import { drawScoresheet, moveWords, sheetMove } from "./scoresheet.js";
import { drawTracker } from "./tracker.js";
import { chatPanel } from "./chat.js";
import { drawClockCells } from "./clocks.js";
import { setUpEndings } from "./endings.js";

const gameId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());
const tokens = readFragment(location.hash);
const hotseat = tokens.size > 1;
const watching = !tokens.size;   // no seat in the URL: a watcher of a game open to watchers
const WATCHER = -1;              // the watcher's "seat" among the views
let chat = { heard: () => {}, catchUp: () => {} };   // the chat panel (chat.js), once drawn
const $ = (id) => document.getElementById(id);

const state = {
  views: new Map(),        // seat -> its latest view
  shown: null,             // the seat whose rack is on screen
  covered: false,          // hot-seat: the rack hidden until its player shows it
  placements: new Map(),   // square name -> {slot, code}; code "*" is a joker without identity yet
  selected: null,          // the rack slot picked to place next
  returning: false,
  picked: new Set(),       // rack slots picked to return
  preview: null,
  previewSeq: 0,
  cursor: null,            // the board square keyboard focus is on
  sending: false,
  recordFor: null,
  autoJoker: null,         // {name, code}: the joker given the only identity that fits, shown in the picker
  live: new Map(),         // seat -> socket open
  presence: null,          // seat -> whether any socket of that seat is open now (the server's "presence")
  suppressClick: false,    // a drag just ended: the click that follows it is not a click
  orders: new Map(),       // seat -> the player's own order of its rack (rack-order.js), or null
  heardTurns: null,        // how many turns of the history have been seen (and announced)
  clocksAt: new Map(),     // seat -> performance.now() when its view arrived: its clocks tick from there
};

// -- status line ---------------------------------------------------------------------------
function say(message, error = false) {
  const status = $("status");
  status.textContent = message;
  status.classList.toggle("error", error);
}

function view() { return state.views.get(state.shown) || null; }
function token() { return tokens.get(state.shown); }
function nameOf(seat) { const current = view(); return current ? current.names[seat] : t("js.table.seat", { number: seat + 1 }); }
function myTurn() { const current = view(); return Boolean(current && current.your_turn && !current.finished && !state.covered); }
/** The shown seat's rack in the page's order: the player's own arrangement, else the server's. */
function rack() {
  const current = view();
  if (!current) return [];
  const codes = rackCodes(current.position.rack);
  const order = state.orders.get(state.shown);
  return order ? arrange(order, codes) : codes;
}
function usedSlots() { return new Set([...state.placements.values()].map((placed) => placed.slot)); }

// -- views arriving ----------------------------------------------------------------------
function clearTurn() {
  state.placements.clear();
  state.selected = null;
  state.returning = false;
  state.picked.clear();
  state.preview = null;
  state.previewSeq += 1;
  state.autoJoker = null;
}

function onView(seat, incoming) {
  const before = state.views.get(seat);
  if (before && incoming.version < before.version) return;   // an older view overtaken by a newer one
  state.views.set(seat, incoming);
  state.clocksAt.set(seat, performance.now());
  keepOrder(seat, incoming);
  announce(incoming);
  if (state.shown === null) {
    state.shown = hotseat && tokens.has(incoming.to_move) ? incoming.to_move : seat;
    state.covered = hotseat && !incoming.finished;   // a hot-seat table starts with the rack hidden
  }
  if (hotseat) {
    if (incoming.finished) {
      state.covered = false;
    } else if (tokens.has(incoming.to_move) && incoming.to_move !== state.shown) {
      state.shown = incoming.to_move;
      state.covered = true;
      clearTurn();
    }
  }
  if (seat === state.shown && (!before || before.version !== incoming.version)) clearTurn();
  render();
}

/** The seat's own rack order brought up to its new rack (played tiles gone, drawn ones at the end). */
function keepOrder(seat, incoming) {
  if (!state.orders.has(seat)) state.orders.set(seat, loadOrder(gameId, seat));
  const order = state.orders.get(seat);
  if (!order) return;
  if (incoming.finished) { forgetOrder(gameId, seat); return; }   // kept for the racks' last look only
  const arranged = arrange(order, rackCodes(incoming.position.rack));
  state.orders.set(seat, arranged);
  saveOrder(gameId, seat, arranged);
}

/** The turns new since the last view, of seats not played from this screen, said in a line (read by
 *  screen readers, the focus left where it is) and with the chime when the sound is on. */
function announce(incoming) {
  const history = incoming.history || [];
  const heard = state.heardTurns;
  if (heard !== null && history.length <= heard) return;
  state.heardTurns = history.length;
  if (heard === null) return;   // the page has just opened: the history says what came before
  const others = history.slice(heard).filter((entry) => !tokens.has(entry.seat));
  if (!others.length) return;
  $("announce").textContent = `${others.map((entry) => moveWords(entry, incoming.names)).join("; ")}.`;
  chime();
}

async function join(seat, seatToken) {
  try {
    onView(seat, await api("GET", `/api/games/${encodeURIComponent(gameId)}`, { token: seatToken }));
  } catch (error) {
    say(t("js.table.cannot-join", { number: seat + 1, reason: error.message }), true);
  }
}

/** One live socket a seat; reconnects with backoff (0.5 s doubling to 10 s) until told the token is bad. */
function connect(seat, seatToken) {
  let attempt = 0;
  let refused = false;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const address = `${scheme}://${location.host}/api/games/${encodeURIComponent(gameId)}/events`;
  function open() {
    const socket = new WebSocket(address);
    socket.addEventListener("open", () => {
      // the token stays out of the URL; a watcher has none
      socket.send(JSON.stringify(seatToken === null ? { type: "watch" } : { type: "auth", token: seatToken }));
      if (attempt > 0) say(t("js.table.reconnected"));
      attempt = 0;
      state.live.set(seat, true);
      showConnection();
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      if (message.type === "view") {
        if (message.presence) {   // a socket's first view says it: what was said before it listened, read again
          state.presence = message.presence;
          chat.catchUp();
        }
        showWatchers(message.view.watchers);
        onView(seat, message.view);
      } else if (message.type === "presence") { state.presence = message.seats; showWatchers(message.watchers); render(); }
      else if (message.type === "chat") chat.heard(message.message);
      else if (message.type === "error") { refused = true; say(t("js.table.seat-error", { number: seat + 1, reason: refusal(message.code, message.args, message.error) }), true); }
    });
    socket.addEventListener("close", (event) => {
      state.live.set(seat, false);
      if (refused || event.code === 4401 || event.code === 4403 || event.code === 4404) {
        showConnection(t("js.table.not-connected"));
        return;
      }
      showConnection();
      if (attempt === 0) say(t("js.table.lost-connection"), true);
      const delay = Math.min(10000, 500 * 2 ** attempt);
      attempt += 1;
      setTimeout(open, delay);
    });
  }
  open();
}

function showConnection(words) {
  const all = (watching ? [WATCHER] : [...tokens.keys()]).every((seat) => state.live.get(seat));
  $("conn").textContent = words || (all ? t("js.common.live") : t("js.table.reconnecting"));
  $("conn").dataset.live = all ? "yes" : "no";
}

// -- the board (board-view.js draws it) ------------------------------------------------------
const boardView = new BoardView($("board"), (name, byKeyboard) => squareClicked(name, byKeyboard),
  { onPointerDown: (event, name) => startDrag(event, { square: name }) });

function drawBoard(current) {
  const grid = current.layout_grid;
  const fresh = !boardView.grid || boardView.grid.join("/") !== grid.join("/");
  if (fresh) { boardView.build(grid); state.cursor = boardView.centre(); }
  const pending = Object.fromEntries([...state.placements].map(([name, placed]) => [name, placed.code]));
  boardView.draw(grid, current.position.board || {},
    { pending, last: current.last && current.last.squares ? current.last.squares : [], cursor: state.cursor });
}

/** A square clicked (or Enter on it): take back the tile placed there, or put the picked rack
 *  tile on it; from the keyboard, Enter with nothing to do plays a legal placement. */
function squareClicked(name, byKeyboard) {
  if (state.suppressClick) { state.suppressClick = false; return; }
  state.cursor = name;
  const current = view();
  if (!current) return;
  if (state.placements.has(name)) {
    takeBack(name);
    return;
  }
  if (!myTurn()) { say(current.finished ? t("js.table.over") : t("js.table.wait-for", { name: nameOf(current.to_move) })); render(); return; }
  const playable = byKeyboard && state.selected === null && state.preview && state.preview.legal;
  if ((current.position.board || {})[name]) {
    if (playable) { play(); return; }
    say(t("js.table.taken", { name }));
    render();
    return;
  }
  if (state.selected === null) {
    if (playable) { play(); return; }
    say(t("js.table.pick-first"));
    render();
    return;
  }
  place(state.selected, name);
}

function place(slot, name) {
  if (state.returning) return;
  const code = rack()[slot];
  if (code === undefined || usedSlots().has(slot)) return;
  state.placements.set(name, { slot, code: code === "*" ? "*" : code });
  state.selected = null;
  say(code === "*" ? t("js.table.joker.choose", { square: name }) : t("js.table.on-square", { tile: tileWords(code), square: name }));
  preview();
}

function takeBack(name) {
  const placed = state.placements.get(name);
  state.placements.delete(name);
  say(t("js.table.back-on-rack", { tile: tileWords(rack()[placed.slot]) }));
  preview();
}

function recall() {
  if (state.returning) { state.returning = false; state.picked.clear(); render(); return; }
  if (!state.placements.size) return;
  clearTurn();
  say(t("js.table.recalled"));
  render();
}

// -- dragging (pointer events): rack -> square, square -> square, square -> rack ------------
function startDrag(event, from) {
  if (event.button !== 0 || state.returning || state.covered) return;
  // a rack tile may be moved along the rack at any time; onto the board only in the seat's turn
  if (from.square && (!myTurn() || !state.placements.has(from.square))) return;
  const code = from.square ? state.placements.get(from.square).code : rack()[from.slot];
  const origin = { x: event.clientX, y: event.clientY };
  let ghost = null;
  let over = null;
  const pointer = event.pointerId;
  // the moves are followed on the window: a preview answered mid-drag redraws the rack, and the
  // pointer capture of a slot taken out of the page would be lost with its listeners
  event.currentTarget.setPointerCapture(pointer);
  const move = (moved) => {
    if (moved.pointerId !== pointer) return;
    if (!ghost && Math.hypot(moved.clientX - origin.x, moved.clientY - origin.y) < 6) return;
    if (!ghost) {
      ghost = tileElement(code);
      ghost.classList.add("drag-ghost");
      document.body.append(ghost);
    }
    ghost.style.left = `${moved.clientX}px`;
    ghost.style.top = `${moved.clientY}px`;
    const target = document.elementFromPoint(moved.clientX, moved.clientY);
    const square = target && (target.closest(".sq") || (from.square ? null : target.closest("#rack .slot")));
    if (over && over !== square) over.classList.remove("drop");
    over = square;
    if (over) over.classList.add("drop");
  };
  const end = (ended) => {
    if (ended.pointerId !== pointer) return;
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", end);
    window.removeEventListener("pointercancel", end);
    if (over) over.classList.remove("drop");
    if (!ghost) return;   // no movement: a click, handled by the click listener
    ghost.remove();
    if (ended.type === "pointercancel") return;
    state.suppressClick = true;
    setTimeout(() => { state.suppressClick = false; }, 0);
    const target = document.elementFromPoint(ended.clientX, ended.clientY);
    const square = target && target.closest(".sq");
    const name = square && square.dataset.square;
    if (from.square) {
      const placed = state.placements.get(from.square);
      if (name && name !== from.square && !state.placements.has(name) && !(view().position.board || {})[name]) {
        state.placements.delete(from.square);
        state.placements.set(name, placed);
        preview();
      } else if (target && target.closest("#rack")) {
        takeBack(from.square);
      }
    } else if (target && target.closest("#rack")) {
      moveTile(from.slot, nearestSlot(ended.clientX, ended.clientY));
    } else if (myTurn() && name && !state.placements.has(name) && !(view().position.board || {})[name]
      && rack()[from.slot] === code) {
      place(from.slot, name);
    }
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
}

// -- the rack ------------------------------------------------------------------------------
function drawRack(current) {
  const box = $("rack");
  for (const note of box.querySelectorAll(".rack-hidden")) note.remove();
  const codes = state.covered ? [] : rack();
  const slots = [...box.querySelectorAll(".slot")];
  for (const extra of slots.splice(codes.length)) extra.remove();
  if (state.covered) {
    box.append(text("span", t("js.table.rack-hidden"), "rack-hidden"));
    return;
  }
  // the slots are kept from one drawing to the next: a drag's pointer capture and the keyboard
  // focus stay on them while previews and views arrive
  const used = usedSlots();
  const focused = slots.indexOf(document.activeElement);
  const focusedCode = focused >= 0 ? slots[focused].dataset.code : null;
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
    if (button.dataset.code !== code) {
      button.dataset.code = code;
      button.replaceChildren(tileElement(code));
    }
    button.classList.toggle("used", used.has(slot));
    button.classList.toggle("selected", state.selected === slot);
    button.classList.toggle("picked", state.picked.has(slot));
    button.setAttribute("aria-label", tileWords(code));
    button.setAttribute("aria-pressed", String(state.selected === slot || state.picked.has(slot)));
    button.disabled = used.has(slot);
  });
  if (!rack().length) box.append(text("span", current.finished ? "" : t("js.table.empty"), "rack-hidden"));
  // a draw may put a tile where the focused one was: the focus follows the tile it was on
  if (focusedCode !== null && codes[focused] !== focusedCode) {
    const near = codes.map((code, slot) => ({ code, slot })).filter((tile) => tile.code === focusedCode)
      .sort((a, b) => Math.abs(a.slot - focused) - Math.abs(b.slot - focused))[0];
    const all = box.querySelectorAll(".slot");
    const next = near ? all[near.slot] : all[Math.min(focused, all.length - 1)];
    if (next) next.focus();
  }
}

// -- the rack's own order: moved tiles and shuffles, kept in this browser only ---------------
/** Puts the rack in a new order (`indexes[i]`: the slot of the tile now at i), the tiles placed,
 *  picked or selected following their slots; the order is kept for this game and seat. */
function rearrange(indexes) {
  const codes = rack();
  const order = indexes.map((slot) => codes[slot]);
  const newSlot = new Map(indexes.map((slot, at) => [slot, at]));
  for (const placed of state.placements.values()) placed.slot = newSlot.get(placed.slot);
  if (state.selected !== null) state.selected = newSlot.get(state.selected);
  state.picked = new Set([...state.picked].map((slot) => newSlot.get(slot)));
  state.orders.set(state.shown, order);
  saveOrder(gameId, state.shown, order);
  render();
}

/** The rack slot nearest a point: a tile dropped between two, or past the end, lands there. */
function nearestSlot(x, y) {
  let nearest = -1;
  let distance = Infinity;
  $("rack").querySelectorAll(".slot").forEach((slot, at) => {
    const box = slot.getBoundingClientRect();
    const away = Math.hypot(box.left + box.width / 2 - x, box.top + box.height / 2 - y);
    if (away < distance) { nearest = at; distance = away; }
  });
  return nearest;
}

function moveTile(from, to) {
  const size = rack().length;
  if (from === to || from < 0 || to < 0 || from >= size || to >= size) return;
  const code = rack()[from];
  rearrange(movedIndexes(size, from, to));
  say(t("js.table.moved", { tile: tileWords(code), place: to + 1, size }));
}

function shuffleRack() {
  const codes = rack();
  if (state.covered || codes.length < 2) return;
  let indexes = shuffledIndexes(codes.length);
  // a shuffle that leaves the rack as it was looks broken: another, unless every tile is alike
  for (let tries = 0; tries < 20 && indexes.every((slot, at) => codes[slot] === codes[at]); tries += 1) {
    indexes = shuffledIndexes(codes.length);
  }
  rearrange(indexes);
  say(t("js.table.shuffled"));
}

function rackClicked(slot, byKeyboard) {
  if (state.suppressClick) { state.suppressClick = false; return; }
  if (!myTurn()) { say(t("js.table.not-your-turn")); return; }
  if (state.returning) {
    if (state.picked.has(slot)) state.picked.delete(slot); else state.picked.add(slot);
    render();
    return;
  }
  state.selected = state.selected === slot ? null : slot;
  if (state.selected !== null) say(t(byKeyboard ? "js.table.picked-keys" : "js.table.picked", { tile: tileWords(rack()[slot]) }));
  render();
  if (byKeyboard && state.selected !== null) boardView.squares.get(state.cursor).focus();
}

// -- preview: legality and score as tiles are placed ---------------------------------------
async function preview() {
  const seq = ++state.previewSeq;
  state.preview = null;   // "Checking…" until this placement's answer: never an older placement's verdict
  if (!state.placements.size) { render(); return; }
  render();
  const placements = Object.fromEntries([...state.placements].map(([name, placed]) => [name, placed.code]));
  let result;
  try {
    result = await api("POST", `/api/games/${encodeURIComponent(gameId)}/preview`, { token: token(), body: { placements } });
  } catch (error) {
    result = { legal: false, reason: error.message, melds: [], score: 0, joker_options: {} };
  }
  if (seq !== state.previewSeq) return;
  state.preview = result;
  if (chooseOnlyIdentity(result)) return;
  render();
}

/** The one open joker that fits a single card is given it (still shown in the picker); true then. */
function chooseOnlyIdentity(result) {
  const name = unnamedJoker();
  const options = name && result.joker_options ? result.joker_options[name] : undefined;
  const open = [...state.placements.values()].filter((placed) => placed.code === "*").length;
  if (!options || options.length !== 1 || open !== 1) return false;
  state.placements.get(name).code = options[0];
  state.autoJoker = { name, code: options[0] };
  say(t("js.table.joker.only-said", { square: name, card: cardWords(options[0]) }));
  preview();
  return true;
}

const NEEDS_MORE_TILES = "the play needs more tiles";   // web/preview.py's NEEDS_MORE_TILES

/** The preview's reason in the reader's words (by its code), without a closing full stop: the lines it goes in end their own. */
function previewReason(result) {
  return refusal(result.reason_code, result.reason_args, result.reason).replace(/[.।]$/, "");
}

function unnamedJoker() {
  for (const [name, placed] of state.placements) if (placed.code === "*") return name;
  return null;
}

function drawPreview() {
  const words = $("preview-text");
  const melds = $("preview-melds");
  const section = $("preview");
  melds.replaceChildren();
  section.classList.remove("legal", "illegal");
  const result = state.preview;
  if (state.returning) {
    words.textContent = state.picked.size
      ? t("js.table.return-preview", { tiles: [...state.picked].map((slot) => tileWords(rack()[slot])).join(", ") })
      : t("js.table.pick-return");
    return;
  }
  if (!state.placements.size || !result) {
    words.textContent = state.placements.size ? t("js.table.checking")
      : t("js.table.place-tiles");
    return;
  }
  if (result.legal) {
    section.classList.add("legal");
    words.textContent = t("js.table.legal", { count: result.score, notation: result.notation });
  } else {
    section.classList.add("illegal");
    words.textContent = t("js.table.not-legal", { reason: previewReason(result) });
  }
  for (const meld of result.melds || []) {
    const squares = meld.squares.length > 1 ? `${meld.squares[0]}–${meld.squares[meld.squares.length - 1]}` : meld.squares[0];
    melds.append(text("li", `${t(`js.common.meld.${meld.kind}`)} ${squares} (${meld.tiles.join(" ")}): ${meld.score}`));
  }
}

function drawJokerChoice() {
  const panel = $("joker");
  const auto = state.autoJoker;
  const chosen = auto && state.placements.has(auto.name) && state.placements.get(auto.name).code === auto.code
    ? auto : null;
  const name = myTurn() ? unnamedJoker() || (chosen && chosen.name) : null;
  panel.classList.toggle("hidden", name === null);
  if (name === null) return;
  const box = $("joker-options");
  box.replaceChildren();
  let options = state.preview && state.preview.joker_options ? state.preview.joker_options[name] : undefined;
  if (chosen && name === chosen.name) {
    options = [chosen.code];
    $("joker-title").textContent = t("js.table.joker.only", { square: name });
  } else if (options === undefined) {
    $("joker-title").textContent = !state.preview ? t("js.table.joker.finding", { square: name })
      : t("js.table.joker.reason", { square: name, reason: previewReason(state.preview) });
    return;
  } else if (options.length) {
    $("joker-title").textContent = t("js.table.joker.choose-count", { square: name, count: options.length });
  } else {
    // the server says whether tiles added to the placement could make it legal
    const needsMore = state.preview.reason_code === "needs-more-tiles" || state.preview.reason.startsWith(NEEDS_MORE_TILES);
    $("joker-title").textContent = needsMore
      ? t("js.table.joker.needs-more", { square: name, reason: previewReason(state.preview) })
      : t("js.table.joker.move-it", { square: name, reason: previewReason(state.preview) });
  }
  for (const option of options) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.identity = option;
    button.setAttribute("aria-label", tileWords(option));
    button.append(tileElement(option));
    button.setAttribute("aria-pressed", String(Boolean(chosen)));
    button.addEventListener("click", () => {
      state.placements.get(name).code = option;
      say(t("js.table.joker.stands", { square: name, card: cardWords(option) }));
      state.cursor = name;
      preview();
      // the picker is redrawn: the focus goes to the joker's square, not to the page
      boardView.squares.get(name).focus();
    });
    box.append(button);
  }
}

// -- actions -------------------------------------------------------------------------------
async function send(action) {
  const current = view();
  if (!current || state.sending) return;
  // the mover's seat, kept: on one screen a socket may hand the screen to the next seat meanwhile
  const mover = state.shown;
  state.sending = true;
  const focused = document.activeElement;
  const typed = $("notation-text").value;
  render();
  try {
    const next = await api("POST", `/api/games/${encodeURIComponent(gameId)}/actions`,
      { token: tokens.get(mover), body: { action, version: current.version } });
    say(t("js.table.played", { action: sheetMove(action) }));
    // a move typed while this one was on its way (the socket's view of the next turn can come first) is kept
    if ($("notation-text").value === typed) $("notation-text").value = "";
    onView(mover, next);
    // hot-seat: the next seat's own view, without waiting for its socket
    if (state.shown !== mover) join(state.shown, token());
  } catch (error) {
    say(t("js.table.not-played", { reason: error.message }), true);
  } finally {
    state.sending = false;
    render();
    keepFocus(focused);
  }
}

/** The focus back on the rack (else the board) when the control that held it is gone or disabled. */
function keepFocus(focused) {
  const lost = !focused || focused === document.body || !focused.isConnected || focused.disabled
    || focused.closest(".hidden");
  if (!lost && document.activeElement !== document.body) return;
  const slot = $("rack").querySelector(".slot:not(:disabled)");
  (slot || boardView.squares.get(state.cursor)).focus();
}

function play() {
  const result = state.preview;
  if (!myTurn() || !result || !result.legal || unnamedJoker()) return;
  send(result.notation);
}

function confirmReturn() {
  if (!state.picked.size) return;
  const codes = [...state.picked].map((slot) => rack()[slot]);
  send(`return ${codes.join(" ")}`);
}

// -- the side: players, turn, box, stall clock, history, the end ---------------------------
/** A seat's sign: a dot, green when a socket of the seat is open now, hollow when it is away. */
function presenceDot(connected) {
  const dot = text("span", connected ? "●" : "○", `presence ${connected ? "connected" : "away"}`);
  dot.title = t(connected ? "js.table.connected" : "js.table.away");
  dot.setAttribute("aria-label", dot.title);
  dot.setAttribute("role", "img");
  return dot;
}

function drawPlayers(current) {
  const table = $("players");
  table.replaceChildren();
  const head = table.insertRow();
  const columns = [["", false], [t("js.table.player"), false], [t("js.table.score"), true], [t("js.table.tiles"), true]];
  if (current.clocks) columns.push([t("js.table.clock"), true]);
  for (const [words, numeric] of columns) {
    const cell = text("th", words, numeric ? "num" : "");
    cell.scope = "col";
    head.append(cell);
  }
  const winners = new Set(current.result ? current.result.winners : []);
  current.names.forEach((name, seat) => {
    const row = table.insertRow();
    row.dataset.seat = seat;
    row.classList.toggle("to-move", !current.finished && seat === current.to_move);
    row.classList.toggle("winner", winners.has(seat));
    row.insertCell().textContent = !current.finished && seat === current.to_move ? "▶" : "";
    const bot = current.kinds[seat];
    const kind = bot === "human" || bot === name ? "" : ` (${bot})`;
    const who = row.insertCell();
    who.textContent = `${name}${kind}${seat === state.shown ? ` — ${t("js.table.you")}` : ""}`;
    if (state.presence && current.kinds[seat] === "human") who.prepend(presenceDot(Boolean(state.presence[seat])));
    const score = row.insertCell();
    score.className = "num";
    score.textContent = String(current.scores[seat]);
    const size = row.insertCell();
    size.className = "num";
    size.textContent = String(current.rack_sizes[seat]);
    if (current.clocks) {
      const clock = row.insertCell();
      clock.className = "num clock";
      clock.setAttribute("aria-live", "off");   // the ticking digits are read when asked for, not every second
    }
  });
  drawClocks(current);
  $("box").textContent = t("js.table.box", { count: current.box });
  const stall = current.opened && current.stall ? current.stall : null;
  $("stall").textContent = stall
    ? t("js.table.stall", { turns: stall.turns_without_play, limit: stall.limit }) : "";
  let turn;
  if (current.finished) turn = t("js.table.game-over");
  else if (current.your_turn && !state.covered) turn = t("js.table.your-turn", { name: current.names[current.to_move] });
  else if (current.kinds[current.to_move] !== "human") turn = t("js.table.thinking", { name: current.names[current.to_move] });
  else turn = t("js.table.to-move", { name: current.names[current.to_move] });
  $("turn").textContent = turn;
  document.title = `Ginny-O — ${turn}`;
}

// -- the tile tracker (open or closed, remembered) and the sound switch -----------------------
const TRACKER_KEY = "ginnyo.tracker";

function trackerOpen() {
  try { return localStorage.getItem(TRACKER_KEY) !== "closed"; } catch (error) { return true; }
}

function drawSideTools(current) {
  const open = trackerOpen();
  $("tracker-toggle").setAttribute("aria-expanded", String(open));
  // a covered rack's unseen tiles would tell it: the tracker waits for its player too
  $("tracker-body").classList.toggle("hidden", !open || state.covered);
  if (open && !state.covered) drawTracker($("tracker"), $("tracker-summary"), current);
  const sound = soundOn();
  $("sound").setAttribute("aria-pressed", String(sound));
  $("sound").textContent = t(sound ? "js.table.sound.on" : "js.table.sound.off");
  $("shuffle").disabled = state.covered || rack().length < 2;
}

// -- the clocks: the view's remaining seconds, counted down here between views --------------
/** Each seat's clock as of now: a view's clocks are as of its arrival, the running one ticks from then. */
function drawClocks(current) {
  if (!current || !current.clocks) return;
  const elapsed = (performance.now() - (state.clocksAt.get(state.shown) ?? performance.now())) / 1000;
  drawClockCells($("players"), current.clocks, elapsed);
}

setInterval(() => drawClocks(view()), 1000);

// -- resigning and aborting: asked first in a dialog, for the seat whose turn it is on a hot seat --
/** The seat the Resign and Abort buttons act for: the one to move on a hot-seat screen, else this screen's. */
function actingSeat(current) {
  return hotseat && tokens.has(current.to_move) ? current.to_move : state.shown;
}

function hasMoved(current, seat) { return (current.history || []).some((entry) => entry.seat === seat); }

function drawEnding(current) {
  const over = current.finished || watching;
  $("resign").classList.toggle("hidden", over);
  $("abort").classList.toggle("hidden", over || hasMoved(current, actingSeat(current)));
  $("resign").disabled = state.sending;
  $("abort").disabled = state.sending;
}

setUpEndings({
  gameId,
  who() {
    const current = view();
    if (!current || current.finished) return null;
    const seat = actingSeat(current);
    return { seat, token: tokens.get(seat), name: current.names[seat] };
  },
  busy(on) { state.sending = on; render(); },
  answered(seat, seen) { onView(seat, seen); },
  say,
});

function drawEnd(current) {
  const section = $("end");
  section.classList.toggle("hidden", !current.finished);
  if (!current.finished || !current.result) return;
  const result = current.result;
  $("end-reason").textContent = result.reason ? t("js.table.ended", { reason: gameEndWords(result.reason_code, result.reason_args, result.reason, current.names) }) : "";
  const table = $("end-table");
  table.replaceChildren();
  const head = table.insertRow();
  for (const [words, numeric] of [[t("js.table.player"), false], [t("js.table.rack-left"), false], [t("js.table.penalty"), true], [t("js.table.final"), true]]) {
    head.append(text("th", words, numeric ? "num" : ""));
  }
  current.names.forEach((name, seat) => {
    const row = table.insertRow();
    row.dataset.seat = seat;
    row.insertCell().textContent = name;
    const left = result.racks ? rackCodes(result.racks[seat]) : [];
    row.insertCell().textContent = left.length ? left.join(" ") : "—";
    const penalty = row.insertCell();
    penalty.className = "num";
    const lost = Math.abs(Number(result.penalties ? result.penalties[seat] : 0));
    penalty.textContent = lost ? `−${lost}` : "0";
    const final = row.insertCell();
    final.className = "num";
    final.textContent = String(result.final_scores ? result.final_scores[seat] : current.scores[seat]);
  });
  const joined = rematchUrl();
  $("rematch").textContent = joined ? t("js.table.join-rematch") : t("js.table.rematch");
  const winners = (result.winners || []).map((seat) => current.names[seat]);
  $("end-winners").textContent = winners.length > 1 ? t("js.table.shared-win", { names: winners.join(` ${t("js.table.and")} `) })
    : winners.length ? t("js.table.winner", { name: winners[0] }) : "";
  if (state.recordFor !== current.id) {
    state.recordFor = current.id;
    fetchRecord();
  }
}

async function fetchRecord() {
  const link = $("record");
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/record`,
      { headers: { Authorization: `Bearer ${token()}` } });
    if (!response.ok) throw new Error(`${response.status}`);
    const blob = new Blob([await response.text()], { type: "application/x-ndjson" });
    link.href = URL.createObjectURL(blob);
    link.download = `ginnyo-${gameId}.jsonl`;
  } catch (error) {
    state.recordFor = null;
    say(t("js.table.no-record", { reason: error.message }), true);
  }
}

/** The rematch's page for this screen's seats, once every one of them knows its new token. */
function rematchUrl() {
  const entries = [...tokens.keys()].map((seat) => state.views.get(seat)).map((seen) => seen && seen.rematch);
  if (!entries.length || entries.some((entry) => !entry || !entry.url)) return null;
  if (entries.length === 1) return entries[0].url;
  return `/play/${entries[0].id}#hotseat=${entries.map((entry) => `${entry.seat}:${entry.token}`).join(",")}`;
}

async function rematch() {
  const known = rematchUrl();
  if (known) { location.assign(known); return; }
  try {
    const created = await api("POST", `/api/games/${encodeURIComponent(gameId)}/rematch`, { token: token() });
    storeGame(created);
    // the answer holds the asker's seat only: each seat of this screen finds its own in its view
    await Promise.all([...tokens].map(([seat, seatToken]) => join(seat, seatToken)));
    const mine = created.seats.find((seat) => seat.seat === state.shown && seat.url);
    location.assign(rematchUrl() || mine.url);
  } catch (error) {
    say(t("js.table.no-rematch", { reason: error.message }), true);
  }
}

// -- links to the analysis board and the game review (issue 28), when this server has them --
let toolsServed = false;

async function probeTools() {
  try { toolsServed = (await fetch("/analysis", { method: "HEAD" })).ok; } catch (error) { toolsServed = false; }
  render();
}

function drawTools(current) {
  $("tools").classList.toggle("hidden", !toolsServed);
  if (!toolsServed) return;
  const fragment = `seat=${state.shown}&token=${encodeURIComponent(token())}`;
  $("analyse").href = `/analysis#game=${encodeURIComponent(gameId)}&${fragment}`;
  $("review").href = `/review/${encodeURIComponent(gameId)}#${fragment}`;
  $("review").classList.toggle("hidden", !current.finished);
  // fair play: the link only when the server hands the game to the analysis board (the view says so)
  $("analyse").classList.toggle("hidden", state.covered || !current.analysis_open);
}

// -- drawing it all --------------------------------------------------------------------------
function render() {
  const current = view();
  if (!current) return;
  drawBoard(current);
  drawRack(current);
  drawPlayers(current);
  drawScoresheet($("history"), current);
  drawSideTools(current);
  drawPreview();
  drawJokerChoice();
  drawEnd(current);
  drawTools(current);
  drawEnding(current);
  const turn = myTurn() && !state.sending;
  const result = state.preview;
  $("play").disabled = !(turn && !state.returning && result && result.legal && !unnamedJoker());
  $("recall").disabled = !(state.placements.size || state.returning);
  $("return").disabled = !(turn && current.can_return && !state.placements.size);
  $("return").classList.toggle("hidden", state.returning);
  $("return-confirm").classList.toggle("hidden", !state.returning);
  $("return-cancel").classList.toggle("hidden", !state.returning);
  $("return-confirm").disabled = !(turn && state.picked.size);
  $("return-confirm").textContent = state.picked.size ? t("js.table.return-count", { count: state.picked.size }) : t("js.table.return");
  $("pass").disabled = !(turn && current.can_pass);
  $("notation-send").disabled = !turn;
  $("controls").classList.toggle("hidden", current.finished);
  $("preview").classList.toggle("hidden", current.finished);
  document.body.dataset.version = String(current.version);
  document.body.dataset.seat = String(state.shown);
  document.body.dataset.turn = current.finished ? "over" : myTurn() ? "mine" : "other";
  const cover = $("cover");
  const show = $("cover-show");
  const wasHidden = cover.classList.contains("hidden");
  const wasDisabled = show.disabled;
  cover.classList.toggle("hidden", !state.covered);
  // the next seat's view may still be on its way: its rack is shown once it has come
  const newest = Math.max(...[...state.views.values()].map((seen) => seen.version));
  show.disabled = current.version < newest;
  if (state.covered) {
    $("cover-title").textContent = t("js.table.pass-device", { name: current.names[state.shown] });
    if ((wasHidden || wasDisabled) && !show.disabled) show.focus();
  }
}

// -- keyboard --------------------------------------------------------------------------------
function moveCursor(rows, cols) {
  const square = boardView.squares.get(state.cursor);
  const row = Math.max(0, Math.min(boardView.grid.length - 1, Number(square.dataset.row) + rows));
  const col = Math.max(0, Math.min(boardView.grid[0].length - 1, Number(square.dataset.col) + cols));
  state.cursor = `${columnLetter(col)}${row + 1}`;
  render();
  boardView.squares.get(state.cursor).focus();
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

$("board").addEventListener("keydown", (event) => {
  if (ARROWS[event.key] && boardView.grid) { event.preventDefault(); moveCursor(...ARROWS[event.key]); }
});
$("rack").addEventListener("keydown", (event) => {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  if (event.altKey) {   // Alt+arrow: the focused tile moves along the rack, the focus with it
    const slot = event.target.closest(".slot");
    if (!slot) return;
    event.preventDefault();
    const from = Number(slot.dataset.slot);
    const to = Math.max(0, Math.min(rack().length - 1, from + (event.key === "ArrowLeft" ? -1 : 1)));
    moveTile(from, to);
    const moved = $("rack").querySelectorAll(".slot")[to];
    if (moved) moved.focus();
    return;
  }
  const slots = [...$("rack").querySelectorAll(".slot:not(:disabled)")];
  const at = slots.indexOf(document.activeElement);
  const next = slots[Math.max(0, Math.min(slots.length - 1, at + (event.key === "ArrowLeft" ? -1 : 1)))];
  if (next) { event.preventDefault(); next.focus(); }
});
document.addEventListener("keydown", (event) => {
  const target = event.target;
  const typing = target.closest && target.closest("input, textarea, select");
  if (event.key === "Escape") { if (!typing && !$("end-confirm").open) { recall(); event.preventDefault(); } return; }
  if (typing || !target.closest) return;
  const square = target.closest(".sq");
  if ((event.key === "Delete" || event.key === "Backspace") && square && state.placements.has(square.dataset.square)) {
    event.preventDefault();
    takeBack(square.dataset.square);
    return;
  }
  // Enter plays a legal placement from anywhere but a control of its own (a square with a
  // tile picked to place on it acts as a square)
  const control = target.closest("button, a") && !(square && state.selected === null);
  if (event.key === "Enter" && !control && state.preview && state.preview.legal && state.selected === null) {
    event.preventDefault();
    play();
  }
});

$("play").addEventListener("click", play);
$("recall").addEventListener("click", recall);
$("pass").addEventListener("click", () => send("pass"));
$("return").addEventListener("click", () => {
  state.returning = true;
  state.selected = null;
  say(t("js.table.pick-return"));
  render();
});
$("return-confirm").addEventListener("click", confirmReturn);
$("return-cancel").addEventListener("click", recall);
$("notation").addEventListener("submit", (event) => {
  event.preventDefault();
  const words = $("notation-text").value.trim();
  if (!words) { say(t("js.table.type-move")); return; }
  if (!myTurn()) { say(t("js.table.not-your-turn")); return; }
  if (words.includes("*")) { placeTyped(words); return; }
  send(words);
});

const TYPED_START = /^(?:([0-9]{1,2})([A-Za-z])|([A-Za-z])([0-9]{1,2}))$/;
const TYPED_TILE = /\*|\.|10[A-Za-z]|[0-9A-Za-z][A-Za-z]/y;

/** A typed move with a joker written `*` (as on a rack and in the preview): its tiles are put on
 *  the board from the rack, then checked, the joker's card chosen as when placed by hand. */
function placeTyped(words) {
  const current = view();
  const [start, ...rest] = words.split(/\s+/);
  const spelled = rest.join("");
  const begin = TYPED_START.exec(start || "");
  if (!begin || !spelled) { say(t("js.table.not-played", { reason: t("js.table.parse.expected", { move: words }) }), true); return; }
  const across = begin[1] !== undefined;
  let row = Number(across ? begin[1] : begin[4]) - 1;
  let col = (across ? begin[2] : begin[3]).toUpperCase().charCodeAt(0) - 65;
  const board = current.position.board || {};
  const free = rack().map((code, slot) => ({ code, slot }));
  const placements = new Map();
  TYPED_TILE.lastIndex = 0;
  while (TYPED_TILE.lastIndex < spelled.length) {
    const at = TYPED_TILE.lastIndex;
    const match = TYPED_TILE.exec(spelled);
    if (!match) {
      say(t("js.table.not-played", { reason: t("js.table.parse.tiles", { move: words, rest: spelled.slice(at) }) }), true);
      return;
    }
    const name = `${columnLetter(col)}${row + 1}`;
    if (row >= boardView.grid.length || col >= boardView.grid[0].length) {
      say(t("js.table.not-played", { reason: t("js.table.parse.off-board", { move: words }) }), true);
      return;
    }
    if (match[0] !== ".") {
      if (board[name]) { say(t("js.table.not-played", { reason: t("js.table.parse.covered", { move: words, square: name }) }), true); return; }
      const code = match[0];
      const held = code === "*" || /[a-z]$/.test(code) ? "*" : code.toUpperCase();   // a lower-case suit: a joker
      const index = free.findIndex((tile) => tile.code === held);
      if (index < 0) { say(t("js.table.not-played", { reason: t("js.table.parse.not-held", { move: words, tile: held }) }), true); return; }
      placements.set(name, { slot: free[index].slot, code: held === "*" ? code : held });
      free.splice(index, 1);
    }
    if (across) col += 1; else row += 1;
  }
  state.placements = placements;
  state.selected = null;
  $("notation-text").value = "";
  say(t("js.table.parse.placed", { move: words }));
  preview();
}
$("cover-show").addEventListener("click", () => {
  state.covered = false;
  render();
  const first = $("rack").querySelector(".slot");
  if (first) first.focus();
});
$("rematch").addEventListener("click", rematch);
$("shuffle").addEventListener("click", shuffleRack);
$("sound").addEventListener("click", () => { setSound(!soundOn()); render(); });
$("tracker-toggle").addEventListener("click", () => {
  try { localStorage.setItem(TRACKER_KEY, trackerOpen() ? "closed" : "open"); } catch (error) { /* not kept */ }
  render();
});

// -- start -------------------------------------------------------------------------------
/** The table as a watcher sees it (no rack, no controls), when the game is open to watchers. */
async function watch() {
  let seen;
  try {
    seen = await api("GET", `/api/games/${encodeURIComponent(gameId)}`);
  } catch (error) {
    say(t("js.table.no-seat"), true);
    $("conn").textContent = t("js.table.not-connected");
    return;
  }
  document.body.classList.add("watching");
  $("watching").textContent = t("js.common.watching");
  $("watching").classList.remove("hidden");
  onView(WATCHER, seen);
  connect(WATCHER, null);
  chat = chatPanel($("chat"), gameId, null);
}

if (watching) {
  watch();
} else {
  for (const [seat, seatToken] of tokens) {
    join(seat, seatToken);
    connect(seat, seatToken);
  }
  chat = chatPanel($("chat"), gameId, tokens.values().next().value);
  probeTools();
}

// -- the phone: the board fits the width, or is zoomed to squares a finger can hit (and scrolls) --
$("zoom").addEventListener("click", () => {
  const zoomed = document.body.classList.toggle("zoomed");
  $("zoom").setAttribute("aria-pressed", String(zoomed));
  $("zoom").textContent = t(zoomed ? "js.table.fit" : "js.table.zoom");
  const square = boardView.squares.get(state.cursor);
  if (zoomed && square) square.scrollIntoView({ block: "nearest", inline: "center" });
});
