// The table's scoresheet (every turn with its score and the seat's running total) and another
// seat's move in words, for the line announced when it arrives.
import { SUITS, parseCode, t, text } from "./common.js";

const NOTATION_TILE = /\*|\.|10[A-Za-z]|[0-9A-Za-z][A-Za-z]/g;

/** A played tile as a card: "7♥", a joker "★7♥" (as its identity). */
function cardText(code) {
  const { joker, rank, suit } = parseCode(code);
  if (rank === null) return "★";
  return `${joker ? "★" : ""}${rank === "T" ? "10" : rank}${SUITS[suit]}`;
}

/** A history entry in words, in the page's language: "Bea played 7♣ 7♦ 7♥ at 8G for 21", "Bea returned
 *  2 tiles (K♦ 3♠)", "Bea passed". */
export function moveWords(entry, names) {
  const name = names[entry.seat];
  const action = entry.action.trim();
  if (action === "pass") return t("js.table.said.passed", { name });
  if (action.startsWith("return ")) {
    const rest = action.slice("return ".length);
    const counted = /^(\d+) tiles?$/.exec(rest);
    if (counted) return t("js.table.said.returned", { name, count: Number(counted[1]) });
    const tiles = rest.split(/\s+/).filter(Boolean);
    return `${t("js.table.said.returned", { name, count: tiles.length })} (${tiles.map(cardText).join(" ")})`;
  }
  const [square, ...spelled] = action.split(/\s+/);
  const cards = (spelled.join("").match(NOTATION_TILE) || []).filter((tile) => tile !== ".").map(cardText);
  return t("js.table.said.played", { name, tiles: cards.join(" "), square, score: entry.score });
}

/** A history entry's move for the scoresheet (and a move sent, for the table's line): the notation, its pass and return in words. */
export function sheetMove(action) {
  if (action === "pass") return t("js.table.sheet.pass");
  if (!action.startsWith("return ")) return action;
  const rest = action.slice("return ".length);
  const counted = /^(\d+) tiles?$/.exec(rest);
  return counted ? t("js.table.sheet.return", { count: Number(counted[1]) }) : t("js.table.sheet.return-tiles", { tiles: rest });
}

/** The rows of the scoresheet: each turn with the seat's total after it, and once the game is over
 *  each seat's end adjustment (the rack penalty) bringing its total to the final score. */
export function scoresheetRows(current) {
  const totals = current.names.map(() => 0);
  const rows = (current.history || []).map((entry, index) => {
    totals[entry.seat] += entry.score;
    return { turn: String(index + 1), seat: entry.seat, action: sheetMove(entry.action.trim()), score: entry.score, total: totals[entry.seat] };
  });
  if (current.finished && current.result && current.result.final_scores) {
    current.result.final_scores.forEach((final, seat) => {
      const change = final - totals[seat];
      if (!change) return;
      totals[seat] = final;
      rows.push({ turn: t("js.table.sheet.end"), seat, action: t("js.table.rack-left"), score: change, total: final });
    });
  }
  return rows;
}

/** Draws the scoresheet into its table: turn, player, move, score, running total. */
export function drawScoresheet(table, current) {
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const [words, className] of [["#", "num"], [t("js.table.player"), ""], [t("js.table.sheet.move"), ""],
    [t("js.table.score"), "num"], [t("js.table.sheet.total"), "num"]]) {
    const cell = text("th", words, className);
    cell.scope = "col";
    head.append(cell);
  }
  const body = table.createTBody();
  const rows = scoresheetRows(current);
  rows.forEach((row, index) => {
    const line = body.insertRow();
    line.dataset.seat = String(row.seat);
    if (index === rows.length - 1) line.className = "last";
    const turn = text("th", row.turn, "num");
    turn.scope = "row";
    line.append(turn,
      text("td", current.names[row.seat], "who"),
      text("td", row.action, "move"),
      text("td", row.score > 0 ? `+${row.score}` : String(row.score).replace("-", "−"), "num score"),
      text("td", String(row.total), "num total"));
  });
  const scroller = table.parentElement;
  scroller.scrollTop = scroller.scrollHeight;
}
