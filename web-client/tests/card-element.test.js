import { test } from 'node:test';
import assert from 'node:assert/strict';
import { colorCue, entryKind, entryLabel, faceKey, isFlip } from '../js/card-element.js';
import { cardFromId } from '../js/set-cards.js';

const down = { id: 3, faceUp: false };
const queen = { id: 3, faceUp: true, rank: 12, suit: '♥' };
const fox = { id: 3, faceUp: true, emoji: '🦊' };
const set = cardFromId(40);

test('every kind of board entry is recognised', () => {
  assert.equal(entryKind(down), 'down');
  assert.equal(entryKind(queen), 'playing');
  assert.equal(entryKind(fox), 'emoji');
  assert.equal(entryKind(set), 'set-card');
  assert.equal(entryKind({ id: 1 }), 'unknown');
  assert.equal(entryKind({ id: 1, faceUp: true, rank: 0, suit: '♥' }), 'unknown');
  assert.equal(entryKind(null), 'unknown');
  // A face-down entry is face down whatever else it carries.
  assert.equal(entryKind({ ...queen, faceUp: false }), 'down');
});

test('labels for every kind, and matched cards say so', () => {
  assert.equal(entryLabel(down), 'face-down card');
  assert.equal(entryLabel(queen), 'queen of hearts');
  assert.equal(entryLabel({ ...queen, matched: true }), 'queen of hearts, matched');
  assert.equal(entryLabel(fox), 'fox');
  assert.equal(entryLabel(set), 'two striped green squiggles');
  assert.equal(entryLabel({ id: 9 }), 'card 9');
});

test('the face key changes exactly when the drawing must', () => {
  assert.notEqual(faceKey(down), faceKey(queen));
  assert.notEqual(faceKey(queen), faceKey({ ...queen, suit: '♠' }));
  assert.notEqual(faceKey(queen), faceKey({ ...queen, matched: true }));
  assert.notEqual(faceKey(fox), faceKey({ ...fox, emoji: '🐙' }));
  assert.equal(faceKey(queen), faceKey({ ...queen }));
  assert.equal(faceKey(down), faceKey({ id: 7, faceUp: false }));
});

test('a flip is a change between face down and face up', () => {
  assert.equal(isFlip(down, queen), true);
  assert.equal(isFlip(queen, down), true);
  assert.equal(isFlip(queen, { ...queen, matched: true }), false);
  assert.equal(isFlip(down, down), false);
});

test('Set cards carry a colour cue letter; others none', () => {
  assert.equal(colorCue(cardFromId(0)), 'R');
  assert.equal(colorCue(set), 'G');
  assert.equal(colorCue(cardFromId(80)), 'P');
  assert.equal(colorCue(queen), null);
  assert.equal(colorCue(down), null);
});
