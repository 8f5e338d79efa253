// The game page: follows one game over its WebSocket (reconnecting by itself), shows it, and
// turns clicks, keys and typed notation into moves that the server checks.
import {
  ApiError,
  describeOutcome,
  rememberGame,
  rememberSeat,
  request,
  seatToken,
  takeFragment,
} from "./api.js";
import { shapeOf } from "./board.js";
import { DIE_FACES, applyDieColours } from "./dice.js";
import { Interaction, onNotation, onPageKeys } from "./interaction.js";
import { fillLevelMenu } from "./levels.js";
import { Sounds } from "./sound.js";
import { moveRows, positionLabel } from "./moves.js";
import { askName } from "./names.js";
import { Chat } from "./chat.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");

const ui = {
  game: null, // the public snapshot
  you: [],
  invite: null,
  receivedAt: 0,
  serverAge: 0,
  token: null,
  flipped: null,
  viewIndex: null, // the move index shown, null while the game's own position is shown
  viewTarget: null, // the one last asked for: steps count from it while its picture loads
  viewTicket: 0, // a picture that arrives after a later request is dropped
  hint: null,
  busy: false,
  shownSvg: null,
  queue: Promise.resolve(),
  socket: null,
  retry: 0,
};

const interaction = new Interaction({
  view: () => ui.game,
  enabled: isMyTurn,
  play,
  redraw: renderMarks,
  refresh: render,
  say: (text) => say(text, "info"),
});
const board = interaction.board;
const sounds = new Sounds($("sound"));
const chat = new Chat({ log: $("chat-log"), form: $("chat-form"), input: $("chat-input"), error: $("chat-error"), spectators: $("spectators") });

// --- messages --------------------------------------------------------------------------------
function say(text, kind = "error") {
  const el = $("message");
  el.textContent = text || "";
  el.dataset.kind = kind;
}

function setConnection(text) {
  $("connection").textContent = text;
  $("connection").hidden = !text;
}

// --- state ----------------------------------------------------------------------------------
function isMyTurn() {
  const g = ui.game;
  return Boolean(g && ui.viewIndex === null && g.to_move && ui.you.includes(g.to_move) && !ui.busy);
}

/** Take a `state` message (from the socket or an HTTP answer). */
function applyState(message) {
  ui.queue = ui.queue.then(() => applyNow(message)).catch((error) => console.error(error));
  return ui.queue;
}

async function applyNow(message) {
  const next = message.game;
  const previous = ui.game;
  if (previous && next.revision < previous.revision) return;
  ui.you = message.you || [];
  ui.invite = message.invite || null;
  ui.receivedAt = performance.now();
  ui.serverAge = Math.max(0, (message.now || next.server_time) - next.server_time);
  if (ui.flipped === null) {
    ui.flipped = ui.you.length === 1 && ui.you[0] === next.players[1];
    if (ui.flipped !== next.flipped) refreshView();
  }
  const moved = previous && next.version !== previous.version;
  if (moved) {
    interaction.reset();
    ui.hint = null;
  }
  const animate = previous && ui.viewIndex === null && next.version === previous.version + 1 &&
    next.last && next.moves.length === previous.moves.length + 1 && next.flipped === previous.flipped;
  const taken = moved && next.last ? capturedDice(previous, next) : [];
  if (animate) {
    try {
      await board.animate(next.last.segments);
      // the captured dice leave the board before the new picture replaces the old one
      await board.capture(taken.map((d) => d.square));
    } catch (error) {
      console.error(error); // an animation never holds up the game
    }
  }
  ui.game = next;
  // after the other side's move took dice of yours, say what was lost
  const lost = taken.filter((d) => ui.you.includes(d.owner));
  if (lost.length && ui.you.length === 1 && !ui.you.includes(next.last.seat)) {
    const dice = lost.map((d) => `your ${d.face} on ${d.square}`);
    const listed = dice.length > 1 ? `${dice.slice(0, -1).join(", ")} and ${dice.at(-1)}` : dice[0];
    const line = `${playerName(next, next.last.seat)} captured ${listed} (${next.last.notation}).`;
    $("lost").textContent = line; // beside the board, where the status is (read out: aria-live)
  } else if (moved) {
    $("lost").textContent = "";
  }
  if (moved) {
    if (next.outcome && !previous.outcome) sounds.play("end");
    else if (taken.length) sounds.play("capture");
    else sounds.play("move");
  }
  if (ui.viewIndex === null && next.svg !== ui.shownSvg) {
    board.show(next.svg, next.centres, next.split);
    board.drawLast(next.last);
    ui.shownSvg = next.svg;
  }
  render();
}

/** The dice the last move took off the board: [{square, owner, face}] of the other side's
 * dice that stood on a square now empty or held by the mover (nothing else removes dice of
 * the side not moving; the count is checked against the server's capture counts). */
function capturedDice(previous, next) {
  if (!previous.board || !next.board || !next.last || !next.captured) return [];
  const mover = next.last.seat;
  const count = next.players
    .filter((p) => p !== mover)
    .reduce((n, p) => n + Math.max(0, (next.captured[p] || 0) - ((previous.captured || {})[p] || 0)), 0);
  if (!count) return [];
  const gone = Object.entries(previous.board)
    .filter(([sq, [owner]]) => owner !== mover && (!next.board[sq] || next.board[sq][0] !== owner))
    .map(([sq, [owner, face]]) => ({ square: sq, owner, face }));
  return gone.length === count ? gone : [];
}

async function refreshView() {
  if (ui.socket && ui.socket.readyState === WebSocket.OPEN) {
    ui.socket.send(JSON.stringify({ type: "view", flipped: ui.flipped }));
    return;
  }
  try {
    applyState(await request("GET", `/api/games/${gameId}?flipped=${ui.flipped}`, { token: ui.token }));
  } catch (error) {
    say(error.message);
  }
}

// --- drawing the page -----------------------------------------------------------------------------
function playerName(g, seat) {
  return g.player_names[g.players.indexOf(seat)];
}

function render() {
  const g = ui.game;
  document.title = `${isMyTurn() ? "● Your turn · " : ""}${g.title} — diceboard`;
  document.body.dataset.game = g.game;
  applyDieColours(g.die_colours);
  // what the page shows, for assistive tools and end-to-end tests
  document.body.dataset.version = String(g.version);
  document.body.dataset.status = g.status;
  document.body.dataset.flipped = String(Boolean(g.flipped));
  const variant = g.variant && g.variant !== g.default_variant ? ` · ${g.variant_title || g.variant}` : "";
  $("title").textContent = `${g.title}${variant}${g.mode === "imported" ? " · record" : ""}`;
  renderBars(g);
  renderStatus(g);
  renderOffers(g);
  renderMoves(g);
  renderActions(g);
  renderContinue(g);
  renderMarks();
  $("rules-link").href = `/rules/${g.game}`;
  $("rules-link").hidden = false;
  $("chat").hidden = g.mode !== "online";
  chat.follow(g, ui.you.length > 0 && g.mode === "online" ? ui.token : null);
}

/** An imported record: any position of it (the one shown) continues as a new game. */
function renderContinue(g) {
  const box = $("continue");
  box.hidden = g.mode !== "imported";
  if (box.hidden) return;
  const side = $("continue-side");
  if (!side.options.length) {
    side.replaceChildren(...g.players.map((p, i) => Object.assign(document.createElement("option"), { value: p, textContent: g.player_names[i] })));
  }
  // the side to move in the position shown is the one a player most likely wants
  const svg = $("board").querySelector("svg");
  const toMove = svg && svg.dataset.toMove;
  if (toMove && g.players.includes(toMove) && !side.dataset.touched) side.value = toMove;
}

let levels = null;
async function fillLevels() {
  if (levels) return;
  try {
    const meta = await request("GET", "/api/meta");
    levels = meta.levels;
    fillLevelMenu($("continue-level"), meta, ui.game.game);
  } catch {
    levels = null;
  }
}

async function continueGame(mode) {
  const g = ui.game;
  const position = ui.viewIndex === null ? g.position : ui.viewedPosition;
  const options = { ...(g.options || {}) };
  delete options.variant;
  const body = { game: g.game, mode, position, options };
  if (g.variant) body.variant = g.variant;
  if (mode === "computer") {
    body.side = $("continue-side").value;
    body.level = $("continue-level").value;
  }
  try {
    const created = await request("POST", "/api/games", { body });
    rememberSeat(created.id, created.token);
    rememberGame({ id: created.id, game: g.game, mode });
    location.href = `/game/${created.id}`;
  } catch (error) {
    say(error.message);
  }
}

function renderBars(g) {
  const [bottom, top] = ui.flipped ? [g.players[1], g.players[0]] : [g.players[0], g.players[1]];
  for (const [id, seat] of [["bar-bottom", bottom], ["bar-top", top]]) {
    const bar = $(id);
    const info = g.seats[seat] || { kind: "open", name: "" };
    bar.dataset.seat = seat;
    bar.dataset.player = String(g.players.indexOf(seat));
    const who = info.kind === "open" ? "waiting for a player" : info.name;
    const mine = ui.you.includes(seat) && ui.you.length === 1 ? " (you)" : "";
    const level = info.kind === "computer" && info.agent && info.agent.startsWith("level:") ? ` · level ${info.agent.slice(6)}` : "";
    bar.dataset.kind = info.kind;
    bar.querySelector(".name").textContent = `${playerName(g, seat)} · ${who}${level}${mine}`;
    // the dice this side has taken: its opponent's losses
    const other = g.players.find((p) => p !== seat);
    const taken = g.captured ? g.captured[other] || 0 : 0;
    const tray = bar.querySelector(".captured");
    tray.textContent = taken ? `captured ${"⚀".repeat(Math.min(taken, 12))} ${taken}` : "";
    tray.dataset.count = String(taken);
    const side = (g.sides || {})[seat];
    const stats = bar.querySelector(".stats");
    stats.textContent = side ? sideText(side) : "";
    stats.dataset.dice = side ? String(side.dice) : "";
    stats.dataset.pips = side && side.pips !== null ? String(side.pips) : "";
    bar.querySelector(".presence").textContent =
      info.kind === "human" ? (info.connected ? "● online" : "○ away") : info.kind === "computer" ? "computer" : "";
    bar.classList.toggle("to-move", g.to_move === seat);
  }
  renderClocks();
}

/** "9 dice · 25 pips · 1 spare": what a side has, as the server counts it (spares: its dice off
 * the board, which a Chase chamber split needs). */
function sideText(side) {
  const parts = [`${side.dice} ${side.dice === 1 ? "die" : "dice"}`];
  if (side.pips !== null && side.pips !== undefined) parts.push(`${side.pips} pips`);
  if (side.spare !== null && side.spare !== undefined) parts.push(side.spare ? `${side.spare} spare${side.spare === 1 ? "" : "s"}` : "no spare");
  return parts.join(" · ");
}

function renderClocks() {
  const g = ui.game;
  if (!g) return;
  for (const id of ["bar-top", "bar-bottom"]) {
    const el = $(id).querySelector(".clock");
    if (!g.clock) {
      el.textContent = "";
      continue;
    }
    const seat = $(id).dataset.seat;
    let ms = g.clock.remaining[seat];
    if (g.clock.running === seat && g.status === "active") {
      ms -= ui.serverAge * 1000 + (performance.now() - ui.receivedAt);
    }
    ms = Math.max(0, ms);
    const s = Math.ceil(ms / 1000);
    el.textContent = ms < 10000 ? (ms / 1000).toFixed(1) : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    el.classList.toggle("low", ms < 10000);
    el.classList.toggle("running", g.clock.running === seat && g.status === "active");
  }
}

function renderStatus(g) {
  let text;
  if (g.mode === "imported") {
    text = g.outcome ? `Record: ${describeOutcome(g.outcome, g.player_names, g.players)}` : "Record: unfinished (*)";
  } else if (g.outcome) {
    text = `Game over: ${describeOutcome(g.outcome, g.player_names, g.players)}`;
  } else if (g.status === "waiting") {
    text = "Waiting for an opponent to join…";
  } else if (g.to_move) {
    const name = playerName(g, g.to_move);
    const seat = g.seats[g.to_move];
    if (ui.you.includes(g.to_move)) text = ui.you.length > 1 ? `${name} to move` : `Your move (${name})`;
    else if (seat && seat.kind === "computer") text = `${name} (computer) is thinking…`;
    else text = `${name} to move`;
  } else {
    text = "";
  }
  $("status").textContent = text;
  const last = g.last;
  let roll = "";
  if (last && last.roll) roll = `${DIE_FACES[last.roll]} rolled ${last.roll}`;
  if (g.hand && (g.hand[g.players[0]].length || g.hand[g.players[1]].length)) {
    roll = g.players.map((p) => `${playerName(g, p)} rolled ${g.hand[p].join(" ") || "—"}`).join(" · ");
  }
  $("roll").textContent = roll;
  const waiting = g.status === "waiting" && ui.invite;
  $("invite").hidden = !waiting;
  if (waiting) $("invite-link").value = `${location.origin}/game/${g.id}/join#code=${ui.invite}`;
  const spectate = `${location.origin}/game/${g.id}`;
  $("spectate-link").href = spectate;
  $("spectate-link").textContent = spectate;
  $("own-link-row").hidden = !(ui.token && ui.you.length);
  if (ui.token) $("own-link").value = `${location.origin}/game/${g.id}#seat=${ui.token}`;
}

function renderOffers(g) {
  const box = $("offer");
  const mine = (seat) => ui.you.includes(seat);
  let offer = null;
  if (ui.you.length === 1) {
    if (g.offers.draw && !mine(g.offers.draw) && g.status === "active") offer = ["draw", "Your opponent offers a draw."];
    else if (g.offers.takeback && !mine(g.offers.takeback) && g.status === "active") offer = ["takeback", "Your opponent asks to take back their last move."];
    else if (g.offers.rematch && !mine(g.offers.rematch) && !g.rematch_game) offer = ["rematch", "Your opponent wants a rematch."];
  }
  box.hidden = !offer;
  if (offer) {
    box.dataset.kind = offer[0];
    $("offer-text").textContent = offer[1];
  }
}

function renderMoves(g) {
  const list = $("moves");
  const current = ui.viewIndex === null ? g.moves.length : ui.viewIndex;
  const button = (i) => {
    const m = g.moves[i];
    const b = document.createElement("button");
    b.type = "button";
    b.className = m.seat ? "move" : "move roll";
    b.dataset.index = String(i + 1);
    b.textContent = m.seat ? m.notation : `${DIE_FACES[Number(m.notation.slice(1))] || ""}${m.notation}`;
    b.setAttribute("aria-label", `${positionLabel(g, i + 1).text}: ${m.notation}`);
    if (current === i + 1) b.setAttribute("aria-current", "step");
    b.addEventListener("click", () => viewPosition(i + 1));
    return b;
  };
  const items = moveRows(g).map((row, n) => {
    const li = document.createElement("li");
    li.className = "move-row";
    const number = document.createElement("span");
    number.className = "move-number";
    number.textContent = `${n + 1}.`;
    li.append(number);
    // the second player's move stays in its column even when the first's is missing
    if (row.cells[0] && row.cells[0].seat === g.players[1]) li.append(document.createElement("span"));
    for (const cell of row.cells) {
      const span = document.createElement("span");
      span.className = "move-cell";
      cell.rolls.forEach((i) => span.append(button(i)));
      if (cell.index !== null) span.append(button(cell.index));
      li.append(span);
    }
    return li;
  });
  list.replaceChildren(...items);
  if (ui.viewIndex === null) list.scrollTop = list.scrollHeight;
}

function renderActions(g) {
  const player = ui.you.length > 0;
  const inPlay = g.status === "active" && !g.outcome;
  $("resign").hidden = $("draw").hidden = $("takeback").hidden = !(player && inPlay);
  $("draw").disabled = Boolean(g.offers.draw && ui.you.includes(g.offers.draw) && ui.you.length === 1);
  $("rematch").hidden = !(player && g.status === "finished" && g.mode !== "imported");
  $("rematch").textContent = g.rematch_game ? "Go to the rematch" : g.offers.rematch && ui.you.includes(g.offers.rematch) ? "Rematch offered…" : "Rematch";
  $("hint").hidden = !(isMyTurn() && g.mode !== "online");
  $("download-pgn").href = `/api/games/${g.id}/record?format=pgn`;
  $("download-json").href = `/api/games/${g.id}/record?format=json`;
  // the analysis board opens at the position shown; a finished game can be reviewed there
  const shownMoves = ui.viewIndex === null ? g.moves.length : ui.viewIndex;
  $("analyse").href = `/analysis?from=${encodeURIComponent(g.id)}&at=${shownMoves}`;
  $("review").href = `/analysis?from=${encodeURIComponent(g.id)}&review=1`;
  $("review").hidden = g.status !== "finished";
  $("pass").hidden = !(isMyTurn() && interaction.legal().some((m) => m.kind === "pass"));
  $("notation").hidden = !player;
  interaction.renderAbsorb();
}

function renderMarks() {
  if (ui.viewIndex !== null || !ui.game) return;
  const marks = [];
  if (ui.hint) {
    if (ui.hint.from) marks.push({ square: ui.hint.from, kind: "hint-from" });
    if (ui.hint.to) marks.push({ square: ui.hint.to, kind: "hint-to" });
  }
  interaction.render(marks);
  board.preview(ui.hint ? ui.hint.segments : [], "hint", ui.hint ? shapeOf(ui.hint) : "path");
}

async function play(notation) {
  if (!ui.game) return;
  ui.busy = true;
  interaction.clear();
  renderMarks();
  try {
    const answer = await request("POST", `/api/games/${gameId}/moves`, {
      body: { move: notation, version: ui.game.version },
      token: ui.token,
    });
    say("");
    // only the typed move's own text is cleared: a move clicked while the player was typing
    // the next one must not wipe what they typed
    if ($("notation-input").value.trim() === notation) $("notation-input").value = "";
    ui.busy = false;
    await applyState(answer);
  } catch (error) {
    ui.busy = false;
    say(error.message);
    if (error instanceof ApiError && error.body.state) await applyState(error.body.state);
    else renderMarks();
  }
}

// --- stepping through the game -----------------------------------------------------------------------
async function viewPosition(index) {
  const g = ui.game;
  if (!g) return;
  const ticket = ++ui.viewTicket;
  if (index === null || index >= g.moves.length) {
    ui.viewTarget = null;
    ui.viewIndex = null;
    $("viewing").hidden = true;
    board.show(g.svg, g.centres, g.split);
    board.drawLast(g.last);
    ui.shownSvg = g.svg;
    render();
    return;
  }
  index = Math.max(0, index);
  ui.viewTarget = index;
  try {
    const pos = await request("GET", `/api/games/${gameId}/positions/${index}?flipped=${ui.flipped}`);
    if (ticket !== ui.viewTicket) return; // a later click asked for another position
    ui.viewIndex = index;
    board.show(pos.svg, g.centres, g.split);
    board.drawLast(pos.last);
    ui.shownSvg = null;
    ui.viewedPosition = pos.position;
    $("viewing").hidden = false;
    const label = positionLabel(g, index);
    $("viewing").dataset.move = String(label.number);
    $("viewing").textContent = `${label.text}${pos.last ? ` (${pos.last.notation})` : ""} — ▶| returns to the game`;
    renderMoves(g);
    renderActions(g);
  } catch (error) {
    if (ticket === ui.viewTicket) ui.viewTarget = ui.viewIndex;
    say(error.message);
  }
}

/** Step from the position last asked for, so that quick clicks count even before the
 * picture of the first one has arrived. */
function step(delta) {
  const g = ui.game;
  if (!g) return;
  const current = ui.viewTarget === null ? g.moves.length : ui.viewTarget;
  viewPosition(Math.min(g.moves.length, Math.max(0, current + delta)));
}

// --- actions -----------------------------------------------------------------------------------------
async function action(path, body) {
  // cleared before asking, so that what the answer brings (a refusal told over the socket
  // while the request was under way) stays in view
  say("");
  try {
    const answer = await request("POST", `/api/games/${gameId}/${path}`, { body, token: ui.token });
    // a state message is the game as it now is; other answers (a rematch's seat) are not
    if (answer && answer.type === "state") await applyState(answer);
    return answer;
  } catch (error) {
    say(error.message);
    if (error instanceof ApiError && error.body.state) await applyState(error.body.state);
    return null;
  }
}

async function rematch(kind = "offer") {
  const answer = await action("rematch", { action: kind });
  if (answer && answer.status === "started") {
    rememberSeat(answer.game, answer.token);
    rememberGame({ id: answer.game, game: ui.game.game, mode: ui.game.mode });
    location.href = `/game/${answer.game}`;
  } else if (answer && answer.status === "offered") {
    say("Rematch offered: waiting for your opponent.", "info");
  }
}

async function hint() {
  try {
    const answer = await request("POST", `/api/games/${gameId}/hint`, { token: ui.token });
    ui.hint = { ...answer.best, segments: answer.best.segments || [] };
    say(`Hint: ${answer.best.notation}`, "info");
    renderMarks();
  } catch (error) {
    say(error.message);
  }
}

function wireControls() {
  $("flip").addEventListener("click", () => {
    ui.flipped = !ui.flipped;
    if (ui.viewTarget !== null) viewPosition(ui.viewTarget); // the position asked for last, shown or not yet
    refreshView();
  });
  $("pass").addEventListener("click", () => play("pass"));
  $("continue-computer").addEventListener("click", () => continueGame("computer"));
  $("continue-local").addEventListener("click", () => continueGame("local"));
  $("continue-side").addEventListener("change", () => {
    $("continue-side").dataset.touched = "1";
  });
  $("hint").addEventListener("click", hint);
  $("resign").addEventListener("click", () => {
    if (confirm("Resign this game?")) action("resign", {});
  });
  $("draw").addEventListener("click", () => {
    // at one screen nobody else is asked: the offer ends the game, so it is confirmed first
    if (ui.game && ui.game.mode === "local" && !confirm("Agree a draw? The game ends drawn.")) return;
    action("draw", { action: "offer" });
  });
  $("takeback").addEventListener("click", () => action("takeback", { action: "offer" }));
  $("rematch").addEventListener("click", () => rematch("offer"));
  $("offer-accept").addEventListener("click", () => {
    const kind = $("offer").dataset.kind;
    if (kind === "rematch") rematch("accept");
    else action(kind, { action: "accept" });
  });
  $("offer-decline").addEventListener("click", () => action($("offer").dataset.kind, { action: "decline" }));
  onNotation(play);
  $("nav-first").addEventListener("click", () => viewPosition(0));
  $("nav-back").addEventListener("click", () => step(-1));
  $("nav-forward").addEventListener("click", () => step(1));
  $("nav-live").addEventListener("click", () => viewPosition(null));
  document.querySelectorAll("[data-copy]").forEach((button) => {
    button.addEventListener("click", async () => {
      const el = $(button.dataset.copy);
      const text = el.value || el.href;
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = "Copied";
      } catch {
        if (el.select) el.select();
      }
    });
  });
  const flip = () => $("flip").click();
  onPageKeys({
    f: flip,
    F: flip,
    ArrowLeft: () => step(-1),
    ArrowRight: () => step(1),
    Home: () => viewPosition(0),
    End: () => viewPosition(null),
  });
  setInterval(renderClocks, 200);
}

// --- the socket ----------------------------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws`);
  ui.socket = socket;
  // the moves this socket has been sent: asked for with `delta`, a state message brings only
  // the moves after the first `moves_from` of them (and the legal moves on our turn only)
  let moves = [];
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ type: "hello", token: ui.token, flipped: Boolean(ui.flipped), delta: true }));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "state") {
      moves = moves.slice(0, message.game.moves_from ?? 0).concat(message.game.moves);
      message.game.moves = moves;
      ui.retry = 0;
      setConnection("");
      applyState(message);
    } else if (message.type === "notice" && message.event === "chat") {
      chat.receive(message.message, message.spectators);
    } else if (message.type === "notice") {
      const who = ui.game ? playerName(ui.game, message.by) : message.by;
      const what = { draw_declined: "declined the draw", takeback_declined: "declined the takeback", rematch_declined: "declined the rematch" }[message.event];
      if (what) say(`${who} ${what}.`, "info");
    } else if (message.type === "error" && message.status === 403) {
      say(message.detail);
    }
  });
  socket.addEventListener("close", () => {
    if (ui.socket !== socket) return;
    setConnection("Connection lost — reconnecting…");
    const delay = Math.min(5000, 300 * 2 ** ui.retry);
    ui.retry += 1;
    setTimeout(connect, delay);
  });
}

// --- start ------------------------------------------------------------------------------------------
async function main() {
  wireControls();
  const fragment = takeFragment();
  if (fragment.get("seat")) rememberSeat(gameId, fragment.get("seat"));
  if (location.pathname.endsWith("/join")) {
    history.replaceState(null, "", `/game/${gameId}`);
    try {
      const body = fragment.get("code") ? { code: fragment.get("code") } : {};
      const name = await askName($("name-dialog"));
      if (name) body.name = name;
      const joined = await request("POST", `/api/games/${gameId}/join`, { body });
      rememberSeat(gameId, joined.token);
    } catch (error) {
      say(`${error.message}`, "info");
    }
  }
  ui.token = seatToken(gameId);
  try {
    // right after a start the engine may still be warming up: say so while the game loads
    const engine = await request("GET", "/api/health");
    if (!engine.ready) $("status").textContent = `The game engine is warming up (${engine.phase}: ${engine.estimate})…`;
  } catch {
    /* the game request below says what is wrong */
  }
  let first;
  try {
    first = await request("GET", `/api/games/${gameId}`, { token: ui.token });
  } catch (error) {
    if (error.status === 403 && ui.token) {
      ui.token = null;
      first = await request("GET", `/api/games/${gameId}`);
    } else {
      $("status").textContent = error.message;
      return;
    }
  }
  if (ui.token && first.you.length) rememberGame({ id: gameId, game: first.game.game, mode: first.game.mode });
  await applyState(first);
  if (first.game.mode === "imported") fillLevels();
  connect();
  $("board").focus({ preventScroll: true });
}

main();
