// The controller's arenas (docs/PROTOCOL.md, "Arenas"): the Arenas tab's list, creating and joining, the
// arena kept and its dialog, standings live, a new game of the arena (its snapshot switches the
// table), the arena bar's table (no re-deal), leaving, the featured game followed, and refusals.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NOW, diff, inLobby, seated, sent, setUp, table, toasts, types } from './controller-fixtures.js';
import { ARENAS_REFRESH_MS, arenaBar } from '../js/arenas.js';

const msg = (message) => ({ type: 'message', message });
const SUMMARY = {
  id: 'a1', name: 'Set arena 12:00', game: 'set', phase: 'running', starts: 1795003200, ends: 1795003800,
  startsIn: -122.5, endsIn: 477.5, seats: 2, players: 14, private: false, leader: 'Ann', winner: null, joined: false,
};
const ROWS = [
  { rank: 1, name: 'Ann', points: 6, played: 3, won: 3, onFire: true, left: false, playing: true },
  { rank: 2, name: 'Ada', points: 4, played: 3, won: 2, onFire: false, left: false, playing: true, you: true },
];
const arena = (replyTo, joined = true, extra = {}) => msg({
  type: 'arena', replyTo, joined,
  arena: { ...SUMMARY, joined, sprint: { sets: 5, seconds: 180 }, standings: ROWS, games: [{ table: 't3', players: ['Ann', 'Bo'] }], featured: 't3', ...extra },
});
const ARENA_TABLE = { arena: { id: 'a1', name: 'Set arena 12:00', sets: 5, endsIn: 161 } };
const dialogs = (fx) => fx.filter((e) => e.type === 'arenaDialog').map((e) => e.open);
const lastId = (controller, kind) => controller.requests.idOf(kind);

test('the Arenas tab asks for the list, again every 15 s while it shows in the lobby, and not after', () => {
  const { controller, send } = inLobby();
  let fx = send({ type: 'lobbyTab', tab: 'arenas' });
  assert.deepEqual(sent(fx).map((m) => m.type), ['arenas']);
  assert.ok(fx.some((e) => e.type === 'timer' && e.name === 'arenas' && e.ms === ARENAS_REFRESH_MS));
  assert.ok(types(fx).includes('renderScores'), 'the tabs are drawn');
  assert.equal(controller.arenas.open, true);
  assert.equal(controller.arenas.status, 'loading');
  const first = lastId(controller, 'arenas');
  // Its timer asks again; the first answer is then an older question's, and ignored.
  fx = send({ type: 'timer', name: 'arenas' });
  assert.deepEqual(sent(fx), [{ type: 'arenas', id: lastId(controller, 'arenas') }]);
  assert.deepEqual(send(msg({ type: 'arenas', replyTo: first, arenas: [SUMMARY] })), []);
  fx = send(msg({ type: 'arenas', replyTo: lastId(controller, 'arenas'), arenas: [SUMMARY, { id: 'a2', phase: 'upcoming', startsIn: 60 }] }));
  assert.deepEqual(types(fx), ['renderArenas']);
  assert.deepEqual(controller.arenas.list.map((a) => [a.id, a.endsAt]), [['a1', NOW + 477_500], ['a2', null]]);
  assert.equal(controller.arenas.status, 'ready');
  // Another tab: the timer stops; a timer that fires anyway asks nothing.
  fx = send({ type: 'lobbyTab', tab: 'scores' });
  assert.ok(fx.some((e) => e.type === 'cancelTimer' && e.name === 'arenas'));
  assert.equal(controller.arenas.open, false);
  assert.deepEqual(sent(send({ type: 'timer', name: 'arenas' })), []);
  // Back to the Arenas tab, then at a table: no question until back in the lobby.
  send({ type: 'lobbyTab', tab: 'arenas' });
  send(msg({ type: 'snapshot', table: table() }));
  assert.deepEqual(sent(send({ type: 'timer', name: 'arenas' })), []);
  const back = send(msg({ type: 'left' }));
  assert.ok(sent(back).some((m) => m.type === 'arenas'));
});

test('a server without arenas: said in place of the list, no toast', () => {
  const { controller, send } = inLobby();
  send({ type: 'lobbyTab', tab: 'arenas' });
  const fx = send(msg({ type: 'error', replyTo: lastId(controller, 'arenas'), code: 'unknownType', message: 'Unknown type arenas.' }));
  assert.deepEqual(types(fx), ['renderArenas']);
  assert.deepEqual([controller.arenas.status, controller.arenas.error], ['error', 'This server holds no arenas.']);
  // An unreadable answer is an error too.
  send({ type: 'timer', name: 'arenas' });
  assert.deepEqual(types(send(msg({ type: 'arenas', replyTo: lastId(controller, 'arenas') }))), ['warn', 'renderArenas']);
});

test('creating a private arena: the form checked, the arena shown in its dialog and listed', () => {
  const { controller, send } = inLobby();
  let fx = send({ type: 'createArena', game: 'set', minutes: '90', startsIn: '0' });
  assert.deepEqual(sent(fx), []);
  assert.deepEqual(toasts(fx), ['An arena lasts 1 to 60 minutes.']);
  assert.ok(fx.some((e) => e.type === 'focus' && e.target === 'arena-minutes'));
  assert.equal(controller.arenas.problem, 'An arena lasts 1 to 60 minutes.');
  fx = send({ type: 'createArena', game: 'set', minutes: '10', startsIn: '300' });
  const [create] = sent(fx);
  assert.deepEqual(create, { type: 'createArena', id: create.id, game: 'set', minutes: 10, startsIn: 300 });
  assert.equal(controller.arenas.problem, null);
  fx = send(arena(create.id, true, { id: 'p1', name: 'Ada’s arena', private: true, code: 'K7Q2M9XW4P', phase: 'upcoming', startsIn: 300 }));
  assert.deepEqual(dialogs(fx), [true]);
  assert.ok(types(fx).includes('renderArenas'));
  const shown = controller.arenas.shown;
  assert.deepEqual([shown.id, shown.code, shown.joined, shown.live, shown.startsAt], ['p1', 'K7Q2M9XW4P', true, true, NOW + 300_000]);
  assert.deepEqual(controller.arenas.list.map((a) => a.id), ['p1']);
});

test('joining: by id from the list, by a code typed (cleaned), under the name typed', () => {
  const { controller, send } = inLobby();
  let fx = send({ type: 'joinArena', arena: 'a1' });
  const [join] = sent(fx);
  assert.deepEqual(join, { type: 'joinArena', id: join.id, arena: 'a1' });
  fx = send(arena(join.id, true));
  assert.deepEqual(dialogs(fx), [true]);
  assert.equal(controller.arenas.shown.joined, true);
  fx = send({ type: 'joinArena', raw: ' k7q2-m9xw 4p' });
  assert.deepEqual(sent(fx).map((m) => m.code), ['K7Q2M9XW4P']);
  fx = send({ type: 'joinArena', raw: '!!' });
  assert.deepEqual(sent(fx), []);
  assert.ok(fx.some((e) => e.type === 'focus' && e.target === 'arena-code'));
  // A name edited since the hello: a new session first, then the join.
  fx = send({ type: 'joinArena', arena: 'a2' }, { typed: 'Ada L' });
  assert.deepEqual(types(fx), ['saveName', 'restart']);
  send({ type: 'hello' }, { typed: 'Ada L' });
  fx = send(msg({ type: 'welcome', resumed: false }), { typed: 'Ada L' });
  assert.deepEqual(sent(fx).filter((m) => m.type === 'joinArena').map((m) => m.arena), ['a2']);
  assert.equal(controller.requests.ofKind('arena').at(-1)[1].arena, 'a2');
});

test('refusals are said in words, in the tab and as a toast; already in it shows it', () => {
  const { controller, send } = inLobby();
  let fx = send({ type: 'joinArena', raw: 'K7Q2M9XW4P' });
  fx = send(msg({ type: 'error', replyTo: sent(fx)[0].id, code: 'unknownArena', message: 'There is no such arena.' }));
  assert.deepEqual(toasts(fx), ['No arena has that code.']);
  assert.equal(controller.arenas.problem, 'No arena has that code.');
  fx = send({ type: 'joinArena', raw: 'K7Q2M9XW4P' });
  assert.equal(controller.arenas.problem, null, 'a new try clears it');
  fx = send(msg({ type: 'error', replyTo: sent(fx)[0].id, code: 'tooManyGuesses', message: 'wait' }));
  assert.deepEqual(toasts(fx), ['Too many wrong codes: wait a few seconds, then try again.']);
  fx = send({ type: 'joinArena', arena: 'a1' });
  fx = send(msg({ type: 'error', replyTo: sent(fx)[0].id, code: 'arenaOver' }));
  assert.deepEqual(toasts(fx), ['That arena is over.']);
  fx = send({ type: 'joinArena', arena: 'a1' });
  fx = send(msg({ type: 'error', replyTo: sent(fx)[0].id, code: 'alreadyJoined' }));
  assert.deepEqual(toasts(fx), ['You are already in that arena.']);
  const [watch] = sent(fx);
  assert.deepEqual(watch, { type: 'watchArena', id: watch.id, arena: 'a1' });
  // A createArena out of range is not the table settings' problem.
  fx = send({ type: 'createArena', game: 'set', minutes: '10', startsIn: '0' });
  fx = send(msg({ type: 'error', replyTo: sent(fx)[0].id, code: 'badSettings', message: 'minutes 1–60' }));
  assert.deepEqual(types(fx), ['renderArenas', 'toast']);
});

test('standings come live: the arena kept is updated, its end told; another arena\'s are ignored', () => {
  const { controller, send } = inLobby();
  const [join] = sent(send({ type: 'joinArena', arena: 'a1' }));
  send(arena(join.id));
  assert.deepEqual(send(msg({ type: 'arenaStandings', arena: 'a9', standings: [] })), []);
  let fx = send(msg({ type: 'arenaStandings', arena: 'a1', phase: 'running', players: 15, endsIn: 30, standings: [{ ...ROWS[1], rank: 1, points: 8 }], games: [], featured: null, winner: null }));
  assert.deepEqual(types(fx), ['renderArenas']);
  assert.equal(controller.arenas.shown.standings[0].points, 8);
  assert.equal(controller.arenas.list[0].players, 15);
  fx = send(msg({ type: 'arenaStandings', arena: 'a1', phase: 'finished', endsIn: -1, winner: 'Ada' }));
  assert.deepEqual(toasts(fx), ['Ada wins the arena.']);
});

test('a new game of the arena: its snapshot replaces the finished table; no re-deal there, the next game comes', () => {
  const { controller, send } = seated(ARENA_TABLE);
  const over = [{ kind: 'over', standings: [{ seat: 1, name: 'Ada', score: 5, matches: 5, rank: 1 }] }, { kind: 'phase', phase: 'finished' }];
  send(diff(21, over));
  assert.equal(controller.state.table.over, true);
  // At an arena's table: neither Re-deal nor play again sends anything.
  assert.deepEqual(sent(send({ type: 'askRedeal' })), []);
  assert.deepEqual(sent(send({ type: 'redeal' })), []);
  // The server's refusal in our words.
  assert.deepEqual(toasts(send(msg({ type: 'error', replyTo: 99, code: 'arenaRule', message: 'x' }))), ['The next game comes from the arena.']);
  let fx = send(msg({ type: 'arenaGame', arena: 'a1', table: 't8', featured: false }));
  assert.deepEqual(dialogs(fx), [false]);
  fx = send(msg({ type: 'snapshot', table: table({ id: 't8', code: 'ZZZZ234XYZ', version: 0, phase: 'countdown', countdown: 3, ...ARENA_TABLE }) }));
  assert.equal(controller.state.table.id, 't8');
  assert.equal(controller.state.table.over, false);
  assert.ok(types(fx).includes('tableChanged'));
  assert.ok(fx.some((e) => e.type === 'view' && e.view === 'table'));
});

test('a page at an arena\'s table without its standings asks for them once, and shows no dialog for it', () => {
  const { controller, send } = seated(ARENA_TABLE);
  const [watch] = sent(send(msg({ type: 'snapshot', table: table({ version: 21, ...ARENA_TABLE }) })));
  assert.equal(watch, undefined, 'the first snapshot already asked');
  const asked = controller.requests.ofKind('arena');
  assert.equal(asked.length, 1);
  const [id, entry] = asked[0];
  assert.deepEqual(entry, { kind: 'arena', action: 'refresh', arena: 'a1' });
  const fx = send(arena(id));
  assert.deepEqual(dialogs(fx), []);
  assert.ok(types(fx).includes('render'), 'the arena bar');
  assert.equal(arenaBar(controller.state.table, controller.arenas, NOW).you, 'you: 4 pts, 2nd');
  assert.deepEqual(sent(send(msg({ type: 'snapshot', table: table({ version: 22, ...ARENA_TABLE }) }))), []);
  // Its Standings button: the arena kept, shown at once.
  assert.deepEqual(send({ type: 'showArena', arena: 'a1' }).map((e) => e.type), ['renderArenas', 'arenaDialog']);
});

test('leaving the arena at its table leaves the table too; `left` brings the lobby back', () => {
  const { controller, send } = seated(ARENA_TABLE);
  const fx = send({ type: 'leaveArena', arena: 'a1' });
  assert.deepEqual(sent(fx).map((m) => m.type), ['leaveArena', 'leave']);
  assert.equal(sent(fx)[0].arena, 'a1');
  send(arena(sent(fx)[0].id, false));
  assert.equal(controller.arenas.shown.joined, false);
  const back = send(msg({ type: 'left' }));
  assert.ok(back.some((e) => e.type === 'view' && e.view === 'lobby'));
  // From the lobby: the arena only.
  const lobby = inLobby();
  assert.deepEqual(sent(lobby.send({ type: 'leaveArena', arena: 'a1' })).map((m) => m.type), ['leaveArena']);
});

test('watching the featured game: followed from table to table, until the spectator leaves', () => {
  const { controller, send } = inLobby();
  const [watch] = sent(send({ type: 'watchFeatured', arena: 'a1' }));
  assert.deepEqual(watch, { type: 'watchFeatured', id: watch.id, arena: 'a1' });
  send(msg({ type: 'arenaGame', replyTo: watch.id, arena: 'a1', table: 't3', featured: true }));
  assert.deepEqual(controller.arenas.follow, { arena: 'a1', table: 't3' });
  assert.equal(controller.requests.count('featured'), 0);
  const spectator = (id) => table({ id, you: undefined, ...ARENA_TABLE });
  send(msg({ type: 'snapshot', table: spectator('t3') }));
  assert.equal(arenaBar(controller.state.table, controller.arenas, NOW).main, 'Featured game of Set arena 12:00 — follows the leader · 2:41 left');
  assert.deepEqual(controller.requests.ofKind('arena'), [], 'a spectator asks for no standings by itself');
  send(msg({ type: 'arenaGame', arena: 'a1', table: 't9', featured: true }));
  send(msg({ type: 'snapshot', table: spectator('t9') }));
  assert.equal(controller.state.table.id, 't9');
  assert.equal(arenaBar(controller.state.table, controller.arenas, NOW).following, true);
  send(msg({ type: 'left' }));
  assert.equal(controller.arenas.follow, null);
});

test('watchFeatured refused: said, and no resync of a table for it', () => {
  const { send } = seated();
  const [watch] = sent(send({ type: 'watchFeatured', arena: 'a1' }));
  const fx = send(msg({ type: 'error', replyTo: watch.id, code: 'notPlaying', message: 'No game of the arena is being played now.' }));
  assert.deepEqual(toasts(fx), ['No game of the arena is being played now.']);
  assert.deepEqual(sent(fx), []);
});

test('watching an arena\'s standings; offline, nothing is sent', () => {
  const { controller, send } = inLobby();
  const [watch] = sent(send({ type: 'watchArena', arena: 'a1' }));
  assert.deepEqual(watch, { type: 'watchArena', id: watch.id, arena: 'a1' });
  const fx = send(arena(watch.id, false));
  assert.deepEqual(dialogs(fx), [true]);
  assert.equal(controller.arenas.shown.live, true);
  const offline = setUp({ connection: 'reconnecting' });
  const none = offline.send({ type: 'watchArena', arena: 'a1' });
  assert.deepEqual(sent(none), []);
  assert.deepEqual(offline.controller.requests.ofKind('arena'), []);
});

test('a session resumed on a new connection is in its arena again, quietly; a new session is not', () => {
  const { send } = inLobby();
  const [join] = sent(send({ type: 'joinArena', arena: 'a1' }));
  send(arena(join.id, true));
  send({ type: 'hello' });
  let fx = send(msg({ type: 'welcome', resumed: true }));
  const again = sent(fx).filter((m) => m.type === 'joinArena');
  assert.deepEqual(again, [{ type: 'joinArena', id: again[0].id, arena: 'a1' }]);
  // Its answer refreshes the arena kept: no dialog opens.
  assert.deepEqual(dialogs(send(arena(again[0].id, true))), []);
  send({ type: 'hello' });
  fx = send(msg({ type: 'welcome', resumed: false }));
  assert.deepEqual(sent(fx).filter((m) => m.type === 'joinArena'), []);
});
