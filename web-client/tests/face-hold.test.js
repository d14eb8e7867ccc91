import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOLD_MS, holdFaces, shownBoard } from '../js/face-hold.js';

const NOW = 1_000_000;
const up = (id, emoji) => ({ id, faceUp: true, emoji });
const down = (id) => ({ id, faceUp: false });

function table(board, game = 'concentration') {
  return { game, board };
}

test('a hide keeps the faces it turns down for HOLD_MS, from the board or a flip of the same diff', () => {
  const before = table([up(0, '🦊'), down(1), down(2)]);
  const events = [{ kind: 'flip', seat: 0, card: up(1, '🐻') }, { kind: 'mismatch', seat: 0, cards: [0, 1] }, { kind: 'hide', cards: [0, 1] }];
  const held = holdFaces(new Map(), before, events, NOW);
  assert.deepEqual([...held.keys()], [0, 1]);
  assert.deepEqual(held.get(1), { card: up(1, '🐻'), until: NOW + HOLD_MS });
  const after = [down(0), down(1), down(2)];
  assert.deepEqual(shownBoard(after, held, NOW + HOLD_MS - 1), [up(0, '🦊'), up(1, '🐻'), down(2)]);
  assert.deepEqual(shownBoard(after, held, NOW + HOLD_MS), after, 'not after the moment');
});

test('nothing is held in other games, for cards never seen, or without a hide', () => {
  const none = new Map();
  assert.equal(holdFaces(none, table([up(0, '🦊')], 'matchismo'), [{ kind: 'hide', cards: [0] }], NOW), none);
  assert.equal(holdFaces(none, table([down(0)]), [{ kind: 'hide', cards: [0] }], NOW), none);
  assert.equal(holdFaces(none, table([up(0, '🦊')]), [{ kind: 'match', seat: 0, cards: [0] }], NOW), none);
  assert.equal(holdFaces(none, null, [], NOW), none);
});

test('the held map given is never changed; a face turned up again is shown as the server has it', () => {
  const first = holdFaces(new Map(), table([up(0, '🦊')]), [{ kind: 'hide', cards: [0] }], NOW);
  const second = holdFaces(first, table([up(3, '🐸')]), [{ kind: 'hide', cards: [3] }], NOW + 10);
  assert.deepEqual([...first.keys()], [0]);
  assert.deepEqual([...second.keys()], [0, 3]);
  assert.deepEqual(shownBoard([up(0, '🦊')], second, NOW), [up(0, '🦊')]);
  const board = [down(5)];
  assert.equal(shownBoard(board, new Map(), NOW), board);
});
