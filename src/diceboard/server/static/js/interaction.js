// Making a move on the board, the same on every page that has one (game, analysis board,
// lessons, puzzles): a click or key selects a die and lights up its legal targets, a second one
// plays the move; a die in hand is placed; several moves between the same squares open the
// chooser (hover or focus previews each); Chase's absorption is chosen first where it can be
// made more than one way. No rule is decided here: every move offered is one of the server's
// legal moves (choices.js reads them), and the server checks the move played.
import { Board, shapeOf } from "./board.js";
import * as C from "./choices.js";
import { DIE_FACES } from "./dice.js";

const $ = (id) => document.getElementById(id);
const ABSORB_FIRST = "Choose which dice absorb the lost pips first.";

export class Interaction {
  /** Over the page's `#board`, `#absorb` and `#chooser`. The page says:
   * - `view()`: the position shown, as the server sent it ({legal, to_move, players, board}),
   *   or null;
   * - `enabled()`: whether the side to move is played on this page now;
   * - `play(notation)`: make the move (the page sends it to the server);
   * - `redraw()`: draw the page's marks, through `render(extra)`, after the selection changed;
   * - `refresh()`: redraw what depends on the absorption chosen (default: `redraw`);
   * - `say(text)`: tell the player something (why a click did nothing), `absorbFirst` the
   *   words for a click before the absorption is chosen. */
  constructor({ view, enabled, play, redraw, refresh = null, say, absorbFirst = ABSORB_FIRST }) {
    this.view = view;
    this.enabled = () => Boolean(view()) && enabled();
    this.playMove = play;
    this.redraw = redraw;
    this.refresh = refresh || redraw;
    this.say = say;
    this.absorbFirst = absorbFirst;
    this.selected = null;
    this.handFace = null;
    this.absorb = null;
    this.board = new Board($("board"), {
      onSquare: (square) => this.square(square),
      onHandDie: (owner, face) => this.handDie(owner, face),
    });
  }

  /** A new position: nothing selected, no absorption chosen. */
  reset() {
    this.clear();
    this.absorb = null;
  }

  /** Nothing selected (the chooser's path preview goes too). */
  clear() {
    this.selected = null;
    this.handFace = null;
    this.board.preview([], "preview");
  }

  /** The legal moves that a click can make: all of them, or where Chase's absorption can be
   * made more than one way, those of the absorption chosen (none until one is). */
  legal() {
    const shown = this.view();
    const legal = shown ? shown.legal : [];
    if (C.absorbChoices(legal).length <= 1) return legal;
    return this.absorb === null ? [] : C.withPrefix(legal, this.absorb);
  }

  /** What the selection marks: the die selected and its targets, the squares a die in hand
   * can go to, or else the dice that can move. */
  marks() {
    const legal = this.legal();
    if (this.selected) return [{ square: this.selected, kind: "selected" }, ...C.targetsFrom(legal, this.selected)];
    if (this.handFace !== null) {
      return legal.filter((m) => m.kind === "placement" && m.face === this.handFace)
        .map((m) => ({ square: m.to, kind: "target" }));
    }
    return [...C.sources(legal)].map((square) => ({ square, kind: "source" }));
  }

  /** Draw the page's own marks (`extra`: [{square, kind}]) and, while the page is played, the
   * selection's and the dice in hand that can be placed. */
  render(extra = []) {
    const shown = this.view();
    const toMove = shown ? shown.to_move : null;
    const on = this.enabled();
    this.board.mark(on ? [...extra, ...this.marks()] : extra, this.handFace, toMove);
    this.board.markHand(on ? C.handFaces(this.legal()) : new Set(), toMove);
  }

  /** The absorption choice above the board (Chase), shown where there is more than one;
   * hovering a choice marks the dice it raises. */
  renderAbsorb() {
    const box = $("absorb");
    const shown = this.view();
    const choices = this.enabled() ? C.absorbChoices(shown.legal) : [];
    box.hidden = choices.length <= 1;
    if (box.hidden) return;
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
        this.clear();
        this.renderAbsorb();
        this.refresh();
      });
      b.addEventListener("mouseenter", () => this.board.mark(prefix.split(",").map((square) => ({ square, kind: "hint-from" }))));
      b.addEventListener("mouseleave", () => this.redraw());
      return b;
    }));
  }

  /** A die in hand clicked (or its face's key pressed: `owner` null): select it, or unselect. */
  handDie(owner, face) {
    if (!this.enabled()) return;
    if (owner && owner !== this.view().to_move) return;
    if (!C.handFaces(this.legal()).has(face)) return;
    this.selected = null;
    this.handFace = this.handFace === face ? null : face;
    this.redraw();
  }

  /** A square clicked or chosen with the keyboard (null: a click beside the board, Escape). */
  async square(square) {
    if (!this.enabled()) return;
    const legal = this.legal();
    if (!legal.length && C.absorbChoices(this.view().legal).length > 1) {
      this.say(this.absorbFirst);
      return;
    }
    if (square === null) return this.unselect();
    if (this.handFace !== null) {
      const placements = C.placementsTo(legal, square, this.handFace);
      if (placements.length) return this.playMove(placements[0].notation);
    }
    if (this.selected) {
      const candidates = C.movesBetween(legal, this.selected, square);
      if (candidates.length === 1) return this.playMove(candidates[0].notation);
      if (candidates.length > 1) {
        const choice = await this.choose(this.choiceTitle(this.selected, square, candidates), candidates);
        if (choice) return this.playMove(choice.notation);
        return;
      }
      if (square === this.selected) return this.unselect();
    }
    if (C.sources(legal).has(square)) {
      this.selected = square;
      this.handFace = null;
      this.redraw();
      return;
    }
    const placements = C.placementsTo(legal, square);
    if (placements.length) {
      const choice = placements.length === 1 ? placements[0] : await this.choose(`Place a die on ${square}`, placements);
      if (choice) return this.playMove(choice.notation);
      return;
    }
    this.unselect();
  }

  unselect() {
    this.clear();
    this.redraw();
  }

  /** The chooser's question for the moves between two squares, naming the dice's faces. */
  choiceTitle(from, to, candidates) {
    const board = this.view().board || {};
    const face = (square) => (board[square] || [null, "?"])[1];
    return candidates.every((m) => m.kind === "transfer")
      ? `Exchange ${from} (${face(from)}) and ${to} (${face(to)})`
      : `Move ${from} (${face(from)}) to ${to}: which way?`;
  }

  /** Whether the chooser is open (the page's own keys wait meanwhile). */
  choosing() {
    return !$("chooser").hidden;
  }

  /** Ask which of `moves` to make: resolves with the move chosen, or null (Cancel, Escape, a
   * click beside the box). A button shows the die's new face, and hovering or focusing it
   * draws the move's path. */
  choose(title, moves) {
    const dialog = $("chooser");
    const shown = this.view();
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
          die.dataset.player = String(shown.players.indexOf(shown.to_move));
          die.textContent = DIE_FACES[face];
          die.setAttribute("aria-hidden", "true");
          b.append(die);
        }
        const text = C.label(m, shown.board);
        b.append(document.createTextNode(` ${text}`));
        b.title = m.notation;
        b.setAttribute("aria-label", `${text} (${m.notation})`);
        const show = () => this.board.preview(m.segments, "preview", shapeOf(m));
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

/** Typed notation: the form `#notation` calls `play` with its text. */
export function onNotation(play) {
  $("notation").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("notation-input").value.trim();
    if (text) play(text);
  });
}

/** The page's own keys (`keys`: a key's name → what it does), where the key is not typed into a
 * field, not pressed with a modifier nor while the chooser is open, and not an arrow on the
 * board (the board's cursor keeps those). */
export function onPageKeys(keys) {
  document.addEventListener("keydown", (event) => {
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select" || !$("chooser").hidden) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.id === "board" && event.key.startsWith("Arrow")) return;
    const action = keys[event.key];
    if (action) action();
  });
}
