// The moves as players count them: numbered rows of one move per player (the first player's,
// then the second's), each roll made without a decision (a setup roll) folded into the row of
// the move that follows it. The move list and the "move N of M" counter both read this.

/** The rows of `g.moves`: [{cells: [{seat, index, rolls}]}] (`index`: the move's place in
 * `g.moves`, null for rolls still waiting for their move; `rolls`: places of its rolls). */
export function moveRows(g) {
  const rows = [];
  let row = null;
  let rolls = [];
  g.moves.forEach((m, i) => {
    if (!m.seat) {
      rolls.push(i);
      return;
    }
    if (!row || m.seat === g.players[0] || row.cells.some((c) => c.seat === m.seat)) {
      row = { cells: [] };
      rows.push(row);
    }
    row.cells.push({ seat: m.seat, index: i, rolls });
    rolls = [];
  });
  if (rolls.length) {
    if (!row) rows.push((row = { cells: [] }));
    row.cells.push({ seat: null, index: null, rolls });
  }
  return rows;
}

/** Where the position after `plies` entries of `g.moves` stands, counted in moves:
 * {number, total, seat, text} — "Move 3 of 20 · Black", "Start of the game (20 moves)". */
export function positionLabel(g, plies) {
  const rows = moveRows(g);
  const total = rows.length;
  if (plies <= 0) return { number: 0, total, seat: null, text: `Start of the game (${total} ${total === 1 ? "move" : "moves"})` };
  const ply = plies - 1;
  for (let n = 0; n < rows.length; n += 1) {
    for (const cell of rows[n].cells) {
      const name = (seat) => g.player_names[g.players.indexOf(seat)];
      if (cell.index === ply) {
        return { number: n + 1, total, seat: cell.seat, text: `Move ${n + 1} of ${total} · ${name(cell.seat)}` };
      }
      if (cell.rolls.includes(ply)) {
        const before = cell.seat ? ` before ${name(cell.seat)}'s move` : "";
        return { number: n + 1, total, seat: null, text: `Move ${n + 1} of ${total} · roll${before}` };
      }
    }
  }
  return { number: total, total, seat: null, text: `Move ${total} of ${total}` };
}
