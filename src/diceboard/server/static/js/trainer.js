// One position to play a single move in, for the lessons and the puzzles pages: the board and
// its clicks, keys, chooser and absorption choice are the shared interaction (interaction.js);
// this locks the position once the move is made and hands the move to the page. No rule is
// decided here: what can be picked, and whether the move was the right one, comes from the
// server.
import { Interaction, onNotation } from "./interaction.js";

const $ = (id) => document.getElementById(id);

export class Trainer {
  /** `onMove(notation)` is called with the move the learner made. */
  constructor({ onMove }) {
    this.onMove = onMove;
    this.pos = null;
    this.marks = [];
    this.locked = true;
    this.interaction = new Interaction({
      view: () => this.pos,
      enabled: () => !this.locked,
      play: (notation) => this.play(notation),
      redraw: () => this.render(),
      say: (text) => this.say(text),
      absorbFirst: "Choose which dice absorb the lost pips first (above the board).",
    });
    this.board = this.interaction.board;
  }

  /** Show a position (`svg`, `centres`, `split`, `legal`, `to_move`, `players`, `board`) and
   * the squares to mark (`[{square, kind}]`); `playable` unlocks it. */
  show(pos, marks = [], playable = true) {
    this.pos = pos;
    this.marks = marks;
    this.locked = !playable;
    this.interaction.reset();
    this.board.show(pos.svg, pos.centres, pos.split);
    this.interaction.renderAbsorb();
    this.render();
  }

  /** A picture only (a position after a move): nothing can be clicked. */
  picture(view, marks = []) {
    this.locked = true;
    this.board.show(view.svg, view.centres, view.split);
    this.interaction.renderAbsorb();
    this.board.mark(marks);
  }

  async animate(segments) {
    try {
      await this.board.animate(segments);
    } catch (error) {
      console.error(error); // an animation never holds anything up
    }
  }

  render() {
    this.interaction.render(this.marks);
  }

  say(text) {
    const el = $("message");
    el.textContent = text;
    el.dataset.kind = "info";
  }

  play(notation) {
    this.locked = true;
    this.interaction.clear();
    this.render();
    this.onMove(notation);
  }
}

/** Typed notation: the form `#notation` calls the trainer's `onMove` with its text. */
export function wireNotation(trainer) {
  onNotation((text) => {
    if (!trainer.locked) trainer.play(text);
  });
}

/** Read and write a JSON value kept in this browser (nothing if storage is off). */
export function stored(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value === null ? fallback : value;
  } catch {
    return fallback;
  }
}

export function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode: progress lasts as long as the page */
  }
}
