// The lobby: create a game (seats, bots, think time, seed) and list this browser's games.
import { api, forgetGame, storeGame, storedGames, text } from "./common.js";

const KINDS = [["human", "person"], ["random", "bot: random"], ["greedy", "bot: greedy"],
  ["equity", "bot: equity"], ["endgame", "bot: endgame"], ["sim", "bot: sim"], ["sim-spread", "bot: sim-spread"]];
const status = document.getElementById("status");
const seatsBox = document.getElementById("seats");

function say(message, error = false) {
  status.textContent = message;
  status.classList.toggle("error", error);
}

function seatRow(index, kind) {
  const row = document.createElement("div");
  row.className = "seat-row";
  const label = text("label", `Seat ${index + 1}`);
  label.htmlFor = `kind-${index}`;
  const select = document.createElement("select");
  select.id = `kind-${index}`;
  select.name = "kind";
  for (const [value, words] of KINDS) {
    const option = new Option(words, value, false, value === kind);
    select.append(option);
  }
  const name = document.createElement("input");
  name.name = "name";
  name.id = `name-${index}`;
  name.maxLength = 24;
  name.placeholder = "name";
  name.setAttribute("aria-label", `Seat ${index + 1} name`);
  row.append(label, select, name);
  return row;
}

function drawSeats() {
  const count = Number(document.getElementById("players").value);
  const kinds = [...seatsBox.querySelectorAll("select")].map((select) => select.value);
  const names = [...seatsBox.querySelectorAll("input")].map((input) => input.value);
  seatsBox.replaceChildren();
  for (let index = 0; index < count; index += 1) {
    const row = seatRow(index, kinds[index] || (index === 0 ? "human" : "greedy"));
    row.querySelector("input").value = names[index] || "";
    seatsBox.append(row);
  }
}

function absolute(url) {
  return new URL(url, location.origin).href;
}

function showCreated(created) {
  const humans = created.seats.filter((seat) => seat.token);
  if (humans.length === 1) {
    location.assign(humans[0].url);
    return;
  }
  const list = document.getElementById("share-links");
  list.replaceChildren();
  for (const seat of humans) {
    const item = document.createElement("li");
    const share = document.createElement("div");
    share.className = "share";
    const link = document.createElement("input");
    link.readOnly = true;
    link.value = absolute(seat.url);
    link.setAttribute("aria-label", `${seat.name}'s secret link`);
    const copy = text("button", "Copy", "btn");
    copy.type = "button";
    copy.addEventListener("click", async () => {
      link.select();
      try { await navigator.clipboard.writeText(link.value); say(`${seat.name}'s link copied.`); }
      catch (error) { document.execCommand("copy"); say(`${seat.name}'s link copied.`); }
    });
    const open = text("a", `play as ${seat.name} here`);
    open.href = seat.url;
    share.append(text("strong", seat.name), link, copy, open);
    item.append(share);
    list.append(item);
  }
  const choice = document.getElementById("hotseat-choice");
  choice.replaceChildren();
  if (created.hotseat_url) {
    const hot = text("a", "Play hot-seat on this screen", "btn primary");
    hot.href = created.hotseat_url;
    hot.id = "hotseat-link";
    choice.append(hot, text("span", " — everyone at this device, the rack hidden between turns.", "note"));
  }
  document.getElementById("created").classList.remove("hidden");
  drawGames();
}

async function create(event) {
  event.preventDefault();
  const seats = [...seatsBox.querySelectorAll("select")].map((select) => select.value);
  const names = [...seatsBox.querySelectorAll("input")].map((input, index) =>
    input.value.trim() || (seats[index] === "human" ? `Player ${index + 1}` : `${seats[index]} bot`));
  if (!seats.includes("human")) {
    say("Give at least one seat to a person: a table of bots alone cannot be watched here.", true);
    return;
  }
  const body = { seats, names };
  const think = Number(document.getElementById("think").value);
  if (seats.some((kind) => kind.startsWith("sim"))) {
    if (!(think > 0 && think <= 10)) { say("Sim think time: give a number of seconds from 0.1 to 10.", true); return; }
    body.think = think;
  }
  const seedText = document.getElementById("seed").value.trim();
  if (seedText !== "") {
    const seed = Number(seedText);
    if (!Number.isInteger(seed) || seed < 0) { say("Seed: give a whole number, 0 or more, or leave it empty.", true); return; }
    body.seed = seed;
  }
  const button = document.getElementById("create-button");
  button.disabled = true;
  say("Creating the game…");
  try {
    const created = await api("POST", "/api/games", { body });
    storeGame(created);
    say("Game created.");
    showCreated(created);
  } catch (error) {
    say(`Cannot create the game: ${error.message}`, true);
  } finally {
    button.disabled = false;
  }
}

function drawGames() {
  const list = document.getElementById("games");
  list.replaceChildren();
  const games = storedGames();
  if (!games.length) list.append(text("li", "None yet.", "note"));
  for (const game of games) {
    const item = document.createElement("li");
    const when = new Date(game.created);
    item.append(text("span", `${game.seats.map((seat) => seat.name).join(" v ")} — ${when.toLocaleString()} `));
    for (const seat of game.seats.filter((entry) => entry.url)) {
      const link = text("a", `as ${seat.name}`);
      link.href = seat.url;
      item.append(" ", link);
    }
    if (game.hotseat_url) {
      const link = text("a", "hot-seat");
      link.href = game.hotseat_url;
      item.append(" ", link);
    }
    const forget = text("button", "Forget", "btn");
    forget.type = "button";
    forget.style.marginLeft = ".5rem";
    forget.addEventListener("click", () => { forgetGame(game.id); drawGames(); });
    item.append(forget);
    list.append(item);
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
drawSeats();
drawGames();
probeTools();
