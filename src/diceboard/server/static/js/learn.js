// The lessons page (/learn/<game>): one lesson per rule, each a position in which the learner
// makes the move that shows the rule. The server judges the move (the lesson's goal, checked
// by the engine) and explains a wrong one; this page remembers which lessons are done.
import { request } from "./api.js";
import { Trainer, store, stored, wireNotation } from "./trainer.js";

const $ = (id) => document.getElementById(id);
const game = decodeURIComponent(location.pathname.split("/")[2] || "");
const DONE_KEY = `diceboard.learn.${game}`;

const ui = { course: null, lesson: null, done: new Set(stored(DONE_KEY, [])) };
const trainer = new Trainer({ onMove: tryMove });

function say(text, kind = "info") {
  $("message").textContent = text || "";
  $("message").dataset.kind = kind;
}

function setResult(result) {
  document.body.dataset.result = result;
  $("retry").hidden = result !== "wrong";
  const index = ui.course.lessons.findIndex((l) => l.id === ui.lesson.id);
  const last = index === ui.course.lessons.length - 1;
  $("next").hidden = result !== "correct";
  $("next").textContent = last ? "All lessons done: try a puzzle" : "Next lesson";
}

function renderList() {
  const items = ui.course.lessons.map((l, i) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `#${l.id}`;
    a.textContent = l.title;
    a.dataset.lesson = l.id;
    if (ui.lesson && l.id === ui.lesson.id) a.setAttribute("aria-current", "step");
    li.append(a);
    if (ui.done.has(l.id)) {
      li.classList.add("done");
      const tick = document.createElement("span");
      tick.className = "tick";
      tick.textContent = " ✓";
      tick.setAttribute("aria-label", "done");
      li.append(tick);
    }
    li.dataset.index = String(i + 1);
    return li;
  });
  $("lessons").replaceChildren(...items);
  const done = ui.course.lessons.filter((l) => ui.done.has(l.id)).length;
  $("progress").textContent = `${done} of ${ui.course.lessons.length} lessons done`;
}

async function openLesson(id) {
  const known = ui.course.lessons.find((l) => l.id === id) || ui.course.lessons[0];
  try {
    ui.lesson = await request("GET", `/api/learn/${game}/${known.id}`);
  } catch (error) {
    say(error.message, "error");
    return;
  }
  document.body.dataset.lesson = ui.lesson.id;
  $("lesson-title").textContent = ui.lesson.title;
  $("lesson-text").textContent = ui.lesson.text;
  $("notation-input").value = "";
  say("");
  setResult("");
  trainer.show(ui.lesson, ui.lesson.marks);
  renderList();
  $("board").focus({ preventScroll: true });
}

async function tryMove(notation) {
  const lesson = ui.lesson;
  let answer;
  try {
    answer = await request("POST", `/api/learn/${game}/${lesson.id}`, { body: { move: notation } });
  } catch (error) {
    // the engine's reason: an illegal or unreadable move
    say(error.message, "error");
    setResult("wrong");
    document.body.dataset.explained = "illegal";
    trainer.show(lesson, lesson.marks, false);
    return;
  }
  if (ui.lesson !== lesson) return;
  await trainer.animate(answer.move.segments);
  trainer.picture(answer, answer.correct ? [] : lesson.marks);
  const rolled = answer.rolled ? ` It rolled a ${answer.rolled}.` : "";
  if (answer.correct) {
    ui.done.add(lesson.id);
    store(DONE_KEY, [...ui.done]);
    say(`✓ ${answer.text}${rolled}`, "success");
    setResult("correct");
    renderList();
    $("next").focus();
  } else {
    say(`${answer.move.notation}: ${answer.text}`, "error");
    document.body.dataset.explained = "wrong";
    setResult("wrong");
    $("retry").focus();
  }
}

function next() {
  const lessons = ui.course.lessons;
  const index = lessons.findIndex((l) => l.id === ui.lesson.id);
  if (index === lessons.length - 1) {
    location.href = `/puzzles#${game}`;
    return;
  }
  location.hash = lessons[index + 1].id;
}

async function renderNav() {
  const nav = $("learn-nav");
  try {
    const index = await request("GET", "/api/learn");
    const links = index.games.map((g) => {
      const a = document.createElement("a");
      a.href = `/learn/${g.game}`;
      a.textContent = `Learn ${g.title}`;
      if (g.game === game) a.setAttribute("aria-current", "page");
      return a;
    });
    const puzzles = document.createElement("a");
    puzzles.href = "/puzzles";
    puzzles.textContent = "Puzzles";
    nav.replaceChildren(...links, puzzles);
    return index;
  } catch (error) {
    say(error.message, "error");
    return null;
  }
}

async function main() {
  wireNotation(trainer);
  $("retry").addEventListener("click", () => openLesson(ui.lesson.id));
  $("next").addEventListener("click", next);
  const index = await renderNav();
  if (!game) {
    // /learn: the games with lessons
    if (index && index.games.length) location.replace(`/learn/${index.games[0].game}`);
    return;
  }
  try {
    ui.course = await request("GET", `/api/learn/${game}`);
  } catch (error) {
    $("lesson-title").textContent = error.message;
    return;
  }
  document.body.dataset.game = ui.course.game;
  document.title = `${ui.course.heading} — diceboard`;
  $("heading").textContent = ui.course.heading;
  $("rules-link").href = ui.course.rules;
  $("rules-link").textContent = `The rules of ${ui.course.title}`;
  $("rules-link").hidden = false;
  window.addEventListener("hashchange", () => openLesson(location.hash.slice(1)));
  const first = ui.course.lessons.find((l) => !ui.done.has(l.id)) || ui.course.lessons[0];
  await openLesson(location.hash.slice(1) || first.id);
}

main();
