// The lobby's Crazy Rummy form: 3 to 6 seats, people or advisor bots, each named; goes to the table
// (or, with several people, keeps this browser's seat and shows the others' links once).
import { t, text } from "./common.js";
import { createGame, nameInput, say } from "./created-game.js";

const KINDS = [["human", t("js.lobby.person")], ["advisor", t("js.lobby.crazy.advisor")], ["stock", t("js.lobby.crazy.stock")]];
const box = document.getElementById("crazy-seats");

function drawSeats() {
  const count = Number(document.getElementById("crazy-players").value);
  const kinds = [...box.querySelectorAll("select")].map((select) => select.value);
  const names = [...box.querySelectorAll("input")].map((input) => input.value);
  box.replaceChildren();
  for (let index = 0; index < count; index += 1) {
    const row = document.createElement("div");
    row.className = "seat-row";
    const label = text("label", t("js.lobby.seat", { number: index + 1 }));
    const select = document.createElement("select");
    select.id = `crazy-seat-${index}`;
    label.htmlFor = select.id;
    for (const [value, name] of KINDS) select.append(new Option(name, value));
    select.value = kinds[index] || (index === 0 ? "human" : "advisor");
    const name = nameInput(`crazy-name-${index}`, t("js.lobby.crazy.seat-name", { number: index + 1 }));
    name.value = names[index] || "";
    row.append(label, select, name);
    box.append(row);
  }
}

document.getElementById("crazy-players").addEventListener("change", drawSeats);
document.getElementById("crazy-create").addEventListener("submit", async (event) => {
  event.preventDefault();
  const seats = [...box.querySelectorAll("select")].map((select) => select.value);
  if (!seats.includes("human")) { say(t("js.lobby.crazy.need-person"), true); return; }
  const names = [...box.querySelectorAll("input")].map((input, index) =>
    input.value.trim() || (seats[index] === "human" ? t("js.lobby.default-player", { number: index + 1 }) : `${seats[index]} ${index + 1}`));
  const body = { game: "crazy", seats, names };
  await createGame(body, "crazy-seed", document.getElementById("crazy-create-button"));
});
drawSeats();
