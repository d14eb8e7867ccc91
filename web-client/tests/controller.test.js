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
  assert.deepEqual(types(answer), ['clearPending', 'holdFaces', 'render']);
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
  assert.equal(controller.pendingChoices.size, 0);
});

test('a dropped connection forgets the choices on their way', () => {
  const { controller, send } = seated();
  send({ type: 'choose', card: 0 });
  assert.deepEqual(send({ type: 'connection', state: 'reconnecting', detail: { delay: 500 } }), [{ type: 'clearPending' }]);
  assert.equal(controller.pendingChoices.size, 0);
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
