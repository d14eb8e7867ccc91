// Set card logic: pure functions, no DOM, no I/O.
//
// The attribute lists below are data, not code: the rules never name a value, so a deck with
// other symbols or colours (three values per attribute) works unchanged. The order of the lists
// matters only for the card id, which PROTOCOL.md defines as
//   id = 27·(number−1) + 9·symbol + 3·shading + color
// i.e. the attribute indices read as a base-3 number, most significant attribute first.

/** Every attribute of a Set card and its possible values, in card-id order. */
export const ATTRIBUTES = Object.freeze({
  number: Object.freeze([1, 2, 3]),
  symbol: Object.freeze(['diamond', 'squiggle', 'oval']),
  shading: Object.freeze(['solid', 'striped', 'open']),
  color: Object.freeze(['red', 'green', 'purple']),
});

/** Attribute names, most significant for the card id first. */
export const ATTRIBUTE_NAMES = Object.freeze(Object.keys(ATTRIBUTES));

/** Number of cards in a full deck (81 for four attributes of three values). */
export const DECK_SIZE = ATTRIBUTE_NAMES.reduce((n, name) => n * ATTRIBUTES[name].length, 1);

/** True when `card` has a known value for every attribute. */
export function isValidCard(card) {
  return (
    card !== null &&
    typeof card === 'object' &&
    ATTRIBUTE_NAMES.every((name) => ATTRIBUTES[name].includes(card[name]))
  );
}

/** The card id computed from the attributes (not from `card.id`). Throws on an invalid card. */
export function cardId(card) {
  let id = 0;
  for (const name of ATTRIBUTE_NAMES) {
    const values = ATTRIBUTES[name];
    const index = card == null ? -1 : values.indexOf(card[name]);
    if (index < 0) throw new RangeError(`not a Set card: bad ${name}`);
    id = id * values.length + index;
  }
  return id;
}

/** The card with this id, as the server sends it: `{id, number, symbol, shading, color}`. */
export function cardFromId(id) {
  if (!Number.isInteger(id) || id < 0 || id >= DECK_SIZE) throw new RangeError(`no card ${id}`);
  const card = { id };
  let rest = id;
  for (let i = ATTRIBUTE_NAMES.length - 1; i >= 0; i -= 1) {
    const values = ATTRIBUTES[ATTRIBUTE_NAMES[i]];
    card[ATTRIBUTE_NAMES[i]] = values[rest % values.length];
    rest = Math.floor(rest / values.length);
  }
  return card;
}

/** All cards of the deck, in id order. */
export function allCards() {
  return Array.from({ length: DECK_SIZE }, (_, id) => cardFromId(id));
}

/** Three cards are a set when, for every attribute, their values are all equal or all different. */
export function isSet(a, b, c) {
  return ATTRIBUTE_NAMES.every((name) => new Set([a[name], b[name], c[name]]).size !== 2);
}

/** The one card that makes a set with `a` and `b` (for each attribute: the same value if they
 * agree, else the value neither has). `a` and `b` must be different cards. */
export function thirdCard(a, b) {
  const card = {};
  for (const name of ATTRIBUTE_NAMES) {
    if (a[name] === b[name]) {
      card[name] = a[name];
    } else {
      const rest = ATTRIBUTES[name].filter((v) => v !== a[name] && v !== b[name]);
      if (rest.length !== 1) throw new RangeError(`no third value for ${name}`);
      card[name] = rest[0];
    }
  }
  return { id: cardId(card), ...card };
}

/** Every set among `cards`, each as three cards in the order they appear in `cards`; the list is
 * ordered by the position of the first card, then the second. */
/** An UltraSet among `cards` (four cards making two pairs that need the same third card to be a
 * set), as [a, b, c, d] (the two pairs), or null when there is none. */
export function findUltraSet(cards) {
  // Each pair's missing card; two pairs with no card in common that miss the same card.
  const byThird = new Map();
  for (let i = 0; i < cards.length; i += 1) {
    for (let j = i + 1; j < cards.length; j += 1) {
      if (cardId(cards[i]) === cardId(cards[j])) continue;
      const third = thirdCard(cards[i], cards[j]).id;
      const pairs = byThird.get(third) ?? [];
      const partner = pairs.find(([a, b]) => a !== i && a !== j && b !== i && b !== j);
      if (partner !== undefined) return [cards[partner[0]], cards[partner[1]], cards[i], cards[j]];
      pairs.push([i, j]);
      byThird.set(third, pairs);
    }
  }
  return null;
}

/** Every chain set (Set-Chain): one card of `chain` and two of `board` that make a set, each as
 * [chain card, board card, board card] with the board cards in board order; chain cards in
 * chain order, then by the position of the first board card. */
export function findChainSets(chain, board) {
  const position = new Map();
  board.forEach((card, i) => position.set(cardId(card), i));
  const sets = [];
  for (const anchor of chain) {
    for (let i = 0; i < board.length; i += 1) {
      if (cardId(board[i]) === cardId(anchor)) continue;
      const k = position.get(thirdCard(anchor, board[i]).id);
      if (k !== undefined && k > i) sets.push([anchor, board[i], board[k]]);
    }
  }
  return sets;
}

export function findSets(cards) {
  const position = new Map();
  cards.forEach((card, i) => position.set(cardId(card), i));
  const sets = [];
  for (let i = 0; i < cards.length; i += 1) {
    for (let j = i + 1; j < cards.length; j += 1) {
      if (cardId(cards[i]) === cardId(cards[j])) continue;
      const k = position.get(thirdCard(cards[i], cards[j]).id);
      if (k !== undefined && k > j) sets.push([cards[i], cards[j], cards[k]]);
    }
  }
  return sets;
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three'];

/** A short English description for screen readers, e.g. "two striped green squiggles". */
export function describeCard(card) {
  const count = NUMBER_WORDS[card.number] ?? String(card.number);
  const noun = card.number === 1 ? card.symbol : `${card.symbol}s`;
  return `${count} ${card.shading} ${card.color} ${noun}`;
}
