// Set-Chain's rule on the client, pure (PROTOCOL.md, "Set-Chain"): the first set of a deal is
// any set on the board; after it the chain (the previous set, `table.chain`) shows beside the
// board and every set is one card of the chain and two of the board. What a hint may show, and
// whether a choice keeps to the rule (the server refuses one that does not, with `chainRule`:
// the client says so at once instead of sending it).

import { findChainSets, findSets, isValidCard } from './set-cards.js';

/** Whether the table's game chains its sets (its snapshot has a `chain`). */
export function isChained(table) {
  return Array.isArray(table?.chain);
}

/** The sets a player may take now: chain sets once a chain shows, any set of the board before.
 * Each set is an array of cards (a chain set's chain card first). */
export function takeableSets(table) {
  const board = (table?.board ?? []).filter(isValidCard);
  const chain = isChained(table) ? table.chain.filter(isValidCard) : [];
  return chain.length > 0 ? findChainSets(chain, board) : findSets(board);
}

/** What choosing `cardId` with `selection` (my chosen card ids) would break, in words, or null
 * when the choice keeps to the rule (un-choosing always does). */
export function chainChoiceProblem(table, selection, cardId) {
  if (!isChained(table) || table.chain.length === 0 || selection.includes(cardId)) return null;
  const chain = new Set(table.chain.map((card) => card.id));
  const fromChain = selection.filter((id) => chain.has(id)).length;
  if (chain.has(cardId)) {
    return fromChain > 0 ? 'A chain set takes one card of the chain: let go of the one you chose to take another.' : null;
  }
  if (fromChain === 0 && selection.length - fromChain >= 2) {
    return 'A chain set takes one card of the chain and two of the table: choose a card of the chain to go with your two.';
  }
  return null;
}
