// The controller's ratings: `seatRatings` at the table, and "Your rating" in the High scores tab.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { types, sent, seated, inLobby, diff, table } from './controller-fixtures.js';

const seatRatings = (seats, id = 't7') => ({ type: 'message', message: { type: 'seatRatings', table: id, seats } });
const ratingsAnswer = (replyTo, extra = {}) => ({
  type: 'message',
  message: { type: 'ratings', replyTo, game: 'concentration', rating: 1532, games: 1, provisional: true, history: [
    { id: 'g14', endedAt: '2026-11-27T03:22:48Z', rank: 1, rating: 1532, change: 32, games: 1, provisional: true },
  ], ...extra },
});

test('seatRatings for our table is drawn at once; one for another table is ignored', () => {
  const { controller, send } = seated();
  const fx = send(seatRatings([{ seat: 0, rating: 1500, games: 0, provisional: true }, { seat: 1, rating: 1500, games: 0, provisional: true }]));
  assert.deepEqual(types(fx), ['render']);
  assert.deepEqual(controller.state.table.players.map((p) => p.rating.rating), [1500, 1500]);
  const before = controller.state;
  assert.deepEqual(send(seatRatings([{ seat: 0, rating: 1, games: 9, provisional: false }], 't8')), []);
  assert.equal(controller.state, before);
  // Not at a table: nothing.
  const { send: lobby } = inLobby();
  assert.deepEqual(lobby(seatRatings([])), []);
});

test('a rated game\'s end: the new ratings bring each seat\'s change, kept through a resync', () => {
  const { controller, send } = seated({
    players: [
      { seat: 0, name: 'Bo', score: 0, matches: 0, selection: [], rating: { rating: 1500, games: 0, provisional: true } },
      { seat: 1, name: 'Ada', score: 0, matches: 0, selection: [], rating: { rating: 1500, games: 0, provisional: true } },
    ],
  });
  const standings = [{ seat: 1, name: 'Ada', score: 27, matches: 27, rank: 1 }, { seat: 0, name: 'Bo', score: 0, matches: 0, rank: 2 }];
  send(diff(21, [{ kind: 'over', standings }, { kind: 'phase', phase: 'finished' }]));
  send(seatRatings([{ seat: 0, rating: 1468, games: 1, provisional: true }, { seat: 1, rating: 1532, games: 1, provisional: true }]));
  assert.deepEqual(controller.state.table.ratingChanges, { 0: -32, 1: 32 });
  // A resync of the finished game: the snapshot has the new ratings, the changes stay.
  const fx = send({ type: 'message', message: { type: 'snapshot', table: table({ version: 21, over: true, phase: 'finished' }) } });
  assert.ok(types(fx).includes('render'));
  assert.deepEqual(controller.state.table.ratingChanges, { 0: -32, 1: 32 });
});

test('"Your rating" is asked with the high scores, read, and refused in its own place', () => {
  const { controller, send } = inLobby();
  send({ type: 'lobbyTab', tab: 'scores' });
  assert.equal(controller.myRating.status, 'loading');
  assert.deepEqual(controller.requests.ofKind('ratings'), [[3, { kind: 'ratings', game: 'concentration' }]]);
  assert.deepEqual(types(send(ratingsAnswer(3))), ['renderScores']);
  assert.equal(controller.myRating.status, 'ready');
  assert.deepEqual(controller.myRating.answer.rating, { rating: 1532, games: 1, provisional: true });
  assert.deepEqual(controller.myRating.answer.history.map((h) => h.id), ['g14']);
  // An answer nobody waits on any more (an older question's) is ignored.
  assert.deepEqual(send(ratingsAnswer(3, { rating: 1 })), []);
  // Another game: asked for; the same game again: not.
  let fx = send({ type: 'pickGame' }, { game: 'set' });
  assert.deepEqual(sent(fx).filter((m) => m.type === 'ratings'), [{ type: 'ratings', id: 5, game: 'set' }]);
  assert.deepEqual(send({ type: 'pickGame' }, { game: 'set' }), []);
  // A server without records: said in the panel, no toast.
  fx = send({ type: 'message', message: { type: 'error', replyTo: 5, code: 'unavailable', message: 'This server keeps no records.' } });
  assert.deepEqual(types(fx), ['renderScores']);
  assert.deepEqual([controller.myRating.status, controller.myRating.error], ['unavailable', 'This server keeps no records.']);
  // An unreadable answer is an error, and reported.
  send({ type: 'lobbyTab', tab: 'tables' });
  send({ type: 'lobbyTab', tab: 'scores' }, { game: 'set' });
  const id = controller.requests.idOf('ratings');
  assert.deepEqual(types(send({ type: 'message', message: { type: 'ratings', replyTo: id, game: 'set' } })), ['warn', 'renderScores']);
  assert.equal(controller.myRating.status, 'error');
});

test('with the tab closed, nothing is asked; a game just played asks again on the way back', () => {
  const { controller, send } = inLobby();
  assert.deepEqual(sent(send({ type: 'pickGame' }, { game: 'set' })), []);
  assert.equal(controller.requests.idOf('ratings'), null);
  send({ type: 'lobbyTab', tab: 'scores' }, { game: 'set' });
  send(ratingsAnswer(controller.requests.idOf('ratings'), { game: 'set' }));
  send({ type: 'message', message: { type: 'snapshot', table: table() } });
  const back = send({ type: 'message', message: { type: 'left' } });
  assert.deepEqual(sent(back).filter((m) => m.type === 'ratings').map((m) => m.game), ['set']);
});

test('a rated game of "Your rating" opens its replay as a high-score row does', () => {
  const { controller, send } = inLobby();
  send({ type: 'lobbyTab', tab: 'scores' });
  send(ratingsAnswer(3));
  const fx = send({ type: 'openReplay', record: controller.myRating.answer.history[0].id });
  assert.deepEqual(sent(fx), [{ type: 'record', id: 4, record: 'g14' }]);
});
