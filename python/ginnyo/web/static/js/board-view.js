// The one board of the web pages: the table, the analysis board and the review draw their squares
// and tiles here (common.js's tiles, ginnyo.css's .board/.sq/.k-* classes), from a layout grid and a
// board of square name -> tile code.
import { KIND_LABELS, columnLetter, kindName, t, text, tileElement, tileWords } from "./common.js";

export class BoardView {
  /** A board drawn into `element`. `onSquare(name, byKeyboard)` is called when a square is clicked
   *  (the squares are then buttons), `onPointerDown(event, name)` when a pointer goes down on one. */
  constructor(element, onSquare = null, { onPointerDown = null } = {}) {
    this.element = element;
    this.onSquare = onSquare;
    this.onPointerDown = onPointerDown;
    this.squares = new Map();
    this.grid = null;
  }

  build(grid) {
    const board = this.element;
    board.replaceChildren();
    board.classList.add("board");
    if (!board.hasAttribute("role")) board.setAttribute("role", "grid");
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
          square.tabIndex = -1;
          square.addEventListener("click", (event) => this.onSquare(name, event.detail === 0));
        }
        if (this.onPointerDown) square.addEventListener("pointerdown", (event) => this.onPointerDown(event, name));
        square.className = `sq k-${kind === "." ? "plain" : kind}`;
        square.dataset.square = name;
        square.dataset.kind = kind;
        square.dataset.row = row;
        square.dataset.col = col;
        square.setAttribute("role", "gridcell");
        board.append(square);
        this.squares.set(name, square);
      });
    });
    this.grid = grid;
  }

  /** The centre square's name (the start square), else A1. */
  centre() {
    const found = [...this.squares.values()].find((square) => square.dataset.kind === "S");
    return found ? found.dataset.square : "A1";
  }

  /** Draws `board` (name -> code) with, on top, `placed` (name -> code: the play shown) and
   *  `pending` (name -> code: tiles put down this turn, not yet played); `last` squares (the last
   *  play) and `marked` squares (a meld's) highlighted, the `cursor` square outlined and, on a
   *  board of buttons, the one the Tab key reaches. */
  draw(grid, board, { placed = {}, pending = {}, last = [], marked = [], cursor = null } = {}) {
    if (!this.grid || this.grid.join("/") !== grid.join("/")) this.build(grid);
    const marks = new Set(marked);
    const lastSquares = new Set(last);
    for (const [name, square] of this.squares) {
      const kind = square.dataset.kind;
      const code = placed[name] || board[name] || pending[name];
      const mine = !board[name] && Boolean(pending[name]);
      square.replaceChildren();
      square.classList.toggle("last", Boolean(placed[name]) || lastSquares.has(name));
      square.classList.toggle("pending", mine);
      square.classList.toggle("meld", marks.has(name));
      square.classList.toggle("cursor", name === cursor);
      if (this.onSquare) square.tabIndex = name === cursor ? 0 : -1;
      if (code) {
        const tile = tileElement(code);
        if (mine) tile.classList.add("pending");
        square.append(tile);
        const words = tileWords(code);
        square.setAttribute("aria-label", placed[name] ? t("js.board.square-shown", { name, tile: words })
          : mine ? t("js.board.square-placed", { name, tile: words }) : t("js.board.square-tile", { name, tile: words }));
      } else {
        square.textContent = KIND_LABELS[kind];
        square.setAttribute("aria-label", t("js.board.square-empty", { name, kind: kindName(kind) }));
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
