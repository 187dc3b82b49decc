// The rack's order as this page shows it, a game and seat at a time in localStorage: the player's own
// arrangement, kept across reloads and draws (new tiles at the end, played ones gone). The server
// never hears of it.

const KEY = (gameId, seat) => `ginnyo.rack.${gameId}.${seat}`;

/** The kept order of a seat's rack (a list of codes), or null when the player never arranged it. */
export function loadOrder(gameId, seat) {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY(gameId, seat)) || "null");
    return Array.isArray(kept) && kept.every((code) => typeof code === "string") ? kept : null;
  } catch (error) {
    return null;
  }
}

export function saveOrder(gameId, seat, codes) {
  try { localStorage.setItem(KEY(gameId, seat), JSON.stringify(codes)); } catch (error) { /* full: not kept */ }
}

export function forgetOrder(gameId, seat) {
  try { localStorage.removeItem(KEY(gameId, seat)); } catch (error) { /* storage refused: nothing kept */ }
}

/** The rack `codes` in the kept `order`: the kept tiles still held, in their order, then the new ones. */
export function arrange(order, codes) {
  const left = codes.slice();
  const arranged = [];
  for (const code of order) {
    const at = left.indexOf(code);
    if (at >= 0) { arranged.push(code); left.splice(at, 1); }
  }
  return arranged.concat(left);
}

/** A random permutation of 0..size-1 (Fisher–Yates). */
export function shuffledIndexes(size) {
  const indexes = [...Array(size).keys()];
  for (let i = size - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [indexes[i], indexes[j]] = [indexes[j], indexes[i]];
  }
  return indexes;
}

/** The permutation that takes the tile at `from` to `to`, the others keeping their order. */
export function movedIndexes(size, from, to) {
  const indexes = [...Array(size).keys()];
  const [moved] = indexes.splice(from, 1);
  indexes.splice(to, 0, moved);
  return indexes;
}
