// A player's page: the ratings of each game kind, the rated games and the rating over them, drawn
// as an inline SVG polyline (no library).
import { GAME_NAMES, api, t } from "./common.js";

const name = decodeURIComponent(window.location.pathname.split("/").pop());
const SVG = "http://www.w3.org/2000/svg";

function drawChart(games) {
  // the line starts at the rating before the first game; one dot a game, at its rating after it
  const chart = document.getElementById("rating-chart");
  const points = games.slice().reverse().map((game) => game.rating_after);
  if (!points.length) return;
  points.unshift(games[games.length - 1].rating_before);
  const low = Math.min(...points), high = Math.max(...points), span = Math.max(high - low, 1);
  const at = points.map((rating, index) => [(index * 400) / (points.length - 1), 110 - ((rating - low) * 100) / span]);
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", at.map(([x, y]) => `${x},${y}`).join(" "));
  const dots = at.slice(1).map(([x, y]) => {
    const dot = document.createElementNS(SVG, "circle");
    dot.setAttribute("cx", String(x));
    dot.setAttribute("cy", String(y));
    dot.setAttribute("r", "3");
    return dot;
  });
  chart.replaceChildren(line, ...dots);
}

async function show() {
  const heading = document.getElementById("player-name");
  let player;
  try {
    player = await api("GET", `/api/players/${encodeURIComponent(name)}`);
  } catch {
    heading.textContent = t("js.player.unknown");
    return;
  }
  heading.textContent = player.name;
  const ratings = document.getElementById("player-ratings");
  for (const [kind, standing] of Object.entries(player.ratings)) {
    const li = document.createElement("li");
    li.textContent = `${GAME_NAMES[kind] ?? kind}: ${standing.rating}${standing.provisional ? "?" : ""} (${standing.games})`
      + (standing.provisional ? ` · ${t("js.player.provisional")}` : "");
    ratings.append(li);
  }
  const list = document.getElementById("player-games");
  for (const game of player.games) {
    const li = document.createElement("li");
    const change = game.rating_change > 0 ? `+${game.rating_change}` : String(game.rating_change);
    li.textContent = `${GAME_NAMES[game.game] ?? game.game} · ${t(`js.player.${game.result}`)} (${game.rank}/${game.players}) · ${change}`;
    list.append(li);
  }
  drawChart(player.games);
}
show();
