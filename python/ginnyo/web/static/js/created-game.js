// What the lobby's two forms share: a seat's name input and, once a game is made, the "Game created"
// card: this browser keeps its own seat's link only, the others' links are shown once to be sent.
import { api, storeGame, t, text } from "./common.js";

const lobby = document.querySelector("main.lobby");
/** The longest seat name the API takes, as the server fills it in (web/requests.py MAX_NAME). */
const MAX_NAME = Number(lobby.dataset.maxName);
/** Sent on `document` when this browser's list of games changed (the lobby redraws it). */
export const GAMES_CHANGED = "ginnyo-games-changed";

export function say(message, error = false) {
  const status = document.getElementById("status");
  status.textContent = message;
  status.classList.toggle("error", error);
}

/** A seat's name input, as long as the API allows. */
export function nameInput(id, label) {
  const input = document.createElement("input");
  input.id = id;
  input.name = "name";
  input.placeholder = t("js.lobby.name");
  input.autocomplete = "off";
  if (MAX_NAME > 0) input.maxLength = MAX_NAME;
  input.setAttribute("aria-label", label);
  return input;
}

function absolute(url) {
  return new URL(url, location.origin).href;
}

function copyButton(seat, link) {
  const copy = text("button", t("js.lobby.copy"), "btn");
  copy.type = "button";
  copy.setAttribute("aria-label", t("js.lobby.copy-link", { name: seat.name }));
  copy.addEventListener("click", async () => {
    link.select();
    try { await navigator.clipboard.writeText(link.value); } catch (error) { document.execCommand("copy"); }
    say(t("js.lobby.copied", { name: seat.name }));
  });
  return copy;
}

function shareItem(seat) {
  const item = document.createElement("li");
  const share = document.createElement("div");
  share.className = "share";
  const link = document.createElement("input");
  link.readOnly = true;
  link.value = absolute(seat.url);
  link.setAttribute("aria-label", t("js.lobby.secret-link", { name: seat.name }));
  share.append(text("strong", seat.name), link, copyButton(seat, link));
  item.append(share);
  return item;
}

/** A game just made (the POST /api/games answer): keeps the first person's seat, this browser's own;
 * with no other person, goes to its table; else shows the card with the others' links, once. */
export function gameCreated(created) {
  const people = created.seats.filter((seat) => seat.token);
  const own = people[0];
  storeGame(created, own.seat);
  document.dispatchEvent(new Event(GAMES_CHANGED));
  if (people.length === 1) {
    location.assign(own.url);
    return;
  }
  const play = text("a", t("js.lobby.play-as", { name: own.name }), "btn primary");
  play.href = own.url;
  play.id = "own-link";
  document.getElementById("own-seat").replaceChildren(
    text("span", `${t("js.lobby.own-seat", { name: own.name })} `), play);
  document.getElementById("share-links").replaceChildren(...people.slice(1).map(shareItem));
  const choice = document.getElementById("hotseat-choice");
  choice.replaceChildren();
  if (created.hotseat_url) {
    const hot = text("a", t("js.lobby.hotseat-play"), "btn");
    hot.href = created.hotseat_url;
    hot.id = "hotseat-link";
    // everyone plays at this device then: the hot-seat link is kept, to come back to the game
    hot.addEventListener("click", () => storeGame(created));
    choice.append(hot, text("span", ` — ${t("js.lobby.hotseat-note")}`, "note"));
  }
  const card = document.getElementById("created");
  card.classList.remove("hidden");
  card.scrollIntoView({ block: "start" });
  document.getElementById("created-title").focus({ preventScroll: true });
}

/** Makes a game of the lobby's form: ``body`` as the form reads it, with the seed of the input
 *  ``seedId`` if one was typed (a whole number, else said and nothing sent); the form's ``button``
 *  is held while the server answers, then the "Game created" card is shown. */
export async function createGame(body, seedId, button) {
  const seedText = document.getElementById(seedId).value.trim();
  if (seedText !== "") {
    const seed = Number(seedText);
    if (!Number.isInteger(seed) || seed < 0) { say(t("js.lobby.seed-bad"), true); return; }
    body.seed = seed;
  }
  button.disabled = true;
  say(t("js.lobby.creating"));
  try {
    const created = await api("POST", "/api/games", { body });
    say(t("js.lobby.created"));
    gameCreated(created);
  } catch (error) {
    say(t("js.lobby.cannot-create", { reason: error.message }), true);
  } finally {
    button.disabled = false;
  }
}
