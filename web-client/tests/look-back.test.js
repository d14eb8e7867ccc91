import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dailyCompareLines, lookBackView, readDailyCompare, readLookBack, secondsText } from '../js/look-back.js';

// PROTOCOL.md's example.
const EXAMPLE = {
  boardSeen: true,
  found: [
    { seat: 0, cards: [3, 17, 40], at: 6.2, seconds: 6.2 },
    { seat: 1, cards: [8, 21, 52], at: 9.0, seconds: 2.8 },
  ],
  missed: [{ cards: [3, 22, 59], from: 0.0, until: 6.2, seconds: 6.2 }],
  players: [
    { seat: 0, found: 1, fastest: 6.2, mean: 6.2 },
    { seat: 1, found: 1, fastest: 2.8, mean: 2.8 },
  ],
};

test('a look back is read and checked; what cannot be read is none', () => {
  assert.deepEqual(readLookBack(EXAMPLE), { ...EXAMPLE, daily: null });
  for (const bad of [null, undefined, 3, [], {}, { found: [], missed: [] }, { found: 'x', missed: [], players: [] }]) {
    assert.equal(readLookBack(bad), null, JSON.stringify(bad));
  }
  const messy = readLookBack({ boardSeen: 'yes', found: [{ seat: 0, cards: [1, 'x'], at: -1 }, null, { cards: [] }], missed: [null], players: [{ seat: 'a' }] });
  assert.deepEqual(messy, { boardSeen: false, found: [{ seat: 0, cards: [1], at: 0, seconds: 0 }], missed: [], players: [], daily: null });
});

test('the look back as shown: each player, each set with its time, the sets passed over', () => {
  const names = new Map([[0, 'Ada'], [1, 'Bob']]);
  const view = lookBackView(readLookBack(EXAMPLE), { game: 'set', names, you: 1 });
  assert.deepEqual(view.players, [
    { seat: 0, name: 'Ada', found: '1 set', fastest: '6.2 s', mean: '6.2 s', you: false },
    { seat: 1, name: 'Bob', found: '1 set', fastest: '2.8 s', mean: '2.8 s', you: true },
  ]);
  assert.deepEqual(view.found, [
    { n: 1, name: 'Ada', at: '0:06', seconds: '6.2 s', you: false },
    { n: 2, name: 'Bob', at: '0:09', seconds: '2.8 s', you: true },
  ]);
  assert.equal(view.missedText, '1 set was on the board and left untaken — the longest for 6.2 s.');
  assert.deepEqual(view.missed, [{ cards: [3, 22, 59], from: '0:00', seconds: '6.2 s' }]);
  assert.match(view.note, /on the board/);
});

test('many sets passed over: counted, the longest first, a few listed; none: said', () => {
  const missed = [1, 9, 4, 7, 2, 8].map((s, i) => ({ cards: [i], from: i, until: i + s, seconds: s }));
  const view = lookBackView(readLookBack({ ...EXAMPLE, missed }), { game: 'set', missedShown: 3 });
  assert.equal(view.missedText, '6 sets were on the board and left untaken — the longest for 9.0 s.');
  assert.deepEqual(view.missed.map((m) => m.seconds), ['9.0 s', '8.0 s', '7.0 s']);
  assert.equal(lookBackView(readLookBack({ ...EXAMPLE, missed: [] }), { game: 'set' }).missedText, 'No set was passed over.');
  // A seat without a name is named by its number; a player with no match shows dashes.
  const unnamed = lookBackView(readLookBack({ ...EXAMPLE, players: [{ seat: 2, found: 0, fastest: null, mean: null }] }), { game: 'set' });
  assert.deepEqual(unnamed.players, [{ seat: 2, name: 'Seat 3', found: '0 sets', fastest: '–', mean: '–', you: false }]);
});

test('a face-down game: times from the match before, nothing passed over', () => {
  const view = lookBackView(readLookBack({ ...EXAMPLE, boardSeen: false, missed: [] }), { game: 'concentration' });
  assert.equal(view.missedText, '');
  assert.match(view.note, /after the one before/);
  assert.equal(view.players[0].found, '1 pair');
  assert.equal(lookBackView(null, { game: 'set' }), null);
  assert.equal(secondsText(null), '–');
});

// PROTOCOL.md's example of a daily puzzle's comparison with the day.
const COMPARE = {
  day: '2026-11-27', place: 2, total: 5, quickerThan: 75, fewerMistakesThan: 50, moreMatchesThan: 50, fasterPaceThan: 75,
  pace: 11.1, median: { seconds: 360, mistakes: 1, matches: 27, pace: 15 },
};

test('a daily puzzle compared with the day: read and checked, in the look back or on its own', () => {
  assert.deepEqual(readDailyCompare(COMPARE), COMPARE);
  assert.deepEqual(readLookBack({ ...EXAMPLE, daily: COMPARE }).daily, COMPARE);
  for (const bad of [null, 3, [], {}, { day: 5, place: 1, total: 1 }, { day: 'x', place: '1', total: 1 }]) {
    assert.equal(readDailyCompare(bad), null, JSON.stringify(bad));
  }
  // A share out of range is none; a median missing is none.
  const messy = readDailyCompare({ day: 'd', place: 1, total: 2, quickerThan: 140, median: null });
  assert.equal(messy.quickerThan, null);
  assert.deepEqual(messy.median, { seconds: null, mistakes: null, matches: null, pace: null });
});

test('the comparison in words: place, shares of the others beaten, pace against the median', () => {
  assert.deepEqual(dailyCompareLines(readDailyCompare(COMPARE), 'set'), [
    'Daily puzzle, 2026-11-27: 2nd of 5.',
    'Quicker than 75% of the others, fewer mistakes than 50%, more sets than 50%.',
    "11.1 s a set (faster than 75%); the day's median: 15.0 s a set, 6:00 in all, 1 mistake.",
  ]);
  const alone = readDailyCompare({ day: '2026-11-27', place: 1, total: 1, quickerThan: null, pace: 12 });
  assert.deepEqual(dailyCompareLines(alone, 'setJunior'), [
    'Daily puzzle, 2026-11-27: 1st of 1.',
    'Nobody else has finished it yet: come back later to see how you compare.',
  ]);
  assert.deepEqual(dailyCompareLines(null, 'set'), []);
  // The look back shows the comparison it carries (a replay), or the one given (game over).
  const names = new Map([[0, 'Ada']]);
  assert.equal(lookBackView(readLookBack({ ...EXAMPLE, daily: COMPARE }), { game: 'set', names }).daily.length, 3);
  assert.equal(lookBackView(readLookBack(EXAMPLE), { game: 'set', daily: alone }).daily.length, 2);
  assert.deepEqual(lookBackView(readLookBack(EXAMPLE), { game: 'set' }).daily, []);
});
