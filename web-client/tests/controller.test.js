import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Controller, PENDING_MS, RESUME_WAIT_MS } from '../js/controller.js';
import { cardFromId } from '../js/set-cards.js';

const NOW = 5_000_000;
// A board with exactly one set among its first three cards: 0, 1, 2 differ only in count.
const BOARD = [0, 1, 2, 4, 12, 40, 44, 50, 55, 60, 70, 77];

/** A controller with predictable ids (1, 2, 3…), and a way to send it events with a context. */
function setUp({ typed = 'Ada', connection = 'online', hash = '', storedTable = null } = {}) {
  let id = 0;
  const controller = new Controller({ nextId: () => ++id });
  const ctx = { now: NOW, connection, typed, hash, storedTable };
  const send = (event, more = {}) => controller.dispatch({ ...ctx, ...more, ...event });
  return { controller, ctx, send };
}

const types = (fx) => fx.map((e) => e.type);
const sent = (fx) => fx.filter((e) => e.type === 'send').map((e) => e.message);
const toasts = (fx) => fx.filter((e) => e.type === 'toast').map((e) => e.text);

function table(extra = {}) {
  return {
    id: 't7',
    game: 'set',
    version: 20,
    you: 1,
    over: false,
    deckCount: 69,
    settings: { boardSize: 12 },
    board: BOARD.map(cardFromId),
    players: [
      { seat: 0, name: 'Bo', score: 3, matches: 1, selection: [], connected: true },
      { seat: 1, name: 'Ada', score: 0, matches: 0, selection: [], connected: true },
    ],
    status: [],
    phase: 'playing',
    code: 'ABCD234XYZ',
    seats: 2,
    host: 0,
    spectators: 0,
    ...extra,
  };
}

/** A controller online under "Ada", seated at table() (or the table given). */
function seated(extra = {}, options = {}) {
  const t = setUp(options);
  t.send({ type: 'hello' });
  t.send({ type: 'message', message: { type: 'welcome', resumed: false } });
  t.send({ type: 'message', message: { type: 'snapshot', table: table(extra) } });
  return t;
}

const diff = (version, events, more = {}) => ({ type: 'message', message: { type: 'diff', table: 't7', version, events, ...more } });

// ---- Lobby intentions ---------------------------------------------------------------------------

test('a lobby action with a name the server would refuse sends nothing and points at the name', () => {
  const { send } = setUp({ typed: 'A\u0007da' });
  send({ type: 'hello' });
  assert.deepEqual(types(send({ type: 'intent', intent: { kind: 'quickMatch', game: 'set', seats: 4 } })), ['nameProblem']);
});

test('online under the name typed, a lobby action is sent at once and the name remembered', () => {
  const { send } = setUp();
  send({ type: 'hello' });
  const fx = send({ type: 'intent', intent: { kind: 'playSolo', game: 'matchismo', settings: { matchCount: 3 } } });
  assert.deepEqual(types(fx), ['saveName', 'send']);
  assert.deepEqual(fx[0], { type: 'saveName', name: 'Ada' });
  assert.deepEqual(sent(fx), [{ type: 'playSolo', id: 1, game: 'matchismo', matchCount: 3 }]);
});

test('a name edited since the hello starts a new session, and the action goes after its welcome', () => {
  const { controller, send } = setUp();
  send({ type: 'hello' }, { typed: 'Ada' });
  const fx = send({ type: 'intent', intent: { kind: 'quickMatch', game: 'set', seats: 2 } }, { typed: 'Bob' });
  assert.deepEqual(types(fx), ['saveName', 'restart']);
  send({ type: 'hello' }, { typed: 'Bob' });
  assert.equal(controller.helloName, 'Bob');
  const welcome = send({ type: 'message', message: { type: 'welcome' } }, { typed: 'Bob' });
  assert.deepEqual(
    sent(welcome).map((m) => m.type),
    ['lobby', 'quickMatch'],
  );
  assert.deepEqual(sent(welcome)[1], { type: 'quickMatch', id: 2, game: 'set', seats: 2 });
});

test('a name edited again while the new hello was on its way starts yet another session', () => {
  const { send } = setUp();
  send({ type: 'hello' }, { typed: 'Ada' });
  send({ type: 'intent', intent: { kind: 'quickMatch', game: 'set', seats: 2 } }, { typed: 'Bob' });
  send({ type: 'hello' }, { typed: 'Bob' });
  const welcome = send({ type: 'message', message: { type: 'welcome' } }, { typed: 'Cy' });
  assert.deepEqual(types(welcome), ['cancelTimer', 'cancelTimer', 'restart']);
});

test('offline, an action connects, says so, and is sent once welcomed', () => {
  const { send } = setUp({ connection: 'reconnecting' });
  const fx = send({ type: 'intent', intent: { kind: 'createTable', game: 'set', seats: 3, settings: {} } });
  assert.deepEqual(types(fx), ['saveName', 'connect', 'toast']);
  send({ type: 'hello' }, { connection: 'connecting' });
  const welcome = send({ type: 'message', message: { type: 'welcome' } }, { connection: 'online' });
  assert.deepEqual(sent(welcome)[1], { type: 'createTable', id: 2, game: 'set', seats: 3, private: true });
});

test('watching needs no name and no new session', () => {
  const { send } = setUp({ typed: '' });
  send({ type: 'hello' });
  const fx = send({ type: 'intent', intent: { kind: 'spectate', table: 't9' } });
  assert.deepEqual(sent(fx), [{ type: 'spectate', id: 1, table: 't9' }]);
});

test('a typed invite code that is not one is refused in the page', () => {
  const { send } = setUp();
  send({ type: 'hello' });
  const fx = send({ type: 'joinCode', raw: 'abc' });
  assert.deepEqual(types(fx), ['toast', 'focus']);
  assert.deepEqual(sent(send({ type: 'joinCode', raw: ' abcd-234x yz ' })), [{ type: 'join', id: 1, code: 'ABCD234XYZ' }]);
});

// ---- Welcome, invite links, reloads -------------------------------------------------------------

test('a welcome without a table subscribes to the lobby; an invite link in the address joins', () => {
  const { send } = setUp({ hash: '#/t/ABCD234XYZ' });
  send({ type: 'hello' });
  const fx = send({ type: 'message', message: { type: 'welcome' } });
  assert.deepEqual(sent(fx), [
    { type: 'lobby', id: 1 },
    { type: 'join', id: 2, code: 'ABCD234XYZ' },
  ]);
});

test('an invite link without a name asks for one; a bad one is refused, a good one joins', () => {
  const { send } = setUp({ typed: '', hash: '#/t/ABCD234XYZ' });
  send({ type: 'hello' });
  const fx = send({ type: 'message', message: { type: 'welcome' } });
  assert.deepEqual(fx.at(-1), { type: 'inviteName', code: 'ABCD234XYZ' });
  assert.deepEqual(sent(fx).map((m) => m.type), ['lobby']);
  assert.deepEqual(send({ type: 'inviteSubmit', raw: '  ' }), [{ type: 'inviteProblem', text: 'Type a name to take a seat.' }]);
  // The hello carried no name: the join waits for a session under the new one.
  const ok = send({ type: 'inviteSubmit', raw: ' Zoë ' });
  assert.deepEqual(types(ok), ['setName', 'saveName', 'restart']);
  send({ type: 'hello' }, { typed: 'Zoë' });
  const welcome = send({ type: 'message', message: { type: 'welcome' } }, { typed: 'Zoë' });
  assert.deepEqual(sent(welcome)[1], { type: 'join', id: 3, code: 'ABCD234XYZ' });
});

test('"Just watch" in the invite dialog spectates by code', () => {
  const { send } = setUp({ typed: '', hash: '#/t/ABCD234XYZ' });
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome' } });
  const fx = send({ type: 'inviteWatch' });
  assert.deepEqual(fx[0], { type: 'dialog', name: 'invite-name', open: false });
  assert.deepEqual(sent(fx), [{ type: 'spectate', id: 2, code: 'ABCD234XYZ' }]);
});

test('after a reload, a resumed session waits for its table, then falls back to the lobby', () => {
  const { send } = setUp({ storedTable: 'ABCD234XYZ' });
  send({ type: 'hello' });
  const fx = send({ type: 'message', message: { type: 'welcome', resumed: true } });
  assert.deepEqual(fx.at(-1), { type: 'timer', name: 'reload', ms: RESUME_WAIT_MS });
  assert.deepEqual(sent(fx), []);
  const timeout = send({ type: 'timer', name: 'reload' });
  assert.deepEqual(types(timeout), ['forgetTable', 'send', 'renderLobby']);
});

test('a reload whose table arrives in time stays at the table', () => {
  const { send } = setUp({ storedTable: 'ABCD234XYZ' });
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome', resumed: true } });
  send({ type: 'message', message: { type: 'snapshot', table: table() } });
  assert.deepEqual(send({ type: 'timer', name: 'reload' }), []);
});

test('a resumed session at a table asks for a resync only if nothing arrived', () => {
  const { send } = seated();
  const fx = send({ type: 'message', message: { type: 'welcome', resumed: true } });
  assert.deepEqual(fx.at(-1), { type: 'timer', name: 'resume', ms: RESUME_WAIT_MS });
  assert.deepEqual(sent(send({ type: 'timer', name: 'resume' })), [{ type: 'resync', id: 2 }]);
  send({ type: 'message', message: { type: 'welcome', resumed: true } });
  send(diff(21, [{ kind: 'spectators', count: 1 }]));
  assert.deepEqual(send({ type: 'timer', name: 'resume' }), []);
});

test('a new session while at a table means the game is lost: back to the lobby, told why', () => {
  const { controller, send } = seated();
  const fx = send({ type: 'message', message: { type: 'welcome', resumed: false } });
  assert.equal(controller.state.table, null);
  assert.ok(types(fx).includes('leftTable'));
  assert.deepEqual(fx.find((e) => e.type === 'view'), { type: 'view', view: 'lobby' });
  assert.match(toasts(fx)[0], /game with it/);
});

test('another tab taking the session (4001) sends this one back to the lobby', () => {
  const { controller, send } = seated();
  const fx = send({ type: 'connection', state: 'stopped', detail: { code: 4001 } });
  assert.equal(controller.state.table, null);
  assert.deepEqual(toasts(fx), ['This game continued in another tab.']);
  assert.ok(types(fx).includes('view'));
  assert.deepEqual(send({ type: 'connection', state: 'stopped', detail: { code: 1006 } }), []);
});

// ---- Snapshots, choices and their answers -------------------------------------------------------

test('a snapshot shows the table and puts its code in the address; a spectator is told', () => {
  const { send } = setUp();
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome' } });
  const fx = send({ type: 'message', message: { type: 'snapshot', table: table() } });
  assert.deepEqual(fx.find((e) => e.type === 'hash'), { type: 'hash', hash: '#/t/ABCD234XYZ' });
  assert.deepEqual(fx.find((e) => e.type === 'rememberTable'), { type: 'rememberTable', code: 'ABCD234XYZ' });
  assert.deepEqual(types(fx).slice(-3), ['tableChanged', 'view', 'render']);
  const watcher = setUp();
  watcher.send({ type: 'message', message: { type: 'welcome' } });
  const w = watcher.send({ type: 'message', message: { type: 'snapshot', table: table({ you: undefined }) } });
  assert.deepEqual(toasts(w), ['You are watching this table.']);
});

test('an unreadable snapshot changes nothing and is reported', () => {
  const { controller, send } = seated();
  const before = controller.state;
  const fx = send({ type: 'message', message: { type: 'snapshot', table: { id: 7 } } });
  assert.deepEqual(types(fx), ['warn']);
  assert.equal(controller.state, before);
});

test('a choice is sent and shown pending until its answer, or until its timer runs out', () => {
  const { controller, send } = seated();
  const fx = send({ type: 'choose', card: 0 });
  assert.deepEqual(sent(fx), [{ type: 'choose', id: 2, card: 0 }]);
  assert.deepEqual(fx.slice(1), [
    { type: 'markPending', card: 0 },
    { type: 'timer', name: 'pending', id: 2, ms: PENDING_MS },
  ]);
  const answer = send(diff(21, [{ kind: 'select', seat: 1, card: 0 }], { replyTo: 2, seat: 1 }));
  assert.deepEqual(types(answer), ['clearPending', 'render']);
  assert.deepEqual(controller.state.table.players[1].selection, [0]);
  // A second choice whose answer never comes.
  send({ type: 'choose', card: 1 });
  assert.deepEqual(send({ type: 'timer', name: 'pending', id: 3 }), [{ type: 'clearPending' }]);
  assert.deepEqual(send({ type: 'timer', name: 'pending', id: 3 }), []);
});

test('no choice is sent by a spectator, before play, after the game, or offline', () => {
  assert.deepEqual(seated({ you: undefined }).send({ type: 'choose', card: 0 }), []);
  assert.deepEqual(seated({ phase: 'waiting' }).send({ type: 'choose', card: 0 }), []);
  assert.deepEqual(seated({ over: true }).send({ type: 'choose', card: 0 }), []);
  const { controller, send } = seated();
  const fx = send({ type: 'choose', card: 0 }, { connection: 'reconnecting' });
  assert.deepEqual(toasts(fx), ['Not connected to the server — reconnecting…']);
  assert.equal(controller.requests.count('choose'), 0);
});

test('a dropped connection forgets the choices on their way', () => {
  const { controller, send } = seated();
  send({ type: 'choose', card: 0 });
  assert.deepEqual(send({ type: 'connection', state: 'reconnecting', detail: { delay: 500 } }), [{ type: 'clearPending' }]);
  assert.equal(controller.requests.count('choose'), 0);
});

test('a choice that could not be sent after all does not stay pending, and the player is told', () => {
  const { controller, send } = seated();
  send({ type: 'choose', card: 0 }); // id 2, sent
  const fx = send({ type: 'choose', card: 1 }); // id 3: the socket was gone when it ran
  assert.deepEqual(types(fx), ['send', 'markPending', 'timer']);
  const unsent = send({ type: 'unsent', ids: [3] });
  assert.deepEqual(unsent, [
    { type: 'clearPending' },
    { type: 'markPending', card: 0 },
    { type: 'toast', text: 'Not connected to the server — reconnecting…' },
  ]);
  assert.deepEqual(controller.requests.ofKind('choose').map(([id]) => id), [2]);
  // Its timer later finds nothing to settle; other messages that were not sent change nothing shown.
  assert.deepEqual(send({ type: 'timer', name: 'pending', id: 3 }), []);
  assert.deepEqual(send({ type: 'unsent', ids: [99] }), []);
});

test('no choice is sent on another seat\'s turn; on mine it is', () => {
  const { send } = seated({ turn: 0 });
  assert.deepEqual(send({ type: 'choose', card: 0 }), []);
  const { send: mine } = seated({ turn: 1 });
  assert.deepEqual(sent(mine({ type: 'choose', card: 0 })), [{ type: 'choose', id: 2, card: 0 }]);
});

test('Concentration: the faces a hide turns down are held until the unhold timer', () => {
  const cards = [{ id: 0, faceUp: false }, { id: 1, faceUp: false }, { id: 2, faceUp: false }];
  const { controller, send } = seated({ game: 'concentration', board: cards, turn: 1, settings: { faceDown: true } });
  const fx = send(diff(21, [
    { kind: 'flip', seat: 1, card: { id: 0, faceUp: true, emoji: '🦊' } },
    { kind: 'flip', seat: 1, card: { id: 1, faceUp: true, emoji: '🐻' } },
    { kind: 'hide', cards: [0, 1] },
  ]), { now: NOW });
  assert.deepEqual(fx.find((e) => e.type === 'timer'), { type: 'timer', name: 'unhold', ms: 1000 });
  assert.deepEqual([...controller.held.keys()], [0, 1]);
  assert.equal(controller.held.get(1).card.emoji, '🐻');
  assert.deepEqual(send({ type: 'timer', name: 'unhold' }), [{ type: 'render' }]);
  assert.equal(controller.held.size, 0);
});

test('clearing the selection un-chooses my cards, newest first, or only the last', () => {
  const { send } = seated({
    players: [
      { seat: 0, name: 'Bo', score: 0, matches: 0, selection: [4], connected: true },
      { seat: 1, name: 'Ada', score: 0, matches: 0, selection: [0, 12], connected: true },
    ],
  });
  assert.deepEqual(sent(send({ type: 'unchoose', all: true })).map((m) => m.card), [12, 0]);
  // Both are now pending: nothing left to un-choose.
  assert.deepEqual(sent(send({ type: 'unchoose', all: false })), []);
});

test('a diff with a version gap asks for a resync', () => {
  const { send } = seated();
  assert.deepEqual(sent(send(diff(23, [{ kind: 'spectators', count: 1 }]))), [{ type: 'resync', id: 2 }]);
});

test('my mismatch shakes the cards; another seat\'s does not at a race table', () => {
  const { send } = seated();
  const mine = send(diff(21, [{ kind: 'mismatch', seat: 1, cards: [0, 1, 4] }]));
  assert.deepEqual(mine.find((e) => e.type === 'flash'), { type: 'flash', cards: [0, 1, 4], kind: 'mismatch', ms: 450 });
  const theirs = send(diff(22, [{ kind: 'mismatch', seat: 0, cards: [0, 1, 4] }]));
  assert.equal(theirs.find((e) => e.type === 'flash'), undefined);
});

test('a match is measured before the board is drawn and shown after; a match that took my card says who', () => {
  const { send } = seated({
    players: [
      { seat: 0, name: 'Bo', score: 0, matches: 0, selection: [], connected: true },
      { seat: 1, name: 'Ada', score: 0, matches: 0, selection: [2], connected: true },
    ],
  });
  const fx = send(diff(21, [{ kind: 'match', seat: 0, cards: [0, 1, 2], points: 1 }]));
  const order = types(fx);
  assert.ok(order.indexOf('measureMatches') < order.indexOf('render'));
  assert.ok(order.indexOf('render') < order.indexOf('showMatches'));
  assert.deepEqual(fx.find((e) => e.type === 'measureMatches').matches, [{ cards: [0, 1, 2], points: 1 }]);
  assert.deepEqual(toasts(fx), ['Bo took that set']);
});

test('a choice refused because the cards were just taken says who took them and resyncs', () => {
  const { send } = seated();
  send({ type: 'choose', card: 0 }); // id 2
  send(diff(21, [{ kind: 'match', seat: 0, cards: [0, 1, 2], points: 1 }]), { now: NOW + 100 });
  const fx = send({ type: 'message', message: { type: 'error', replyTo: 2, code: 'cardNotOnTable', message: 'gone' } }, { now: NOW + 200 });
  assert.deepEqual(fx.find((e) => e.type === 'sound'), { type: 'sound', name: 'lost' });
  assert.deepEqual(toasts(fx), ['Bo took that set']);
  assert.deepEqual(sent(fx), [{ type: 'resync', id: 3 }]);
});

test('a stale card or phase resyncs; notAtTable goes back to the lobby', () => {
  const { send } = seated();
  const stale = send({ type: 'message', message: { type: 'error', replyTo: 9, code: 'notPlaying', message: 'Not now.' } });
  assert.deepEqual(toasts(stale), ['Not now.']);
  assert.deepEqual(sent(stale), [{ type: 'resync', id: 2 }]);
  const gone = send({ type: 'message', message: { type: 'error', code: 'notAtTable', message: 'You are not at a table.' } });
  assert.ok(types(gone).includes('leftTable'));
  assert.deepEqual(sent(gone), [{ type: 'lobby', id: 3 }]);
});

test('a full or started table offered by a join turns into watching', () => {
  const { send } = setUp();
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome' } });
  send({ type: 'joinCode', raw: 'ABCD234XYZ' }); // id 2
  const fx = send({ type: 'message', message: { type: 'error', replyTo: 2, code: 'tableFull', message: 'Full.' } });
  assert.deepEqual(toasts(fx), ['That table is full — watching instead.']);
  assert.deepEqual(sent(fx), [{ type: 'spectate', id: 3, code: 'ABCD234XYZ' }]);
  send({ type: 'joinCode', raw: 'ABCD234XYZ' }); // id 4
  const unknown = send({ type: 'message', message: { type: 'error', replyTo: 4, code: 'unknownTable', message: 'No such table.' } });
  assert.deepEqual(types(unknown), ['hash', 'toast']);
});

test('refused settings are shown by the form; a refused lobby subscription says so', () => {
  const { send } = setUp();
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome' } }); // lobby id 1
  const bad = send({ type: 'message', message: { type: 'error', replyTo: 5, code: 'badSettings', message: 'boardSize: 13 is not allowed' } });
  assert.deepEqual(bad[0], { type: 'settingsProblem', text: 'boardSize: 13 is not allowed' });
  const lobby = send({ type: 'message', message: { type: 'error', replyTo: 1, code: 'badRequest', message: 'no' } });
  assert.deepEqual(lobby, [{ type: 'tablesEmpty', text: 'This server does not list tables.' }]);
});

test('the moves of the journal being down are refused with a toast and change nothing', () => {
  const { controller, send } = seated();
  send({ type: 'choose', card: 0 });
  const before = controller.state;
  const fx = send({ type: 'message', message: { type: 'error', replyTo: 2, code: 'unavailable', message: 'The server cannot save moves right now.' } });
  assert.deepEqual(types(fx), ['clearPending', 'toast']);
  assert.equal(controller.state, before);
});

// ---- Leaving, re-dealing, hints, the address ----------------------------------------------------

test('leaving a game in progress asks first; otherwise it leaves at once', () => {
  assert.deepEqual(seated().send({ type: 'askLeave' }), [{ type: 'dialog', name: 'confirm-leave', open: true }]);
  assert.deepEqual(sent(seated({ phase: 'waiting' }).send({ type: 'askLeave' })), [{ type: 'leave', id: 2 }]);
  assert.deepEqual(sent(seated({ over: true }).send({ type: 'askLeave' })), [{ type: 'leave', id: 2 }]);
});

test('leaving offline starts a new session and goes back to the lobby without a seat to resume', () => {
  const { controller, send } = seated();
  const fx = send({ type: 'leave' }, { connection: 'reconnecting' });
  assert.equal(fx[0].type, 'restart');
  assert.ok(types(fx).includes('forgetTable'));
  assert.equal(controller.state.table, null);
  assert.deepEqual(send({ type: 'leave' }), []);
});

test('the server\'s `left` brings the player back to the lobby list', () => {
  const { controller, send } = seated();
  const fx = send({ type: 'message', message: { type: 'left' } });
  assert.equal(controller.state.table, null);
  assert.deepEqual(sent(fx), [{ type: 'lobby', id: 2 }]);
  assert.deepEqual(fx.find((e) => e.type === 'hash'), { type: 'hash', hash: null });
});

test('re-deal: alone, after a confirmation; at a multiplayer table, a vote; never by a spectator', () => {
  assert.deepEqual(seated({ seats: 1 }).send({ type: 'askRedeal' }), [{ type: 'dialog', name: 'confirm-redeal', open: true }]);
  assert.deepEqual(sent(seated().send({ type: 'askRedeal' })), [{ type: 'redeal', id: 2 }]);
  assert.deepEqual(seated({ you: undefined }).send({ type: 'askRedeal' }), []);
});

test('a hint shows one card of a set, then two, and starts again on a new board', () => {
  const { send } = seated({ seats: 1 });
  const first = send({ type: 'hint' });
  assert.equal(first[0].cards.length, 1);
  assert.equal(send({ type: 'hint' })[0].cards.length, 2);
  assert.equal(send({ type: 'hint' })[0].cards.length, 2);
  const none = seated({ seats: 1, board: [0, 1, 4].map(cardFromId) }).send({ type: 'hint' });
  assert.deepEqual(none, [{ type: 'toast', text: 'No set on this board.' }]);
});

test('the address: a new invite link joins, the table\'s own link does nothing, the lobby leaves', () => {
  const { send } = seated();
  assert.deepEqual(send({ type: 'route', hash: '#/t/ABCD234XYZ' }), []);
  assert.deepEqual(sent(send({ type: 'route', hash: '#/t/WXYZ234ABC' })), [{ type: 'join', id: 2, code: 'WXYZ234ABC' }]);
  assert.deepEqual(sent(send({ type: 'route', hash: '' })), [{ type: 'leave', id: 3 }]);
});

test('the time played starts when this client sees the game start', () => {
  const { controller, send } = seated({ phase: 'waiting' });
  assert.equal(controller.playingSince, null);
  send(diff(21, [{ kind: 'phase', phase: 'playing' }]), { now: NOW + 7000 });
  assert.equal(controller.playingSince, NOW + 7000);
});

// ---- The lobby list -----------------------------------------------------------------------------

test('lobby snapshots and diffs are drawn; a gap resubscribes; at a table they are ignored', () => {
  const { controller, send } = setUp();
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome' } });
  const t1 = { id: 't1', game: 'set', seats: 2, seated: 1, spectators: 0, phase: 'waiting' };
  const snap = send({ type: 'message', message: { type: 'lobbySnapshot', replyTo: 1, version: 4, tables: [t1] } });
  assert.deepEqual(snap, [{ type: 'renderLobby' }]);
  assert.equal(controller.lobby.tables.length, 1);
  const gap = send({ type: 'message', message: { type: 'lobbyDiff', version: 9, changes: [] } });
  assert.deepEqual(sent(gap), [{ type: 'lobby', id: 2 }]);
  const atTable = seated();
  assert.deepEqual(atTable.send({ type: 'message', message: { type: 'lobbySnapshot', version: 1, tables: [] } }), []);
});

test('an unknown event is a programming error', () => {
  assert.throws(() => setUp().send({ type: 'nonsense' }), /unknown event/);
});

// ---- High scores and replays ----------------------------------------------------------------------

/** A controller online in the lobby (pages of 3), with the lobby's `lobby` request answered. */
function inLobby(options = {}) {
  let id = 0;
  const controller = new Controller({ nextId: () => ++id, pageSize: 3 });
  const ctx = { now: NOW, connection: 'online', typed: 'Ada', hash: '', storedTable: null, game: 'concentration', ...options };
  const send = (event, more = {}) => controller.dispatch({ ...ctx, ...more, ...event });
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome', resumed: false } });
  return { controller, send };
}

const scoresAnswer = (replyTo, extra = {}) => ({
  type: 'message',
  message: {
    type: 'scores', replyTo, game: 'concentration', sort: 'date', order: 'desc', page: 0, pageSize: 3, total: 5,
    games: [
      { id: 'g5', endedAt: '2026-11-24T07:12:40Z', seconds: 31.2, seats: 1, score: 4, mine: true, players: [{ name: 'Ada', score: 4, matches: 4, rank: 1, you: true }] },
      { id: 'g4', endedAt: '2026-11-24T07:10:00Z', seconds: 20.5, seats: 1, score: 2, mine: false, players: [{ name: 'Bo', score: 2, matches: 4, rank: 1 }] },
    ],
    best: { id: 'g5', score: 4 },
    shortest: { id: 'g1', seconds: 9.9 },
    ...extra,
  },
});

test('the high scores tab asks for the picked game\'s newest games, a page at a time', () => {
  const { controller, send } = inLobby();
  const fx = send({ type: 'lobbyTab', tab: 'scores' });
  assert.deepEqual(sent(fx), [{ type: 'scores', id: 2, game: 'concentration', sort: 'date', order: 'desc', page: 0, pageSize: 3, mine: false }]);
  assert.deepEqual(types(fx), ['send', 'renderScores']);
  assert.equal(controller.scores.status, 'loading');
  const answered = send(scoresAnswer(2));
  assert.deepEqual(types(answered), ['renderScores']);
  assert.equal(controller.scores.status, 'ready');
  assert.equal(controller.scores.answer.total, 5);
  assert.deepEqual(controller.scores.answer.games.map((g) => g.id), ['g5', 'g4']);
  // Back to the live tables: nothing asked.
  assert.deepEqual(types(send({ type: 'lobbyTab', tab: 'tables' })), ['renderScores']);
  assert.equal(controller.scores.open, false);
  assert.deepEqual(send({ type: 'lobbyTab', tab: 'tables' }), []);
});

test('sorting, paging, "only mine" and another game each ask again; an older answer is ignored', () => {
  const { controller, send } = inLobby();
  send({ type: 'lobbyTab', tab: 'scores' });
  send(scoresAnswer(2));
  let fx = send({ type: 'scoresSort', sort: 'score' });
  assert.deepEqual(sent(fx)[0], { type: 'scores', id: 3, game: 'concentration', sort: 'score', order: 'desc', page: 0, pageSize: 3, mine: false });
  fx = send({ type: 'scoresSort', sort: 'score' });
  assert.equal(sent(fx)[0].order, 'asc', 'the active sort flips');
  // The answer to the first sort comes late: it is not shown.
  assert.deepEqual(send(scoresAnswer(3, { games: [] })), []);
  assert.equal(controller.scores.answer.games.length, 2);
  send(scoresAnswer(4, { sort: 'score', order: 'asc' }));
  fx = send({ type: 'scoresPage', by: 1 });
  assert.deepEqual([sent(fx)[0].page, sent(fx)[0].sort, sent(fx)[0].order], [1, 'score', 'asc']);
  send(scoresAnswer(5, { page: 1 }));
  assert.deepEqual(sent(send({ type: 'scoresPage', by: 1 })), [], '5 games fill only two pages of 3');
  assert.equal(sent(send({ type: 'scoresPage', by: -1 }))[0].page, 0);
  fx = send({ type: 'scoresMine', mine: true });
  assert.deepEqual([sent(fx)[0].mine, sent(fx)[0].page], [true, 0]);
  fx = send({ type: 'pickGame' }, { game: 'set' });
  assert.deepEqual([sent(fx)[0].game, sent(fx)[0].mine, sent(fx)[0].sort], ['set', true, 'score']);
  assert.deepEqual(send({ type: 'pickGame' }, { game: 'set' }), [], 'the same game again asks nothing');
});

test('with the tab closed, picking a game asks nothing; opening it asks for that game', () => {
  const { send } = inLobby();
  assert.deepEqual(send({ type: 'pickGame' }, { game: 'set' }), []);
  assert.equal(sent(send({ type: 'lobbyTab', tab: 'scores' }, { game: 'set' }))[0].game, 'set');
});

test('a server that keeps no records says so in the tab; a refused query shows why', () => {
  const { controller, send } = inLobby();
  send({ type: 'lobbyTab', tab: 'scores' });
  const fx = send({ type: 'message', message: { type: 'error', replyTo: 2, code: 'unavailable', message: 'No records are kept.' } });
  assert.deepEqual(types(fx), ['renderScores'], 'no toast: the tab says it');
  assert.equal(controller.scores.status, 'unavailable');
  assert.equal(controller.scores.error, 'No records are kept.', "the server's words");
  send({ type: 'scoresSort', sort: 'duration' });
  send({ type: 'message', message: { type: 'error', replyTo: 3, code: 'badField', message: 'pageSize must be 1–50' } });
  assert.deepEqual([controller.scores.status, controller.scores.error], ['error', 'pageSize must be 1–50']);
  // An error for something else is not the tab's.
  assert.equal(controller.requests.idOf('scores'), null);
});

test('offline, the tab waits and asks once welcomed; leaving a table asks again', () => {
  const { controller, send } = inLobby();
  const fx = send({ type: 'lobbyTab', tab: 'scores' }, { connection: 'reconnecting' });
  assert.deepEqual(types(fx), ['renderScores']);
  assert.equal(controller.scores.status, 'loading');
  const welcome = send({ type: 'message', message: { type: 'welcome', resumed: false } });
  assert.deepEqual(sent(welcome).map((m) => m.type), ['lobby', 'scores']);
  // A finished game just played shows when the player comes back from the table.
  send({ type: 'message', message: { type: 'snapshot', table: table() } });
  const back = send({ type: 'message', message: { type: 'left' } });
  assert.deepEqual(sent(back).map((m) => m.type), ['lobby', 'scores']);
});

/** A tiny finished game: one Set board and one diff. */
const recordAnswer = (replyTo) => ({
  type: 'message',
  message: {
    type: 'record',
    replyTo,
    record: { id: 'g4', game: 'set', seconds: 20.5, players: [{ seat: 0, name: 'Bo', score: 1, matches: 1, mistakes: 0, rank: 1 }], moves: [{ seat: 0, card: 0, at: 1.5 }] },
    replay: {
      table: { ...table({ id: 'g4', version: 0, you: undefined, players: [{ seat: 0, name: 'Bo', score: 0, matches: 0, selection: [] }] }) },
      diffs: [{ type: 'diff', table: 'g4', version: 1, seat: 0, events: [{ kind: 'select', seat: 0, card: 0 }], status: [{ text: 'Bo chose' }] }],
    },
  },
});

test('Replay asks for the record, shows it loading, then step by step', () => {
  const { controller, send } = inLobby();
  send({ type: 'lobbyTab', tab: 'scores' });
  send(scoresAnswer(2));
  let fx = send({ type: 'openReplay', record: 'g4' });
  assert.deepEqual(sent(fx), [{ type: 'record', id: 3, record: 'g4' }]);
  assert.deepEqual(types(fx), ['hash', 'view', 'send', 'renderReplay']);
  assert.deepEqual(fx[0], { type: 'hash', hash: '#/replay/g4' });
  assert.deepEqual(fx[1], { type: 'view', view: 'replay' });
  assert.equal(controller.replay.status, 'loading');
  assert.deepEqual(send({ type: 'replayStep', how: 'next' }), [], 'nothing to step through yet');
  fx = send(recordAnswer(3));
  assert.deepEqual(types(fx), ['renderReplay']);
  assert.deepEqual([controller.replay.status, controller.replay.index, controller.replay.data.last], ['ready', 0, 1]);
  assert.deepEqual(types(send({ type: 'replayStep', how: 'next' })), ['renderReplay']);
  assert.equal(controller.replay.index, 1);
  assert.deepEqual(send({ type: 'replayStep', how: 'next' }), [], 'already at the last move');
  send({ type: 'replayStep', how: 0 });
  assert.equal(controller.replay.index, 0);
  send({ type: 'replayStep', how: 'last' });
  assert.equal(controller.replay.index, 1);
});

test('Export saves the record only, named for its game and id', () => {
  const { send } = inLobby();
  send({ type: 'openReplay', record: 'g4' });
  assert.deepEqual(send({ type: 'replayExport' }), [], 'not before it has loaded');
  send(recordAnswer(2));
  const [download] = send({ type: 'replayExport' });
  assert.equal(download.type, 'download');
  assert.equal(download.name, 'matchismo-set-g4.json');
  assert.equal(download.mime, 'application/json');
  const saved = JSON.parse(download.text);
  assert.equal(saved.id, 'g4');
  assert.equal(saved.moves.length, 1);
  assert.equal(saved.replay, undefined);
});

test('"Back to high scores" shows the replayed game\'s list and focuses its row', () => {
  const { controller, send } = inLobby();
  send({ type: 'lobbyTab', tab: 'scores' });
  send(scoresAnswer(2));
  send({ type: 'openReplay', record: 'g4' });
  send(recordAnswer(3));
  // The replayed game is Set while the lobby shows Concentration: the lobby switches to Set.
  const fx = send({ type: 'closeReplay' });
  assert.deepEqual(types(fx), ['hash', 'view', 'lobbyGame', 'send', 'renderScores', 'focusRow']);
  assert.deepEqual(fx[2], { type: 'lobbyGame', game: 'set' });
  assert.equal(sent(fx)[0].game, 'set');
  assert.deepEqual(fx.at(-1), { type: 'focusRow', record: 'g4' });
  assert.equal(controller.replay, null);
  assert.equal(controller.scores.open, true);
});

test('back from a replay of the game shown, the list already there is not asked for again', () => {
  const { send } = inLobby({ game: 'set' });
  send({ type: 'lobbyTab', tab: 'scores' });
  send(scoresAnswer(2, { game: 'set' }));
  send({ type: 'openReplay', record: 'g4' });
  send(recordAnswer(3));
  assert.deepEqual(types(send({ type: 'closeReplay' })), ['hash', 'view', 'renderScores', 'focusRow']);
});

test('a record the server does not have, or a server without records, is said in the replay view', () => {
  const { controller, send } = inLobby();
  send({ type: 'openReplay', record: 'g404' });
  const fx = send({ type: 'message', message: { type: 'error', replyTo: 2, code: 'unknownRecord', message: 'No game g404.' } });
  assert.deepEqual(types(fx), ['renderReplay']);
  assert.deepEqual([controller.replay.status, controller.replay.error], ['error', 'That game is not kept on this server.']);
  send({ type: 'openReplay', record: 'g1' });
  send({ type: 'message', message: { type: 'error', replyTo: 3, code: 'unavailable' } });
  assert.equal(controller.replay.error, 'This server keeps no records.');
  // `unavailable` for another reason: the server's words say which.
  send({ type: 'openReplay', record: 'g1' });
  send({ type: 'message', message: { type: 'error', replyTo: 4, code: 'unavailable', message: 'Too many questions are waiting; ask again in a moment.' } });
  assert.equal(controller.replay.error, 'Too many questions are waiting; ask again in a moment.');
  send({ type: 'openReplay', record: 'g1' });
  send({ type: 'message', message: { type: 'error', replyTo: 5, code: 'badField', message: 'record is not a string' } });
  assert.equal(controller.replay.error, 'record is not a string');
  // An unreadable answer is an error too, and reported.
  send({ type: 'openReplay', record: 'g1' });
  const bad = send({ type: 'message', message: { type: 'record', replyTo: 6, record: {} } });
  assert.deepEqual(types(bad), ['warn', 'renderReplay']);
  assert.equal(controller.replay.status, 'error');
});

test('a replay\'s address opens it once welcomed; the lobby\'s address closes it', () => {
  const { controller, send } = inLobby({ hash: '#/replay/g4' });
  assert.deepEqual([controller.replay.id, controller.replay.status, controller.requests.idOf('record')], ['g4', 'loading', 2]);
  // Still loading when the connection is new again: asked once more (the old answer is lost).
  const again = send({ type: 'message', message: { type: 'welcome', resumed: false } }, { hash: '#/replay/g4' });
  assert.deepEqual(sent(again), [{ type: 'lobby', id: 3 }, { type: 'record', id: 4, record: 'g4' }]);
  send(recordAnswer(4));
  assert.equal(controller.replay.status, 'ready');
  // Loaded: a new connection does not ask for it again.
  assert.deepEqual(sent(send({ type: 'message', message: { type: 'welcome', resumed: false } }, { hash: '#/replay/g4' })), [{ type: 'lobby', id: 5 }]);
  // Another replay's address (typed, or back/forward).
  const routed = send({ type: 'route' }, { hash: '#/replay/g7' });
  assert.deepEqual(sent(routed), [{ type: 'record', id: 6, record: 'g7' }]);
  assert.deepEqual(send({ type: 'route' }, { hash: '#/replay/g7' }), [], 'the one shown');
  const back = send({ type: 'route' }, { hash: '' });
  assert.equal(controller.replay, null);
  assert.ok(types(back).includes('view') && !types(back).includes('hash'), 'the address is already the lobby');
});

test('at a table, a replay\'s address or button does not give up the seat', () => {
  const { controller, send } = seated();
  assert.deepEqual(send({ type: 'route' }, { hash: '#/replay/g4' }), []);
  assert.deepEqual(send({ type: 'openReplay', record: 'g4' }), []);
  assert.equal(controller.replay, null);
  assert.notEqual(controller.state.table, null);
});

test('a snapshot (a seat taken, a table watched) ends a replay', () => {
  const { controller, send } = inLobby();
  send({ type: 'openReplay', record: 'g4' });
  send({ type: 'message', message: { type: 'snapshot', table: table() } });
  assert.equal(controller.replay, null);
});
