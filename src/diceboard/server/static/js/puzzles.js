// The puzzles page (/puzzles#<game>): the shipped puzzles one after another. The server
// checks an answer with the engine and explains a wrong one (the opponent's best reply);
// this page keeps the solver's progress in the browser.
import { request } from "./api.js";
import { Trainer, store, stored, wireNotation } from "./trainer.js";

const $ = (id) => document.getElementById(id);
const key = (game) => `diceboard.puzzles.${game}`;

const ui = { games: [], game: null, list: null, puzzle: null, progress: null, tried: false };
const trainer = new Trainer({ onMove: answer });

function say(text, kind = "info") {
  $("message").textContent = text || "";
  $("message").dataset.kind = kind;
}

function loadProgress(game) {
  const p = stored(key(game), {});
  return {
    solved: new Set(Array.isArray(p.solved) ? p.solved : []),
    failed: new Set(Array.isArray(p.failed) ? p.failed : []),
    current: typeof p.current === "string" ? p.current : null,
    // "" serves every puzzle, easiest first; "1" to "5" only that difficulty
    difficulty: /^[1-5]?$/.test(p.difficulty || "") ? p.difficulty || "" : "",
  };
}

function saveProgress() {
  const p = ui.progress;
  store(key(ui.game), {
    solved: [...p.solved],
    failed: [...p.failed],
    current: p.current,
    difficulty: p.difficulty,
  });
}

function renderProgress() {
  const p = ui.progress;
  const total = ui.list.puzzles.length;
  $("progress").textContent = `Solved ${p.solved.size} of ${total} · missed ${p.failed.size}`;
  $("progress").dataset.solved = String(p.solved.size);
  $("progress").dataset.failed = String(p.failed.size);
}

function setResult(result) {
  document.body.dataset.result = result;
  $("retry").hidden = result !== "wrong";
}

function playerName(pos, seat) {
  return pos.player_names[pos.players.indexOf(seat)];
}

// the puzzles served: all of them easiest first, or one difficulty
function selection() {
  const d = ui.progress.difficulty;
  return d ? `?difficulty=${d}` : "?order=rising";
}

function renderDifficulties() {
  const counts = ui.list.difficulties || {};
  const all = document.createElement("option");
  all.value = "";
  all.textContent = `All, easiest first (${Object.values(counts).reduce((a, b) => a + b, 0)})`;
  const names = { 1: "1, seen at a glance", 5: "5, a hard find" };
  const levels = Object.keys(counts).map((d) => {
    const o = document.createElement("option");
    o.value = d;
    o.textContent = `${names[d] || d} (${counts[d]})`;
    o.disabled = !counts[d];
    return o;
  });
  $("difficulty").replaceChildren(all, ...levels);
  $("difficulty").value = ui.progress.difficulty;
}

async function openPuzzle(id) {
  try {
    ui.puzzle = await request("GET", `/api/puzzles/${ui.game}/${id}${selection()}`);
  } catch (error) {
    say(error.message, "error");
    return;
  }
  const pz = ui.puzzle;
  ui.progress.current = pz.id;
  ui.tried = false;
  saveProgress();
  document.body.dataset.puzzle = pz.id;
  const number = pz.number ? `Puzzle ${pz.number} of ${pz.count}` : "Puzzle";
  $("puzzle-title").textContent = `${number} · difficulty ${pz.difficulty} of 5`;
  document.body.dataset.difficulty = String(pz.difficulty);
  $("task").textContent = `${playerName(pz, pz.to_move)} to move. One move wins the game, wins material or saves a die: find it.`;
  $("solution").hidden = true;
  $("notation-input").value = "";
  say("");
  setResult("");
  trainer.show(pz, []);
  renderProgress();
  $("board").focus({ preventScroll: true });
}

async function answer(notation) {
  const pz = ui.puzzle;
  let judged;
  try {
    judged = await request("POST", `/api/puzzles/${ui.game}/${pz.id}/answer`, { body: { move: notation } });
  } catch (error) {
    say(error.message, "error");
    trainer.show(pz, [], true);
    return;
  }
  if (ui.puzzle !== pz) return;
  await trainer.animate(judged.move.segments);
  trainer.picture(judged);
  const first = !ui.tried;
  ui.tried = true;
  if (judged.correct) {
    if (first && !ui.progress.failed.has(pz.id)) ui.progress.solved.add(pz.id);
    // the server's text already says what the move does (its theme)
    say(`✓ ${judged.text}`, "success");
    setResult("correct");
    $("next").focus();
  } else {
    if (first && !ui.progress.solved.has(pz.id)) ui.progress.failed.add(pz.id);
    const reply = judged.reply.length ? ` Their line: ${judged.reply.join(" ")}.` : "";
    say(`${judged.text}${reply}`, "error");
    setResult("wrong");
    $("retry").focus();
  }
  saveProgress();
  renderProgress();
}

async function showSolution() {
  const pz = ui.puzzle;
  let found;
  try {
    found = await request("GET", `/api/puzzles/${ui.game}/${pz.id}/solution`);
  } catch (error) {
    say(error.message, "error");
    return;
  }
  if (!ui.tried) {
    // looked up before trying: it counts as missed
    ui.tried = true;
    if (!ui.progress.solved.has(pz.id)) ui.progress.failed.add(pz.id);
    saveProgress();
    renderProgress();
  }
  const start = document.createElement("li");
  const startButton = document.createElement("button");
  startButton.type = "button";
  startButton.className = "small";
  startButton.textContent = "start";
  startButton.addEventListener("click", () => showStep(null, found));
  start.append(startButton);
  const items = found.line.map((step, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "small move";
    b.textContent = step.move.notation;
    b.dataset.index = String(i);
    b.addEventListener("click", () => showStep(i, found));
    li.append(b);
    return li;
  });
  $("line").replaceChildren(start, ...items);
  $("solution").hidden = false;
  document.body.dataset.solution = found.solution;
  showStep(null, found);
  const also = found.accepted.filter((m) => m !== found.solution);
  $("solution-text").textContent = `The solution is ${found.solution}${also.length ? ` (also accepted: ${also.join(", ")})` : ""}, then the line the engine expects. Click a move to see the position after it.`;
}

function showStep(index, found) {
  const pz = ui.puzzle;
  $("line").querySelectorAll("button").forEach((b) => b.removeAttribute("aria-current"));
  if (index === null) {
    trainer.show(pz, [], !document.body.dataset.result || document.body.dataset.result === "");
    const first = found.line[0];
    if (first) {
      trainer.board.mark([
        ...(first.move.from ? [{ square: first.move.from, kind: "hint-from" }] : []),
        ...(first.move.to ? [{ square: first.move.to, kind: "hint-to" }] : []),
      ]);
      trainer.board.preview(first.move.segments, "hint");
    }
    return;
  }
  const step = found.line[index];
  trainer.picture(step);
  const button = $("line").querySelector(`button[data-index="${index}"]`);
  if (button) button.setAttribute("aria-current", "step");
}

function nextPuzzle() {
  const list = ui.list.puzzles;
  const at = list.findIndex((p) => p.id === ui.puzzle.id);
  const done = (p) => ui.progress.solved.has(p.id) || ui.progress.failed.has(p.id);
  for (let step = 1; step <= list.length; step += 1) {
    const candidate = list[(at + step) % list.length];
    if (!done(candidate)) return openPuzzle(candidate.id);
  }
  return openPuzzle(list[(at + 1) % list.length].id);
}

async function openGame(game) {
  const known = ui.games.find((g) => g.game === game) || ui.games[0];
  ui.game = known.game;
  document.body.dataset.game = ui.game;
  ui.progress = loadProgress(ui.game);
  ui.list = await request("GET", `/api/puzzles/${ui.game}${selection()}`);
  renderDifficulties();
  $("heading").textContent = `${known.title} puzzles`;
  $("about").textContent = `Made by: ${ui.list.command}`;
  $("learn-link").href = `/learn/${ui.game}`;
  $("games").querySelectorAll("a").forEach((a) => {
    if (a.dataset.game === ui.game) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  });
  const list = ui.list.puzzles;
  const current = list.find((p) => p.id === ui.progress.current);
  const open = current || list.find((p) => !ui.progress.solved.has(p.id) && !ui.progress.failed.has(p.id)) || list[0];
  await openPuzzle(open.id);
}

async function chooseDifficulty() {
  ui.progress.difficulty = $("difficulty").value;
  saveProgress();
  try {
    ui.list = await request("GET", `/api/puzzles/${ui.game}${selection()}`);
  } catch (error) {
    say(error.message, "error");
    return;
  }
  const list = ui.list.puzzles;
  const open = list.find((p) => !ui.progress.solved.has(p.id) && !ui.progress.failed.has(p.id)) || list[0];
  if (open) await openPuzzle(open.id);
}

async function main() {
  wireNotation(trainer);
  $("difficulty").addEventListener("change", chooseDifficulty);
  $("retry").addEventListener("click", () => {
    trainer.show(ui.puzzle, []);
    setResult("");
    say("");
  });
  $("show-solution").addEventListener("click", showSolution);
  $("next").addEventListener("click", nextPuzzle);
  try {
    ui.games = (await request("GET", "/api/puzzles")).games;
  } catch (error) {
    say(error.message, "error");
    return;
  }
  $("games").replaceChildren(...ui.games.map((g) => {
    const a = document.createElement("a");
    a.href = `#${g.game}`;
    a.dataset.game = g.game;
    a.textContent = `${g.title} (${g.count})`;
    return a;
  }));
  window.addEventListener("hashchange", () => openGame(location.hash.slice(1)));
  await openGame(location.hash.slice(1));
}

main();
