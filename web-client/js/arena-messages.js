// Pure: the arena messages a client sends (docs/PROTOCOL.md, "Arenas"), checked before they go.

import { DEFAULT_GAME } from './games.js';

/** Arenas (docs/PROTOCOL.md, "Arenas"): `createArena` takes 1–60 minutes, starting in 0–3600 seconds. */
export const ARENA_MINUTES = Object.freeze({ min: 1, max: 60 });
export const ARENA_MAX_STARTS_IN = 3600;

/** `arenas`: the public arenas upcoming and running, the last finished, and the private ones I am in. */
export const arenas = (id) => ({ type: 'arenas', id });

/** `createArena`: a private arena of `game`, `minutes` long, starting in `startsIn` seconds (I join it). */
export function createArena(id, { game = DEFAULT_GAME, minutes = 10, startsIn = 0 } = {}) {
  if (typeof game !== 'string' || game === '') throw new TypeError('createArena needs a game');
  if (!Number.isInteger(minutes) || minutes < ARENA_MINUTES.min || minutes > ARENA_MINUTES.max) throw new RangeError('minutes must be 1…60');
  if (!Number.isInteger(startsIn) || startsIn < 0 || startsIn > ARENA_MAX_STARTS_IN) throw new RangeError('startsIn must be 0…3600');
  return { type: 'createArena', id, game, minutes, startsIn };
}

/** `joinArena`: by its id from `arenas` (`{arena}`), or by a private arena's code (`{code}`). */
export function joinArena(id, { arena, code } = {}) {
  if (typeof arena === 'string' && arena !== '') return { type: 'joinArena', id, arena };
  if (typeof code === 'string' && code !== '') return { type: 'joinArena', id, code };
  throw new TypeError('joinArena needs an arena id or a code');
}

/** `leaveArena` (a game in progress is lost), `watchArena` (its standings, live: one arena per
 * connection), `watchFeatured` (its top game, and each next one): the arena by id. */
export const leaveArena = (id, arena) => arenaMessage('leaveArena', id, arena);
export const watchArena = (id, arena) => arenaMessage('watchArena', id, arena);
export const watchFeatured = (id, arena) => arenaMessage('watchFeatured', id, arena);

function arenaMessage(type, id, arena) {
  if (typeof arena !== 'string' || arena === '') throw new TypeError(`${type} needs an arena id`);
  return { type, id, arena };
}
