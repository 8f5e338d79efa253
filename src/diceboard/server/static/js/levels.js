// The computer-strength menus (new game, continue a record, continue from the analysis
// board): the levels a game has, from /api/meta. A level that only some games have names
// them in its "games"; a level without "games" is every game's.

/** The entries of /api/meta's `levels` that the game `game` offers, weakest first. */
export function levelsOf(meta, game) {
  return meta.levels.filter((level) => !level.games || level.games.includes(game));
}

/**
 * Fill `select` with the levels of `game`: the choice stays where the game has it, else it is
 * `fallback` (a spec) where the game has that, else the middle of the levels every game has.
 */
export function fillLevelMenu(select, meta, game, fallback = null) {
  const offered = levelsOf(meta, game);
  const chosen = select.value;
  select.replaceChildren(...offered.map((level) => new Option(level.label, level.spec)));
  const specs = offered.map((level) => level.spec);
  const common = meta.levels.filter((level) => !level.games);
  const middle = common[Math.min(common.length - 1, Math.floor(common.length / 2))].spec;
  select.value = specs.includes(chosen) ? chosen : specs.includes(fallback) ? fallback : middle;
}
