import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SOUNDS, soundForError, soundForEvents } from '../js/sounds.js';

test('my match is "found", my mismatch is "mismatch"', () => {
  assert.equal(soundForEvents([{ kind: 'select', seat: 0, card: 5 }, { kind: 'match', seat: 0, cards: [1, 2, 5] }], 0, [1, 2]), 'found');
  assert.equal(soundForEvents([{ kind: 'mismatch', seat: 0, cards: [1, 2, 5] }, { kind: 'deselect', seat: 0, card: 1 }], 0), 'mismatch');
  assert.equal(soundForEvents([{ kind: 'select', seat: 0, card: 5 }], 0, []), null);
});

test('someone else matching a card I had chosen is a lost race; other matches are silent', () => {
  assert.equal(soundForEvents([{ kind: 'match', seat: 1, cards: [1, 7, 9] }], 0, [7]), 'lost');
  assert.equal(soundForEvents([{ kind: 'match', seat: 1, cards: [1, 7, 9] }], 0, [4]), null);
  assert.equal(soundForEvents([{ kind: 'mismatch', seat: 1, cards: [1, 7, 9] }], 0, [7]), null);
  assert.equal(soundForError('cardNotOnTable'), 'lost');
  assert.equal(soundForError('badField'), null);
});

test('the end of the game wins over everything, and spectators hear only that', () => {
  const events = [{ kind: 'match', seat: 0, cards: [1, 2, 3] }, { kind: 'over', standings: [] }];
  assert.equal(soundForEvents(events, 0), 'gameOver');
  assert.equal(soundForEvents(events, null), 'gameOver');
  assert.equal(soundForEvents([{ kind: 'match', seat: 0, cards: [1, 2, 3] }], null), null);
});

test('junk is ignored', () => {
  assert.equal(soundForEvents(null, 0), null);
  assert.equal(soundForEvents([null, 3, { kind: 'match' }], 0), null);
});

test('every sound is short and quiet', () => {
  for (const [name, notes] of Object.entries(SOUNDS)) {
    const end = Math.max(...notes.map((n) => n.start + n.duration));
    assert.ok(end <= 1, `${name} lasts ${end}s`);
    for (const n of notes) assert.ok(n.gain > 0 && n.gain <= 0.3 && n.freq > 50 && n.freq < 4000, name);
  }
});
