// The connection to the server: one WebSocket speaking protocol v2, the `hello`/`welcome`
// handshake (with the player token, player.js), the session token, and reconnecting with backoff. It knows nothing of games or of
// the DOM: messages in, messages out, and a connection state for the page to show.
//
// States: 'idle' (not started) → 'connecting' (socket opening, or hello sent and no welcome yet)
// → 'online' (welcome received; send() works) → 'reconnecting' (dropped; a retry is scheduled)
// → 'connecting' … ; 'stopped' after stop(), or when another tab resumed this session (close 4001:
// reconnecting would only take it back; the session is forgotten, start() begins a new one).
//
// Everything it uses from the environment is injectable, so the tests drive it with fakes.

import { SUBPROTOCOL, decode, encode, hello } from './messages.js';
import { reconnectDelay } from './backoff.js';

/** sessionStorage key of the session token from `welcome`. */
export const SESSION_KEY = 'matchismo.session';

/** Close code: another connection resumed this session (PROTOCOL.md, "Limits and close codes"). */
export const RESUMED_ELSEWHERE = 4001;

/** Redirects closer together than this back off (see Connection.moveTo). */
export const MOVES_APART_MS = 1000;

/** Where a `redirect` sends this connection, now at `current`: the node's own URL when it gives
 * one, else its path on the front door this connection came through. */
export function redirectTarget(redirect, current) {
  if (typeof redirect.url === 'string' && /^wss?:\/\//.test(redirect.url)) return redirect.url;
  return new URL(redirect.path, current).href;
}

export class Connection {
  /**
   * @param {object} options
   * @param {string} options.url                  ws:// or wss:// URL
   * @param {() => number} options.nextId         message ids (shared with the page's messages)
   * @param {() => string} [options.name]         the name to send in `hello`
   * @param {() => (string|null)} [options.player] the player token to send in `hello` (player.js)
   * @param {() => (number|null)} [options.version] the last table version applied (sent in a
   *                                              resuming `hello`, to get the missed diffs)
   * @param {() => (true|string|null)} [options.games] `hello`'s `games`: true (send the games'
   *                                              descriptions), the version of those held, or
   *                                              null (none)
   * @param {(message: object) => void} [options.onMessage]   every server message, welcome included
   * @param {(state: string, detail: object) => void} [options.onState]
   * @param {typeof WebSocket} [options.WebSocketImpl]
   * @param {Storage} [options.storage]           where the session token lives
   * @param {{setTimeout: Function, clearTimeout: Function}} [options.timers]
   * @param {() => number} [options.random]       for the backoff jitter
   */
  constructor({
    url,
    nextId,
    name = () => '',
    player = () => null,
    version = () => null,
    games = () => null,
    onMessage = () => {},
    onState = () => {},
    WebSocketImpl = globalThis.WebSocket,
    storage = globalThis.sessionStorage,
    timers = globalThis,
    random = Math.random,
    now = () => Date.now(),
  }) {
    Object.assign(this, { url, nextId, name, player, version, games, onMessage, onState, WebSocketImpl, storage, timers, random, now });
    /** When the connection last moved, and how many moves came quickly one after another. */
    this.movedAt = -Infinity;
    this.quickMoves = 0;
    /** Where the page connects first (the front door); `url` is where it connects now. */
    this.home = url;
    /** Whether the current socket got its welcome. */
    this.welcomed = false;
    this.socket = null;
    this.state = 'idle';
    this.attempt = 0;
    this.retryTimer = null;
    this.helloId = null;
    this.helloRetried = false;
  }

  /** The stored session token, or null. */
  get session() {
    try {
      return this.storage?.getItem(SESSION_KEY) ?? null;
    } catch {
      return null;
    }
  }

  /** Open the connection (if not already open or opening). */
  start() {
    if (this.state === 'stopped') this.state = 'idle';
    if (this.socket !== null) return;
    this.clearRetry();
    this.open();
  }

  /** Drop the connection and the session, and connect again as a new session (a new `hello`,
   * e.g. with a new name). */
  restart() {
    this.forgetSession();
    this.closeSocket();
    this.attempt = 0;
    this.clearRetry();
    this.open();
  }

  /** Retry now instead of waiting for the backoff (e.g. the browser says it is online again). */
  retryNow() {
    if (this.state !== 'reconnecting') return;
    this.clearRetry();
    this.open();
  }

  /** Connect to `url` instead, now (a `redirect` to the node that holds a table): the session
   * comes along in the new hello, and reconnects go there from now on — unless a connection
   * there fails before its welcome (the node is gone): the next try goes to `home`, the front
   * door, which sends the session on to wherever its table is now. */
  moveTo(url) {
    this.closeSocket();
    this.url = url;
    this.attempt = 0;
    this.clearRetry();
    // Redirects that chase each other (a node that died is still named until its tables are
    // taken over) back off like reconnects; a single one goes at once.
    const now = this.now();
    this.quickMoves = now - this.movedAt < MOVES_APART_MS ? this.quickMoves + 1 : 0;
    this.movedAt = now;
    if (this.quickMoves === 0) {
      this.open();
      return;
    }
    const delay = reconnectDelay(this.quickMoves - 1, this.random);
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, delay);
    this.setState('reconnecting', { delay, code: 0, reason: 'redirected' });
  }

  /** Close for good; no reconnect. */
  stop() {
    this.clearRetry();
    this.closeSocket();
    this.setState('stopped', {});
  }

  /** Send a client message. Only after `welcome`; returns false (and sends nothing) otherwise. */
  send(message) {
    if (this.state !== 'online' || this.socket === null) return false;
    this.socket.send(encode(message));
    return true;
  }

  forgetSession() {
    try {
      this.storage?.removeItem(SESSION_KEY);
    } catch {
      // Storage may be unavailable (private mode); the session then lasts as long as the socket.
    }
  }

  open() {
    let socket;
    try {
      socket = new this.WebSocketImpl(this.url, SUBPROTOCOL);
    } catch {
      this.scheduleRetry({ code: 0, reason: 'cannot open' });
      return;
    }
    this.socket = socket;
    this.welcomed = false;
    this.setState('connecting', { attempt: this.attempt });
    socket.addEventListener('open', () => {
      if (this.socket === socket) this.sendHello({ resume: this.session });
    });
    socket.addEventListener('message', (event) => {
      if (this.socket === socket) this.receive(event.data);
    });
    socket.addEventListener('close', (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (event.code === RESUMED_ELSEWHERE) {
        // Another tab took this session over: coming back would take it back, and so on forever.
        this.forgetSession();
        this.clearRetry();
        this.setState('stopped', { code: event.code, reason: event.reason });
        return;
      }
      this.scheduleRetry({ code: event.code, reason: event.reason });
    });
    // 'error' is always followed by 'close', which does the work.
  }

  sendHello({ resume }) {
    this.helloId = this.nextId();
    const version = resume ? this.version() : null;
    const asked = { name: this.name(), resume, version, player: this.player(), games: this.games() };
    this.socket.send(encode(hello(this.helloId, asked)));
  }

  receive(data) {
    const message = decode(data);
    if (message === null) return;
    if (message.type === 'welcome') {
      if (typeof message.session === 'string') {
        try {
          this.storage?.setItem(SESSION_KEY, message.session);
        } catch {
          // See forgetSession.
        }
      }
      this.attempt = 0;
      this.helloRetried = false;
      this.welcomed = true;
      this.setState('online', { name: message.name, resumed: message.resumed === true });
    } else if (message.type === 'error' && message.replyTo === this.helloId && this.state === 'connecting') {
      // The hello itself was refused (a name or token the server does not like): say hello once
      // more with nothing optional in it rather than hang without a session.
      if (!this.helloRetried) {
        this.helloRetried = true;
        this.forgetSession();
        this.helloId = this.nextId();
        this.socket.send(encode(hello(this.helloId, { games: this.games() })));
      }
    }
    this.onMessage(message);
  }

  scheduleRetry({ code, reason }) {
    if (this.state === 'stopped') return;
    // A node reached by a redirect that cannot be reached now: back to the front door.
    if (!this.welcomed && this.url !== this.home) this.url = this.home;
    const delay = reconnectDelay(this.attempt, this.random);
    this.attempt += 1;
    this.clearRetry();
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, delay);
    this.setState('reconnecting', { delay, code, reason });
  }

  clearRetry() {
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  closeSocket() {
    const socket = this.socket;
    this.socket = null;
    if (socket !== null) {
      try {
        socket.close(1000, 'bye');
      } catch {
        // Already closing.
      }
    }
  }

  setState(state, detail) {
    this.state = state;
    this.onState(state, detail);
  }
}
