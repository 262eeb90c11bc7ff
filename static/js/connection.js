// The WebSocket half of the public interface: one game's socket that says hello, keeps itself
// alive, and reconnects with backoff when it drops. It knows frames, not games.

import { LEGAL_FORM, expandLegal } from "./legal-form.js";

// Never more than ~3 s between tries: after a server restart the page should be back at once.
const BACKOFF_MS = [300, 1000, 2000, 3000];
const PING_EVERY_MS = 25000;
const SILENCE_LIMIT_MS = 70000;

/** Close codes after which trying again cannot help (policy violation, application errors). */
function isFatal(code) {
  return code === 1008 || (code >= 4000 && code < 5000);
}

export function socketUrl(gameId, inviteCode) {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const query = inviteCode ? `?invite_code=${encodeURIComponent(inviteCode)}` : "";
  return `${scheme}://${window.location.host}/ws/games/${encodeURIComponent(gameId)}${query}`;
}

/**
 * A self-healing socket for one game.
 *
 * - `since()` gives the last version the page has drawn; it goes into every hello, so the
 *   server's first frame after a reconnect is a full state plus the log entries we missed.
 * - `onFrame(frame)` gets every parsed server frame; a state frame's `legal` is the list of moves
 *   (the hello asks for the grouped form, expanded here on receipt).
 * - `onStatus(status, detail)`: "connecting", "live", "reconnecting" (detail: ms until the next
 *   try), "closed" (detail: reason; no more tries until retry()).
 */
export class GameSocket {
  constructor({ gameId, inviteCode, since, onFrame, onStatus }) {
    this.url = socketUrl(gameId, inviteCode);
    this.since = since;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.socket = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.lastHeard = 0;
    this.stopped = false;
    window.addEventListener("online", () => {
      if (this.retryTimer) this.retry();
    });
    // Coming back to the tab while a retry is scheduled: try now instead of waiting.
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && this.retryTimer) this.retry();
    });
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  /** Reconnect now (after a fatal close, or to skip the backoff wait). */
  retry() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.attempt = 0;
    if (this.socket) {
      this.socket.onclose = null;
      this.socket.close();
      this.socket = null;
    }
    this.connect();
  }

  /** Send a frame; false when the socket is not open (the caller shows "not connected"). */
  send(frame) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /** Ask again for the current state (e.g. after a stale_version error). */
  hello() {
    return this.send({ type: "hello", since: this.since(), legal_form: LEGAL_FORM });
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.socket) this.socket.close(1000, "leaving");
  }

  connect() {
    this.onStatus(this.attempt === 0 ? "connecting" : "reconnecting", 0);
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      this.onStatus("closed", error.message);
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.lastHeard = Date.now();
      this.hello();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.keepAlive(), PING_EVERY_MS);
    };
    socket.onmessage = (event) => {
      this.lastHeard = Date.now();
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame && frame.type === "state") {
        frame.legal = expandLegal(frame.legal);
        this.attempt = 0;
        this.onStatus("live");
      }
      if (frame && frame.type !== "pong") this.onFrame(frame);
    };
    socket.onclose = (event) => this.closed(socket, event.code, event.reason);
  }

  closed(socket, code, reason) {
    clearInterval(this.pingTimer);
    if (this.socket !== socket) return;
    this.socket = null;
    if (this.stopped) return;
    if (isFatal(code)) {
      this.onStatus("closed", reason || `the server closed the connection (${code})`);
      return;
    }
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    const delay = Math.round(base * (0.75 + Math.random() * 0.25)); // jitter below the cap
    this.attempt += 1;
    this.onStatus("reconnecting", delay);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  keepAlive() {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) {
      // A half-open connection: nothing heard, not even pongs. Drop it and reconnect now
      // rather than wait for the browser to notice.
      const socket = this.socket;
      socket.onclose = null;
      socket.close();
      this.closed(socket, 1006, "silent");
      return;
    }
    this.send({ type: "ping" });
  }
}
