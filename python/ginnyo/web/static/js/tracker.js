// The tile tracker: the tiles a seat cannot see (the box and the other racks together) laid out
// as a deck of cards, suits by ranks with their counts, the jokers apart.
import { RANKS, SUITS, parseCode, t, text } from "./common.js";

/** Counts of the unseen tiles: `cards` keyed "7H", and `jokers`. */
export function unseenCounts(unseen) {
  const cards = new Map();
  let jokers = 0;
  for (const code of String(unseen || "").split(/\s+/).filter(Boolean)) {
    const { rank, suit } = parseCode(code);
    if (rank === null) { jokers += 1; continue; }
    cards.set(`${rank}${suit}`, (cards.get(`${rank}${suit}`) || 0) + 1);
  }
  return { cards, jokers };
}

/** Draws the tracker's grid into `grid` and its one-line sum into `summary`. */
export function drawTracker(grid, summary, current) {
  const { cards, jokers } = unseenCounts(current.position.unseen);
  grid.replaceChildren();
  const head = grid.createTHead().insertRow();
  head.append(text("td", ""));
  for (const rank of RANKS) {
    const cell = text("th", rank === "T" ? "10" : rank);
    cell.scope = "col";
    head.append(cell);
  }
  const body = grid.createTBody();
  let total = jokers;
  for (const suit of Object.keys(SUITS)) {
    const row = body.insertRow();
    row.dataset.suit = suit;
    const label = text("th", SUITS[suit], suit === "D" || suit === "H" ? "red" : "");
    label.scope = "row";
    label.setAttribute("aria-label", t(`js.common.suit.${suit}`));
    row.append(label);
    for (const rank of RANKS) {
      const count = cards.get(`${rank}${suit}`) || 0;
      total += count;
      const cell = text("td", count ? String(count) : "·", count ? "out" : "gone");
      cell.dataset.card = `${rank}${suit}`;
      cell.dataset.count = String(count);
      row.append(cell);
    }
  }
  const seen = current.rack_sizes.reduce((sum, size, seat) => sum + (seat === current.seat ? 0 : size), 0);
  summary.replaceChildren(
    text("span", `${t("js.table.tracker.summary", { total, box: current.box, seen })} `),
    text("span", t("js.table.tracker.jokers", { count: jokers }), "jokers"));
  summary.lastChild.dataset.count = String(jokers);
}
