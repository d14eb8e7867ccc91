// The controller's replays of finished games.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { types, sent, table, seated, inLobby, scoresAnswer, recordAnswer } from './controller-fixtures.js';

test('Replay asks for the record, shows it loading, then step by step', () => {
  const { controller, send } = inLobby();
  send({ type: 'lobbyTab', tab: 'scores' });
  send(scoresAnswer(2));
  let fx = send({ type: 'openReplay', record: 'g4' });
  assert.deepEqual(sent(fx), [{ type: 'record', id: 4, record: 'g4' }]);
  assert.deepEqual(types(fx), ['hash', 'view', 'send', 'renderReplay']);
  assert.deepEqual(fx[0], { type: 'hash', hash: '#/replay/g4' });
  assert.deepEqual(fx[1], { type: 'view', view: 'replay' });
  assert.equal(controller.replay.status, 'loading');
  assert.deepEqual(send({ type: 'replayStep', how: 'next' }), [], 'nothing to step through yet');
  fx = send(recordAnswer(4));
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
  send(recordAnswer(4));
  // The replayed game is Set while the lobby shows Concentration: the lobby switches to Set.
  const fx = send({ type: 'closeReplay' });
  assert.deepEqual(types(fx), ['hash', 'view', 'lobbyGame', 'send', 'renderScores', 'send', 'renderScores', 'focusRow']);
  assert.deepEqual(fx[2], { type: 'lobbyGame', game: 'set' });
  assert.deepEqual(sent(fx).map((m) => [m.type, m.game]), [['scores', 'set'], ['ratings', 'set']]);
  assert.deepEqual(fx.at(-1), { type: 'focusRow', record: 'g4' });
  assert.equal(controller.replay, null);
  assert.equal(controller.scores.open, true);
});

test('back from a replay of the game shown, the list already there is not asked for again', () => {
  const { send } = inLobby({ game: 'set' });
  send({ type: 'lobbyTab', tab: 'scores' });
  send(scoresAnswer(2, { game: 'set' }));
  send({ type: 'openReplay', record: 'g4' });
  send(recordAnswer(4));
  // Nor the rating at that game, already asked for.
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
