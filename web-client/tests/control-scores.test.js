// The controller's high scores tab.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { types, sent, table, inLobby, scoresAnswer } from './controller-fixtures.js';

// ---- High scores ---------------------------------------------------------------------------------

test('the high scores tab asks for the picked game\'s newest games, a page at a time', () => {
  const { controller, send } = inLobby();
  const fx = send({ type: 'lobbyTab', tab: 'scores' });
  // The player's rating at that game too ("Your rating").
  assert.deepEqual(sent(fx), [
    { type: 'scores', id: 2, game: 'concentration', sort: 'date', order: 'desc', page: 0, pageSize: 3, mine: false },
    { type: 'ratings', id: 3, game: 'concentration' },
  ]);
  assert.deepEqual(types(fx), ['send', 'renderScores', 'send', 'renderScores']);
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
  assert.deepEqual(sent(fx), [{ type: 'scores', id: 4, game: 'concentration', sort: 'score', order: 'desc', page: 0, pageSize: 3, mine: false }], 'the rating is not asked again');
  fx = send({ type: 'scoresSort', sort: 'score' });
  assert.equal(sent(fx)[0].order, 'asc', 'the active sort flips');
  // The answer to the first sort comes late: it is not shown.
  assert.deepEqual(send(scoresAnswer(4, { games: [] })), []);
  assert.equal(controller.scores.answer.games.length, 2);
  send(scoresAnswer(5, { sort: 'score', order: 'asc' }));
  fx = send({ type: 'scoresPage', by: 1 });
  assert.deepEqual([sent(fx)[0].page, sent(fx)[0].sort, sent(fx)[0].order], [1, 'score', 'asc']);
  send(scoresAnswer(6, { page: 1 }));
  assert.deepEqual(sent(send({ type: 'scoresPage', by: 1 })), [], '5 games fill only two pages of 3');
  assert.equal(sent(send({ type: 'scoresPage', by: -1 }))[0].page, 0);
  fx = send({ type: 'scoresMine', mine: true });
  assert.deepEqual([sent(fx)[0].mine, sent(fx)[0].page], [true, 0]);
  fx = send({ type: 'pickGame' }, { game: 'set' });
  assert.deepEqual([sent(fx)[0].game, sent(fx)[0].mine, sent(fx)[0].sort], ['set', true, 'score']);
  assert.deepEqual(sent(fx)[1], { type: 'ratings', id: sent(fx)[0].id + 1, game: 'set' }, 'and the rating at that game');
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
  send({ type: 'message', message: { type: 'error', replyTo: 4, code: 'badField', message: 'pageSize must be 1–50' } });
  assert.deepEqual([controller.scores.status, controller.scores.error], ['error', 'pageSize must be 1–50']);
  // An error for something else is not the tab's.
  assert.equal(controller.requests.idOf('scores'), null);
});

test('offline, the tab waits and asks once welcomed; leaving a table asks again', () => {
  const { controller, send } = inLobby();
  const fx = send({ type: 'lobbyTab', tab: 'scores' }, { connection: 'reconnecting' });
  assert.deepEqual(types(fx), ['renderScores', 'renderScores']);
  assert.equal(controller.scores.status, 'loading');
  const welcome = send({ type: 'message', message: { type: 'welcome', resumed: false } });
  assert.deepEqual(sent(welcome).map((m) => m.type), ['lobby', 'scores', 'ratings']);
  // A finished game just played shows when the player comes back from the table.
  send({ type: 'message', message: { type: 'snapshot', table: table() } });
  const back = send({ type: 'message', message: { type: 'left' } });
  assert.deepEqual(sent(back).map((m) => m.type), ['lobby', 'scores', 'ratings'], 'a game just played may have changed the rating');
});

test('high-score lists: the server\'s choice is kept for the next page, another list asks again, a table left shows the latest', () => {
  const { controller, send } = inLobby();
  send({ type: 'lobbyTab', tab: 'scores' });
  const lists = [
    { id: 'solo.custom.8x2', kind: 'solo', scoring: 'custom', cards: 8, matchSize: 2, total: 5 },
    { id: 'solo.custom.16x2', kind: 'solo', scoring: 'custom', cards: 16, matchSize: 2, total: 2 },
  ];
  send(scoresAnswer(2, { list: 'solo.custom.8x2', lists }));
  assert.equal(controller.scores.query.list, 'solo.custom.8x2');
  let fx = send({ type: 'scoresPage', by: 1 });
  assert.deepEqual([sent(fx)[0].list, sent(fx)[0].page], ['solo.custom.8x2', 1], 'the next page of the same list');
  send(scoresAnswer(3, { page: 1, list: 'solo.custom.8x2', lists }));
  fx = send({ type: 'scoresList', list: 'solo.custom.16x2' });
  assert.deepEqual([sent(fx)[0].list, sent(fx)[0].page], ['solo.custom.16x2', 0]);
  assert.deepEqual(send({ type: 'scoresList', list: 'solo.custom.16x2' }), [], 'the same list again asks nothing');
  assert.deepEqual(send({ type: 'scoresList', list: '<script>' }), [], 'not a list: nothing');
  send(scoresAnswer(4, { list: 'solo.custom.16x2', lists, total: 2 }));
  // Back from a table: the latest game's list (likely the one just played).
  send({ type: 'message', message: { type: 'snapshot', table: table() } });
  const back = send({ type: 'message', message: { type: 'left' } });
  const asked = sent(back).find((m) => m.type === 'scores');
  assert.equal(Object.hasOwn(asked, 'list'), false);
  assert.equal(controller.scores.query.list, null);
});

test('the Daily tab asks for the picked game\'s board, today\'s then yesterday\'s; the daily button plays it', () => {
  const { controller, send } = inLobby();
  let fx = send({ type: 'lobbyTab', tab: 'daily' });
  assert.deepEqual(sent(fx), [{ type: 'daily', id: 2, game: 'concentration', day: 'today' }]);
  assert.deepEqual([controller.daily.open, controller.scores.open, controller.daily.status], [true, false, 'loading']);
  send({ type: 'message', message: { type: 'daily', replyTo: 2, game: 'concentration', day: '2026-11-27', total: 0, results: [], you: null } });
  assert.equal(controller.daily.status, 'ready');
  fx = send({ type: 'dailyDay', yesterday: true });
  assert.equal(sent(fx)[0].day, 'yesterday');
  assert.deepEqual(send({ type: 'dailyDay', yesterday: true }), [], 'the same day again asks nothing');
  // Another game picked: its board.
  assert.equal(sent(send({ type: 'pickGame' }, { game: 'set' })).find((m) => m.type === 'daily').game, 'set');
  // A refusal is said in the tab.
  send({ type: 'message', message: { type: 'error', replyTo: controller.requests.idOf('daily'), code: 'unavailable', message: 'No records.' } });
  assert.deepEqual([controller.daily.status, controller.daily.error], ['error', 'No records.']);
  // The high scores tab closes the Daily tab.
  send({ type: 'lobbyTab', tab: 'scores' });
  assert.deepEqual([controller.daily.open, controller.scores.open], [false, true]);
  // The daily button.
  fx = send({ type: 'intent', intent: { kind: 'playDaily', game: 'set' } });
  assert.deepEqual(sent(fx).at(-1), { type: 'playDaily', id: sent(fx).at(-1).id, game: 'set' });
});
