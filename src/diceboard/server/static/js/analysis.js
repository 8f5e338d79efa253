// The analysis board: a position from a game, a pasted position string or a game's start;
// moves played freely grow a variation tree; the engine keeps thinking about the position
// shown (asking the server again with bigger budgets) until stopped; a finished game can be
// reviewed. Legal moves, chance outcomes and pictures all come from the server.
import { ApiError, describeOutcome, rememberGame, rememberSeat, request } from "./api.js";
import { DIE_FACES, applyDieColours } from "./dice.js";
import { Interaction, onNotation, onPageKeys } from "./interaction.js";
import { fillLevelMenu } from "./levels.js";
import { drawGraph, glyphClass, renderSides, runReview } from "./review.js";
import { VariationTree, renderTree } from "./variations.js";

const $ = (id) => document.getElementById(id);
/** seconds of search asked for, one after another, while the engine is left thinking */
const BUDGETS = [0.25, 0.5, 1, 2, 4, 8];
const pct = (p) => `${(100 * p).toFixed(1)}%`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const ui = {
  meta: null,
  setup: null, // {game, variant, options, position}: what every request names
  tree: null,
  current: null,
  target: null, // the node last asked for: steps count from it while its position loads
  ticket: 0,
  flipped: false,
  hint: null, // a better move to draw: {move, text}
  stopped: false,
  thinkGen: 0,
  thinking: false,
  fromGame: null,
  gameNodes: [], // node of the position after i moves of the game the board came from
  review: null,
};

const interaction = new Interaction({
  view: () => (ui.tree && ui.current !== null ? info() : null),
  enabled: () => !info().chance && !info().outcome,
  play: playMove,
  redraw: renderMarks,
  refresh: render,
  say: (text) => say(text, "info"),
});
const board = interaction.board;

function say(text, kind = "error") {
  $("message").textContent = text || "";
  $("message").dataset.kind = kind;
}

const node = (id = ui.current) => ui.tree.get(id);
const info = () => node().info;
const nameOf = (i, seat) => i.player_names[i.players.indexOf(seat)];

function positionBody(id) {
  return {
    game: ui.setup.game,
    variant: ui.setup.variant,
    options: ui.setup.options,
    position: ui.setup.position,
    moves: ui.tree.path(id),
  };
}

async function infoOf(id) {
  const n = node(id);
  if (!n.info || n.info.flipped !== ui.flipped) {
    n.info = await request("POST", "/api/analysis/moves", { body: { ...positionBody(id), flipped: ui.flipped } });
  }
  return n.info;
}

// --- moving around the tree ------------------------------------------------------------------
async function goTo(id, hint = null) {
  const ticket = ++ui.ticket;
  ui.target = id;
  let shown;
  try {
    shown = await infoOf(id);
  } catch (error) {
    if (ticket === ui.ticket) ui.target = ui.current;
    say(error.message);
    return false;
  }
  if (ticket !== ui.ticket) return true;
  const moved = id !== ui.current;
  ui.current = id;
  interaction.reset();
  ui.hint = hint;
  if (moved && !hint) say("");
  board.show(shown.svg, shown.centres, shown.split);
  document.body.dataset.node = String(id);
  document.body.dataset.position = shown.position;
  render();
  think(id);
  return true;
}

/** Play `notation` from the position shown: its node (new, or the one already there). */
async function playMove(notation) {
  const here = info();
  const seat = here.chance ? null : here.to_move;
  const known = node().children.find((c) => node(c).move === notation);
  const id = known !== undefined ? known : ui.tree.add(ui.current, notation, seat);
  const ok = await goTo(id);
  if (!ok && known === undefined) {
    ui.tree.remove(id);
    renderTreeNow();
    return;
  }
  // a typed move is kept under the engine's spelling of it
  const reached = node(id);
  if (ok && reached.info && reached.info.last && reached.info.last.notation !== notation) {
    const spelled = reached.info.last.notation;
    const twin = node(reached.parent).children.find((c) => c !== id && node(c).move === spelled);
    if (twin !== undefined) {
      ui.tree.remove(id);
      await goTo(twin);
    } else {
      reached.move = spelled;
      renderTreeNow();
    }
  }
  $("notation-input").value = "";
}

function step(delta) {
  const n = node(ui.target === null ? ui.current : ui.target);
  if (delta < 0 && n.parent !== null) goTo(n.parent);
  else if (delta > 0 && n.children.length) goTo(n.children[0]);
}

// --- drawing the page --------------------------------------------------------------------------
function render() {
  const i = info();
  document.body.dataset.game = i.game;
  document.body.dataset.toMove = i.to_move || "";
  document.body.dataset.chance = String(i.chance);
  applyDieColours(i.die_colours);
  const variant = i.variant ? ` · ${variantTitle(i.game, i.variant)}` : "";
  $("title").textContent = `Analysis board · ${i.title}${variant}`;
  let status;
  if (i.outcome) status = `Game over: ${describeOutcome(i.outcome, i.player_names, i.players)}`;
  else if (i.chance) status = `${nameOf(i, i.to_move)}: a roll is due`;
  else status = `${nameOf(i, i.to_move)} to move`;
  $("status").textContent = status;
  renderChance(i);
  interaction.renderAbsorb();
  $("pass").hidden = !interaction.legal().some((m) => m.kind === "pass");
  $("position-string").value = i.position;
  renderContinue(i);
  renderTreeNow();
  renderMarks();
  renderEngine();
  if (ui.review) drawReviewGraph();
}

function variantTitle(game, variant) {
  const entry = (ui.meta ? ui.meta.games : []).find((g) => g.name === game);
  const v = entry && entry.variants.find((x) => x.name === variant);
  return v ? v.title : variant;
}

function renderChance(i) {
  const box = $("chance");
  box.hidden = !i.chance || Boolean(i.outcome);
  if (box.hidden) return;
  const uniform = i.outcomes.every((o) => Math.abs(o.probability - i.outcomes[0].probability) < 1e-9);
  $("chance-title").textContent = "A roll is due — choose the outcome, or roll:";
  $("chance-outcomes").replaceChildren(...i.outcomes.map((o) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "outcome";
    b.dataset.notation = o.notation;
    b.textContent = `${DIE_FACES[o.roll] || ""} ${o.notation}${uniform ? "" : ` (${pct(o.probability)})`}`;
    b.setAttribute("aria-label", `roll ${o.roll ?? o.notation}`);
    b.addEventListener("click", () => playMove(o.notation));
    return b;
  }));
}

function rollDice() {
  const i = info();
  if (!i.chance || !i.outcomes.length) return;
  let r = Math.random();
  for (const o of i.outcomes) {
    r -= o.probability;
    if (r < 0) return playMove(o.notation);
  }
  return playMove(i.outcomes[i.outcomes.length - 1].notation);
}

function renderMarks() {
  const marks = [];
  const shown = ui.hint ? ui.hint.move : bestMove();
  if (shown) {
    if (shown.from) marks.push({ square: shown.from, kind: "hint-from" });
    if (shown.to) marks.push({ square: shown.to, kind: "hint-to" });
  }
  interaction.render(marks);
  board.preview(shown ? shown.segments || [] : [], "hint");
}

/** The engine's best move in the position shown, as the server describes the legal move. */
function bestMove() {
  const e = node().eval;
  if (!e || e.kind !== "decision") return null;
  return info().legal.find((m) => m.notation === e.best) || null;
}

function moveButton(n, number) {
  const wrap = document.createElement("span");
  wrap.className = "tree-move";
  if (number) {
    const num = document.createElement("span");
    num.className = "move-number";
    num.textContent = number;
    wrap.append(num);
  }
  const b = document.createElement("button");
  b.type = "button";
  b.className = n.seat ? "move" : "move roll";
  b.dataset.node = String(n.id);
  b.textContent = n.seat ? n.move : `${DIE_FACES[Number(n.move.slice(1))] || ""}${n.move}`;
  if (n.id === ui.current) b.setAttribute("aria-current", "step");
  b.addEventListener("click", () => goTo(n.id));
  wrap.append(b);
  if (n.glyph) {
    const g = document.createElement("button");
    g.type = "button";
    g.className = `glyph glyph-${glyphClass(n.glyph)}`;
    g.textContent = n.glyph;
    g.title = n.mark.comment;
    g.setAttribute("aria-label", `${n.mark.comment} — show the better move`);
    g.addEventListener("click", () => showMark(n.mark));
    wrap.append(g);
  }
  return wrap;
}

function renderTreeNow() {
  const first = info() ? info().players[0] : null;
  renderTree(ui.tree, $("tree"), moveButton, first);
  const current = $("tree").querySelector('[aria-current="step"]');
  if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
  const root = ui.current === ui.tree.root;
  $("promote").disabled = root || ui.tree.isMain(ui.current);
  $("delete").disabled = root || ui.gameNodes.includes(ui.current);
}

function renderContinue(i) {
  const side = $("continue-side");
  const wanted = side.value;
  side.replaceChildren(...i.players.map((p, k) => {
    const o = document.createElement("option");
    o.value = p;
    o.textContent = i.player_names[k];
    return o;
  }));
  side.value = i.players.includes(wanted) && wanted !== "" ? wanted : i.to_move || i.players[0];
  const over = Boolean(i.outcome);
  $("continue-computer").disabled = over;
  $("continue-local").disabled = over;
}

// --- the engine ---------------------------------------------------------------------------------
function renderEngine() {
  const n = node();
  const i = n.info;
  const e = n.eval;
  const fill = $("eval-fill");
  const text = $("eval-text");
  const done = (n.evalStep || 0) >= BUDGETS.length;
  $("think").textContent = ui.stopped || done ? "Continue" : "Stop";
  $("think").disabled = done;
  let readout;
  if (!e) readout = ui.stopped ? "stopped" : "thinking…";
  else if (e.kind === "final") readout = "the game is over";
  else if (e.kind === "roll" && !e.win) readout = "setup rolls: not searched";
  else {
    const spent = (n.evalSeconds || 0).toFixed(1);
    const state = done ? "done" : ui.stopped ? "stopped" : "thinking…";
    readout = `depth ${e.depth} · ${spent} s · ${state}`;
  }
  $("engine-readout").textContent = readout;
  document.body.dataset.engine = done ? "done" : ui.stopped ? "stopped" : "thinking";
  if (e && e.win) {
    const p0 = e.win[i.players[0]];
    fill.style.width = `${100 * p0}%`;
    text.textContent = `${i.player_names[0]} ${pct(p0)} · ${i.player_names[1]} ${pct(1 - p0)}`;
    $("eval-bar").setAttribute("aria-label", text.textContent);
    document.body.dataset.win = p0.toFixed(4);
  } else {
    fill.style.width = "50%";
    text.textContent = e && e.kind === "roll" ? "Rolls pending: no evaluation until the dice are placed" : "…";
    delete document.body.dataset.win;
  }
  $("best-line").textContent = e && e.pv ? e.pv.join("  ") : "";
  const list = $("top-moves");
  const items = [];
  $("top-caption").textContent = e && e.kind === "decision"
    ? `Best moves, with ${nameOf(i, e.to_move)}'s win probability after each:`
    : e && e.kind === "roll" && e.win ? "Each roll, with what it leaves:" : "";
  if (e && e.kind === "decision") {
    for (const m of e.moves) items.push([m.notation, `${pct(m.win)}`, `${nameOf(i, e.to_move)}'s win probability after it`]);
  } else if (e && e.kind === "roll" && e.win) {
    for (const o of e.outcomes) items.push([o.notation, `${i.player_names[0]} ${pct(o.win[i.players[0]])}`, `${pct(o.probability)} likely`]);
  }
  list.replaceChildren(...items.map(([notation, value, about]) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "top-move";
    b.dataset.notation = notation;
    b.title = about;
    const name = document.createElement("span");
    name.className = "top-notation";
    name.textContent = notation;
    const v = document.createElement("span");
    v.className = "top-value";
    v.textContent = value;
    b.append(name, v);
    b.addEventListener("click", () => playMove(notation));
    const legal = i.legal.find((m) => m.notation === notation);
    if (legal) {
      b.addEventListener("mouseenter", () => board.preview(legal.segments || [], "preview"));
      b.addEventListener("mouseleave", () => board.preview([], "preview"));
    }
    li.append(b);
    return li;
  }));
  if (!ui.hint) renderMarksLight();
}

/** Only the engine's arrow changes as it deepens: redraw the marks, keep the selection. */
function renderMarksLight() {
  if (info()) renderMarks();
}

async function think(id) {
  const gen = ++ui.thinkGen;
  const n = node(id);
  n.evalStep = n.evalStep || 0;
  if (ui.stopped) {
    renderEngine();
    return;
  }
  while (n.evalStep < BUDGETS.length) {
    if (gen !== ui.thinkGen || ui.stopped) return;
    ui.thinking = true;
    let answer;
    try {
      answer = await request("POST", "/api/analysis/evaluate", {
        body: { ...positionBody(id), seconds: BUDGETS[n.evalStep], lines: 6 },
      });
    } catch (error) {
      if (gen !== ui.thinkGen) return;
      if (error.status === 429 || error.status === 409 || error.status === 0) {
        // the computer is busy (or this tab's question gave way to another's): ask again
        await sleep(1500);
        continue;
      }
      ui.thinking = false;
      say(error.message);
      return;
    }
    n.eval = answer;
    n.evalSeconds = (n.evalSeconds || 0) + answer.seconds;
    n.evalStep += 1;
    const settled = answer.kind === "final" || (answer.kind === "roll" && !answer.win) ||
      (answer.kind === "decision" && Math.abs(answer.value) >= 1);
    if (settled) n.evalStep = BUDGETS.length;
    if (gen !== ui.thinkGen) return;
    if (id === ui.current) renderEngine();
  }
  ui.thinking = false;
  if (id === ui.current) renderEngine();
}

function toggleThinking() {
  ui.stopped = !ui.stopped;
  if (ui.stopped) ui.thinkGen += 1; // the answer under way is still kept, no new question
  renderEngine();
  if (!ui.stopped) think(ui.current);
}

// --- review -------------------------------------------------------------------------------------
function showMark(mark) {
  const before = ui.gameNodes[mark.index];
  if (before === undefined) return;
  say(`${mark.index + 1}. ${mark.played}${mark.glyph} — ${mark.comment}`, "info");
  goTo(before, { move: mark.best_move, text: mark.comment });
}

function drawReviewGraph() {
  const i = ui.tree.get(ui.tree.root).info || info();
  const at = ui.gameNodes.indexOf(ui.current);
  drawGraph($("review-graph"), ui.review, i.player_names, (index, isMark) => {
    const mark = isMark ? ui.review.marks.find((m) => m.index + 1 === index) : null;
    if (mark) showMark(mark);
    else if (ui.gameNodes[index] !== undefined) goTo(ui.gameNodes[index]);
  }, at >= 0 ? at : null);
}

async function startReview(gameId) {
  $("review").hidden = false;
  document.body.dataset.review = "running";
  try {
    const review = await runReview(gameId, (job) => {
      $("review-bar").max = Math.max(1, job.total);
      $("review-bar").value = job.done;
      $("review-text").textContent = job.status === "done" ? "" : `weighing move ${job.done} of ${job.total}…`;
    });
    ui.review = review;
    for (const mark of review.marks) {
      const id = ui.gameNodes[mark.index + 1];
      if (id === undefined) continue;
      node(id).glyph = mark.glyph;
      node(id).mark = mark;
    }
    $("review-progress").hidden = true;
    const names = info().player_names;
    renderSides($("review-sides"), review, names);
    $("review-marks").replaceChildren(...review.marks.map((mark) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = `review-mark glyph-${glyphClass(mark.glyph)}`;
      b.dataset.index = String(mark.index);
      b.textContent = `${mark.index + 1}. ${mark.played}${mark.glyph} · ${mark.best} was better (${pct(mark.before)} → ${pct(mark.after)})`;
      b.addEventListener("click", () => showMark(mark));
      li.append(b);
      return li;
    }));
    const pgn = $("review-pgn");
    pgn.href = URL.createObjectURL(new Blob([review.pgn], { type: "application/x-chess-pgn" }));
    pgn.download = `diceboard-${gameId}-review.pgn`;
    pgn.hidden = false;
    document.body.dataset.review = "done";
    render();
  } catch (error) {
    $("review-text").textContent = error.message;
    document.body.dataset.review = "failed";
  }
}

// --- setting up ---------------------------------------------------------------------------------
function fillSetup(game, variant, position) {
  const games = ui.meta.games;
  const gameSelect = $("setup-game");
  gameSelect.replaceChildren(...games.map((g) => new Option(g.title, g.name)));
  gameSelect.value = game;
  fillVariants(variant);
  $("setup-position").value = position || "";
}

function fillVariants(variant) {
  const entry = ui.meta.games.find((g) => g.name === $("setup-game").value);
  if (!entry) return;
  const select = $("setup-variant");
  select.replaceChildren(...entry.variants.map((v) => new Option(v.title, v.name)));
  select.value = variant && entry.variants.some((v) => v.name === variant) ? variant : entry.default_variant;
  $("setup-position").placeholder = entry.example_position
    ? `empty: the start; e.g. ${entry.example_position}` : "empty: the game's start";
}

/** Start a new tree at `setup` (refused, with the old tree kept, if the server refuses it). */
async function begin(setup, mainLine = [], at = null) {
  const tree = new VariationTree();
  const nodes = [tree.root];
  let id = tree.root;
  for (const m of mainLine) {
    id = tree.add(id, m.notation, m.seat || null);
    nodes.push(id);
  }
  const previous = [ui.setup, ui.tree, ui.gameNodes];
  ui.setup = setup;
  ui.tree = tree;
  ui.gameNodes = mainLine.length || ui.fromGame ? nodes : [];
  try {
    const rootInfo = await infoOf(tree.root);
    // from now on the rules are named as the server spells them
    ui.setup = { ...setup, variant: null, options: rootInfo.options };
    fillLevelMenu($("continue-level"), ui.meta, setup.game, "level:4");
  } catch (error) {
    [ui.setup, ui.tree, ui.gameNodes] = previous;
    throw error;
  }
  ui.current = null;
  ui.target = null;
  const target = at === null ? nodes[nodes.length - 1] : nodes[Math.max(0, Math.min(nodes.length - 1, at))];
  await goTo(target);
}

async function fromGame(gameId, at, review) {
  const answer = await request("GET", `/api/games/${encodeURIComponent(gameId)}`);
  const g = answer.game;
  ui.fromGame = g;
  const back = $("back-to-game");
  back.href = `/game/${encodeURIComponent(g.id)}`;
  back.hidden = false;
  fillSetup(g.game, g.variant, g.start_position);
  await begin({ game: g.game, variant: g.variant, options: g.options, position: g.start_position }, g.moves, at);
  if (review) startReview(g.id);
}

async function continueGame(mode) {
  const i = info();
  const body = { game: i.game, options: i.options, position: i.position, mode };
  if (mode === "computer") {
    body.side = $("continue-side").value;
    body.level = $("continue-level").value;
  }
  try {
    const answer = await request("POST", "/api/games", { body });
    rememberSeat(answer.id, answer.token);
    rememberGame({ id: answer.id, game: i.game, mode });
    location.href = `/game/${answer.id}`;
  } catch (error) {
    say(error.message);
  }
}

function wire() {
  $("nav-first").addEventListener("click", () => goTo(ui.tree.root));
  $("nav-back").addEventListener("click", () => step(-1));
  $("nav-forward").addEventListener("click", () => step(1));
  $("nav-last").addEventListener("click", () => goTo(ui.tree.lineEnd(ui.current)));
  $("flip").addEventListener("click", () => {
    ui.flipped = !ui.flipped;
    goTo(ui.current, ui.hint);
  });
  $("pass").addEventListener("click", () => {
    const pass = interaction.legal().find((m) => m.kind === "pass");
    if (pass) playMove(pass.notation);
  });
  $("roll").addEventListener("click", rollDice);
  $("think").addEventListener("click", toggleThinking);
  $("promote").addEventListener("click", () => {
    ui.tree.promote(ui.current);
    renderTreeNow();
  });
  $("delete").addEventListener("click", () => goTo(ui.tree.remove(ui.current)));
  onNotation(playMove);
  $("copy-position").addEventListener("click", async () => {
    const input = $("position-string");
    try {
      await navigator.clipboard.writeText(input.value);
      $("copy-position").textContent = "Copied";
      setTimeout(() => ($("copy-position").textContent = "Copy"), 1500);
    } catch {
      input.select();
    }
  });
  $("continue-computer").addEventListener("click", () => continueGame("computer"));
  $("continue-local").addEventListener("click", () => continueGame("local"));
  $("setup-game").addEventListener("change", () => fillVariants(null));
  $("setup-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("setup-error").textContent = "";
    const setup = {
      game: $("setup-game").value,
      variant: $("setup-variant").value || null,
      options: {},
      position: $("setup-position").value.trim() || null,
    };
    try {
      ui.fromGame = null;
      ui.review = null;
      $("review").hidden = true;
      $("back-to-game").hidden = true;
      await begin(setup);
      const params = new URLSearchParams({ game: setup.game });
      if (setup.variant) params.set("variant", setup.variant);
      if (setup.position) params.set("position", setup.position);
      history.replaceState(null, "", `/analysis?${params}`);
    } catch (error) {
      $("setup-error").textContent = error.message;
    }
  });
  const flip = () => $("flip").click();
  onPageKeys({
    ArrowLeft: () => step(-1),
    ArrowRight: () => step(1),
    Home: () => goTo(ui.tree.root),
    End: () => goTo(ui.tree.lineEnd(ui.current)),
    f: flip,
    F: flip,
  });
}

async function main() {
  wire();
  try {
    ui.meta = await request("GET", "/api/meta");
  } catch (error) {
    say(error.message);
    return;
  }
  const params = new URLSearchParams(location.search);
  try {
    if (params.get("from")) {
      const at = params.get("at");
      await fromGame(params.get("from"), at === null ? null : Number(at), params.has("review"));
      return;
    }
    const game = params.get("game") || ui.meta.games[0].name;
    fillSetup(game, params.get("variant"), params.get("position"));
    await begin({
      game,
      variant: params.get("variant"),
      options: {},
      position: params.get("position") || null,
    });
  } catch (error) {
    $("setup").open = true;
    $("status").textContent = error instanceof ApiError ? error.message : String(error);
    if (!ui.meta.games.some((g) => g.name === $("setup-game").value)) fillSetup(ui.meta.games[0].name, null, "");
  }
}

main();
