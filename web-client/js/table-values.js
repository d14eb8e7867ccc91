// The checks and copies that turn the server's table fields into the client's own values
// (table-state.js and table-events.js): a field that is not what PROTOCOL.md says throws a
// TypeError or RangeError, which makes the caller ask for a snapshot instead of guessing.

import { readRating } from './ratings.js';
import { botLevel } from './bots.js';

/** The table phases, in order. */
export const PHASES = Object.freeze(['waiting', 'countdown', 'playing', 'finished']);

/** Standings as the `over` event gives them, from a list of players: best score first, equal
 * scores share a rank (1, 1, 3). */
export function standingsFromPlayers(players) {
  const sorted = [...players].sort((a, b) => b.score - a.score || a.seat - b.seat);
  return sorted.map((p, i) => ({
    seat: p.seat,
    name: p.name,
    score: p.score,
    matches: p.matches,
    rank: sorted.findIndex((q) => q.score === p.score) + 1,
  }));
}

export function playerAt(table, seat) {
  const player = table.players.find((p) => p.seat === seat);
  if (player === undefined) throw new RangeError(`no seat ${seat}`);
  return player;
}

export function requireInteger(value, name) {
  if (!Number.isInteger(value)) throw new TypeError(`${name} is not an integer`);
  return value;
}

export function requireSeat(value) {
  if (!Number.isInteger(value) || value < 0) throw new TypeError('seat is not a seat number');
  return value;
}

export function requireCount(value, name) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new TypeError(`${name} is not a count`);
  return value;
}

export function requireString(value, name) {
  if (typeof value !== 'string') throw new TypeError(`${name} is not a string`);
  return value;
}

export function isCount(value) {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** A history entry (PROTOCOL.md, `history`): `{n, at, seat, kind, points | penalty, runs}`. */
export function isHistoryEntry(entry) {
  return (
    entry !== null &&
    typeof entry === 'object' &&
    Number.isInteger(entry.n) &&
    (entry.kind === 'match' || entry.kind === 'mismatch') &&
    Array.isArray(entry.runs)
  );
}

export function copyEntry(entry) {
  return {
    n: entry.n,
    at: typeof entry.at === 'number' && Number.isFinite(entry.at) && entry.at >= 0 ? entry.at : null,
    seat: Number.isInteger(entry.seat) ? entry.seat : null,
    kind: entry.kind,
    points: Number.isInteger(entry.points) ? entry.points : 0,
    penalty: Number.isInteger(entry.penalty) ? entry.penalty : 0,
    runs: entry.runs.filter((run) => run !== null && typeof run === 'object').map((run) => ({ ...run })),
  };
}

export function copyVote(vote) {
  if (vote === null || typeof vote !== 'object' || !Array.isArray(vote.seats) || vote.seats.length === 0) return null;
  return { seats: vote.seats.filter(Number.isInteger), needed: Number.isInteger(vote.needed) ? vote.needed : 0 };
}

/** The snapshot's standings when it has them, else derived from the players. */
export function standingsFrom(standings, players) {
  if (Array.isArray(standings)) return standings.map((s) => ({ ...s }));
  return standingsFromPlayers(players);
}

export function requireArray(value, name) {
  if (!Array.isArray(value)) throw new TypeError(`${name} is not an array`);
  return value;
}

export function copyCard(card) {
  if (card === null || typeof card !== 'object' || !Number.isInteger(card.id)) {
    throw new TypeError('card without id');
  }
  return { ...card };
}

export function copyPlayer(p, now) {
  if (p === null || typeof p !== 'object' || !Number.isInteger(p.seat)) throw new TypeError('player');
  const connected = p.connected !== false;
  const away = !connected && isCount(p.away) ? p.away : null;
  return {
    seat: p.seat,
    name: typeof p.name === 'string' ? p.name : '',
    score: Number.isInteger(p.score) ? p.score : 0,
    matches: Number.isInteger(p.matches) ? p.matches : 0,
    selection: Array.isArray(p.selection) ? [...p.selection] : [],
    connected,
    away,
    awayUntil: away === null ? null : now + away * 1000,
    // Only face-down games count flips; a player record without them stays as it was.
    ...(Number.isInteger(p.flips) ? { flips: p.flips } : {}),
    // A computer's level (bots.js), only at a computer's seat.
    ...(botLevel(p.bot) === null ? {} : { bot: botLevel(p.bot) }),
    // A rating beside the name (ratings.js), only where the server knows one.
    ...(readRating(p.rating) === null ? {} : { rating: readRating(p.rating) }),
  };
}
