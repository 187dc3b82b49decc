// The table's chat panel (docs/CLUB.md "Watching and chat"): the players' room for a seat, the watchers'
// room (and the players') for a watcher; every message shown as text (textContent), never as markup.
import { api, t, text } from "./common.js";

const shown = new Set();   // the ids of the messages on screen: a hot-seat table hears each on every socket

/** The panel in `section` for the game `gameId`, written as the seat of `token` (a watcher when null);
 *  answers `{heard, catchUp}`: `heard(message)` with each chat message of the game's sockets, `catchUp()`
 *  when a socket's first view comes (what was said before that socket listened is read again). */
export function chatPanel(section, gameId, token) {
  const path = `/api/games/${encodeURIComponent(gameId)}/chat`;
  const title = text("h2", t("js.common.chat.title"));
  title.id = "chat-title";
  const log = document.createElement("ol");
  log.id = "chat-log";
  log.className = "chat-log";
  log.setAttribute("aria-label", t("js.common.chat.label"));
  log.setAttribute("aria-live", "polite");
  const form = document.createElement("form");
  form.id = "chat-form";
  form.className = "chat-form";
  const input = document.createElement("input");
  input.id = "chat-text";
  input.maxLength = 300;
  input.autocomplete = "off";
  input.placeholder = t("js.common.chat.placeholder");
  input.setAttribute("aria-label", t("js.common.chat.placeholder"));
  const send = text("button", t("js.common.chat.send"), "btn");
  send.type = "submit";
  const note = text("p", "", "note");
  note.id = "chat-note";
  form.append(input, send);
  section.setAttribute("aria-labelledby", "chat-title");
  section.replaceChildren(title, log, form, note);
  section.classList.remove("hidden");

  function heard(message) {
    if (shown.has(message.id)) return;
    shown.add(message.id);
    const line = document.createElement("li");
    line.className = `chat-${message.room}`;
    line.dataset.room = message.room;
    line.dataset.id = String(message.id);
    line.append(text("span", `${message.sender} (${t(`js.common.chat.${message.room}`)}): `, "chat-sender"),
      text("span", message.text, "chat-text"));   // textContent: a message is never markup
    // in the order said: a message read again on catching up can come after a later one heard live
    const later = [...log.children].find((other) => Number(other.dataset.id) > message.id);
    log.insertBefore(line, later || null);
    log.scrollTop = log.scrollHeight;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const typed = input.value;
    const words = typed.trim();
    if (!words) return;
    note.textContent = "";
    try {
      heard(await api("POST", path, { token, body: { text: words } }));
      if (input.value === typed) input.value = "";   // a line typed while this one was on its way is kept
    } catch (error) {
      note.textContent = error.status === 401 ? t("js.common.chat.sign-in")
        : t("js.common.chat.cannot", { reason: error.message });
    }
  });
  const catchUp = () => api("GET", path, { token }).then((answer) => answer.messages.forEach(heard), () => {});
  catchUp();
  return { heard, catchUp };
}
