// Talking to the server: JSON requests, seat tokens kept in this browser, recent games.

const SEAT_KEY = (id) => `diceboard.seat.${id}`;
const RECENT_KEY = "diceboard.recent";
const RECENT_LIMIT = 30;

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.detail) || `request failed (${status})`);
    this.status = status;
    this.body = body || {};
  }
}

/** A JSON request; a 4xx/5xx answer throws ApiError with the server's explanation. */
export async function request(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch (error) {
    throw new ApiError(0, { detail: "the server cannot be reached; retrying when it is back" });
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export function seatToken(id) {
  try {
    return localStorage.getItem(SEAT_KEY(id));
  } catch {
    return null;
  }
}

export function rememberSeat(id, token) {
  try {
    localStorage.setItem(SEAT_KEY(id), token);
  } catch {
    /* private mode: the cookie still remembers the seat */
  }
}

export function recentGames() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

export function rememberGame(entry) {
  const list = recentGames().filter((g) => g.id !== entry.id);
  list.unshift({ ...entry, at: Date.now() });
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, RECENT_LIMIT)));
  } catch {
    /* nothing to do */
  }
}

/** Reads `#seat=…` or `#code=…` from the address and removes it from the address bar. */
export function takeFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  return params;
}

export const RESULT_WORDS = {
  elimination: "elimination",
  blocked: "both sides blocked",
  repetition: "threefold repetition",
  "no-capture-limit": "no-capture limit",
  immobilized: "no legal move",
  timeout: "time ran out",
  resignation: "resignation",
  agreement: "agreement",
  expired: "nobody joined in time",
  abandoned: "nobody moved for too long",
};

export function describeOutcome(outcome, playerNames, players) {
  if (!outcome) return "";
  const why = RESULT_WORDS[outcome.reason] || outcome.reason;
  if (outcome.result === "*") return `No result (${why})`;
  if (!outcome.winner) return `Draw (${why}) · ${outcome.result}`;
  const name = playerNames[players.indexOf(outcome.winner)];
  return `${name} wins (${why}) · ${outcome.result}`;
}
