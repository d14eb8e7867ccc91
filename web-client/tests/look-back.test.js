import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lookBackView, readLookBack, secondsText } from '../js/look-back.js';

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
  assert.deepEqual(readLookBack(EXAMPLE), EXAMPLE);
  for (const bad of [null, undefined, 3, [], {}, { found: [], missed: [] }, { found: 'x', missed: [], players: [] }]) {
    assert.equal(readLookBack(bad), null, JSON.stringify(bad));
  }
  const messy = readLookBack({ boardSeen: 'yes', found: [{ seat: 0, cards: [1, 'x'], at: -1 }, null, { cards: [] }], missed: [null], players: [{ seat: 'a' }] });
  assert.deepEqual(messy, { boardSeen: false, found: [{ seat: 0, cards: [1], at: 0, seconds: 0 }], missed: [], players: [] });
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
