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
  findSets,
  isSet,
  isValidCard,
  thirdCard,
} from '../js/set-cards.js';

// An independent definition: with each attribute as an index 0…2, three values are all equal or
// all different exactly when their sum is divisible by 3.
function indices(card) {
  return ATTRIBUTE_NAMES.map((name) => ATTRIBUTES[name].indexOf(card[name]));
}
function isSetByArithmetic(a, b, c) {
  const [x, y, z] = [indices(a), indices(b), indices(c)];
  return x.every((_, i) => (x[i] + y[i] + z[i]) % 3 === 0);
}
function bruteForceSets(cards) {
  const sets = [];
  for (let i = 0; i < cards.length; i += 1)
    for (let j = i + 1; j < cards.length; j += 1)
      for (let k = j + 1; k < cards.length; k += 1)
        if (isSetByArithmetic(cards[i], cards[j], cards[k])) sets.push([cards[i].id, cards[j].id, cards[k].id]);
  return sets;
}
function seededRandom(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
function randomBoard(random, size) {
  const deck = allCards();
  for (let i = deck.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck.slice(0, size);
}
const card = (number, symbol, shading, color) => ({ id: cardId({ number, symbol, shading, color }), number, symbol, shading, color });

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

test('isSet agrees with the definition on every triple of the deck; the deck holds 1080 sets', () => {
  const cards = allCards();
  let sets = 0;
  let triples = 0;
  for (let i = 0; i < 81; i += 1)
    for (let j = i + 1; j < 81; j += 1)
      for (let k = j + 1; k < 81; k += 1) {
        const expected = isSetByArithmetic(cards[i], cards[j], cards[k]);
        assert.equal(isSet(cards[i], cards[j], cards[k]), expected);
        assert.equal(isSet(cards[k], cards[i], cards[j]), expected);
        triples += 1;
        if (expected) sets += 1;
      }
  assert.equal(triples, 85320);
  assert.equal(sets, 1080);
});

test('isSet on hand-picked triples', () => {
  // all different in everything
  assert.equal(isSet(card(1, 'diamond', 'solid', 'red'), card(2, 'squiggle', 'striped', 'green'), card(3, 'oval', 'open', 'purple')), true);
  // same number, symbol, shading; colours all different
  assert.equal(isSet(card(2, 'oval', 'open', 'red'), card(2, 'oval', 'open', 'green'), card(2, 'oval', 'open', 'purple')), true);
  // two red, one green: not a set
  assert.equal(isSet(card(1, 'oval', 'open', 'red'), card(2, 'oval', 'open', 'red'), card(3, 'oval', 'open', 'green')), false);
  // numbers 1, 1, 2: not a set
  assert.equal(isSet(card(1, 'diamond', 'solid', 'red'), card(1, 'squiggle', 'striped', 'green'), card(2, 'oval', 'open', 'purple')), false);
});

test('thirdCard completes every pair, and it is the only card that does', () => {
  const cards = allCards();
  for (let i = 0; i < 81; i += 1)
    for (let j = i + 1; j < 81; j += 1) {
      const c = thirdCard(cards[i], cards[j]);
      assert.equal(c.id, cardId(c));
      assert.notEqual(c.id, cards[i].id);
      assert.notEqual(c.id, cards[j].id);
      assert.ok(isSetByArithmetic(cards[i], cards[j], c));
      assert.equal(thirdCard(cards[j], cards[i]).id, c.id);
      if (i === 0 && j < 4) {
        const completing = cards.filter((x) => x.id !== cards[i].id && x.id !== cards[j].id && isSet(cards[i], cards[j], x));
        assert.deepEqual(completing.map((x) => x.id), [c.id]);
      }
    }
  assert.deepEqual(thirdCard(card(1, 'diamond', 'solid', 'red'), card(2, 'diamond', 'open', 'red')), card(3, 'diamond', 'striped', 'red'));
});

test('findSets on a hand-checked board', () => {
  // 0: 1 solid red diamond, 1: 1 solid green diamond, 2: 1 solid purple diamond,
  // 3: 1 striped red diamond, 6: 1 open red diamond, 40: 2 striped green squiggles
  const board = [0, 1, 2, 3, 6, 40].map(cardFromId);
  assert.deepEqual(
    findSets(board).map((s) => s.map((c) => c.id)),
    [
      [0, 1, 2],
      [0, 3, 6],
    ],
  );
  assert.deepEqual(findSets([]), []);
  assert.deepEqual(findSets([0, 1].map(cardFromId)), []);
});

test('findSets finds exactly the sets a brute-force search finds, on random boards', () => {
  const random = seededRandom(193);
  let withNone = 0;
  for (let round = 0; round < 300; round += 1) {
    const size = [12, 15, 18, 21][round % 4];
    const board = randomBoard(random, size);
    const found = findSets(board).map((s) => s.map((c) => c.id));
    assert.deepEqual(found, bruteForceSets(board));
    if (found.length === 0) withNone += 1;
    if (size === 21) assert.ok(found.length > 0, '21 cards always hold a set');
  }
  assert.ok(withNone < 30, 'boards without a set are rare');
});

test('findSets returns nothing on a board without a set (a greedy cap)', () => {
  const cap = [];
  for (const c of allCards()) {
    if (!cap.some((a, i) => cap.slice(i + 1).some((b) => isSetByArithmetic(a, b, c)))) cap.push(c);
  }
  assert.ok(cap.length >= 12);
  assert.deepEqual(bruteForceSets(cap), []);
  assert.deepEqual(findSets(cap), []);
  assert.equal(findSets([...cap, thirdCard(cap[0], cap[1])]).length > 0, true);
});

test('describeCard names the card in words', () => {
  assert.equal(describeCard(cardFromId(40)), 'two striped green squiggles');
  assert.equal(describeCard(cardFromId(0)), 'one solid red diamond');
  assert.equal(describeCard(cardFromId(80)), 'three open purple ovals');
});
