import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ATTRIBUTES,
  ATTRIBUTE_NAMES,
  DECK_SIZE,
  allCards,
  cardFromId,
  cardId,
  describeCard,
  isValidCard,
} from '../js/set-cards.js';
import * as setCards from '../js/set-cards.js';

// An independent definition: with each attribute as an index 0…2, three values are all equal or
// all different exactly when their sum is divisible by 3.
function indices(card) {
  return ATTRIBUTE_NAMES.map((name) => ATTRIBUTES[name].indexOf(card[name]));
}

test('the deck has 81 distinct valid cards', () => {
  const cards = allCards();
  assert.equal(DECK_SIZE, 81);
  assert.equal(cards.length, 81);
  assert.ok(cards.every(isValidCard));
  assert.equal(new Set(cards.map((c) => `${c.number}${c.symbol}${c.shading}${c.color}`)).size, 81);
});

test('card ids follow PROTOCOL.md: 27(number-1) + 9 symbol + 3 shading + color', () => {
  assert.equal(cardId({ number: 1, symbol: 'diamond', shading: 'solid', color: 'red' }), 0);
  assert.equal(cardId({ number: 2, symbol: 'squiggle', shading: 'striped', color: 'green' }), 40);
  // (PROTOCOL.md's diff example labels ids 71 and 30 with attributes of ids 77 and 33; the
  // formula is what counts: the client never decodes ids anyway, it draws the attributes.)
  assert.deepEqual(cardFromId(77), { id: 77, number: 3, symbol: 'oval', shading: 'striped', color: 'purple' });
  assert.deepEqual(cardFromId(5), { id: 5, number: 1, symbol: 'diamond', shading: 'striped', color: 'purple' });
  assert.deepEqual(cardFromId(33), { id: 33, number: 2, symbol: 'diamond', shading: 'open', color: 'red' });
  assert.deepEqual(cardFromId(17), { id: 17, number: 1, symbol: 'squiggle', shading: 'open', color: 'purple' });
  for (let id = 0; id < 81; id += 1) {
    const c = cardFromId(id);
    const [n, sy, sh, co] = indices(c);
    assert.equal(id, 27 * n + 9 * sy + 3 * sh + co);
    assert.equal(cardId(c), id);
  }
  assert.throws(() => cardFromId(81), RangeError);
  assert.throws(() => cardFromId(-1), RangeError);
  assert.throws(() => cardId({ number: 4, symbol: 'oval', shading: 'open', color: 'red' }), RangeError);
  assert.equal(isValidCard({ number: 1, symbol: 'star', shading: 'open', color: 'red' }), false);
  assert.equal(isValidCard(null), false);
});

test('the client keeps no rule of its own: Set cards are drawn and named, never judged', () => {
  // The match rule, the third card and every search are the server's (a hint is asked of it).
  for (const name of ['isSet', 'thirdCard', 'findSets', 'findUltraSet', 'findChainSets']) {
    assert.equal(setCards[name], undefined, name);
  }
});

test('describeCard names the card in words', () => {
  assert.equal(describeCard(cardFromId(40)), 'two striped green squiggles');
  assert.equal(describeCard(cardFromId(0)), 'one solid red diamond');
  assert.equal(describeCard(cardFromId(80)), 'three open purple ovals');
});
