// The chat of an online game: the two players write, spectators read. Messages arrive over
// the game's WebSocket (a "chat" notice) and are loaded over HTTP when the page opens; every
// message is inserted as text, never as markup. The spectator count is read with them.
import { request } from "./api.js";

const POLL_MS = 10000;

export class Chat {
  constructor({ log, form, input, error, spectators }) {
    Object.assign(this, { log, form, input, error, spectatorsEl: spectators });
    this.gameId = null;
    this.token = null;
    this.lastId = 0;
    this.timer = null;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
  }

  /** Follow the chat of game `g`; `token`: the player's seat token (null: read only). */
  follow(g, token) {
    this.token = token;
    this.form.hidden = !token;
    if (g.mode !== "online" || this.gameId === g.id) return;
    this.gameId = g.id;
    this.load();
    this.timer = setInterval(() => this.load(), POLL_MS);
  }

  async load() {
    try {
      const answer = await request("GET", `/api/games/${this.gameId}/chat?after=${this.lastId}`);
      answer.messages.forEach((m) => this.receive(m));
      this.showSpectators(answer.spectators);
    } catch {
      /* the chat is a convenience: the next poll tries again */
    }
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    this.error.textContent = "";
    try {
      const answer = await request("POST", `/api/games/${this.gameId}/chat`, { body: { text }, token: this.token });
      this.input.value = "";
      this.receive(answer.message, answer.spectators);
    } catch (error) {
      this.error.textContent = error.message;
    }
  }

  showSpectators(count) {
    if (typeof count !== "number") return;
    this.spectatorsEl.dataset.count = String(count);
    this.spectatorsEl.textContent = count ? `· ${count} ${count === 1 ? "spectator" : "spectators"} watching` : "· no spectators";
  }

  /** Add one message ({id, seat, name, text, at}) unless it is already shown. */
  receive(message, spectators) {
    this.showSpectators(spectators);
    if (!message || message.id <= this.lastId) return;
    this.lastId = message.id;
    const li = document.createElement("li");
    li.dataset.id = String(message.id);
    li.dataset.seat = message.seat;
    const name = document.createElement("span");
    name.className = "chat-name";
    name.textContent = `${message.name}:`;
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = message.text; // text only: whatever it holds is never markup
    const at = document.createElement("time");
    at.dateTime = new Date(message.at * 1000).toISOString();
    at.textContent = new Date(message.at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    li.append(at, " ", name, " ", text);
    this.log.append(li);
    this.log.scrollTop = this.log.scrollHeight;
  }
}
