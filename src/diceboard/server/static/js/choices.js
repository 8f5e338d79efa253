// Reading the server's legal moves for the board: which dice can be picked, where each can
// go, and which moves a click leaves to choose between. Pure functions over the list the
// server sent; the rules themselves are never computed here.

const ARROWS = { E: "→", W: "←", NE: "↗", NW: "↖", SE: "↘", SW: "↙" };

export const prefixOf = (move) => (move.absorb || []).join(",");

/** The distinct absorption choices (Chase), in the server's order. */
export function absorbChoices(legal) {
  return [...new Set(legal.map(prefixOf))];
}

export function withPrefix(legal, prefix) {
  return prefix === null ? legal : legal.filter((m) => prefixOf(m) === prefix);
}

/** Squares holding a die that some legal move starts from. */
export function sources(legal) {
  const set = new Set();
  for (const m of legal) {
    if (m.from) set.add(m.from);
    if (m.kind === "transfer") m.transfer.forEach(([sq]) => set.add(sq));
  }
  return set;
}

/** Faces in hand that can be placed now. */
export function handFaces(legal) {
  return new Set(legal.filter((m) => m.kind === "placement").map((m) => m.face));
}

/** Where the die on `square` can go: [{square, kind}] (kind target, capture or transfer). */
export function targetsFrom(legal, square) {
  const marks = new Map();
  for (const m of legal) {
    if (m.from === square && m.to) {
      // a capture: the move says so, or the engine found that it takes dice (`captures`)
      const kind = m.capture || m.captures ? "capture" : "target";
      if (marks.get(m.to) !== "capture") marks.set(m.to, kind);
    } else if (m.kind === "transfer") {
      const [[a], [b]] = m.transfer;
      if (a === square && !marks.has(b)) marks.set(b, "transfer");
      if (b === square && !marks.has(a)) marks.set(a, "transfer");
    }
  }
  return [...marks].map(([sq, kind]) => ({ square: sq, kind }));
}

/** Legal moves that take the die on `from` to `to`, and transfers between the two. */
export function movesBetween(legal, from, to) {
  return legal.filter((m) => {
    if (m.from === from && m.to === to) return true;
    if (m.kind !== "transfer") return false;
    const squares = m.transfer.map(([sq]) => sq);
    return squares.includes(from) && squares.includes(to);
  });
}

export function placementsTo(legal, square, face = null) {
  return legal.filter((m) => m.kind === "placement" && m.to === square && (face === null || m.face === face));
}

/** "a2 (2)": a square and the face of the die on it in `board` ({square: [owner, face]}). */
const named = (board, sq) => (board && board[sq] ? `${sq} (${board[sq][1] ?? "?"})` : sq);

/** What a Chase move does to other dice, read from its drawn path: the own dice it bumps
 * (each later segment starts where a pushed die stood) and the enemy die it captures. */
export function effects(move, board) {
  if (!board || !move.segments || !move.from || !board[move.from]) return "";
  const owner = board[move.from][0];
  const bumped = [];
  for (const seg of move.segments.slice(1)) {
    const sq = seg[0];
    if (sq !== move.from && board[sq] && board[sq][0] === owner && !bumped.includes(sq)) bumped.push(sq);
  }
  const parts = [];
  if (bumped.length) {
    const more = bumped.length > 2 ? ` and ${bumped.length - 2} more` : "";
    parts.push(`bumps ${bumped.slice(0, 2).map((sq) => named(board, sq)).join(", ")}${more}`);
  }
  if (move.capture) {
    const ends = move.segments.map((seg) => seg[seg.length - 1]);
    const victim = ends.find((sq) => board[sq] && board[sq][0] !== owner);
    parts.push(victim ? `captures ${named(board, victim)}` : "captures");
  }
  return parts.join(", ");
}

/** A short label for a move in the chooser (`rolled_after`: a roll follows the move; `board`
 * names the dice a move bumps or captures). */
export function label(move, board = null) {
  switch (move.kind) {
    case "placement":
      return `Place ${move.face}`;
    case "step":
      return move.face ? `Turn to ${move.face}` : "Step (the die is rolled)";
    case "jump":
      return move.rolled_after ? "Jump (the die is rolled)" : "Jump (flip)";
    case "move": {
      const what = effects(move, board);
      return `${ARROWS[move.dir] || ""} ${move.dir}${what ? ` · ${what}` : move.capture ? " · captures" : ""}`;
    }
    case "transfer":
      return move.transfer.map(([sq, f]) => `${sq} becomes ${f}`).join(", ");
    default:
      return move.notation;
  }
}

/** The face a chooser button shows as a die, if any. */
export function shownFace(move) {
  if (move.kind === "placement" || (move.kind === "step" && move.face)) return move.face;
  return null;
}
