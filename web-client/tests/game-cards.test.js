// Each game's cards by their id in the full deck (games.js GAME_CARDS, deck-cards.js): the ids
// of a look back and of "How to play"'s example, read as the server's decks number them, named
// in words; and each game's example checked against the game's rule (the test's own: the page
// has none).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_GAMES, GAME_CARDS, gameCards } from '../js/games.js';
import { deckCard, exampleCards, gameDeckCards } from '../js/deck-cards.js';
import { cardFromId } from '../js/set-cards.js';
import { entryKind, entryLabel } from '../js/card-element.js';

const FEATURES = ['number', 'symbol', 'shading', 'color'];

/** Set's rule: every feature all the same or all different. */
const isSet = (cards) => FEATURES.every((f) => new Set(cards.map((c) => c[f])).size !== 2);
/** The third card of two: the one that makes a set with them (its features, as a key). */
const third = (a, b) => FEATURES.map((f) => {
  if (a[f] === b[f]) return a[f];
  const values = { number: [1, 2, 3], symbol: ['diamond', 'squiggle', 'oval'], shading: ['solid', 'striped', 'open'], color: ['red', 'green', 'purple'] }[f];
  return values.find((v) => v !== a[f] && v !== b[f]);
}).join(' ');
/** UltraSet's rule: the four split into two pairs needing the same third card. */
const isUltraSet = ([a, b, c, d]) =>
  third(a, b) === third(c, d) || third(a, c) === third(b, d) || third(a, d) === third(b, c);
/** Matchismo's: a pair of the same suit or the same rank scores. */
const isMatchismoMatch = ([a, b]) => a.suit === b.suit || a.rank === b.rank;
/** Concentration's: two copies of one emoji. */
const isPair = ([a, b]) => a.id !== b.id && a.emoji === b.emoji;

const RULES = { set: isSet, setJunior: isSet, setChain: isSet, ultraSet: isUltraSet, matchismo: isMatchismoMatch, concentration: isPair };

test('every game the server describes has its deck and an example match of its size, by its rule', () => {
  assert.deepEqual(Object.keys(GAME_CARDS).sort(), DEFAULT_GAMES.map((g) => g.name).sort());
  for (const game of DEFAULT_GAMES) {
    const cards = exampleCards(game.name);
    assert.equal(cards.length, game.matchSize, game.name);
    assert.equal(new Set(cards.map((c) => c.id)).size, cards.length, `${game.name}: the same card twice`);
    assert.ok(RULES[game.name](cards), `${game.name}'s example is no match: ${cards.map(entryLabel)}`);
    for (const card of cards) assert.match(entryLabel(card), /^[a-z][a-z ]+$/, `${game.name}: ${entryLabel(card)}`);
  }
  // A set with any fourth card is no UltraSet; two cards of different suit and rank no match.
  assert.ok(!isUltraSet([0, 27, 54, 1].map(cardFromId)));
  assert.ok(!isMatchismoMatch([deckCard('playing-cards', 0), deckCard('playing-cards', 14)]));
  assert.equal(gameCards('poker'), null);
  assert.deepEqual(exampleCards('poker'), []);
});

test('the decks number their cards as the server does', () => {
  // Set's 81: set-cards.js's ids.
  for (let id = 0; id < 81; id += 1) assert.deepEqual(deckCard('set-cards', id), cardFromId(id));
  // Set Junior's 27, all solid: 9·(number−1) + 3·symbol + color.
  const junior = Array.from({ length: 27 }, (_, id) => deckCard('solid-set-cards', id));
  assert.equal(new Set(junior.map((c) => `${c.number} ${c.symbol} ${c.color}`)).size, 27);
  assert.ok(junior.every((c) => c.shading === 'solid' && entryKind(c) === 'set-card'));
  assert.deepEqual(deckCard('solid-set-cards', 14), { id: 14, number: 2, symbol: 'squiggle', shading: 'solid', color: 'purple' });
  // The 52 playing cards: 13·suit + (rank − 1), suits ♠ ♥ ♦ ♣ (PlayingCard.swift).
  const playing = Array.from({ length: 52 }, (_, id) => deckCard('playing-cards', id));
  assert.equal(new Set(playing.map(entryLabel)).size, 52);
  assert.equal(entryLabel(deckCard('playing-cards', 0)), 'ace of spades');
  assert.equal(entryLabel(deckCard('playing-cards', 24)), 'queen of hearts');
  assert.equal(entryLabel(deckCard('playing-cards', 51)), 'king of clubs');
  // Concentration's: 2·(10·theme + emoji) + copy (EmojiCard.swift): two of each, theme by theme.
  assert.equal(entryLabel(deckCard('emoji-pairs', 1)), 'fox');
  assert.equal(entryLabel(deckCard('emoji-pairs', 20)), 'pizza');
  assert.equal(entryLabel(deckCard('emoji-pairs', 119)), 'banjo');
  // Beyond a deck, or no deck: none.
  for (const [deck, id] of [['set-cards', 81], ['solid-set-cards', 27], ['playing-cards', 52], ['emoji-pairs', 120], ['set-cards', -1], ['set-cards', 1.5], ['tarot', 0], ['set', 0]]) {
    assert.equal(deckCard(deck, id), null, `${deck} ${id}`);
  }
  // A match with a card beyond the deck is drawn without its cards, not half.
  assert.deepEqual(gameDeckCards('matchismo', [0, 60]), []);
  assert.deepEqual(gameDeckCards('matchismo', 'x'), []);
});
