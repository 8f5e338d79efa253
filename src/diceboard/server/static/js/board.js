// The board: the server's SVG made interactive. Clicks and keys name squares; highlights,
// path previews and the keyboard cursor are drawn in the SVG's own layers; moves animate.
// No rule is decided here: what is selectable or a target comes from the server's legal moves.

const SVG_NS = "http://www.w3.org/2000/svg";
const STEP_MS = 110;
const CAPTURE_MS = 450;
const reduceMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** How a move is drawn: a jump as an arc, a transfer as an exchange, the rest along paths. */
export function shapeOf(move) {
  if (move.kind === "jump") return "jump";
  if (move.kind === "transfer") return "exchange";
  return "path";
}

/** +1 or -1: which side of the line from `a` to `b` an arc bows to (always the same side
 * for the same direction on screen). */
function dirSign(a, b) {
  return b[1] - a[1] > 0 || (b[1] === a[1] && b[0] < a[0]) ? -1 : 1;
}

/** An arrowhead at `b` for the curve from `a` bowed by `lift`, pointing along its end. */
function arrowHead(a, b, lift) {
  const [mx, my] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const [cx, cy] = [mx + (b[1] - a[1]) * lift, my - (b[0] - a[0]) * lift];
  const [tx, ty] = [b[0] - cx, b[1] - cy];
  const len = Math.hypot(tx, ty) || 1;
  const [ux, uy] = [tx / len, ty / len];
  // the head stops short of the die's centre so that the die stays readable
  const [hx, hy] = [b[0] - ux * 12, b[1] - uy * 12];
  const size = 10;
  const head = document.createElementNS(SVG_NS, "polygon");
  const pts = [
    [hx, hy],
    [hx - ux * size - uy * size * 0.6, hy - uy * size + ux * size * 0.6],
    [hx - ux * size + uy * size * 0.6, hy - uy * size - ux * size * 0.6],
  ];
  head.setAttribute("points", pts.map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" "));
  head.setAttribute("class", "exchange-head");
  return head;
}

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
    // the keyboard cursor shows only while the keyboard is in use: a pointer hides it again
    document.addEventListener("pointerdown", () => this.useKeyboard(false), true);
  }

  /** Show (true) or hide the keyboard cursor, as the keyboard or a pointer is used. */
  useKeyboard(on) {
    this.container.classList.toggle("kb-active", on);
    this.container.dataset.input = on ? "keyboard" : "pointer";
  }

  /** Show a new picture from the server. */
  show(svgText, centres, split) {
    this.container.innerHTML = svgText;
    this.svg = this.container.querySelector("svg");
    this.svg.setAttribute("focusable", "false");
    this.centres = centres || {};
    this.split = split || {};
    this.drawWrappedOnce();
    this.drawCursor();
  }

  /** A die on a split edge hex is drawn once, on the half where it stands: the server's
   * second image (at the other edge) is dropped, and that other half is outlined instead,
   * so that the hex reads as one hex cut by the seam with one die on it. */
  drawWrappedOnce() {
    for (const wrap of this.svg.querySelectorAll(".die > g.wrap")) {
      const die = wrap.parentNode;
      wrap.remove();
      const images = this.split[die.dataset.square];
      const match = /translate\(([-\d.]+)/.exec(die.getAttribute("transform") || "");
      if (!images || !match) continue;
      const x = Number(match[1]);
      const far = Math.abs(images[0][0] - x) > Math.abs(images[1][0] - x) ? "left" : "right";
      const half = this.svg.querySelector(`.hex.split[data-square="${die.dataset.square}"][data-half="${far}"]`);
      if (half) {
        half.classList.add("split-twin");
        half.dataset.owner = die.dataset.owner;
      }
    }
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
    if (event.key !== "Tab") this.useKeyboard(true);
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

  /** Draw a move in the arrow layer: polylines of squares (a walk or a Chase path), an arc
   * over the jumped square (`shape` "jump"), or a two-way exchange between two dice (`shape`
   * "exchange", a transfer). `kind` is preview, hint or last. */
  preview(lines, kind = "preview", shape = "path") {
    if (!this.svg) return;
    this.svg.querySelectorAll(`.path-${kind}`).forEach((el) => el.remove());
    const layer = this.layer("arrows");
    for (const line of lines || []) {
      const pts = this.points(line);
      if (pts.length < 2) continue;
      if (shape === "jump") {
        this.drawArc(layer, pts[0], pts[pts.length - 1], kind);
        continue;
      }
      if (shape === "exchange") {
        this.drawExchange(layer, pts[0], pts[pts.length - 1], kind);
        continue;
      }
      const poly = document.createElementNS(SVG_NS, "polyline");
      poly.setAttribute("points", pts.map((p) => p.join(",")).join(" "));
      poly.setAttribute("class", `path path-${kind}`);
      layer.append(poly);
      this.dot(layer, pts[pts.length - 1], `path path-${kind} path-end`);
    }
  }

  dot(layer, [x, y], cls, r = 7) {
    const end = document.createElementNS(SVG_NS, "circle");
    end.setAttribute("cx", x);
    end.setAttribute("cy", y);
    end.setAttribute("r", r);
    end.setAttribute("class", cls);
    layer.append(end);
    return end;
  }

  /** A quadratic curve from `a` to `b` bulging to one side by `lift` of their distance. */
  curve(a, b, lift) {
    const [mx, my] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
    // the control point sits off the middle, perpendicular to the line; a vertical jump on
    // screen bows to the right, a horizontal one upwards
    const [cx, cy] = [mx + dy * lift, my - dx * lift];
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", `M ${a[0]} ${a[1]} Q ${cx} ${cy} ${b[0]} ${b[1]}`);
    return path;
  }

  /** A jump: an arc over the jumped square, with the landing square's dot. */
  drawArc(layer, a, b, kind) {
    const arc = this.curve(a, b, dirSign(a, b) * 0.45);
    arc.setAttribute("class", `path path-${kind} path-jump`);
    layer.append(arc);
    this.dot(layer, a, `path path-${kind} path-start`, 5);
    this.dot(layer, b, `path path-${kind} path-end`);
  }

  /** A transfer: two arcs between the dice, one each way, each ending in an arrowhead. */
  drawExchange(layer, a, b, kind) {
    const group = document.createElementNS(SVG_NS, "g");
    group.setAttribute("class", `path path-${kind} path-exchange`);
    for (const [from, to] of [[a, b], [b, a]]) {
      const arc = this.curve(from, to, 0.28);
      arc.setAttribute("class", `path path-${kind} exchange-arc`);
      group.append(arc);
      group.append(arrowHead(from, to, 0.28));
    }
    layer.append(group);
  }

  /** The server draws the last move as a straight arrow; a jump and a transfer are redrawn
   * here as what they are (an arc over the jumped die, an exchange between two dice). */
  drawLast(last) {
    if (!this.svg) return;
    this.svg.querySelectorAll(".path-last").forEach((el) => el.remove());
    const shape = last ? shapeOf(last) : "path";
    if (shape === "path") return;
    this.svg.querySelectorAll(".arrow.last-move").forEach((el) => el.setAttribute("display", "none"));
    this.preview(last.segments || [], "last", shape);
  }

  /** Captured dice leave: the dice on `squares` shrink and fade before the next picture. */
  async capture(squares) {
    if (!this.svg || !squares.length) return;
    const dice = squares
      .map((sq) => this.svg.querySelector(`.die[data-square="${sq}"]`))
      .filter(Boolean);
    if (!dice.length) return;
    dice.forEach((die) => die.classList.add("captured-leaving"));
    this.container.dataset.capturing = String(dice.length);
    await new Promise((resolve) => setTimeout(resolve, reduceMotion() ? 0 : CAPTURE_MS));
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
