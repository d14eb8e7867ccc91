import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NOW, diff, inLobby, seated, sent } from './controller-fixtures.js';

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

// Issue 34, point 4: the lobby's daily button knows today's attempt is used, without a click.
test('a daily table sat at, an alreadyPlayed refusal, or the Daily tab saying so marks the day played, kept', () => {
  const { controller, send } = seated({ daily: '2026-11-27', seats: 1 });
  assert.deepEqual(controller.dailyPlayed, { set: '2026-11-27' });
  const kept = send(diff(21, OVER));
  assert.equal(kept.filter((e) => e.type === 'saveDailyPlayed').length, 0, 'said once');

  const lobby = inLobby({ game: 'ultraSet' });
  const fx = lobby.send({ type: 'intent', intent: { kind: 'playDaily', game: 'ultraSet' } });
  const [play] = sent(fx);
  assert.equal(play.type, 'playDaily');
  const refused = lobby.send({ type: 'message', message: { type: 'error', replyTo: play.id, code: 'alreadyPlayed', message: 'You have played…' } });
  assert.deepEqual(lobby.controller.dailyPlayed, { ultraSet: new Date(NOW).toISOString().slice(0, 10) });
  assert.deepEqual(refused.find((e) => e.type === 'saveDailyPlayed').played, lobby.controller.dailyPlayed);
  assert.ok(refused.some((e) => e.type === 'renderLobby'));

  const other = inLobby({ game: 'set' });
  const opened = other.send({ type: 'lobbyTab', tab: 'daily' });
  const [asked] = sent(opened).filter((m) => m.type === 'daily');
  assert.ok(asked !== undefined, 'the Daily tab asks for the board');
  other.send({ type: 'message', message: { type: 'daily', replyTo: asked.id, game: 'set', day: '2026-11-29', results: [], you: null, played: true } });
  assert.deepEqual(other.controller.dailyPlayed, { set: '2026-11-29' });
});
