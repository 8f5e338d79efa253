// The analysis board's variation tree: every node is a position reached by one move from its
// parent; a node's first child continues its line (the main line from the root), the others
// are side lines. Only notations are kept: positions and legal moves come from the server.

export class VariationTree {
  constructor() {
    this.nodes = new Map();
    this.nextId = 0;
    this.root = this.add(null, null, null);
  }

  add(parent, move, seat) {
    const node = { id: this.nextId++, parent, move, seat, children: [], info: null, eval: null, glyph: null };
    this.nodes.set(node.id, node);
    if (parent !== null) this.nodes.get(parent).children.push(node.id);
    return node.id;
  }

  get(id) {
    return this.nodes.get(id);
  }

  /** The child of `id` reached by `move`, made (as a side line if there are others) if new. */
  child(id, move, seat) {
    const node = this.get(id);
    const found = node.children.find((c) => this.get(c).move === move);
    return found !== undefined ? found : this.add(id, move, seat);
  }

  /** The moves from the root to `id`. */
  path(id) {
    const moves = [];
    for (let n = this.get(id); n.parent !== null; n = this.get(n.parent)) moves.push(n.move);
    return moves.reverse();
  }

  /** The nodes from the root to `id`, both included. */
  ancestry(id) {
    const line = [];
    for (let n = this.get(id); n; n = n.parent === null ? null : this.get(n.parent)) line.push(n.id);
    return line.reverse();
  }

  /** The end of the line that `id` is on (following first children). */
  lineEnd(id) {
    let n = this.get(id);
    while (n.children.length) n = this.get(n.children[0]);
    return n.id;
  }

  /** The main line: the root and its first children, in order. */
  mainLine() {
    const line = [this.root];
    let n = this.get(this.root);
    while (n.children.length) {
      n = this.get(n.children[0]);
      line.push(n.id);
    }
    return line;
  }

  isMain(id) {
    return this.mainLine().includes(id);
  }

  /** Make the line through `id` the first choice at every branch on its way from the root. */
  promote(id) {
    for (let n = this.get(id); n.parent !== null; n = this.get(n.parent)) {
      const siblings = this.get(n.parent).children;
      siblings.splice(siblings.indexOf(n.id), 1);
      siblings.unshift(n.id);
    }
  }

  /** Remove `id` and everything after it; returns its parent. */
  remove(id) {
    const node = this.get(id);
    if (node.parent === null) return id;
    const parent = this.get(node.parent);
    parent.children.splice(parent.children.indexOf(id), 1);
    const drop = [id];
    while (drop.length) {
      const n = this.get(drop.pop());
      drop.push(...n.children);
      this.nodes.delete(n.id);
    }
    return parent.id;
  }
}

/** Render the tree into `container`: the main line as a run of moves, each side line in
 * brackets after the move it replaces, nested. `button(node, number)` makes a move's element;
 * `number` is the move's number text ("3." or "3…") where one is shown. */
export function renderTree(tree, container, button, firstPlayer) {
  container.replaceChildren();
  // move numbers as in chess: "n." before the first player's move, "n…" where a line goes
  // on with the second player's; a game that starts with the second player's move starts
  // at "1…"
  const numberOf = (id) => {
    let count = 0;
    let offset = 0;
    let seen = false;
    for (const a of tree.ancestry(id)) {
      const seat = tree.get(a).seat;
      if (!seat) continue;
      if (!seen && seat !== firstPlayer) offset = 1;
      seen = true;
      if (seat === firstPlayer) count += 1;
    }
    return count + offset;
  };
  const line = (into, startId, startNumbered) => {
    let prevId = null;
    let n = tree.get(startId);
    let numbered = startNumbered;
    // `n` is the node whose children continue this line
    while (n.children.length) {
      const [main, ...sides] = n.children;
      const node = tree.get(main);
      into.append(button(node, label(node, numbered)));
      numbered = false;
      for (const side of sides) {
        const span = document.createElement("span");
        span.className = "variation";
        span.append("(");
        span.append(button(tree.get(side), label(tree.get(side), true)));
        line(span, side, false);
        span.append(")");
        into.append(span);
        numbered = true;
      }
      prevId = main;
      n = node;
    }
    return prevId;
  };
  const label = (node, force) => {
    if (!node.seat) return "";
    if (node.seat === firstPlayer) return `${numberOf(node.id)}.`;
    return force ? `${numberOf(node.id)}…` : "";
  };
  line(container, tree.root, true);
}
