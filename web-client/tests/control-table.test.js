// The controller's table: snapshots, choices and their answers, diffs, refusals at a table,
// leaving, re-dealing, hints, the address, the time played.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PENDING_MS } from '../js/controller.js';
import { FINISHED_TEXT, KEPT_MS, keptAfterMismatch } from '../js/control-table.js';
import { HINT_MS } from '../js/control-hint.js';
import { gameInfo, keptText } from '../js/games.js';
import { cardFromId } from '../js/set-cards.js';
import { NOW, setUp, types, sent, toasts, table, seated, diff } from './controller-fixtures.js';
import { leaveWarning } from '../js/seats.js';

// ---- Snapshots, choices and their answers -------------------------------------------------------

test('a snapshot shows the table and puts its code in the address; a spectator is told', () => {
  const { send } = setUp();
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome' } });
  const fx = send({ type: 'message', message: { type: 'snapshot', table: table() } });
  // The address names the game too, so that an invitation can say which (issue 21).
  assert.deepEqual(fx.find((e) => e.type === 'hash'), { type: 'hash', hash: '#/t/ABCD234XYZ/set' });
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

test('no choice is sent on another seat\'s turn, and the page says whose it is; on mine it is sent (issue 34, point 9)', () => {
  const { send } = seated({ turn: 0 });
  assert.deepEqual(send({ type: 'choose', card: 0 }), [{ type: 'toast', text: "Not your turn: it is Bo's turn." }]);
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
  assert.deepEqual(sent(send(diff(23, [{ kind: 'host', seat: 0 }]))), [{ type: 'resync', id: 2 }]);
});

test('the spectators\' count comes apart from the diffs: no version, no resync', () => {
  const { controller, send } = seated();
  const version = controller.state.table.version;
  const fx = send({ type: 'message', message: { type: 'spectators', table: controller.state.table.id, count: 1204 } });
  assert.deepEqual(sent(fx), []);
  assert.ok(fx.some((e) => e.type === 'render'));
  assert.equal(controller.state.table.spectators, 1204);
  assert.equal(controller.state.table.version, version);
  // Another table's, or a count that is not one: nothing.
  for (const message of [
    { type: 'spectators', table: 'elsewhere', count: 3 },
    { type: 'spectators', table: controller.state.table.id, count: -1 },
    { type: 'spectators', table: controller.state.table.id, count: '7' },
  ]) {
    assert.deepEqual(send({ type: 'message', message }), []);
    assert.equal(controller.state.table.spectators, 1204);
  }
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
  assert.deepEqual(seated().send({ type: 'askLeave' }), [
    { type: 'dialog', name: 'confirm-leave', open: true, text: leaveWarning({ seats: 2 }) },
  ]);
  assert.deepEqual(sent(seated({ phase: 'waiting' }).send({ type: 'askLeave' })), [{ type: 'leave', id: 2 }]);
  assert.deepEqual(sent(seated({ over: true }).send({ type: 'askLeave' })), [{ type: 'leave', id: 2 }]);
});

test('the leave dialog says what leaving does: a solo game ends, an arena game is lost, a seat goes to the next player (issue 34, point 9)', () => {
  assert.match(leaveWarning({ seats: 1 }), /ends: a solo game closes/);
  assert.doesNotMatch(leaveWarning({ seats: 1 }), /next player/);
  assert.match(leaveWarning({ seats: 2, arena: { id: 'a1' } }), /you lose it/);
  assert.match(leaveWarning({ seats: 4 }), /seat goes to the next player who joins/);
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

test('a hint is asked of the server; its match shows one card, then two, and starts again on a new board', () => {
  const { send } = seated({ seats: 1 });
  const texts = gameInfo('set').texts;
  // The client finds no match itself: it asks.
  const asked = send({ type: 'hint' });
  assert.deepEqual(asked, [{ type: 'send', message: { type: 'hint', id: 2 } }]);
  const answer = (replyTo, cards) => send({ type: 'message', message: { type: 'hint', replyTo, cards } });
  const first = answer(2, [0, 1, 2]);
  assert.deepEqual(first[0], { type: 'flash', cards: [0], kind: 'hint', ms: HINT_MS });
  // In words too, and what it costs (issue 21: it outlined a card and said nothing): the game's.
  assert.deepEqual(first[1], { type: 'toast', text: texts.hintOne });
  assert.match(texts.hintOne, /part of a set.*Hints are free/);
  send({ type: 'hint' });
  const second = answer(3, [0, 1, 2]);
  assert.deepEqual(second[0].cards, [0, 1]);
  assert.deepEqual(second[1], { type: 'toast', text: texts.hintTwo });
  send({ type: 'hint' });
  assert.deepEqual(answer(4, [0, 1, 2])[0].cards, [0, 1]);
  // An answer not waited on (asked once, answered twice) shows nothing.
  assert.deepEqual(answer(4, [0, 1, 2]), []);
  // A new board starts again at one card.
  send(diff(21, [{ kind: 'replace', slot: 3, card: cardFromId(80) }]));
  send({ type: 'hint' });
  assert.deepEqual(answer(5, [0, 1, 2])[0].cards, [0]);
  // None on the board: the game's words for it.
  send({ type: 'hint' });
  assert.deepEqual(answer(6, []), [{ type: 'toast', text: 'No set on this board.' }]);
  // Refused (with others, face down…): the server's reason is said.
  send({ type: 'hint' });
  const refused = send({ type: 'message', message: { type: 'error', replyTo: 7, code: 'hintsAlone', message: 'Hints are for a player alone.' } });
  assert.deepEqual(toasts(refused), ['Hints are for a player alone.']);
});

test('Set-Chain: the client refuses no choice itself; the server\'s chainRule says why', () => {
  const chain = [0, 27, 54].map(cardFromId);
  const { send } = seated({ seats: 1, game: 'setChain', chain });
  assert.deepEqual(sent(send({ type: 'choose', card: 0 })), [{ type: 'choose', id: 2, card: 0 }]);
  // A second card of the chain goes to the server, which judges it.
  assert.deepEqual(sent(send({ type: 'choose', card: 27 })), [{ type: 'choose', id: 3, card: 27 }]);
  const refusal = 'A chain set takes one card of the chain: let go of the one you chose to take card 27.';
  const fx = send({ type: 'message', message: { type: 'error', replyTo: 3, code: 'chainRule', message: refusal } });
  assert.deepEqual(toasts(fx), [refusal]);
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

// ---- Issue 21: the course's kept card, a finished game after a reload --------------------------

test('a mismatch that leaves my last card chosen (course scoring) points at it and says why', () => {
  assert.deepEqual(keptAfterMismatch([{ kind: 'mismatch', seat: 1, cards: [0, 1, 4] }], 1, [4]), [4]);
  assert.deepEqual(keptAfterMismatch([{ kind: 'mismatch', seat: 1, cards: [0, 1, 4] }], 1, []), [], 'classic: all let go');
  assert.deepEqual(keptAfterMismatch([{ kind: 'mismatch', seat: 0, cards: [0, 1, 4] }], 1, [4]), [], 'not mine');
  assert.deepEqual(keptAfterMismatch([{ kind: 'mismatch', seat: 1, cards: [0, 1, 4] }], null, [4]), [], 'a spectator');
  const { send } = seated({ seats: 1, players: [{ seat: 1, name: 'Ada', score: 0, matches: 0, selection: [0, 1], connected: true }] });
  const fx = send(diff(21, [
    { kind: 'select', seat: 1, card: 4 },
    { kind: 'mismatch', seat: 1, cards: [0, 1, 4], penalty: 2 },
    { kind: 'deselect', seat: 1, card: 0 },
    { kind: 'deselect', seat: 1, card: 1 },
  ]));
  assert.deepEqual(fx.find((e) => e.type === 'flash' && e.kind === 'kept'), { type: 'flash', cards: [4], kind: 'kept', ms: KEPT_MS });
  const kept = keptText('set', 3);
  assert.ok(toasts(fx).includes(kept), toasts(fx));
  assert.match(kept, /^No set\. Your last card stays chosen.*pick two more/);
  // The classic rule lets go of all three: nothing to point at.
  const classic = seated({ seats: 1, players: [{ seat: 1, name: 'Ada', score: 0, matches: 0, selection: [0, 1], connected: true }] });
  const plain = classic.send(diff(21, [
    { kind: 'select', seat: 1, card: 4 },
    { kind: 'mismatch', seat: 1, cards: [0, 1, 4], penalty: 1 },
    { kind: 'deselect', seat: 1, card: 0 },
    { kind: 'deselect', seat: 1, card: 1 },
    { kind: 'deselect', seat: 1, card: 4 },
  ]));
  assert.equal(plain.find((e) => e.kind === 'kept'), undefined);
  assert.ok(!toasts(plain).includes(kept));
});

test('a page opened again at a game that has ended goes to the lobby and leaves the table (issue 21)', () => {
  const { controller, send } = setUp({ storedTable: 'ABCD234XYZ', hash: '#/t/ABCD234XYZ/set' });
  send({ type: 'hello' });
  send({ type: 'message', message: { type: 'welcome', resumed: true } });
  const fx = send({ type: 'message', message: { type: 'snapshot', table: table({ over: true, phase: 'finished' }) } });
  assert.equal(controller.state.table, null);
  assert.deepEqual(sent(fx), [{ type: 'leave', id: 1 }, { type: 'lobby', id: 2 }]);
  assert.ok(fx.some((e) => e.type === 'view' && e.view === 'lobby'));
  assert.ok(fx.some((e) => e.type === 'hash' && e.hash === null));
  assert.ok(toasts(fx).includes(FINISHED_TEXT));
  // A game still on after a reload, or a game that ends while the page is open, stays.
  const live = setUp({ storedTable: 'ABCD234XYZ' });
  live.send({ type: 'hello' });
  live.send({ type: 'message', message: { type: 'welcome', resumed: true } });
  live.send({ type: 'message', message: { type: 'snapshot', table: table() } });
  assert.equal(live.controller.state.table.id, 't7');
  const over = live.send({ type: 'message', message: { type: 'snapshot', table: table({ over: true, phase: 'finished', version: 30 }) } });
  assert.equal(live.controller.state.table.over, true);
  assert.deepEqual(sent(over), []);
});
