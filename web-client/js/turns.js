// Concentration's turns: whose turn it is and how long it has left, as text. Pure; the table
// keeps the deadline (table-state.js `turnUntil`) and the view ticks.

import { secondsLeft } from './table-state.js';

/** "Your turn", "Bob's turn", or '' when the table has no turns (or the seat is empty). */
export function turnText(table) {
  if (table === null || !Number.isInteger(table.turn)) return '';
  if (table.turn === table.you) return 'Your turn';
  const player = table.players.find((p) => p.seat === table.turn);
  if (player === undefined) return '';
  const name = player.name === '' ? `Seat ${player.seat + 1}` : player.name;
  return `${name}'s turn`;
}

/** Whole seconds left in the turn at `now` (ms), or null without a clock. */
export function turnSecondsLeft(table, now) {
  if (table === null || !Number.isInteger(table.turn)) return null;
  return secondsLeft(table.turnUntil, now);
}

/** The clock as shown: "0:27". */
export function clockText(seconds) {
  if (seconds === null || seconds === undefined) return '';
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The fraction of the turn left (1 → 0), for the bar; null without a clock. */
export function turnFraction(table, now) {
  if (table === null || table.turnUntil === null || !table.turnSeconds) return null;
  return Math.max(0, Math.min(1, (table.turnUntil - now) / (table.turnSeconds * 1000)));
}
