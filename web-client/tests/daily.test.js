import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dailyButton, dailyView, initialDaily, ordinal, readDaily, resultText, shareText, utcDay } from '../js/daily.js';
import * as messages from '../js/messages.js';

// PROTOCOL.md's example.
const ANSWER = {
  type: 'daily', replyTo: 6, game: 'set', day: '2026-11-27', total: 2,
  results: [
    { place: 1, name: 'Bob', matches: 27, mistakes: 0, seconds: 402.5, score: 27 },
    { place: 2, name: 'Ada', matches: 27, mistakes: 2, seconds: 351.0, score: 25, you: true },
  ],
  you: { place: 2, name: 'Ada', matches: 27, mistakes: 2, seconds: 351.0, score: 25, you: true },
};

test('the messages: play today\'s puzzle, ask for today\'s or yesterday\'s board', () => {
  assert.deepEqual(messages.playDaily(5, 'set'), { type: 'playDaily', id: 5, game: 'set' });
  assert.deepEqual(messages.daily(6, 'set'), { type: 'daily', id: 6, game: 'set', day: 'today' });
  assert.equal(messages.daily(7, 'ultraSet', true).day, 'yesterday');
});

test('an answer is read and checked', () => {
  const answer = readDaily(ANSWER);
  assert.equal(answer.total, 2);
  assert.deepEqual(answer.results.map((r) => [r.place, r.name, r.you]), [[1, 'Bob', false], [2, 'Ada', true]]);
  assert.equal(answer.you.place, 2);
  assert.equal(readDaily({ results: [], you: null }).you, null);
  assert.throws(() => readDaily({ type: 'daily' }), TypeError);
  assert.throws(() => readDaily(null), TypeError);
});

test('places and results in words, and the result to share gives no card away', () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal), ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '111th']);
  assert.equal(resultText(readDaily(ANSWER).you, 'set'), '27 sets · 2 mistakes · 5:51');
  assert.equal(shareText(readDaily(ANSWER), 'set'), 'Matchismo Live daily Set, 2026-11-27: 27 sets · 2 mistakes · 5:51 — 2nd of 2.');
  assert.equal(shareText(readDaily({ ...ANSWER, you: null }), 'set'), null);
  assert.doesNotMatch(shareText(readDaily(ANSWER), 'set'), /\d+,\s*\d+,\s*\d+|card/);
});

test('the tab as drawn: rows, my place, share, and nothing of another game or day', () => {
  const answer = { ...readDaily(ANSWER), yesterday: false };
  const view = dailyView({ ...initialDaily(), open: true, status: 'ready', answer }, 'set');
  assert.equal(view.title, 'Set daily puzzle');
  assert.equal(view.day, 'Today, 2026-11-27');
  assert.deepEqual(view.rows, [
    { place: '1.', name: 'Bob', result: '27 sets · 0 mistakes · 6:42', you: false },
    { place: '2.', name: 'Ada', result: '27 sets · 2 mistakes · 5:51', you: true },
  ]);
  assert.equal(view.you, 'You: 2nd of 2 — 27 sets · 2 mistakes · 5:51');
  assert.match(view.share, /^Matchismo Live daily Set/);
  assert.equal(view.empty, null);
  // Yesterday asked for: today's answer is not shown under it.
  const other = dailyView({ ...initialDaily(), open: true, yesterday: true, status: 'loading', answer }, 'set');
  assert.deepEqual([other.rows, other.empty, other.share], [[], 'Loading the daily board…', null]);
  assert.equal(dailyView({ ...initialDaily(), status: 'ready', answer }, 'matchismo').rows.length, 0);
  // Nobody yet; a refusal.
  const none = { ...readDaily({ game: 'set', day: '2026-11-27', results: [], you: null }), yesterday: false };
  assert.match(dailyView({ ...initialDaily(), status: 'ready', answer: none }, 'set').empty, /be the first/);
  assert.equal(dailyView({ ...initialDaily(), status: 'error', answer: null, error: 'No records.' }, 'set').empty, 'No records.');
});

test('the lobby\'s daily button offers the puzzle, or once played leads to the day\'s results', () => {
  assert.deepEqual(dailyButton(false), { text: 'Today’s daily puzzle', played: false });
  assert.match(dailyButton(true).text, /played ✓ · see the results/);
  assert.equal(utcDay(Date.UTC(2026, 10, 29, 23, 59)), '2026-11-29');
});
