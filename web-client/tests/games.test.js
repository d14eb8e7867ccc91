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

test('the lobby offers the games, Set\'s variants beside it, each with a title and a one-line rule', () => {
  assert.deepEqual(GAME_IDS, ['set', 'setJunior', 'ultraSet', 'setChain', 'matchismo', 'concentration']);
  assert.equal(gameInfo('ultraSet').title, 'UltraSet');
  assert.equal(gameInfo('setJunior').base, 9);
  for (const id of GAME_IDS) {
    assert.ok(gameInfo(id).title.length > 0);
    assert.ok(gameInfo(id).lede.length > 20);
  }
});

test('the variants: their settings forms, and a hint that finds an UltraSet', async () => {
  const { settingsForm } = await import('../js/table-settings.js');
  assert.deepEqual(settingsForm('setJunior', 1).boardSize.options.map(([n]) => n), [6, 9, 12]);
  assert.equal(settingsForm('setJunior', 1).boardSize.default, 9);
  assert.deepEqual(settingsForm('ultraSet', 2).boardSize.options.map(([n]) => n), [9, 12, 15, 18]);
  assert.match(settingsForm('ultraSet', 1).scoring.options[0][1], /an UltraSet is a point/);
  const { allCards, findUltraSet, thirdCard, cardId } = await import('../js/set-cards.js');
  const deck = allCards();
  // Two pairs that need the same third card: an UltraSet, found among cards that hold no other.
  const [a, b, c] = [deck[0], deck[10], deck[41]];
  const third = thirdCard(a, b);
  const d = thirdCard(c, third);
  const found = findUltraSet([a, c, deck[79], b, d]);
  assert.ok(found !== null);
  const key = (x, y) => thirdCard(x, y).id;
  assert.equal(key(found[0], found[1]), key(found[2], found[3]));
  assert.equal(new Set(found.map(cardId)).size, 4);
  assert.equal(findUltraSet([a, b, c]), null);
});
