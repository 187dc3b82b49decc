// The lobby's Crazy Rummy form: 3 to 6 seats, people or advisor bots; goes to the table (or lists the links).
import { api, storeGame, text } from "./common.js";

const KINDS = [["human", "person"], ["advisor", "bot: advisor"], ["stock", "bot: stock drawer"]];
const box = document.getElementById("crazy-seats");

function drawSeats() {
  const count = Number(document.getElementById("crazy-players").value);
  const kinds = [...box.querySelectorAll("select")].map((select) => select.value);
  box.replaceChildren();
  for (let index = 0; index < count; index += 1) {
    const row = document.createElement("div");
    row.className = "field seat";
    const label = text("label", `Seat ${index + 1}`);
    const select = document.createElement("select");
    select.id = `crazy-seat-${index}`;
    label.htmlFor = select.id;
    for (const [value, name] of KINDS) {
      const option = text("option", name);
      option.value = value;
      select.append(option);
    }
    select.value = kinds[index] || (index === 0 ? "human" : "advisor");
    row.append(label, select);
    box.append(row);
  }
}

document.getElementById("crazy-players").addEventListener("change", drawSeats);
document.getElementById("crazy-create").addEventListener("submit", async (event) => {
  event.preventDefault();
  const status = document.getElementById("status");
  const seats = [...box.querySelectorAll("select")].map((select) => select.value);
  if (!seats.includes("human")) { status.textContent = "Make at least one seat a person's."; return; }
  const names = seats.map((kind, index) => (kind === "human" ? `Player ${index + 1}` : `${kind} ${index + 1}`));
  const body = { game: "crazy", seats, names };
  const seed = document.getElementById("crazy-seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  try {
    const created = await api("POST", "/api/games", { body });
    storeGame(created);
    location.assign(created.hotseat_url || created.seats.find((seat) => seat.token).url);
  } catch (error) {
    status.textContent = `Cannot create the game: ${error.message}`;
  }
});
drawSeats();
