import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, RESUMED_ELSEWHERE, SESSION_KEY, redirectTarget } from '../js/net.js';
import { createIdSource } from '../js/messages.js';

/** A WebSocket stand-in: records what is sent, lets the test play the server. */
class FakeSocket {
  static all = [];
  constructor(url, protocol) {
    this.url = url;
    this.protocol = protocol;
    this.sent = [];
    this.listeners = {};
    this.closed = null;
    FakeSocket.all.push(this);
  }
  addEventListener(type, fn) {
    (this.listeners[type] ??= []).push(fn);
  }
  emit(type, event = {}) {
    for (const fn of this.listeners[type] ?? []) fn(event);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close(code, reason) {
    this.closed = { code, reason };
  }
  // the server side
  open() {
    this.emit('open');
  }
  receive(message) {
    this.emit('message', { data: JSON.stringify(message) });
  }
  drop(code = 1006, reason = '') {
    this.emit('close', { code, reason });
  }
}

class FakeStorage {
  constructor() {
    this.map = new Map();
  }
  getItem(k) {
    return this.map.has(k) ? this.map.get(k) : null;
  }
  setItem(k, v) {
    this.map.set(k, String(v));
  }
  removeItem(k) {
    this.map.delete(k);
  }
}

class FakeTimers {
  constructor() {
    this.pending = new Map();
    this.next = 1;
  }
  setTimeout(fn, ms) {
    const id = this.next++;
    this.pending.set(id, { fn, ms });
    return id;
  }
  clearTimeout(id) {
    this.pending.delete(id);
  }
  fireAll() {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const t of due) t.fn();
  }
}

function setup({ storage = new FakeStorage(), name = 'Ada', version = () => null, player = () => null, games = () => null } = {}) {
  FakeSocket.all = [];
  const timers = new FakeTimers();
  const received = [];
  const states = [];
  const connection = new Connection({
    url: 'ws://127.0.0.1:9/',
    nextId: createIdSource(),
    name: () => name,
    player,
    version,
    games,
    onMessage: (m) => received.push(m),
    onState: (s, d) => states.push([s, d]),
    WebSocketImpl: FakeSocket,
    storage,
    timers,
    random: () => 0,
  });
  return { connection, timers, received, states, storage, sockets: FakeSocket.all };
}

const welcome = (replyTo, session, resumed = false) => ({
  type: 'welcome',
  replyTo,
  protocol: 1,
  session,
  name: 'Ada',
  resumed,
  maxMessageBytes: 8192,
});

test('connects with the subprotocol and says hello first', () => {
  const { connection, sockets, states } = setup();
  connection.start();
  assert.equal(sockets.length, 1);
  assert.equal(sockets[0].url, 'ws://127.0.0.1:9/');
  assert.equal(sockets[0].protocol, 'matchismo.v2');
  assert.equal(connection.state, 'connecting');
  assert.equal(connection.send({ type: 'playSolo', id: 9, game: 'set' }), false, 'nothing before welcome');
  sockets[0].open();
  assert.deepEqual(sockets[0].sent, [{ type: 'hello', id: 1, name: 'Ada' }]);
  assert.deepEqual(states.map((s) => s[0]), ['connecting']);
});

test('welcome stores the session and opens the way for messages', () => {
  const { connection, sockets, storage, received } = setup();
  connection.start();
  sockets[0].open();
  sockets[0].receive(welcome(1, 'tok-1'));
  assert.equal(connection.state, 'online');
  assert.equal(storage.getItem(SESSION_KEY), 'tok-1');
  assert.equal(received[0].type, 'welcome');
  assert.equal(connection.send({ type: 'playSolo', id: 2, game: 'set' }), true);
  assert.deepEqual(sockets[0].sent.at(-1), { type: 'playSolo', id: 2, game: 'set' });
  sockets[0].emit('message', { data: 'garbage' });
  assert.equal(received.length, 1, 'unreadable frames are dropped');
});

test('a dropped connection reconnects with backoff and resumes the session', () => {
  const { connection, sockets, timers, states } = setup();
  connection.start();
  sockets[0].open();
  sockets[0].receive(welcome(1, 'tok-1'));
  sockets[0].drop(1001, 'going away');
  assert.equal(connection.state, 'reconnecting');
  assert.deepEqual(states.at(-1), ['reconnecting', { delay: 250, code: 1001, reason: 'going away' }]);
  assert.equal(connection.send({ type: 'resync', id: 3 }), false);
  assert.equal(sockets.length, 1, 'waits before retrying');

  timers.fireAll();
  assert.equal(sockets.length, 2);
  sockets[1].drop(); // the server is still down
  assert.equal(states.at(-1)[1].delay, 500, 'the second wait is longer');
  timers.fireAll();
  sockets[2].open();
  assert.deepEqual(sockets[2].sent, [{ type: 'hello', id: 2, name: 'Ada', resume: 'tok-1' }]);
  sockets[2].receive(welcome(2, 'tok-1', true));
  assert.equal(connection.state, 'online');
  sockets[2].drop();
  assert.equal(states.at(-1)[1].delay, 250, 'backoff starts over after a welcome');
});

test('a session token from an earlier page load is offered on the first hello', () => {
  const storage = new FakeStorage();
  storage.setItem(SESSION_KEY, 'old');
  const { connection, sockets } = setup({ storage });
  connection.start();
  sockets[0].open();
  assert.equal(sockets[0].sent[0].resume, 'old');
});

test('restart forgets the session and says hello afresh', () => {
  const { connection, sockets, storage } = setup();
  connection.start();
  sockets[0].open();
  sockets[0].receive(welcome(1, 'tok-1'));
  connection.restart();
  assert.deepEqual(sockets[0].closed, { code: 1000, reason: 'bye' });
  assert.equal(storage.getItem(SESSION_KEY), null);
  sockets[0].drop(1000); // the old socket's close must not schedule a retry
  assert.equal(connection.state, 'connecting');
  sockets[1].open();
  assert.deepEqual(sockets[1].sent, [{ type: 'hello', id: 2, name: 'Ada' }]);
});

test('a refused hello is retried once without the optional fields', () => {
  const storage = new FakeStorage();
  storage.setItem(SESSION_KEY, 'tok');
  const { connection, sockets } = setup({ storage });
  connection.start();
  sockets[0].open();
  sockets[0].receive({ type: 'error', replyTo: 1, code: 'badField', message: 'name' });
  assert.deepEqual(sockets[0].sent[1], { type: 'hello', id: 2 });
  sockets[0].receive({ type: 'error', replyTo: 2, code: 'badField', message: 'name' });
  assert.equal(sockets[0].sent.length, 2, 'only once');
});

test('stop closes for good', () => {
  const { connection, sockets, timers } = setup();
  connection.start();
  sockets[0].open();
  connection.stop();
  assert.equal(connection.state, 'stopped');
  sockets[0].drop();
  timers.fireAll();
  assert.equal(sockets.length, 1);
});

test('a resuming hello carries the last table version applied', () => {
  let version = null;
  const { connection, sockets, timers } = setup({ version: () => version });
  connection.start();
  sockets[0].open();
  assert.deepEqual(sockets[0].sent[0], { type: 'hello', id: 1, name: 'Ada' }, 'no version without a token');
  sockets[0].receive(welcome(1, 'tok-1'));
  version = 17;
  sockets[0].drop();
  timers.fireAll();
  sockets[1].open();
  assert.deepEqual(sockets[1].sent[0], { type: 'hello', id: 2, name: 'Ada', resume: 'tok-1', version: 17 });
});

test('resumed elsewhere (4001): stop, forget the session, do not take it back', () => {
  const { connection, sockets, timers, storage, states } = setup();
  connection.start();
  sockets[0].open();
  sockets[0].receive(welcome(1, 'tok-1'));
  sockets[0].drop(RESUMED_ELSEWHERE, 'resumed elsewhere');
  assert.equal(RESUMED_ELSEWHERE, 4001);
  assert.equal(connection.state, 'stopped');
  assert.deepEqual(states.at(-1), ['stopped', { code: 4001, reason: 'resumed elsewhere' }]);
  assert.equal(storage.getItem(SESSION_KEY), null);
  timers.fireAll();
  assert.equal(sockets.length, 1, 'no reconnect');
  connection.start();
  sockets[1].open();
  assert.deepEqual(sockets[1].sent[0], { type: 'hello', id: 2, name: 'Ada' }, 'a new session when asked');
});

test('every hello carries the player token; the retry after a refused hello leaves it out', () => {
  const player = 'x0Vd4bq9yRJ1pQo2mZ8c1A';
  const { connection, sockets, timers } = setup({ player: () => player });
  connection.start();
  sockets[0].open();
  assert.deepEqual(sockets[0].sent[0], { type: 'hello', id: 1, name: 'Ada', player });
  sockets[0].receive(welcome(1, 'tok-1'));
  sockets[0].drop();
  timers.fireAll();
  sockets[1].open();
  assert.deepEqual(sockets[1].sent[0], { type: 'hello', id: 2, name: 'Ada', resume: 'tok-1', player }, 'a resuming hello too');
  sockets[1].receive({ type: 'error', replyTo: 2, code: 'badField', message: 'player' });
  assert.deepEqual(sockets[1].sent[1], { type: 'hello', id: 3 });
});

test('a redirect moves the connection at once to the node, with the session, and reconnects go there', () => {
  const { connection, sockets, timers, states } = setup();
  connection.start();
  sockets[0].open();
  sockets[0].receive(welcome(1, 'tok-1'));
  connection.moveTo('ws://127.0.0.1:9/ws?table=t7&node=n2');
  assert.deepEqual(sockets[0].closed, { code: 1000, reason: 'bye' });
  assert.equal(sockets.length, 2, 'no backoff: at once');
  assert.equal(sockets[1].url, 'ws://127.0.0.1:9/ws?table=t7&node=n2');
  // The old socket's close is not a drop: no retry is scheduled for it.
  sockets[0].drop(1000);
  assert.equal(timers.pending.size, 0);
  sockets[1].open();
  assert.deepEqual(sockets[1].sent, [{ type: 'hello', id: 2, name: 'Ada', resume: 'tok-1' }]);
  sockets[1].receive(welcome(2, 'tok-1', true));
  assert.equal(connection.state, 'online');
  sockets[1].drop();
  timers.fireAll();
  assert.equal(sockets[2].url, 'ws://127.0.0.1:9/ws?table=t7&node=n2');
  assert.deepEqual(states.map((s) => s[0]).slice(0, 4), ['connecting', 'online', 'connecting', 'online']);
});

test("a redirect's target: the node's own URL when it gives one, else its path on the front door", () => {
  const path = '/ws?table=t7&node=n2';
  assert.equal(redirectTarget({ path }, 'ws://front.example:8080/'), 'ws://front.example:8080/ws?table=t7&node=n2');
  assert.equal(redirectTarget({ path }, 'wss://front.example/ws?table=t1&node=n1'), 'wss://front.example/ws?table=t7&node=n2');
  assert.equal(redirectTarget({ path, url: 'ws://10.0.0.2:9002/' }, 'ws://front.example/'), 'ws://10.0.0.2:9002/');
  assert.equal(redirectTarget({ path, url: 'javascript:alert(1)' }, 'ws://front.example/'), 'ws://front.example/ws?table=t7&node=n2');
});

test('a node reached by a redirect that fails before its welcome sends the next try to the front door', () => {
  const { connection, sockets, timers } = setup();
  connection.start();
  sockets[0].open();
  sockets[0].receive(welcome(1, 'tok-1'));
  connection.moveTo('ws://10.0.0.2:9002/');
  // The node is gone: its socket closes before any welcome.
  sockets[1].drop(1006);
  timers.fireAll();
  assert.equal(sockets[2].url, 'ws://127.0.0.1:9/', 'back to the front door');
  sockets[2].open();
  assert.equal(sockets[2].sent[0].resume, 'tok-1', 'with the session');
  // Once welcomed at a node, a drop tries that node again first.
  connection.moveTo('ws://10.0.0.3:9003/');
  timers.fireAll(); // a second redirect so soon backs off
  sockets[3].open();
  sockets[3].receive(welcome(3, 'tok-1', true));
  sockets[3].drop(1006);
  timers.fireAll();
  assert.equal(sockets[4].url, 'ws://10.0.0.3:9003/');
});

test('redirects that chase each other back off; one after a pause goes at once', () => {
  FakeSocket.all = [];
  const timers = new FakeTimers();
  let clock = 0;
  const connection = new Connection({
    url: 'ws://127.0.0.1:9/', nextId: createIdSource(), name: () => 'Ada', WebSocketImpl: FakeSocket,
    storage: new FakeStorage(), timers, random: () => 0, now: () => clock,
  });
  connection.start();
  connection.moveTo('ws://127.0.0.1:9/ws?node=n2');
  assert.equal(FakeSocket.all.length, 2, 'the first redirect goes at once');
  clock += 100;
  connection.moveTo('ws://127.0.0.1:9/ws?node=n3');
  assert.equal(FakeSocket.all.length, 2, 'the second, 0.1 s later, waits');
  assert.equal(connection.state, 'reconnecting');
  timers.fireAll();
  assert.equal(FakeSocket.all.at(-1).url, 'ws://127.0.0.1:9/ws?node=n3');
  clock += 5000;
  connection.moveTo('ws://127.0.0.1:9/ws?node=n1');
  assert.equal(FakeSocket.all.at(-1).url, 'ws://127.0.0.1:9/ws?node=n1', 'after a pause: at once');
});

test('every hello asks for the games as the page says, the retry after a refused hello too', () => {
  let asked = true;
  const { connection, sockets, timers } = setup({ games: () => asked });
  connection.start();
  sockets[0].open();
  assert.deepEqual(sockets[0].sent[0], { type: 'hello', id: 1, name: 'Ada', games: true });
  sockets[0].receive(welcome(1, 'tok-1'));
  asked = 'c41aab025ffde563';
  sockets[0].drop();
  timers.fireAll();
  sockets[1].open();
  assert.deepEqual(sockets[1].sent[0], { type: 'hello', id: 2, name: 'Ada', resume: 'tok-1', games: asked });
  sockets[1].receive({ type: 'error', replyTo: 2, code: 'badField', message: 'resume' });
  assert.deepEqual(sockets[1].sent[1], { type: 'hello', id: 3, games: asked });
});
