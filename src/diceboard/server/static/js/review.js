// Game review on the analysis board: the review job on the server (started, then polled for
// its progress), the graph of the win probability over the game (plain SVG) and the figures.
import { request } from "./api.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const POLL_MS = 500;

/** Start (or find) the review of game `gameId`; `progress(job)` is told each poll; resolves
 * with the finished review. */
export async function runReview(gameId, progress) {
  let job = await request("POST", `/api/games/${encodeURIComponent(gameId)}/review`);
  progress(job);
  while (job.status === "running") {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    try {
      job = await request("GET", `/api/reviews/${encodeURIComponent(job.job)}`);
    } catch (error) {
      if (error.status === 0 || error.status === 429) continue; // the server is busy or away
      throw error;
    }
    progress(job);
  }
  if (job.status !== "done") throw new Error(job.error || "the review failed");
  return job.review;
}

function el(name, attrs = {}) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/** The graph: the first player's win probability after every move (0 = the second player
 * wins, 1 = the first), marked moves as dots; `onPick(index)` gets a clicked move's place
 * (0 for the start, i for the position after move i). `current` is the position shown. */
export function drawGraph(container, review, names, onPick, current = null) {
  const width = 300;
  const height = 120;
  const pad = 6;
  const curve = review.curve;
  const n = Math.max(1, curve.length - 1);
  const x = (i) => pad + ((width - 2 * pad) * i) / n;
  const y = (p) => pad + (height - 2 * pad) * (1 - p);
  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "graph",
    role: "img",
    "aria-label": `${names[0]}'s win probability over the game`,
  });
  svg.append(el("rect", { x: 0, y: 0, width, height, class: "graph-bg" }));
  const area = [`M ${x(0)} ${y(0)}`, ...curve.map((p, i) => `L ${x(i)} ${y(p)}`), `L ${x(curve.length - 1)} ${y(0)} Z`];
  svg.append(el("path", { d: area.join(" "), class: "graph-area" }));
  svg.append(el("line", { x1: pad, x2: width - pad, y1: y(0.5), y2: y(0.5), class: "graph-mid" }));
  svg.append(el("polyline", { points: curve.map((p, i) => `${x(i)},${y(p)}`).join(" "), class: "graph-line" }));
  if (current !== null && current < curve.length) {
    svg.append(el("line", { x1: x(current), x2: x(current), y1: pad, y2: height - pad, class: "graph-now" }));
  }
  for (const mark of review.marks) {
    const i = mark.index + 1;
    const dot = el("circle", { cx: x(i), cy: y(curve[i]), r: 4.5, class: `graph-mark glyph-${glyphClass(mark.glyph)}` });
    dot.dataset.index = String(mark.index);
    const title = el("title");
    title.textContent = `move ${mark.index + 1} ${mark.played}${mark.glyph}: ${mark.comment}`;
    dot.append(title);
    svg.append(dot);
  }
  // a click anywhere picks the nearest position (the dots sit on the curve)
  svg.addEventListener("click", (event) => {
    const box = svg.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * width;
    const i = Math.round(((at - pad) / (width - 2 * pad)) * n);
    const dot = event.target.closest ? event.target.closest(".graph-mark") : null;
    onPick(dot ? Number(dot.dataset.index) + 1 : Math.max(0, Math.min(curve.length - 1, i)), dot !== null);
  });
  container.replaceChildren(svg);
}

export function glyphClass(glyph) {
  return { "?!": "inaccuracy", "?": "mistake", "??": "blunder" }[glyph] || "none";
}

/** Each side's accuracy and counts as table rows. */
export function renderSides(table, review, names) {
  const head = document.createElement("tr");
  for (const text of ["", "accuracy", "?!", "?", "??"]) {
    const th = document.createElement("th");
    th.textContent = text;
    head.append(th);
  }
  const rows = review.players.map((p, i) => {
    const side = review.sides[p];
    const tr = document.createElement("tr");
    tr.dataset.player = p;
    const cells = [names[i], side.accuracy.toFixed(1), side.inaccuracies, side.mistakes, side.blunders];
    for (const value of cells) {
      const td = document.createElement("td");
      td.textContent = String(value);
      tr.append(td);
    }
    return tr;
  });
  table.replaceChildren(head, ...rows);
}
