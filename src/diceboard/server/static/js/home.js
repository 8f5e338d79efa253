// The home page: create games, the lobby, recent games, importing a record.
import { request, rememberSeat, rememberGame, recentGames, seatToken, describeOutcome } from "./api.js";

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

function refreshForm() {
  const game = selectedGame();
  const variant = $("variant");
  variant.replaceChildren(...(game.variants.length ? game.variants : ["standard"]).map((v) => option(v, v)));
  variant.disabled = game.variants.length <= 1;
  $("custodian-options").hidden = game.name !== "custodian";
  document.querySelectorAll("[data-player]").forEach((span) => {
    span.textContent = game.player_names[Number(span.dataset.player)];
  });
  const mode = radio("mode");
  $("level-row").hidden = mode !== "computer";
  $("side-row").hidden = mode === "local";
  $("listed-row").hidden = mode !== "online";
  $("minutes").disabled = $("increment").disabled = !$("timed").checked;
}

async function createGame(event) {
  event.preventDefault();
  $("new-error").textContent = "";
  const game = selectedGame();
  const mode = radio("mode");
  const body = { game: game.name, mode, side: radio("side") || "first" };
  if (game.variants.length) body.variant = $("variant").value;
  if (game.name === "custodian" && radio("placement") === "rolled") body.options = { placement: "rolled" };
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

function gameLine(summary, action) {
  const li = document.createElement("li");
  const seats = Object.entries(summary.seats || {})
    .map(([, s]) => (s.kind === "open" ? "open seat" : s.name))
    .join(" vs ");
  const tc = summary.time_control
    ? ` · ${summary.time_control.initial_ms / 60000}+${summary.time_control.increment_ms / 1000}`
    : "";
  const variant = summary.options && summary.options.variant ? ` (${summary.options.variant})` : "";
  const text = document.createElement("span");
  text.textContent = `${summary.game}${variant} · ${seats}${tc} · ${summary.status}` +
    (summary.result && summary.result !== "*" ? ` ${summary.result}` : "");
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
          const joined = await request("POST", `/api/games/${g.id}/join`, { body: {} });
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

async function main() {
  meta = await request("GET", "/api/meta");
  $("game").replaceChildren(...meta.games.map((g) => option(g.name, g.title)));
  $("level").replaceChildren(...meta.levels.map((l) => option(l.spec, l.label)));
  $("level").value = meta.levels[Math.min(meta.levels.length - 1, Math.floor(meta.levels.length / 2))].spec;
  $("new-game").addEventListener("change", refreshForm);
  $("new-game").addEventListener("submit", createGame);
  $("import-form").addEventListener("submit", importRecord);
  $("record-file").addEventListener("change", async () => {
    const file = $("record-file").files[0];
    if (file) $("record-text").value = await file.text();
  });
  $("lobby-refresh").addEventListener("click", loadLobby);
  refreshForm();
  loadLobby();
  loadRecent();
  setInterval(loadLobby, 10000);
}

main().catch((error) => {
  $("new-error").textContent = `The server did not answer: ${error.message}`;
});

export { describeOutcome };
