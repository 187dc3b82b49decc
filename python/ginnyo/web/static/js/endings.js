// Resigning or aborting a game from a table page, asked first in its dialog (pages/end-confirm.html): the
// words of each ending, the question, and the request once confirmed. The Ginny-O and Crazy Rummy tables
// share it; what differs between them comes in `table` (see `setUpEndings`).
import { api, t } from "./common.js";

// each ending's words: its button, the question asked first, the line once done
const ENDINGS = {
  resign: { button: "js.table.resign", confirm: "js.table.resign.confirm", done: "js.table.resign.done" },
  abort: { button: "js.table.abort", confirm: "js.table.abort.confirm", done: "js.table.abort.done" },
};

/** Sets the table's Resign and Abort buttons going. `table`: `gameId`; `who()`, the seat that would end the
 *  game now as `{ seat, token, name }` (null: nothing to end); `busy(on)`, the page held while the server
 *  answers; `answered(seat, view)`, the seat's new view; `say(line, error)`; `words`, a page's own keys
 *  for an ending (e.g. `{ resign: { confirm: "..." } }`). */
export function setUpEndings(table) {
  const dialog = document.getElementById("end-confirm");
  const words = (kind) => ({ ...ENDINGS[kind], ...(table.words?.[kind] ?? {}) });
  let chosen = null;
  let opener = null;

  function ask(kind, button) {
    const who = table.who();
    if (!who) return;
    chosen = { kind, ...who };
    opener = button;
    document.getElementById("end-confirm-text").textContent = t(words(kind).confirm, { name: who.name });
    document.getElementById("end-confirm-yes").textContent = t(words(kind).button);
    dialog.showModal();
    document.getElementById("end-confirm-no").focus();   // the safe choice first
  }

  async function end({ kind, seat, token, name }) {
    table.busy(true);
    try {
      const seen = await api("POST", `/api/games/${encodeURIComponent(table.gameId)}/${kind}`, { token, body: {} });
      table.answered(seat, seen);
      table.say(t(words(kind).done, { name }));
    } catch (error) {
      table.say(t("js.table.not-ended", { reason: error.message }), true);
    } finally {
      table.busy(false);
    }
  }

  dialog.addEventListener("close", () => {
    const ending = chosen;
    chosen = null;
    const yes = dialog.returnValue === "yes";
    dialog.returnValue = "";
    if (opener && !opener.classList.contains("hidden")) opener.focus();
    if (yes && ending) end(ending);
  });
  document.getElementById("resign").addEventListener("click", (event) => ask("resign", event.currentTarget));
  document.getElementById("abort").addEventListener("click", (event) => ask("abort", event.currentTarget));
}
