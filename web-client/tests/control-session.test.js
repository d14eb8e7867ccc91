// The controller's session: lobby intentions waiting for a session under the name typed, the
// welcome, invite links and reloads.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RESUME_WAIT_MS } from '../js/controller.js';
import { NAME_FOR_OTHERS } from '../js/control-session.js';
import { setUp, types, sent, toasts, table, seated, diff } from './controller-fixtures.js';

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

test('play against the computer sends playBot with the level, the count and the settings', () => {
  const { send } = setUp();
  send({ type: 'hello' });
  const fx = send({ type: 'intent', intent: { kind: 'playBot', game: 'set', level: 'good', bots: 2, settings: { scoring: 'classic' } } });
  assert.deepEqual(sent(fx), [{ scoring: 'classic', type: 'playBot', id: 1, game: 'set', level: 'good', bots: 2 }]);
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

test('a resumed session keeps its old name: a lobby action under the name typed starts a new one', () => {
  const { controller, send } = setUp();
  send({ type: 'hello' }, { typed: 'Ann' });
  // A reload resumed the session the server knows as "Ada", whatever this hello asked for.
  send({ type: 'message', message: { type: 'welcome', resumed: true, name: 'Ada' } }, { typed: 'Ann' });
  assert.equal(controller.sessionName, 'Ada');
  const fx = send({ type: 'intent', intent: { kind: 'quickMatch', game: 'set', seats: 2 } }, { typed: 'Ann' });
  assert.deepEqual(types(fx), ['saveName', 'restart']);
  // The new session is "Ann": the quick match goes, and nothing restarts again.
  send({ type: 'hello' }, { typed: 'Ann' });
  const welcome = send({ type: 'message', message: { type: 'welcome', resumed: false, name: 'Ann' } }, { typed: 'Ann' });
  assert.deepEqual(sent(welcome).map((m) => m.type), ['lobby', 'quickMatch']);
  const again = send({ type: 'intent', intent: { kind: 'playSolo', game: 'set' } }, { typed: 'Ann' });
  assert.deepEqual(types(again), ['saveName', 'send']);
  // No name typed: the server's default, "Player", is the same name.
  const plain = setUp({ typed: '' });
  plain.send({ type: 'hello' });
  plain.send({ type: 'message', message: { type: 'welcome', resumed: false, name: 'Player' } });
  assert.deepEqual(types(plain.send({ type: 'intent', intent: { kind: 'playSolo', game: 'set' } })), ['saveName', 'send']);
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

test('a watcher who typed a name watches under it: a session under another name starts again first (issue 34, point 1)', () => {
  const { send } = setUp({ typed: 'Cy' });
  send({ type: 'hello' }, { typed: '' });
  send({ type: 'message', message: { type: 'welcome', name: 'Player' } });
  let fx = send({ type: 'intent', intent: { kind: 'spectate', table: 't9' } });
  assert.deepEqual(types(fx), ['saveName', 'restart']);
  send({ type: 'hello' });
  fx = send({ type: 'message', message: { type: 'welcome', name: 'Cy' } });
  assert.deepEqual(sent(fx).filter((m) => m.type === 'spectate').map((m) => m.table), ['t9']);
  // Under the name it already has, at once.
  fx = send({ type: 'intent', intent: { kind: 'spectate', table: 't10' } });
  assert.deepEqual(sent(fx).map((m) => m.type), ['spectate']);
});

test('"Just watch" goes under the name typed in the invite dialog', () => {
  const { send } = setUp({ typed: '', hash: '#/t/ABCD234XYZ' });
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome', name: 'Player' } });
  const fx = send({ type: 'inviteWatch', raw: ' Dee ' });
  assert.deepEqual(fx.slice(0, 2), [{ type: 'dialog', name: 'invite-name', open: false }, { type: 'setName', name: 'Dee' }]);
  assert.ok(types(fx).includes('restart'), types(fx));
});

test('a newcomer with no name is asked for one before a game with others, not before a solo game (issue 34, point 8)', () => {
  const { send } = setUp({ typed: '' });
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome', name: 'Player' } });
  for (const intent of [{ kind: 'quickMatch', game: 'set', seats: 2 }, { kind: 'joinListed', table: 't4' }, { kind: 'createTable', game: 'set', seats: 2 }]) {
    const fx = send({ type: 'intent', intent });
    assert.deepEqual(sent(fx), [], intent.kind);
    assert.deepEqual(fx, [{ type: 'nameProblem', text: NAME_FOR_OTHERS }], intent.kind);
  }
  const solo = send({ type: 'intent', intent: { kind: 'playSolo', game: 'set' } });
  assert.deepEqual(sent(solo).map((m) => m.type), ['playSolo']);
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

test('an invite link that names its game says which when it asks for a name (issue 21)', () => {
  const { send } = setUp({ typed: '', hash: '#/t/ABCD234XYZ/concentration' });
  send({ type: 'hello' });
  const fx = send({ type: 'message', message: { type: 'welcome' } });
  assert.deepEqual(fx.at(-1), { type: 'inviteName', code: 'ABCD234XYZ', game: 'concentration' });
});

test('an invite link without a name asks for one; a bad one is refused, a good one joins', () => {
  const { send } = setUp({ typed: '', hash: '#/t/ABCD234XYZ' });
  send({ type: 'hello' });
  const fx = send({ type: 'message', message: { type: 'welcome' } });
  assert.deepEqual(fx.at(-1), { type: 'inviteName', code: 'ABCD234XYZ', game: null });
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
  send(diff(21, [{ kind: 'host', seat: 0 }]));
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

// ---- Redirects (a table on another node of the cluster) -------------------------------------------

test('a redirect moves the connection and the join it answered goes again once welcomed there', () => {
  const { send } = setUp();
  send({ type: 'hello' });
  const joined = send({ type: 'intent', intent: { kind: 'joinListed', table: 't7' } });
  const id = sent(joined)[0].id;
  const redirect = { type: 'redirect', replyTo: id, table: 't7', node: 'n2', path: '/ws?table=t7&node=n2', role: 'player' };
  const fx = send({ type: 'message', message: redirect });
  assert.deepEqual(fx, [{ type: 'redirect', redirect }]);
  send({ type: 'hello' }, { connection: 'connecting' });
  const welcome = send({ type: 'message', message: { type: 'welcome', resumed: true } });
  assert.deepEqual(sent(welcome).map((m) => m.type), ['lobby', 'join']);
  assert.equal(sent(welcome)[1].table, 't7');
});

test('a redirect for watching, or by invite code, asks for the same there', () => {
  const { send } = setUp();
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'redirect', table: 't7', node: 'n2', path: '/ws?table=t7&node=n2', role: 'spectator' } });
  let welcome = send({ type: 'message', message: { type: 'welcome', resumed: true } });
  assert.deepEqual(sent(welcome)[1], { type: 'spectate', id: sent(welcome)[1].id, table: 't7' });
  send({ type: 'message', message: { type: 'redirect', table: 't8', node: 'n3', path: '/ws?table=t8&node=n3', code: 'ABCDEFGHJK', role: 'player' } });
  welcome = send({ type: 'message', message: { type: 'welcome', resumed: true } });
  assert.deepEqual(sent(welcome)[1], { type: 'join', id: sent(welcome)[1].id, code: 'ABCDEFGHJK' });
});

test('quick match sends the table settings the form shows (issue 21)', () => {
  const { send } = setUp();
  send({ type: 'hello' });
  const fx = send({ type: 'intent', intent: { kind: 'quickMatch', game: 'set', seats: 3, settings: { scoring: 'course', boardSize: 15 } } });
  assert.deepEqual(sent(fx), [{ type: 'quickMatch', id: 1, game: 'set', seats: 3, scoring: 'course', boardSize: 15 }]);
});

test('a redirect to the node that holds an arena joins it there (by its code when it came by one), or watches it', () => {
  const { send } = setUp();
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'redirect', table: 'akq7', node: 'n2', path: '/ws?table=akq7&node=n2', code: 'K7Q2M9XW4P', role: 'arenaPlayer' } });
  let welcome = send({ type: 'message', message: { type: 'welcome', resumed: true } });
  assert.deepEqual(sent(welcome)[1], { type: 'joinArena', id: sent(welcome)[1].id, code: 'K7Q2M9XW4P' });
  send({ type: 'message', message: { type: 'redirect', table: 's1795003200', node: 'n1', path: '/ws?table=s1795003200&node=n1', role: 'arenaPlayer' } });
  welcome = send({ type: 'message', message: { type: 'welcome', resumed: true } });
  assert.deepEqual(sent(welcome)[1], { type: 'joinArena', id: sent(welcome)[1].id, arena: 's1795003200' });
  send({ type: 'message', message: { type: 'redirect', table: 's1795003200', node: 'n1', path: '/ws?table=s1795003200&node=n1', role: 'arenaWatcher' } });
  welcome = send({ type: 'message', message: { type: 'welcome', resumed: true } });
  assert.deepEqual(sent(welcome)[1], { type: 'watchArena', id: sent(welcome)[1].id, arena: 's1795003200' });
});

// ---- A spectator whose session was lost (issue 36) ------------------------------------------------

test('a spectator whose session was lost watches the same table again, and stays on it', () => {
  const { controller, send } = seated({ you: null });
  const fx = send({ type: 'message', message: { type: 'welcome', resumed: false } });
  const [spectate] = sent(fx);
  assert.deepEqual(spectate, { type: 'spectate', id: spectate.id, code: 'ABCD234XYZ' });
  // Nothing is lost or said meanwhile: the table stays on the screen until its snapshot.
  assert.deepEqual(toasts(fx), []);
  assert.ok(!types(fx).includes('view'));
  assert.equal(controller.state.table.id, 't7');
  send({ type: 'message', message: { type: 'snapshot', replyTo: spectate.id, table: table({ you: null, version: 31 }) } });
  assert.equal(controller.state.table.version, 31);
});

test('a spectator whose table is gone when it comes back is sent to the lobby, told so', () => {
  const { controller, send } = seated({ you: null });
  const [spectate] = sent(send({ type: 'message', message: { type: 'welcome', resumed: false } }));
  const fx = send({ type: 'message', message: { type: 'error', replyTo: spectate.id, code: 'unknownTable', message: 'There is no such table.' } });
  assert.equal(controller.state.table, null);
  assert.deepEqual(fx.find((e) => e.type === 'view'), { type: 'view', view: 'lobby' });
  assert.deepEqual(toasts(fx), ['The connection was lost, and the game you watched has ended.']);
});

test('a spectator whose table moved to another node follows the redirect and watches it there', () => {
  const { controller, send } = seated({ you: null });
  const [spectate] = sent(send({ type: 'message', message: { type: 'welcome', resumed: false } }));
  const redirect = { type: 'redirect', replyTo: spectate.id, table: 't7', node: 'n2', path: '/ws?table=t7&node=n2', role: 'spectator' };
  assert.deepEqual(send({ type: 'message', message: redirect }), [{ type: 'redirect', redirect }]);
  send({ type: 'hello' }, { connection: 'connecting' });
  const welcome = send({ type: 'message', message: { type: 'welcome', resumed: false } });
  assert.deepEqual(sent(welcome).map((m) => [m.type, m.table ?? m.code]), [['lobby', undefined], ['spectate', 't7']]);
  assert.deepEqual(toasts(welcome), []);
  assert.equal(controller.state.table.id, 't7');
});

test('a resumed spectator session that is no longer watching (a restart) watches the table again', () => {
  const { controller, send } = seated({ you: null });
  send({ type: 'message', message: { type: 'welcome', resumed: true } });
  const [resync] = sent(send({ type: 'timer', name: 'resume' }));
  assert.equal(resync.type, 'resync');
  const fx = send({ type: 'message', message: { type: 'error', replyTo: resync.id, code: 'notAtTable', message: 'You are not at a table.' } });
  const [spectate] = sent(fx);
  assert.deepEqual(spectate, { type: 'spectate', id: spectate.id, code: 'ABCD234XYZ' });
  assert.ok(!types(fx).includes('view'));
  assert.equal(controller.state.table.id, 't7');
});

test('a player whose resumed session is not at its table any more goes back to the lobby', () => {
  const { controller, send } = seated();
  send({ type: 'message', message: { type: 'welcome', resumed: true } });
  const [resync] = sent(send({ type: 'timer', name: 'resume' }));
  send({ type: 'message', message: { type: 'error', replyTo: resync.id, code: 'notAtTable', message: 'You are not at a table.' } });
  assert.equal(controller.state.table, null);
});
