// The board: the server's SVG made interactive. Clicks and keys name squares; highlights,
// path previews and the keyboard cursor are drawn in the SVG's own layers; moves animate.
// No rule is decided here: what is selectable or a target comes from the server's legal moves.

const SVG_NS = "http://www.w3.org/2000/svg";
const STEP_MS = 110;
const reduceMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export class Board {
  constructor(container, { onSquare, onHandDie }) {
    this.container = container;
    this.onSquare = onSquare;
    this.onHandDie = onHandDie;
    this.svg = null;
    this.centres = {};
    this.split = {};
    this.cursor = null;
    container.addEventListener("click", (event) => this.click(event));
    container.addEventListener("keydown", (event) => this.key(event));
  }

  /** Show a new picture from the server. */
  show(svgText, centres, split) {
    this.container.innerHTML = svgText;
    this.svg = this.container.querySelector("svg");
    this.svg.setAttribute("focusable", "false");
    this.centres = centres || {};
    this.split = split || {};
    this.drawCursor();
  }

  squaresOf(name) {
    return this.svg ? [...this.svg.querySelectorAll(`[data-square="${name}"]:not(.die)`)] : [];
  }

  click(event) {
    const hand = event.target.closest(".hand-die");
    if (hand && this.svg.contains(hand)) {
      this.onHandDie(hand.dataset.owner, Number(hand.dataset.face));
      return;
    }
    const el = event.target.closest("[data-square]");
    if (el && this.svg && this.svg.contains(el)) {
      this.cursor = el.dataset.square;
      this.onSquare(el.dataset.square);
    } else {
      this.onSquare(null);
    }
  }

  key(event) {
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[event.key]) {
      event.preventDefault();
      this.moveCursor(...dirs[event.key]);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (this.cursor) this.onSquare(this.cursor);
    } else if (event.key === "Escape") {
      this.onSquare(null);
    } else if (/^[1-6]$/.test(event.key)) {
      this.onHandDie(null, Number(event.key));
    }
  }

  moveCursor(dx, dy) {
    const names = Object.keys(this.centres);
    if (!names.length) return;
    if (!this.cursor || !this.centres[this.cursor]) {
      this.cursor = names[0];
    } else {
      const [x0, y0] = this.centres[this.cursor];
      let best = null;
      let bestScore = Infinity;
      for (const name of names) {
        const [x, y] = this.centres[name];
        const along = (x - x0) * dx + (y - y0) * dy;
        if (along <= 1) continue;
        const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
        const score = along + 2 * across;
        if (score < bestScore) {
          bestScore = score;
          best = name;
        }
      }
      if (best) this.cursor = best;
    }
    this.drawCursor();
    this.container.setAttribute("aria-label", `Board, cursor on ${this.cursor}`);
  }

  drawCursor() {
    if (!this.svg) return;
    this.svg.querySelectorAll(".kb-cursor").forEach((el) => el.remove());
    if (!this.cursor) return;
    const layer = this.layer("highlights");
    for (const cell of this.squaresOf(this.cursor)) {
      const copy = cell.cloneNode(false);
      copy.removeAttribute("data-square");
      copy.setAttribute("class", "kb-cursor");
      layer.append(copy);
    }
  }

  layer(id) {
    let layer = this.svg.querySelector(`#${id}`);
    if (!layer) {
      layer = document.createElementNS(SVG_NS, "g");
      layer.id = id;
      this.svg.append(layer);
    }
    return layer;
  }

  /** Mark squares: [{square, kind}] with kind one of selected, target, capture, transfer, hint. */
  mark(marks, handFace = null, handOwner = null) {
    if (!this.svg) return;
    this.svg.querySelectorAll(".mark").forEach((el) => el.remove());
    this.svg.querySelectorAll(".hand-die.selected").forEach((el) => el.classList.remove("selected"));
    const layer = this.layer("highlights");
    for (const { square, kind } of marks) {
      for (const cell of this.squaresOf(square)) {
        const copy = cell.cloneNode(false);
        copy.removeAttribute("data-square");
        copy.setAttribute("class", `mark mark-${kind}`);
        copy.removeAttribute("fill");
        layer.append(copy);
      }
      if (kind === "target" || kind === "capture" || kind === "hint-to") {
        const c = this.centres[square];
        if (!c) continue;
        const dot = document.createElementNS(SVG_NS, "circle");
        dot.setAttribute("cx", c[0]);
        dot.setAttribute("cy", c[1]);
        dot.setAttribute("r", kind === "capture" ? 22 : 9);
        dot.setAttribute("class", `mark mark-dot-${kind}`);
        this.layer("arrows").append(dot);
      }
    }
    if (handFace !== null) {
      const die = this.svg.querySelector(
        `.hand-die[data-face="${handFace}"]${handOwner ? `[data-owner="${handOwner}"]` : ""}`);
      if (die) die.classList.add("selected");
    }
    this.drawCursor();
  }

  /** Mark the dice in hand that can be placed now. */
  markHand(faces, owner) {
    if (!this.svg) return;
    this.svg.querySelectorAll(".hand-die").forEach((die) => {
      const placeable = die.dataset.owner === owner && faces.has(Number(die.dataset.face));
      die.classList.toggle("placeable", placeable);
    });
  }

  wrapWidth() {
    const first = Object.values(this.split)[0];
    return first ? first[1][0] - first[0][0] : null;
  }

  /** Points of a path of squares, unwrapped across the cylinder's seam. */
  points(line) {
    const wrap = this.wrapWidth();
    const pts = [];
    for (const name of line) {
      const c = this.centres[name];
      if (!c) continue;
      let [x, y] = c;
      if (wrap && pts.length) {
        const px = pts[pts.length - 1][0];
        while (x - px > wrap / 2) x -= wrap;
        while (px - x > wrap / 2) x += wrap;
      }
      pts.push([x, y]);
    }
    return pts;
  }

  /** Draw polylines of squares (a path preview) in the arrow layer. */
  preview(lines, kind = "preview") {
    if (!this.svg) return;
    this.svg.querySelectorAll(`.path-${kind}`).forEach((el) => el.remove());
    const layer = this.layer("arrows");
    for (const line of lines || []) {
      const pts = this.points(line);
      if (pts.length < 2) continue;
      const poly = document.createElementNS(SVG_NS, "polyline");
      poly.setAttribute("points", pts.map((p) => p.join(",")).join(" "));
      poly.setAttribute("class", `path path-${kind}`);
      layer.append(poly);
      const end = document.createElementNS(SVG_NS, "circle");
      const [x, y] = pts[pts.length - 1];
      end.setAttribute("cx", x);
      end.setAttribute("cy", y);
      end.setAttribute("r", 7);
      end.setAttribute("class", `path path-${kind} path-end`);
      layer.append(end);
    }
  }

  /** Slide the dice of a move along its segments (the picture is replaced afterwards). */
  async animate(segments) {
    if (!this.svg || !segments || reduceMotion()) return;
    const moves = [];
    for (const line of segments) {
      if (line.length < 2) continue;
      const die = this.svg.querySelector(`.die[data-square="${line[0]}"]`);
      if (!die) continue;
      die.querySelectorAll(".wrap-copy").forEach((el) => el.remove());
      die.parentNode.append(die); // on top of the others
      moves.push({ die, pts: this.points(line) });
    }
    if (!moves.length) return;
    const wrap = this.wrapWidth();
    const longest = Math.max(...moves.map((m) => m.pts.length - 1));
    const total = Math.min(900, STEP_MS * longest);
    await new Promise((resolve) => {
      const start = performance.now();
      // the picture is replaced afterwards whatever happens: never wait on a lost frame
      const guard = setTimeout(resolve, total + 500);
      const frame = (now) => {
        const t = Math.max(0, Math.min(1, (now - start) / total));
        for (const { die, pts } of moves) {
          const steps = pts.length - 1;
          const pos = t * steps;
          const i = Math.min(steps - 1, Math.floor(pos));
          const f = pos - i;
          let x = pts[i][0] + (pts[i + 1][0] - pts[i][0]) * f;
          const y = pts[i][1] + (pts[i + 1][1] - pts[i][1]) * f;
          if (wrap) {
            const lo = Math.min(...Object.values(this.centres).map((c) => c[0])) - wrap * 0.05;
            while (x < lo) x += wrap;
            while (x > lo + wrap) x -= wrap;
          }
          die.setAttribute("transform", `translate(${x} ${y})`);
        }
        if (t < 1) requestAnimationFrame(frame);
        else {
          clearTimeout(guard);
          resolve();
        }
      };
      requestAnimationFrame(frame);
    });
  }
}
