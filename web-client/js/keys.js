// Keyboard shortcuts as data. Pure: `keyAction` turns a key press into what it means, and
// `cardKeys` says which key chooses the card in each slot; shortcuts.js decides what an action
// does on the page shown, keyboard.js carries it out, and the help overlay lists `SHORTCUTS`.
//
// Cards: 1–9, 0, then the letters a–z that are not commands (slot 0 is "1", slot 9 is "0",
// slot 10 is "a"…). Commands: ? help, Escape un-choose all my cards, Backspace un-choose the last
// one, r re-deal (through the confirmation), h history, i hint, m sound on/off.

/** Command keys and what they do. */
export const COMMAND_KEYS = Object.freeze({
  '?': 'help',
  Escape: 'clearAll',
  Backspace: 'clearLast',
  r: 'redeal',
  h: 'history',
  i: 'hint',
  m: 'mute',
});

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('').filter((c) => !Object.hasOwn(COMMAND_KEYS, c));

/** Every key that chooses a card, in slot order (32 keys). */
export const CARD_KEYS = Object.freeze(['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', ...LETTERS]);

/** The keys of the first `count` slots (fewer when the board is bigger than CARD_KEYS). */
export function cardKeys(count) {
  return CARD_KEYS.slice(0, Math.max(0, count));
}

/**
 * What a key press means: {type: 'card', index} | {type: 'command', name} | null.
 * @param {object} press  {key, ctrlKey, metaKey, altKey, repeat, inField}: `inField` is true when the
 *   press went to a text box, a select or a button the user is operating (then only Escape counts,
 *   and only outside text boxes: it is how one leaves them).
 * @param {number} count  cards on the board
 */
export function keyAction(press, count) {
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  if (press.inField) return null;
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  if (Object.hasOwn(COMMAND_KEYS, key) && (press.key === key || key === '?')) {
    if (press.repeat && key !== 'Backspace') return null;
    return { type: 'command', name: COMMAND_KEYS[key] };
  }
  if (press.repeat) return null;
  const index = CARD_KEYS.indexOf(key);
  if (index === -1 || index >= count) return null;
  return { type: 'card', index };
}

/** The help overlay's list: [{keys: [text], description}]. */
export const SHORTCUTS = Object.freeze([
  { keys: ['1', '…', '9', '0', 'a', '…', 'z'], description: 'Choose the card with that key (the key is shown on the card)' },
  { keys: ['Enter', 'Space'], description: 'Choose the focused card' },
  { keys: ['←', '↑', '→', '↓'], description: 'Move between cards' },
  { keys: ['Esc'], description: 'Un-choose all my chosen cards (or close this help, or the chat)' },
  { keys: ['Backspace'], description: 'Un-choose the card I chose last' },
  { keys: ['r'], description: 'Re-deal (asks first; a vote at a shared table)' },
  { keys: ['h'], description: 'History of matches and mismatches' },
  { keys: ['i'], description: 'Hint (solo Set)' },
  { keys: ['m'], description: 'Sound on / off' },
  { keys: ['←', '→', 'Home', 'End'], description: 'In a replay: previous, next, first, last move' },
  { keys: ['?'], description: 'Show or hide this help' },
]);
