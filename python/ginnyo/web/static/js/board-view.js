// A board for the analysis and review pages: the table's squares and tiles (common.js, ginnyo.css's
// .board/.sq/.k-* classes), drawn from a layout grid and a board of square name -> tile code.
import { KIND_LABELS, KIND_NAMES, columnLetter, text, tileElement, tileWords } from "./common.js";

export class BoardView {
  /** A board drawn into `element`; `onSquare(name)` is called when a square is clicked. */
  constructor(element, onSquare = null) {
    this.element = element;
    this.onSquare = onSquare;
    this.squares = new Map();
    this.grid = null;
  }

  build(grid) {
    const board = this.element;
    board.replaceChildren();
    board.classList.add("board");
    board.setAttribute("role", "grid");
    board.style.setProperty("--cols", grid[0].length);
    board.append(text("span", "", "corner"));
    for (let col = 0; col < grid[0].length; col += 1) board.append(text("span", columnLetter(col), "coord col"));
    this.squares.clear();
    grid.forEach((line, row) => {
      board.append(text("span", String(row + 1), "coord"));
      [...line].forEach((kind, col) => {
        const name = `${columnLetter(col)}${row + 1}`;
        const square = document.createElement(this.onSquare ? "button" : "span");
        if (this.onSquare) {
          square.type = "button";
          square.addEventListener("click", () => this.onSquare(name));
        }
        square.className = `sq k-${kind === "." ? "plain" : kind}`;
        square.dataset.square = name;
        square.dataset.kind = kind;
        square.setAttribute("role", "gridcell");
        board.append(square);
        this.squares.set(name, square);
      });
    });
    this.grid = grid;
  }

  /** Draws `board` (name -> code) with `placed` (name -> code) on top, marked as the play shown;
   *  `marked` squares (a meld's) and the `cursor` square outlined. */
  draw(grid, board, { placed = {}, marked = [], cursor = null } = {}) {
    if (!this.grid || this.grid.join("/") !== grid.join("/")) this.build(grid);
    const marks = new Set(marked);
    for (const [name, square] of this.squares) {
      const kind = square.dataset.kind;
      const code = placed[name] || board[name];
      square.replaceChildren();
      square.classList.toggle("last", Boolean(placed[name]));
      square.classList.toggle("meld", marks.has(name));
      square.classList.toggle("cursor", name === cursor);
      if (code) {
        square.append(tileElement(code));
        square.setAttribute("aria-label", `${name}, ${tileWords(code)}${placed[name] ? ", placed by the play shown" : ""}`);
      } else {
        square.textContent = KIND_LABELS[kind];
        square.setAttribute("aria-label", `${name}, ${KIND_NAMES[kind]}`);
      }
    }
  }
}

/** A row of tiles (a rack) for the codes given. */
export function tileRow(codes) {
  const row = document.createElement("div");
  row.className = "tile-row";
  for (const code of codes) row.append(tileElement(code));
  return row;
}
