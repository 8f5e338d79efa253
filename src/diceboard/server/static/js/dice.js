// Dice as the pages show them beside the board: a face as a glyph, and the players' die colours
// (from the game's die styles, sent by the server) as CSS variables.

/** The die glyph of each face (index 1 to 6; 0 is none). */
export const DIE_FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

/** "#rrggbb" → [r, g, b] in 0..1 */
const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);

/** The players' die colours (`dieColours`, one "#rrggbb" a player) as CSS variables: swatches
 * and die glyphs use them (a near-white die's glyph is drawn in ink), and where the dice are
 * coloured the marks switch to a palette that avoids them. */
export function applyDieColours(dieColours) {
  const fills = (dieColours || []).filter((c) => /^#[0-9a-f]{6}$/i.test(c));
  fills.forEach((fill, i) => {
    const [r, g, b] = rgb(fill);
    const light = 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.8;
    document.body.style.setProperty(`--die-${i}`, fill);
    document.body.style.setProperty(`--glyph-${i}`, light ? "var(--ink)" : fill);
  });
  const coloured = fills.some((fill) => {
    const channels = rgb(fill);
    return Math.max(...channels) - Math.min(...channels) > 0.3;
  });
  document.body.dataset.palette = coloured ? "coloured-dice" : "plain-dice";
}
