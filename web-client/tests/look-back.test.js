import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dailyCompareLines, lookBackView, readDailyCompare, readLookBack, secondsText } from '../js/look-back.js';
import { cardFromId, describeCard } from '../js/set-cards.js';
import { entryLabel } from '../js/card-element.js';

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
  // Each set with its cards: the full deck's ids, as the board draws them.
  assert.deepEqual(view.found, [
    { n: 1, name: 'Ada', at: '0:06', seconds: '6.2 s', you: false, cards: [3, 17, 40].map(cardFromId) },
    { n: 2, name: 'Bob', at: '0:09', seconds: '2.8 s', you: true, cards: [8, 21, 52].map(cardFromId) },
  ]);
  assert.equal(view.missedText, '1 set was on the board and left untaken — the longest for 6.2 s.');
  assert.equal(view.missedTitle, 'The set left untaken:');
  assert.deepEqual(view.missed, [{ ids: [3, 22, 59], cards: [3, 22, 59].map(cardFromId), from: 'from 0:00', seconds: '6.2 s' }]);
  assert.equal(view.missedRest, '');
  assert.match(view.note, /on the board/);
});

test('many sets passed over: counted, the longest first, a few listed; none: said', () => {
  const missed = [1, 9, 4, 7, 2, 8].map((s, i) => ({ cards: [i], from: i, until: i + s, seconds: s }));
  const view = lookBackView(readLookBack({ ...EXAMPLE, missed }), { game: 'set', missedShown: 3 });
  assert.equal(view.missedText, '6 sets were on the board and left untaken — the longest for 9.0 s.');
  assert.deepEqual(view.missed.map((m) => m.seconds), ['9.0 s', '8.0 s', '7.0 s']);
  assert.deepEqual(view.missed.map((m) => m.ids), [[1], [5], [3]]);
  assert.equal(view.missedTitle, 'Left untaken, the longest first:');
  assert.equal(view.missedRest, 'And 3 more sets, none there longer.');
  const one = lookBackView(readLookBack({ ...EXAMPLE, missed: missed.slice(0, 4) }), { game: 'set', missedShown: 3 });
  assert.equal(one.missedRest, 'And 1 more set, none there longer.');
  // The default: the five that stood longest.
  assert.equal(lookBackView(readLookBack({ ...EXAMPLE, missed }), { game: 'set' }).missed.length, 5);
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

test('each match and each set left untaken is drawn with its cards, named in words, in every game', () => {
  const lookBack = (cards, missed = []) => readLookBack({ boardSeen: missed.length > 0, found: [{ seat: 0, cards, at: 1, seconds: 1 }], missed, players: [] });
  const labels = (view) => view.found[0].cards.map(entryLabel);
  // Set: ids in Set's deck; Set Junior: its own 27 (all solid).
  const set = lookBackView(lookBack([0, 40, 80], [{ cards: [1, 40, 79], from: 0, until: 3, seconds: 3 }]), { game: 'set' });
  assert.deepEqual(labels(set), ['one solid red diamond', 'two striped green squiggles', 'three open purple ovals']);
  assert.deepEqual(set.missed[0].cards.map(describeCard), ['one solid green diamond', 'two striped green squiggles', 'three open green ovals']);
  assert.deepEqual(labels(lookBackView(lookBack([0, 13, 26]), { game: 'setJunior' })), ['one solid red diamond', 'two solid green squiggles', 'three solid purple ovals']);
  // UltraSet's four, Set-Chain's three: Set's cards.
  assert.equal(lookBackView(lookBack([0, 10, 27, 47]), { game: 'ultraSet' }).found[0].cards.length, 4);
  // Matchismo: the playing cards of the full deck; Concentration: the emoji of its themes.
  assert.deepEqual(labels(lookBackView(lookBack([11, 24]), { game: 'matchismo' })), ['queen of spades', 'queen of hearts']);
  assert.deepEqual(labels(lookBackView(lookBack([0, 1]), { game: 'concentration' })), ['fox', 'fox']);
  assert.deepEqual(labels(lookBackView(lookBack([40, 41]), { game: 'concentration' })), ['football', 'football']);
  // A game this page cannot draw, or an id beyond the deck: the words without the cards.
  assert.deepEqual(lookBackView(lookBack([0, 1]), { game: 'poker' }).found[0].cards, []);
  assert.deepEqual(lookBackView(lookBack([0, 81, 2]), { game: 'set' }).found[0].cards, []);
});
