// What the lobby and the table share: the page's words (t), the HTTP API, tile pictures, the games
// kept in localStorage.

export const RANKS = "A23456789TJQK";
export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
// the games' own names, the same in every language
export const GAME_NAMES = { ginnyo: "Ginny-O", crazy: "Crazy Rummy" };
export const KIND_LABELS = { ".": "", Y: "Y", G: "G", R: "R", B: "B", S: "★" };

/** The page's messages in its language, as the server puts them in the page (web/pages.py):
 *  { lang, one: the counts that take a plural's ".one" form, messages: key -> text }. */
const CATALOGUE = (() => {
  const element = document.getElementById("messages");
  try {
    if (element) return JSON.parse(element.textContent);
  } catch (error) { /* unreadable: the keys are shown */ }
  return { lang: "en", one: [1], messages: {} };
})();

/** The page's language (its `<html lang>`). */
export const LANGUAGE = CATALOGUE.lang;

/** The message `key` with its `{name}`s filled from `args`; given `args.count` and no message `key`
 *  itself, the plural form the count takes in the page's language (`key.one` or `key.other`). */
export function t(key, args = {}) {
  let message = CATALOGUE.messages[key];
  if (message === undefined && "count" in args) {
    message = CATALOGUE.messages[`${key}.${CATALOGUE.one.includes(args.count) ? "one" : "other"}`];
  }
  if (message === undefined) return key;
  return message.replace(/\{([a-z_]+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}

/** The table pages' count of the watchers' sockets open (a view's or a presence message's "watchers"); none: hidden. */
export function showWatchers(count) {
  const line = document.getElementById("watchers");
  if (!line || typeof count !== "number") return;
  line.textContent = count ? t("js.common.watchers", { count }) : "";
  line.classList.toggle("hidden", !count);
}

/** A square's kind in words, for screen readers. */
export function kindName(kind) {
  return t(`js.common.square.${kind === "." ? "plain" : kind}`);
}

// The language links keep the page's fragment (a table's seat and token live there).
function keepFragment() {
  for (const link of document.querySelectorAll("nav.languages a[hreflang]")) {
    link.href = `?lang=${link.hreflang}${location.hash}`;
  }
}
keepFragment();
window.addEventListener("hashchange", keepFragment);

/**
 * A refusal in the reader's words: the message of its code (`js.common.refusal.CODE`) with its
 * arguments, else the server's English line (which an English page shows as it is: it says most). A
 * reason inside it (`reason`, with `reason_code` and `reason_args`) is put in the reader's words too.
 */
export function refusal(code, args, line) {
  const key = `js.common.refusal.${code}`;
  if (LANGUAGE === "en" || typeof code !== "string" || !(key in CATALOGUE.messages)) return line;
  const words = { ...(args || {}) };
  if (typeof words.reason_code === "string") words.reason = refusal(words.reason_code, words.reason_args, words.reason);
  return t(key, words);
}

/** How a game ended in the reader's words (on an English page too): `js.table.end.CODE` with its
 *  arguments, a seat by its name in `names`; the server's `line` for a code without words here. */
export function gameEndWords(code, args, line, names) {
  if (typeof code !== "string") return line || "";
  const key = `js.table.end.${code}`, words = { ...(args || {}) };
  if ("seat" in words) words.name = names[words.seat] ?? String(words.seat + 1);
  const said = t(key, words);
  return said === key ? line || "" : said;
}

/** An API error: the server's one-line reason and the HTTP status. */
export class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

/** Calls the API with JSON in and out; throws ApiError with the server's reason in words. */
export async function api(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new ApiError(t("js.common.unreachable"), 0);
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (error) { data = null; }
  if (!response.ok) {
    const line = data && typeof data.error === "string" ? data.error : `${response.status} ${response.statusText}`;
    const reason = data ? refusal(data.code, data.args, line) : line;
    throw new ApiError(reason, response.status);
  }
  return data;
}

/** The seats and tokens a table URL's fragment carries: `#seat=1&token=T` or `#hotseat=0:T0,2:T2`. */
export function readFragment(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const seats = new Map();
  if (params.has("hotseat")) {
    for (const part of params.get("hotseat").split(",")) {
      const at = part.indexOf(":");
      const seat = Number(part.slice(0, at));
      if (at > 0 && Number.isInteger(seat) && part.length > at + 1) seats.set(seat, part.slice(at + 1));
    }
  } else if (params.has("seat") && params.has("token")) {
    const seat = Number(params.get("seat"));
    if (Number.isInteger(seat)) seats.set(seat, params.get("token"));
  }
  return seats;
}

/** A tile code's parts: a rack joker `*`, a board joker `7h` (lower case) or a card `7H`. */
export function parseCode(code) {
  if (code === "*") return { joker: true, rank: null, suit: null };
  const rank = code[0].toUpperCase() === "1" ? "T" : code[0].toUpperCase();
  const suit = code[code.length - 1];
  return { joker: suit === suit.toLowerCase(), rank, suit: suit.toUpperCase() };
}

/** The card a tile is or stands for in words: "7 of hearts" (null for a rack joker). */
export function cardWords(code) {
  const { rank, suit } = parseCode(code);
  if (rank === null) return null;
  const rankWords = "AJQK".includes(rank) ? t(`js.common.rank.${rank}`) : rank === "T" ? "10" : rank;
  return t("js.common.card", { rank: rankWords, suit: t(`js.common.suit.${suit}`) });
}

/** The tile in words, for screen readers and lists: "7 of hearts", "joker as 7 of hearts". */
export function tileWords(code) {
  const { joker, rank } = parseCode(code);
  if (rank === null) return t("js.common.joker");
  return joker ? t("js.common.joker-as", { card: cardWords(code) }) : cardWords(code);
}

/** A card-like tile element, as ginnyo show --svg draws one. */
export function tileElement(code) {
  const { joker, rank, suit } = parseCode(code);
  const tile = document.createElement("span");
  tile.className = "tile";
  if (joker) tile.classList.add("joker");
  if (rank === null) {
    tile.classList.add("blank");
    tile.innerHTML = '<span class="star" aria-hidden="true">★</span>';
    return tile;
  }
  if (suit === "D" || suit === "H") tile.classList.add("red");
  const rankText = rank === "T" ? "10" : rank;
  tile.innerHTML = `<span class="rank">${rankText}</span><span class="suit" aria-hidden="true">${SUITS[suit]}</span>`
    + (joker ? '<span class="mark" aria-hidden="true">★</span>' : "");
  return tile;
}

/** The codes of a rack, given as "5C * KD" or as a list. */
export function rackCodes(rack) {
  if (Array.isArray(rack)) return rack.slice();
  return String(rack || "").split(/\s+/).filter(Boolean);
}

export function columnLetter(col) {
  return String.fromCharCode(65 + col);
}

// -- this browser's games (localStorage) ----------------------------------------------
const STORE = "ginnyo.games";

export function storedGames() {
  try {
    const games = JSON.parse(localStorage.getItem(STORE) || "[]");
    return Array.isArray(games) ? games : [];
  } catch (error) {
    return [];
  }
}

/** Keeps a created game (the POST /api/games answer) for the lobby's list; given `ownSeat`, only that
 * seat's token and link (fair play: the others' links are theirs, not this browser's), no hot-seat link. */
export function storeGame(created, ownSeat = null) {
  const games = storedGames().filter((game) => game.id !== created.id);
  const seats = ownSeat === null ? created.seats
    : created.seats.map(({ seat, kind, name, token, url }) => (seat === ownSeat ? { seat, kind, name, token, url }
      : { seat, kind, name }));
  games.unshift({ id: created.id, created: new Date().toISOString(), seats,
    hotseat_url: ownSeat === null ? created.hotseat_url || null : null });
  try { localStorage.setItem(STORE, JSON.stringify(games.slice(0, 50))); } catch (error) { /* full: not kept */ }
}

export function forgetGame(id) {
  localStorage.setItem(STORE, JSON.stringify(storedGames().filter((game) => game.id !== id)));
}

export function text(tag, content, className) {
  const element = document.createElement(tag);
  element.textContent = content;
  if (className) element.className = className;
  return element;
}
