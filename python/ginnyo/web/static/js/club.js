// The lobby's club: the open seeks, who is online and the games being played, live from
// /api/lobby/events; asking for a game, taking a seat, withdrawing one's seek, playing a bot.
import { GAME_NAMES, api, t } from "./common.js";

const seekForm = document.getElementById("seek-form");
const botForm = document.getElementById("bot-form");
const failure = document.getElementById("club-error");
let me = null;

function refused(error) {
  failure.textContent = `${t("js.lobby.club-refused")} ${error.message}`;
  failure.classList.remove("hidden");
}

async function toTable(seekId) {
  // the seat's own token, given to the account seated there
  const seat = await api("POST", `/api/seeks/${encodeURIComponent(seekId)}/seat`, { body: {} });
  window.location.assign(seat.url);
}

function item(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}

function clockText(clock) {
  return `${Math.round(clock.initial / 60)}+${clock.increment}`;
}

function showSeeks(seeks) {
  const list = document.getElementById("seeks");
  list.replaceChildren();
  if (!seeks.length) list.append(item(t("js.lobby.club-none")));
  for (const seek of seeks) {
    const li = item(`${seek.maker} · ${GAME_NAMES[seek.game] ?? seek.game} · ${seek.seated.length + seek.bots.length}/${seek.players} · `
                    + `${clockText(seek.clock)} · ${t(seek.rated ? "js.lobby.club-rated" : "js.lobby.club-casual")} `);
    li.dataset.seek = seek.id;
    if (me && seek.seated.includes(me)) {
      if (seek.maker === me) {
        const withdraw = document.createElement("button");
        withdraw.className = "btn";
        withdraw.textContent = t("js.lobby.club-withdraw");
        withdraw.addEventListener("click", () => api("DELETE", `/api/seeks/${seek.id}`).catch(refused));
        li.append(withdraw);
      }
    } else if (me) {
      const join = document.createElement("button");
      join.className = "btn join";
      join.textContent = t("js.lobby.club-join");
      join.addEventListener("click", async () => {
        try {
          const joined = await api("POST", `/api/seeks/${seek.id}/join`, { body: {} });
          if (joined.seat) window.location.assign(joined.seat.url);
          else waiting.add(seek.id);
        } catch (error) {
          refused(error);
        }
      });
      li.append(join);
    }
    list.append(li);
  }
}

const waiting = new Set();   // my seeks (made or joined) not full yet: to the table once their game is made

function showLobby(lobby) {
  showSeeks(lobby.seeks);
  for (const seek of lobby.seeks) if (me && seek.seated.includes(me)) waiting.add(seek.id);
  document.getElementById("online-count").textContent = String(lobby.online.count);
  document.getElementById("online-names").textContent = lobby.online.names.join(", ");
  const playing = document.getElementById("playing");
  playing.replaceChildren();
  if (!lobby.playing.length) playing.append(item(t("js.lobby.club-none")));
  for (const game of lobby.playing) {
    const li = item(`${game.players.join(" – ")} · ${GAME_NAMES[game.game] ?? game.game} · ${clockText(game.clock)} `);
    const watch = document.createElement("a");   // the club's games are open to watchers: the table with no seat
    watch.href = `/play/${encodeURIComponent(game.id)}`;
    watch.textContent = t("js.lobby.club-watch");
    li.append(watch);
    playing.append(li);
  }
  const open = new Set(lobby.seeks.map((seek) => seek.id));
  for (const id of [...waiting]) {
    if (!open.has(id)) {
      waiting.delete(id);
      toTable(id).catch(() => {});   // withdrawn (404): nothing to go to
    }
  }
}

function listen() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${window.location.host}/api/lobby/events`);
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "lobby") showLobby(message);
  });
  socket.addEventListener("close", () => setTimeout(listen, 3000));
}

seekForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = {
    game: document.getElementById("seek-game").value,
    players: Number(document.getElementById("seek-players").value),
    clock: { initial: Number(document.getElementById("seek-minutes").value) * 60,
             increment: Number(document.getElementById("seek-increment").value) },
    rated: document.getElementById("seek-rated").checked,
  };
  try {
    const seek = await api("POST", "/api/seeks", { body });
    waiting.add(seek.id);
  } catch (error) {
    refused(error);
  }
});

botForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = { game: "ginnyo", players: 2, rated: true, bots: [document.getElementById("bot-level").value] };
  try {
    const seek = await api("POST", "/api/seeks", { body });
    window.location.assign(seek.seat.url);
  } catch (error) {
    refused(error);
  }
});

async function start() {
  try {
    me = (await api("GET", "/api/me")).name;
  } catch {
    me = null;
  }
  for (const form of [seekForm, botForm]) form.classList.toggle("hidden", !me);
  document.getElementById("club-signed-out").classList.toggle("hidden", Boolean(me));
  listen();
}
start();
