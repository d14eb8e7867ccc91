// A face-down game played in turns (Concentration; games.js holdsFaces): a card that a `hide`
// turns back down keeps showing its face for a moment, so a person can see the card that did not
// match. Display only: the table state already has it face down (and a click on it is sent as
// usual). Pure: the time is a parameter.

import { holdsFaces } from './games.js';

/** How long a face is held up after the server hid it (ms). */
export const HOLD_MS = 1000;

/**
 * The faces to hold after a diff: `held` (card id → {card, until}) plus the cards that `events`
 * turn down, as `table` (the table before the diff) or a `flip` of the same diff showed them, until
 * `now + HOLD_MS`. Only a game that holds faces does; `held` is returned unchanged otherwise.
 */
export function holdFaces(held, table, events, now) {
  if (!holdsFaces(table?.game) || !Array.isArray(events)) return held;
  const faces = new Map(table.board.filter((c) => c.faceUp !== false).map((c) => [c.id, c]));
  let next = held;
  for (const event of events) {
    if (event.kind === 'flip' && event.card && Number.isInteger(event.card.id)) faces.set(event.card.id, { ...event.card });
    if (event.kind === 'hide' && Array.isArray(event.cards)) {
      for (const id of event.cards) {
        if (!faces.has(id)) continue;
        if (next === held) next = new Map(held);
        next.set(id, { card: faces.get(id), until: now + HOLD_MS });
      }
    }
  }
  return next;
}

/** The board as drawn at `now`: the server's, with a face-down entry still held shown face up. */
export function shownBoard(board, held, now) {
  if (held.size === 0) return board;
  return board.map((card) => {
    const h = held.get(card.id);
    return h !== undefined && card.faceUp === false && h.until > now ? h.card : card;
  });
}
