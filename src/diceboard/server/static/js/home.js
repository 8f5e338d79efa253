// The home page: create games, the lobby, recent games, importing a record.
import { request, rememberSeat, rememberGame, recentGames, seatToken, describeOutcome } from "./api.js";
import { fillLevelMenu } from "./levels.js";
import { rememberName, storedName } from "./names.js";

const $ = (id) => document.getElementById(id);
let meta = null;

function option(value, label) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = label;
  return o;
}

function selectedGame() {
  return meta.games.find((g) => g.name === $("game").value) || meta.games[0];
}

function radio(name) {
  const el = document.querySelector(`input[name="${name}"]:checked`);
  return el ? el.value : null;
}

// --- the game's own menus: variants and options, as /api/meta describes them ---------------

/** "no_capture_limit" → "no capture limit" */
const words = (name) => name.replace(/[_-]+/g, " ");

/** The control of one option: a select for a choice, a number input for a whole number. */
function optionControl(opt) {
  const label = document.createElement("label");
  label.title = opt.description;
  let control;
  if (opt.kind === "int") {
    control = document.createElement("input");
    control.type = "number";
    control.step = "1";
    control.inputMode = "numeric";
    if (opt.minimum !== null) control.min = String(opt.minimum);
    if (opt.maximum !== null) control.max = String(opt.maximum);
    control.value = String(opt.default);
  } else {
    control = document.createElement("select");
    control.replaceChildren(...opt.choices.map((c) => option(c, words(c))));
    control.value = String(opt.default);
  }
  control.dataset.option = opt.name;
  control.setAttribute("aria-label", `${words(opt.name)}: ${opt.description}`);
  label.append(`${words(opt.name)} `, control);
  return label;
}

/** Rebuild the variant list and the option controls for the chosen game (only when the game
 * changes: a change of variant or option keeps what was chosen). */
function buildGameMenus() {
  const game = selectedGame();
  const variant = $("variant");
  variant.replaceChildren(...game.variants.map((v) => option(v.name, v.title)));
  variant.value = game.default_variant;
  variant.disabled = game.variants.length <= 1;
  // options that a variant sets are chosen through the variant list
  const own = game.options.filter((opt) => !opt.variant);
  const box = $("game-options");
  box.replaceChildren(box.querySelector("legend"), ...own.map(optionControl));
  box.hidden = own.length === 0;
  $("position").placeholder = game.example_position || "";
  fillLevelMenu($("level"), meta, game.name);
  document.querySelectorAll("[data-player]").forEach((span) => {
    span.textContent = game.player_names[Number(span.dataset.player)];
  });
  describeVariant();
}

function describeVariant() {
  const game = selectedGame();
  const chosen = game.variants.find((v) => v.name === $("variant").value);
  $("variant-about").textContent = chosen && game.variants.length > 1 ? chosen.description : "";
}

/** The options that differ from the game's defaults, as the server takes them. */
function chosenOptions(game) {
  const options = {};
  for (const control of $("game-options").querySelectorAll("[data-option]")) {
    const opt = game.options.find((o) => o.name === control.dataset.option);
    if (!opt) continue;
    const value = opt.kind === "int" ? Number(control.value) : control.value;
    if (opt.kind === "int" && (control.value.trim() === "" || !Number.isInteger(value))) {
      throw new Error(`${words(opt.name)} must be a whole number`);
    }
    if (value !== opt.default) options[opt.name] = value;
  }
  return options;
}

function refreshForm() {
  describeVariant();
  const mode = radio("mode");
  $("level-row").hidden = mode !== "computer";
  $("side-row").hidden = mode === "local";
  $("listed-row").hidden = mode !== "online";
  $("minutes").disabled = $("increment").disabled = !$("timed").checked;
}

async function createGame(event) {
  event.preventDefault();
  $("new-error").textContent = "";
  if (!meta) {
    $("new-error").textContent = "The games are still loading: try again in a moment.";
    return;
  }
  const game = selectedGame();
  const mode = radio("mode");
  const body = { game: game.name, mode, side: radio("side") || "first", variant: $("variant").value };
  const name = $("player-name").value.trim();
  rememberName(name);
  if (name && mode !== "local") body.name = name;
  try {
    const options = chosenOptions(game);
    if (Object.keys(options).length) body.options = options;
  } catch (error) {
    $("new-error").textContent = error.message;
    return;
  }
  if (mode === "computer") body.level = $("level").value;
  if (mode === "online") body.listed = $("listed").checked;
  if ($("timed").checked) {
    body.time_control = { minutes: Number($("minutes").value), increment: Number($("increment").value) };
  }
  const position = $("position").value.trim();
  if (position) body.position = position;
  $("create").disabled = true;
  try {
    const created = await request("POST", "/api/games", { body });
    rememberSeat(created.id, created.token);
    rememberGame({ id: created.id, game: game.name, mode, title: game.title });
    location.href = `/game/${created.id}`;
  } catch (error) {
    $("new-error").textContent = error.message;
  } finally {
    $("create").disabled = false;
  }
}

/** "12 Mar, 14:05" (today: just the time) */
function when(seconds) {
  const at = new Date(seconds * 1000);
  const today = new Date().toDateString() === at.toDateString();
  const time = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return today ? `today ${time}` : `${at.toLocaleDateString([], { day: "numeric", month: "short", year: "numeric" })} ${time}`;
}

/** Who sits in a seat: a name, "Computer · level 4", or an open seat. */
function seatText(seat) {
  if (!seat || seat.kind === "open") return "open seat";
  if (seat.kind === "computer") {
    const level = seat.agent && seat.agent.startsWith("level:") ? ` · level ${seat.agent.slice(6)}` : "";
    return `Computer${level}`;
  }
  return seat.name || "?";
}

/** One game of the lobby or the recent games: the game and its variant, who plays whom (the
 * opponent's side named), the clock, the date and how it stands. */
function gameLine(summary, action) {
  const li = document.createElement("li");
  const game = (meta && meta.games.find((g) => g.name === summary.game)) || null;
  const named = (summary.options && summary.options.variant) || (game && game.default_variant);
  const variantInfo = game && named ? game.variants.find((v) => v.name === named) : null;
  const variant = named ? (variantInfo ? variantInfo.title : named) : "";
  const players = game ? game.players : Object.keys(summary.seats || {});
  const sides = players.map((p, i) => `${game ? game.player_names[i] : p}: ${seatText((summary.seats || {})[p])}`);
  const tc = summary.time_control
    ? ` · ${summary.time_control.initial_ms / 60000}+${summary.time_control.increment_ms / 1000}`
    : "";
  const result = summary.result && summary.result !== "*" ? ` ${summary.result}` : "";
  const text = document.createElement("span");
  text.className = "game-line";
  const title = document.createElement("strong");
  title.textContent = `${game ? game.title : summary.game}${variant ? ` · ${variant}` : ""}`;
  const who = document.createElement("span");
  who.className = "game-seats";
  who.textContent = sides.join(" vs ");
  const facts = document.createElement("span");
  facts.className = "muted game-when";
  facts.textContent = `${when(summary.created_at)}${tc} · ${summary.status}${result}`;
  text.append(title, who, facts);
  li.append(text, action);
  return li;
}

async function loadLobby() {
  const list = $("lobby");
  try {
    const games = await request("GET", "/api/lobby");
    if (!games.length) {
      list.replaceChildren(Object.assign(document.createElement("li"), { className: "muted", textContent: "No open games." }));
      return;
    }
    list.replaceChildren(...games.map((g) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = "Join";
      button.addEventListener("click", async () => {
        try {
          const name = $("player-name").value.trim();
          rememberName(name);
          const joined = await request("POST", `/api/games/${g.id}/join`, { body: name ? { name } : {} });
          rememberSeat(joined.id, joined.token);
          rememberGame({ id: joined.id, game: g.game, mode: "online" });
          location.href = `/game/${joined.id}`;
        } catch (error) {
          button.textContent = error.message;
          button.disabled = true;
        }
      });
      return gameLine(g, button);
    }));
  } catch {
    /* the lobby is a convenience: leave it as it is */
  }
}

async function loadRecent() {
  const recent = recentGames();
  const list = $("recent");
  if (!recent.length) return;
  let summaries = [];
  try {
    summaries = await request("GET", `/api/games?ids=${recent.map((r) => r.id).join(",")}`);
  } catch {
    return;
  }
  if (!summaries.length) return;
  list.replaceChildren(...summaries.map((s) => {
    const a = document.createElement("a");
    a.href = `/game/${s.id}`;
    a.textContent = s.status === "finished" ? "Replay" : seatToken(s.id) ? "Resume" : "Watch";
    return gameLine(s, a);
  }));
}

async function importRecord(event) {
  event.preventDefault();
  $("import-error").textContent = "";
  const record = $("record-text").value.trim();
  if (!record) {
    $("import-error").textContent = "Paste a record or choose a file first.";
    return;
  }
  try {
    const imported = await request("POST", "/api/imports", { body: { record } });
    rememberGame({ id: imported.id, game: "record", mode: "imported" });
    location.href = `/game/${imported.id}`;
  } catch (error) {
    $("import-error").textContent = error.message;
  }
}

/** While the engine warms up after a start (kernels compiling), say so and wait for it; the
 * menus are already there (they come from the registry), and a game created meanwhile starts
 * as soon as the engine is ready. */
async function followWarmUp(engine) {
  const box = $("engine");
  document.body.dataset.engine = engine.ready ? "ready" : "warming";
  if (engine.ready) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  // a game whose kernels are ready is played at once, while the next game's still compile
  const playable = (engine.games_ready || [])
    .map((name) => meta.games.find((g) => g.name === name)?.title)
    .filter(Boolean);
  const now = playable.length ? `${playable.join(" and ")} can be played now. ` : "";
  box.textContent = `${now}The game engine is warming up (${engine.phase}: ${engine.estimate}; ` +
    `${Math.round(engine.seconds)} s so far). Choose your game meanwhile: it starts as soon as its engine is ready.`;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  let next = engine;
  try {
    next = await request("GET", "/api/health");
  } catch {
    /* try again */
  }
  if (next.ready) {
    const fresh = await request("GET", "/api/meta");
    for (const game of fresh.games) {
      const mine = meta.games.find((g) => g.name === game.name);
      if (mine) mine.example_position = game.example_position;
    }
    $("position").placeholder = selectedGame().example_position || "";
  }
  return followWarmUp(next);
}

async function main() {
  // the forms are the page's from the start: submitted before the games are known, the
  // browser's own submit would reload the page and lose what was typed or pasted
  $("new-game").addEventListener("submit", createGame);
  $("import-form").addEventListener("submit", importRecord);
  $("record-file").addEventListener("change", async () => {
    const file = $("record-file").files[0];
    if (file) $("record-text").value = await file.text();
  });
  meta = await request("GET", "/api/meta");
  $("game").replaceChildren(...meta.games.map((g) => option(g.name, g.title)));
  const titles = meta.games.map((g) => g.title);
  const listed = titles.length > 1 ? `${titles.slice(0, -1).join(", ")} and ${titles.at(-1)}` : titles.join("");
  $("tagline").textContent = listed;
  document.title = `diceboard — ${listed}`;
  $("game").addEventListener("change", buildGameMenus);
  $("new-game").addEventListener("change", refreshForm);
  $("lobby-refresh").addEventListener("click", loadLobby);
  $("player-name").value = storedName();
  $("rules-nav").replaceChildren("Rules: ", ...meta.games.flatMap((g, i) => {
    const a = Object.assign(document.createElement("a"), { href: `/rules/${g.name}`, textContent: g.title });
    return i ? [" · ", a] : [a];
  }));
  buildGameMenus();
  refreshForm();
  followWarmUp(meta.engine || { ready: true });
  loadLobby();
  loadRecent();
  setInterval(loadLobby, 10000);
}

main().catch((error) => {
  $("new-error").textContent = `The server did not answer: ${error.message}`;
});

export { describeOutcome };
