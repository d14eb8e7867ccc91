// The controller's hint (solo Set and its variants): one card of a match outlined, then two, on
// the same board. Functions of the controller (controller.js), which passes itself as `c`.

import { findUltraSet, isValidCard } from './set-cards.js';
import { takeableSets } from './chain.js';

/** How long a hint's cards flash. */
export const HINT_MS = 2500;
/** What a hint says beside the cards it outlines. */
export const HINT_TEXT = {
  1: 'Hint: the outlined card is part of a set. Hints are free. Ask again for a second card.',
  2: 'Hint: the two outlined cards are part of a set; find the third. Hints are free.',
};

/** The hint's event. */
export const HINT_HANDLERS = {
  /** Solo Set (and Set Junior, UltraSet, Set-Chain): show one card of a match, then two on the
   * same board (the rest is the player's). Set-Chain's hint is a chain set, its chain card first. */
  hint(c, event, fx) {
    const table = c.state.table;
    if (table === null) return;
    const cards = table.board.filter(isValidCard);
    const ultra = table.game === 'ultraSet' ? findUltraSet(cards) : null;
    const sets = table.game === 'ultraSet' ? (ultra === null ? [] : [ultra]) : takeableSets(table);
    if (sets.length === 0) {
      const none = { ultraSet: 'No UltraSet on this board.', setChain: 'No chain set on this board.' };
      fx.push({ type: 'toast', text: none[table.game] ?? 'No set on this board.' });
      return;
    }
    const key = [...(table.chain ?? []), ...table.board].map((card) => card.id).join(',');
    c.hint = { key, shown: c.hint.key === key ? Math.min(2, c.hint.shown + 1) : 1 };
    fx.push({ type: 'flash', cards: sets[0].slice(0, c.hint.shown).map((card) => card.id), kind: 'hint', ms: HINT_MS });
    fx.push({ type: 'toast', text: HINT_TEXT[c.hint.shown] });
  },
};
