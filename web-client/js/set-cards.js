// Set cards as the renderer needs them: their attributes, ids and names. Pure functions, no DOM,
// no I/O. No rule lives here: whether cards match, and where a match is, are the server's (a
// hint is asked of it: control-hint.js).
//
// The attribute lists below are data, not code: nothing names a value, so a deck with other
// symbols or colours (three values per attribute) works unchanged. The order of the lists
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

const NUMBER_WORDS = ['zero', 'one', 'two', 'three'];

/** A short English description for screen readers, e.g. "two striped green squiggles". */
export function describeCard(card) {
  const count = NUMBER_WORDS[card.number] ?? String(card.number);
  const noun = card.number === 1 ? card.symbol : `${card.symbol}s`;
  return `${count} ${card.shading} ${card.color} ${noun}`;
}
