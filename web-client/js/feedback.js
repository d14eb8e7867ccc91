// Small texts and numbers for feedback on the board. Pure.

import { gameInfo } from './games.js';

/** How long after a `match` event a refused choice (cardNotOnTable) is blamed on it. */
export const LOST_RACE_MS = 4000;

/** "Bob took that set" when my choice was refused with cardNotOnTable just after someone else's
 * match; null when the client cannot tell. */
export function lostRaceText(table, now) {
  const last = table?.lastMatch;
  if (!last || last.seat === table.you || now - last.at > LOST_RACE_MS) return null;
  const player = table.players.find((p) => p.seat === last.seat);
  const name = player?.name || `Seat ${last.seat + 1}`;
  return `${name} took that ${gameInfo(table.game).match[0]}`;
}

/** The points shown at matched cards: "+12" (null for none). */
export function matchPop(points) {
  return Number.isInteger(points) && points > 0 ? `+${points}` : null;
}

/** Pinch zoom: the new scale from the scale when two fingers went down, the distance between
 * them then and now; clamped to [min, max]. */
export function pinchScale(startScale, startDistance, distance, min = 1, max = 3) {
  if (!(startDistance > 0) || !(distance > 0)) return startScale;
  return Math.max(min, Math.min(max, (startScale * distance) / startDistance));
}
