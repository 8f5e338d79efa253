// Optional sounds for a move, a capture and the end of a game: short WebAudio tones (no sound
// files). Off until the player turns them on; the choice is remembered in this browser.

const KEY = "diceboard.sound";
const TONES = {
  // [frequency in Hz, start in s, length in s]
  move: [[660, 0, 0.07]],
  capture: [[440, 0, 0.09], [330, 0.1, 0.14]],
  end: [[523, 0, 0.12], [659, 0.13, 0.12], [784, 0.26, 0.25]],
};

export class Sounds {
  constructor(button) {
    this.button = button;
    this.context = null;
    let stored = null;
    try {
      stored = localStorage.getItem(KEY);
    } catch {
      /* private mode: off */
    }
    this.on = stored === "on";
    if (button) {
      button.addEventListener("click", () => this.toggle());
      this.show();
    }
  }

  toggle() {
    this.on = !this.on;
    try {
      localStorage.setItem(KEY, this.on ? "on" : "off");
    } catch {
      /* remembered for this page only */
    }
    this.show();
    if (this.on) this.play("move");
  }

  show() {
    this.button.textContent = this.on ? "♪ Sound on" : "♪ Sound off";
    this.button.setAttribute("aria-pressed", String(this.on));
    this.button.title = this.on ? "Turn the sounds off" : "Turn on sounds for moves, captures and the end of the game";
  }

  /** Play the tones of `name` (move, capture or end) if sounds are on. */
  play(name) {
    if (!this.on || !TONES[name]) return;
    document.body.dataset.sound = name; // what was last played, for assistive tools and tests
    try {
      // browsers start audio only after a gesture: the context is made on first use
      this.context = this.context || new AudioContext();
      const now = this.context.currentTime;
      for (const [frequency, start, length] of TONES[name]) {
        const osc = this.context.createOscillator();
        const gain = this.context.createGain();
        osc.type = "sine";
        osc.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, now + start);
        gain.gain.exponentialRampToValueAtTime(0.15, now + start + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
        osc.connect(gain).connect(this.context.destination);
        osc.start(now + start);
        osc.stop(now + start + length + 0.02);
      }
    } catch (error) {
      console.warn("no sound:", error);
    }
  }
}
