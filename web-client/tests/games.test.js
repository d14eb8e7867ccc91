import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GAME_IDS, boardShape, gameInfo, matchesHeading, matchesText } from '../js/games.js';

test('Set grows three at a time from its board size; face-down games never grow', () => {
  assert.deepEqual(boardShape('set', { boardSize: 12 }, 12), { base: 12, step: 3 });
  assert.deepEqual(boardShape('set', { boardSize: 9 }, 15), { base: 9, step: 3 });
  assert.deepEqual(boardShape(undefined, {}, 12), { base: 12, step: 3 });
  assert.deepEqual(boardShape('matchismo', { boardSize: 24 }, 24), { base: 24, step: 0 });
  assert.deepEqual(boardShape('concentration', {}, 20), { base: 20, step: 0 });
});

test('words for matches', () => {
  assert.equal(matchesText('set', 1), '1 set');
  assert.equal(matchesText('set', 0), '0 sets');
  assert.equal(matchesText('matchismo', 3), '3 matches');
  assert.equal(matchesText('concentration', 2), '2 pairs');
  assert.equal(matchesHeading('concentration'), 'Pairs');
  assert.equal(matchesHeading('set'), 'Sets');
  assert.equal(gameInfo('poker').title, 'Set');
  assert.equal(gameInfo('matchismo').hint, false);
});

test('the lobby offers the three games, each with a title and a one-line rule', () => {
  assert.deepEqual(GAME_IDS, ['set', 'matchismo', 'concentration']);
  for (const id of GAME_IDS) {
    assert.ok(gameInfo(id).title.length > 0);
    assert.ok(gameInfo(id).lede.length > 20);
  }
});
