// A card named by its id in a game's full deck — the ids a look back (PROTOCOL.md, "The look
// back") and a record give once a game is over — as a face-up board entry that card-element.js
// draws and labels like a card on the board. Which id scheme a game's cards follow is games.js's
// (GAME_CARDS `deck`); the schemes are the server's decks:
//   set-cards        Set's 81 cards (set-cards.js cardFromId): 27·(number−1) + 9·symbol +
//                    3·shading + color (Set, UltraSet, Set-Chain)
//   solid-set-cards  the 27 solid ones (Set Junior's): 9·(number−1) + 3·symbol + color
//   playing-cards    the 52 playing cards (Matchismo's): 13·suit + (rank − 1), suits in
//                    playing-cards.js SUITS order
//   emoji-pairs      Concentration's: 2·(10·theme + emoji) + copy (emoji-cards.js THEME_EMOJI)
// Pure. No rule lives here: nothing says whether cards match.

import { ATTRIBUTES, cardFromId } from './set-cards.js';
import { SUITS } from './playing-cards.js';
import { THEME_EMOJI } from './emoji-cards.js';
import { gameCards } from './games.js';

const JUNIOR_SIZE = ATTRIBUTES.number.length * ATTRIBUTES.symbol.length * ATTRIBUTES.color.length;

const DECKS = Object.freeze({
  'set-cards': (id) => cardFromId(id),
  'solid-set-cards': (id) => {
    if (id >= JUNIOR_SIZE) return null;
    const colors = ATTRIBUTES.color.length;
    const symbols = ATTRIBUTES.symbol.length;
    return {
      id,
      number: ATTRIBUTES.number[Math.floor(id / (colors * symbols))],
      symbol: ATTRIBUTES.symbol[Math.floor(id / colors) % symbols],
      shading: 'solid',
      color: ATTRIBUTES.color[id % colors],
    };
  },
  'playing-cards': (id) =>
    id < 13 * SUITS.length ? { id, faceUp: true, rank: (id % 13) + 1, suit: SUITS[Math.floor(id / 13)] } : null,
  'emoji-pairs': (id) => (id < 2 * THEME_EMOJI.length ? { id, faceUp: true, emoji: THEME_EMOJI[Math.floor(id / 2)] } : null),
});

/** The card of id `id` in deck `deck` (a GAME_CARDS `deck`), or null when there is none. */
export function deckCard(deck, id) {
  if (!Object.hasOwn(DECKS, deck) || !Number.isInteger(id) || id < 0) return null;
  try {
    return DECKS[deck](id);
  } catch {
    return null; // beyond the deck
  }
}

/** The cards of `game` named by `ids` (full-deck ids), in order; [] when the page cannot draw
 * that game's cards or an id names none (the cards are then left out, never guessed). */
export function gameDeckCards(game, ids) {
  const deck = gameCards(game)?.deck;
  if (deck === undefined || !Array.isArray(ids)) return [];
  const cards = ids.map((id) => deckCard(deck, id));
  return cards.every((card) => card !== null) ? cards : [];
}

/** The example match of `game` with real cards ("How to play"), or [] without one. */
export function exampleCards(game) {
  return gameDeckCards(game, gameCards(game)?.example ?? []);
}
