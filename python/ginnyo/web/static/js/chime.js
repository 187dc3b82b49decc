// A short chime for another seat's move, made with the Web Audio API (no sound file); off unless the
// player turns it on, the choice kept in localStorage.

const KEY = "ginnyo.sound";
let context = null;

export function soundOn() {
  try { return localStorage.getItem(KEY) === "on"; } catch (error) { return false; }
}

export function setSound(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (error) { /* storage refused: this page only */ }
  if (on) chime();   // turned on by a click: the browser lets the audio start now, and the player hears it
}

/** Two soft notes, a fifth apart, a quarter of a second in all; nothing when the sound is off. */
export function chime() {
  if (!soundOn()) return;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  try {
    context = context || new Audio();
    if (context.state === "suspended") context.resume();
    const start = context.currentTime;
    [660, 990].forEach((pitch, index) => {
      const tone = context.createOscillator();
      const volume = context.createGain();
      const at = start + index * 0.11;
      tone.type = "sine";
      tone.frequency.value = pitch;
      volume.gain.setValueAtTime(0.0001, at);
      volume.gain.exponentialRampToValueAtTime(0.12, at + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
      tone.connect(volume).connect(context.destination);
      tone.start(at);
      tone.stop(at + 0.15);
    });
  } catch (error) {
    /* no audio device: the line on screen says it */
  }
}
