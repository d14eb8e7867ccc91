import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diff, seated, sent } from './controller-fixtures.js';

// A daily puzzle's end (issue 21): the client asks for the day's board and shows, in the
// game-over look back, how the player did against everyone that day.
const COMPARE = {
  day: '2026-11-27', place: 2, total: 5, quickerThan: 75, fewerMistakesThan: 50, moreMatchesThan: 50, fasterPaceThan: 75,
  pace: 11.1, median: { seconds: 360, mistakes: 1, matches: 27, pace: 15 },
};
const OVER = [{ kind: 'over', standings: [{ seat: 1, name: 'Ada', score: 27, matches: 27, rank: 1 }] }];

test('a daily puzzle that ends asks for the day and keeps its comparison for the look back', () => {
  const { controller, send } = seated({ daily: '2026-11-27', seats: 1 });
  assert.equal(controller.state.table.daily, '2026-11-27');
  const fx = send(diff(21, OVER));
  const [asked] = sent(fx).filter((m) => m.type === 'daily');
  assert.deepEqual({ ...asked, id: 0 }, { type: 'daily', id: 0, game: 'set', day: 'today' });
  // The Daily tab's own question is left alone.
  assert.equal(controller.requests.count('daily'), 0);
  const answered = send({ type: 'message', message: { type: 'daily', replyTo: asked.id, game: 'set', day: '2026-11-27', results: [], compare: COMPARE } });
  assert.deepEqual(controller.state.table.dailyCompare, COMPARE);
  assert.ok(answered.some((e) => e.type === 'render'));
  assert.equal(controller.daily.answer, null, "not the Daily tab's board");
});

test('no question for a game that is not a daily puzzle, nor twice, nor for another day', () => {
  const plain = seated();
  assert.equal(sent(plain.send(diff(21, OVER))).filter((m) => m.type === 'daily').length, 0);
  const { controller, send } = seated({ daily: '2026-11-27', seats: 1 });
  const [asked] = sent(send(diff(21, OVER))).filter((m) => m.type === 'daily');
  // Another day's comparison (the day turned meanwhile) is not this game's.
  send({ type: 'message', message: { type: 'daily', replyTo: asked.id, game: 'set', day: '2026-11-28', results: [], compare: { ...COMPARE, day: '2026-11-28' } } });
  assert.equal(controller.state.table.dailyCompare, null);
  // A snapshot of the finished game asks nothing more.
  assert.equal(sent(send(diff(22, [{ kind: 'lookBack', lookBack: { found: [], missed: [], players: [] } }]))).filter((m) => m.type === 'daily').length, 0);
});
