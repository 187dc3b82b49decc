// The seats' clocks of a timed game (either kind): the view's remaining seconds, counted down here between views.
import { t } from "./common.js";

/** Seconds as m:ss (h:mm:ss from an hour), a minus sign when over time. */
export function clockWords(seconds) {
  const whole = Math.ceil(Math.abs(seconds) - 1e-9);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  const digits = h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
  return seconds < 0 ? `−${digits}` : digits;
}

const LOW_TIME = 30;   // seconds: the clock is marked as running low under this

/** Fill the `td.clock` cell of each seat's row (`tr[data-seat]` of `players`) with its clock as of now:
 * `clocks` are as of the view's arrival, `elapsed` seconds ago; the running one ticks from then. */
export function drawClockCells(players, clocks, elapsed) {
  for (const clock of clocks) {
    const cell = players.querySelector(`tr[data-seat="${clock.seat}"] td.clock`);
    if (!cell) continue;
    const left = clock.running ? clock.remaining - elapsed : clock.remaining;
    const penalty = Math.max(Number(clock.overtime_penalty) || 0, 0);
    const words = clockWords(left);
    cell.textContent = left < 0 || penalty ? t("js.table.clock.over", { time: words, points: penalty }) : words;
    cell.classList.toggle("running", Boolean(clock.running));
    cell.classList.toggle("low", left >= 0 && left < LOW_TIME);
    cell.classList.toggle("over", left < 0);
    cell.dataset.seconds = String(Math.round(left * 10) / 10);
    cell.title = clock.running ? t("js.table.clock.running") : "";
  }
}
