// The controller's hint: asked of the server (`hint`), whose answer is a match on the board
// found by the game's own rule (a chain set's chain card first), or none; shown as one card
// outlined, then two on the same board (the rest is the player's). The words are the game's
// (welcome's description, games.js). Where the game offers none, or with others at the table,
// the server refuses (`noHints`, `hintsAlone`), and the page does not offer one
// (table-model.js hintHidden). Functions of the controller (controller.js), which passes itself
// as `c`.

import * as messages from './messages.js';
import { gameInfo } from './games.js';

/** How long a hint's cards flash. */
export const HINT_MS = 2500;

/** The hint's event. */
export const HINT_HANDLERS = {
  /** Ask the server for a match on this board. */
  hint(c, event, fx) {
    if (c.state.table === null) return;
    const id = c.nextId();
    if (c.send(fx, event, messages.hint(id))) c.requests.add(id, 'hint');
  },
};

/** The server's `hint`: its cards flashed, one at first and two when asked again on the same
 * board, with the game's words; its "none" when the board holds no match. */
export function hintAnswered(c, fx, message) {
  if (c.requests.takeIf(message.replyTo, 'hint') === null) return;
  const table = c.state.table;
  if (table === null) return;
  const texts = gameInfo(table.game).texts;
  const cards = Array.isArray(message.cards) ? message.cards.filter(Number.isInteger) : [];
  if (cards.length === 0) {
    fx.push({ type: 'toast', text: texts.hintNone || 'Nothing to hint on this board.' });
    return;
  }
  const key = [...(table.chain ?? []), ...table.board].map((card) => card.id).join(',');
  c.hint = { key, shown: c.hint.key === key ? Math.min(2, c.hint.shown + 1) : 1 };
  fx.push({ type: 'flash', cards: cards.slice(0, c.hint.shown), kind: 'hint', ms: HINT_MS });
  const text = c.hint.shown === 1 ? texts.hintOne : texts.hintTwo;
  if (text !== '') fx.push({ type: 'toast', text });
}
