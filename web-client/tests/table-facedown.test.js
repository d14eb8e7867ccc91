// Face-down games (draft protocol): flip, hide and turn events on a board of slot handles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyDiff, applySnapshot } from '../js/table-state.js';

function matchismo() {
  return applySnapshot({
    id: 't9', game: 'matchismo', version: 1, you: 0, deckCount: 28,
    board: [{ id: 0, faceUp: false }, { id: 1, faceUp: false }, { id: 2, faceUp: true, rank: 1, suit: '♠', matched: true }],
    players: [{ seat: 0, name: 'Ada', score: 0, matches: 0, selection: [], flips: 4 }, { seat: 1, name: 'Bo', flips: 2 }],
    turn: 1,
  });
}
const diff = (version, events) => ({ type: 'diff', table: 't9', version, seat: 0, events });

test('a snapshot keeps face-down entries, flips and whose turn it is', () => {
  const { table } = matchismo();
  assert.deepEqual(table.board[0], { id: 0, faceUp: false });
  assert.equal(table.board[2].matched, true);
  assert.deepEqual(table.players.map((p) => p.flips), [4, 2]);
  assert.equal(table.turn, 1);
  assert.equal(applySnapshot({ id: 'x', version: 0, board: [], players: [] }).table.turn, null);
});

test('flip turns one slot up, hide turns slots back down, leaving the others alone', () => {
  let state = matchismo();
  const queen = { id: 1, faceUp: true, rank: 12, suit: '♥' };
  let result = applyDiff(state, diff(2, [{ kind: 'flip', card: queen }, { kind: 'select', seat: 0, card: 1 }]));
  assert.equal(result.resync, false);
  state = result.state;
  assert.deepEqual(state.table.board[1], queen);
  assert.deepEqual(state.table.board[0], { id: 0, faceUp: false });
  assert.deepEqual(state.table.players[0].selection, [1]);
  result = applyDiff(state, diff(3, [{ kind: 'hide', cards: [1, 0] }, { kind: 'turn', seat: 0 }]));
  assert.deepEqual(result.state.table.board[1], { id: 1, faceUp: false });
  assert.equal(result.state.table.board[2].matched, true);
  assert.equal(result.state.table.turn, 0);
});

test('a flip of a slot that is not there, or a turn of an empty seat, asks for a snapshot', () => {
  assert.equal(applyDiff(matchismo(), diff(2, [{ kind: 'flip', card: { id: 7, faceUp: true, emoji: '🦊' } }])).resync, true);
  assert.equal(applyDiff(matchismo(), diff(2, [{ kind: 'turn', seat: 5 }])).resync, true);
  assert.equal(applyDiff(matchismo(), diff(2, [{ kind: 'hide', cards: 3 }])).resync, true);
});

test('a re-deal clears the flip counts', () => {
  const result = applyDiff(matchismo(), diff(2, [{ kind: 'redeal', board: [{ id: 0, faceUp: false }], deckCount: 0 }]));
  assert.deepEqual(result.state.table.players.map((p) => p.flips), [0, 0]);
});

function hiddenMatchismo(you) {
  return applySnapshot({
    id: 't9', game: 'matchismo', version: 1, you, seats: 3, phase: 'playing', deckCount: 28,
    settings: { boardSize: 3, matchSize: 2, faceDown: true, showSelections: false },
    board: [{ id: 0, faceUp: false }, { id: 1, faceUp: false }, { id: 2, faceUp: false }],
    // A hidden-selection snapshot gives only the viewer's own flips.
    players: [
      { seat: 0, name: 'Ada', score: 0, matches: 0, selection: [], flips: 1 },
      { seat: 1, name: 'Bo', score: 0, matches: 0, selection: [] },
    ],
  });
}

test('hidden selections: only my flips count; a flip without a seat shows a matched card', () => {
  let state = hiddenMatchismo(0);
  const queen = { id: 1, faceUp: true, rank: 12, suit: '♥' };
  let result = applyDiff(state, diff(2, [{ kind: 'flip', seat: 0, card: queen }, { kind: 'select', seat: 0, card: 1 }]));
  state = result.state;
  assert.equal(state.table.players[0].flips, 2);
  // Bo's claim is judged: his cards' faces arrive without a seat, and count as nobody's flip.
  const two = { id: 0, faceUp: true, rank: 2, suit: '♥' };
  const king = { id: 2, faceUp: true, rank: 13, suit: '♥' };
  result = applyDiff(state, {
    type: 'diff', table: 't9', version: 3, seat: 1,
    events: [{ kind: 'flip', card: two }, { kind: 'flip', card: king }, { kind: 'match', seat: 1, cards: [0, 2], points: 4 }],
  });
  assert.equal(result.resync, false);
  state = result.state;
  assert.deepEqual(state.table.board[0], { ...two, matched: true });
  assert.equal(state.table.players[0].flips, 2);
  assert.equal(state.table.players[1].flips, undefined);
  // Someone joining a hidden table keeps their flips to themselves.
  result = applyDiff(state, diff(4, [{ kind: 'join', seat: 2, name: 'Cy' }]));
  assert.equal(result.state.table.players[2].flips, undefined);
});

test('face-down tables count a newcomer’s flips from their first (selections shown)', () => {
  const shown = hiddenMatchismo(0);
  shown.table.settings = { ...shown.table.settings, showSelections: true };
  let result = applyDiff(shown, diff(2, [{ kind: 'join', seat: 2, name: 'Cy' }]));
  assert.equal(result.state.table.players[2].flips, 0);
  const card = { id: 0, faceUp: true, rank: 2, suit: '♣' };
  result = applyDiff(result.state, { type: 'diff', table: 't9', version: 3, seat: 2, events: [{ kind: 'flip', seat: 2, card }] });
  assert.equal(result.state.table.players[2].flips, 1);
});

test('a spectator at a hidden table counts every seat’s flips', () => {
  const state = hiddenMatchismo(null);
  const card = { id: 2, faceUp: true, rank: 5, suit: '♣' };
  const result = applyDiff(state, { type: 'diff', table: 't9', version: 2, seat: 1, events: [{ kind: 'flip', seat: 1, card }] });
  assert.equal(result.state.table.players[1].flips, 1);
});
