// One position to play a single move in, for the lessons and the puzzles pages: the board
// (board.js), clicks and keys turned into one of the server's legal moves (choices.js), the
// face or direction chooser and Chase's absorption choice. No rule is decided here: what can
// be picked, and whether the move was the right one, comes from the server.
import { Board } from "./board.js";
import * as C from "./choices.js";

const DIE_FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const $ = (id) => document.getElementById(id);

export class Trainer {
  /** `onMove(notation)` is called with the move the learner made. */
  constructor({ onMove }) {
    this.onMove = onMove;
    this.pos = null;
    this.marks = [];
    this.locked = true;
    this.selected = null;
    this.handFace = null;
    this.absorb = null;
    this.board = new Board($("board"), {
      onSquare: (sq) => this.square(sq),
      onHandDie: (owner, face) => this.handDie(owner, face),
    });
  }

  /** Show a position (`svg`, `centres`, `split`, `legal`, `to_move`, `players`) and the
   * squares to mark (`[{square, kind}]`); `playable` unlocks it. */
  show(pos, marks = [], playable = true) {
    this.pos = pos;
    this.marks = marks;
    this.locked = !playable;
    this.selected = null;
    this.handFace = null;
    this.absorb = null;
    this.board.show(pos.svg, pos.centres, pos.split);
    this.renderAbsorb();
    this.render();
  }

  /** A picture only (a position after a move): nothing can be clicked. */
  picture(view, marks = []) {
    this.locked = true;
    this.board.show(view.svg, view.centres, view.split);
    this.renderAbsorb();
    this.board.mark(marks);
  }

  async animate(segments) {
    try {
      await this.board.animate(segments);
    } catch (error) {
      console.error(error); // an animation never holds anything up
    }
  }

  legal() {
    const legal = this.pos ? this.pos.legal : [];
    if (C.absorbChoices(legal).length <= 1) return legal;
    return this.absorb === null ? [] : C.withPrefix(legal, this.absorb);
  }

  render() {
    if (this.locked || !this.pos) {
      this.board.mark(this.marks);
      this.board.markHand(new Set(), null);
      return;
    }
    const legal = this.legal();
    const marks = [...this.marks];
    if (this.selected) {
      marks.push({ square: this.selected, kind: "selected" });
      marks.push(...C.targetsFrom(legal, this.selected));
    } else if (this.handFace !== null) {
      legal.filter((m) => m.kind === "placement" && m.face === this.handFace)
        .forEach((m) => marks.push({ square: m.to, kind: "target" }));
    } else {
      C.sources(legal).forEach((sq) => marks.push({ square: sq, kind: "source" }));
    }
    this.board.mark(marks, this.handFace, this.pos.to_move);
    this.board.markHand(C.handFaces(legal), this.pos.to_move);
  }

  renderAbsorb() {
    const box = $("absorb");
    const choices = !this.locked && this.pos ? C.absorbChoices(this.pos.legal) : [];
    box.hidden = choices.length <= 1;
    if (choices.length <= 1) return;
    const title = document.createElement("span");
    title.textContent = "Absorb the lost pips first — raise:";
    box.replaceChildren(title, ...choices.map((prefix) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = prefix.split(",").join(" then ");
      b.className = this.absorb === prefix ? "chosen" : "";
      b.setAttribute("aria-pressed", String(this.absorb === prefix));
      b.addEventListener("click", () => {
        this.absorb = prefix;
        this.selected = null;
        this.renderAbsorb();
        this.render();
      });
      return b;
    }));
  }

  handDie(owner, face) {
    if (this.locked) return;
    if (owner && owner !== this.pos.to_move) return;
    if (!C.handFaces(this.legal()).has(face)) return;
    this.selected = null;
    this.handFace = this.handFace === face ? null : face;
    this.render();
  }

  async square(square) {
    if (this.locked) return;
    const legal = this.legal();
    if (!legal.length && C.absorbChoices(this.pos.legal).length > 1) {
      this.say("Choose which dice absorb the lost pips first (above the board).");
      return;
    }
    if (square === null) return this.clear();
    if (this.handFace !== null) {
      const placements = C.placementsTo(legal, square, this.handFace);
      if (placements.length) return this.play(placements[0].notation);
    }
    if (this.selected) {
      const candidates = C.movesBetween(legal, this.selected, square);
      if (candidates.length === 1) return this.play(candidates[0].notation);
      if (candidates.length > 1) {
        const choice = await this.choose(`Move from ${this.selected} to ${square}`, candidates);
        if (choice) return this.play(choice.notation);
        return;
      }
      if (square === this.selected) return this.clear();
    }
    if (C.sources(legal).has(square)) {
      this.selected = square;
      this.handFace = null;
      this.render();
      return;
    }
    const placements = C.placementsTo(legal, square);
    if (placements.length) {
      const choice = placements.length === 1 ? placements[0] : await this.choose(`Place a die on ${square}`, placements);
      if (choice) return this.play(choice.notation);
      return;
    }
    this.clear();
  }

  clear() {
    this.selected = null;
    this.handFace = null;
    this.render();
  }

  say(text) {
    const el = $("message");
    el.textContent = text;
    el.dataset.kind = "info";
  }

  play(notation) {
    this.locked = true;
    this.selected = null;
    this.handFace = null;
    this.render();
    this.onMove(notation);
  }

  choose(title, moves) {
    const dialog = $("chooser");
    $("chooser-title").textContent = title;
    const seen = new Set();
    const unique = moves.filter((m) => !seen.has(m.notation) && seen.add(m.notation));
    return new Promise((resolve) => {
      const finish = (value) => {
        dialog.hidden = true;
        document.removeEventListener("keydown", escape, true);
        this.board.preview([], "preview");
        $("board").focus({ preventScroll: true });
        resolve(value);
      };
      const escape = (event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          finish(null);
        }
      };
      const buttons = unique.map((m) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "choice";
        const face = C.shownFace(m);
        if (face) {
          const die = document.createElement("span");
          die.className = "die-glyph";
          die.dataset.player = String(this.pos.players.indexOf(this.pos.to_move));
          die.textContent = DIE_FACES[face];
          die.setAttribute("aria-hidden", "true");
          b.append(die);
        }
        b.append(document.createTextNode(` ${C.label(m)}`));
        b.title = m.notation;
        b.setAttribute("aria-label", `${C.label(m)} (${m.notation})`);
        const show = () => this.board.preview(m.segments, "preview");
        b.addEventListener("mouseenter", show);
        b.addEventListener("focus", show);
        b.addEventListener("click", () => finish(m));
        return b;
      });
      $("chooser-options").replaceChildren(...buttons);
      $("chooser-cancel").onclick = () => finish(null);
      dialog.onclick = (event) => {
        if (event.target === dialog) finish(null);
      };
      document.addEventListener("keydown", escape, true);
      dialog.hidden = false;
      buttons[0].focus();
    });
  }
}

/** Typed notation: the form `#notation` calls `onMove` with its text. */
export function wireNotation(trainer) {
  $("notation").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("notation-input").value.trim();
    if (text && !trainer.locked) trainer.play(text);
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
