// The client's copy of the lobby: the list of public tables. Pure functions, like table-state.js.
//
// State shape:
//   { version: null | number, tables: [Listing], awaitingSnapshot: boolean }
//   Listing = { id, game, seats, seated, spectators, phase, players: [{name, away, rating?}], settings,
//               turnSeconds } (rating: ratings.js readListedRating, only where the row has one)
// `tables` keeps the server's order for tables it already knew and appends new ones.
//
// Versions (PROTOCOL.md, "Lobby and multiplayer tables"): a `lobbyDiff` is applied only when its
// version is exactly one more than ours. An older or equal one is a duplicate and ignored. A newer
// one means we missed changes: the caller sends `lobby` again (resync: true) and diffs are ignored
// until the new `lobbySnapshot`.

import { readListedRating, shownRating } from './ratings.js';
import { DEFAULT_GAME, gameLabel as labelOf } from './games.js';

/** The lobby before any snapshot: nothing to show, a snapshot is awaited. */
export function initialLobby() {
  return { version: null, tables: [], awaitingSnapshot: true };
}

/** A fresh lobby from a `lobbySnapshot` message. Malformed listings are skipped; a snapshot
 * without a version is refused (TypeError). */
export function applyLobbySnapshot(message) {
  if (message === null || typeof message !== 'object') throw new TypeError('lobbySnapshot');
  if (!Number.isInteger(message.version) || message.version < 0) throw new TypeError('lobbySnapshot.version');
  const tables = [];
  for (const raw of Array.isArray(message.tables) ? message.tables : []) {
    const listing = copyListing(raw);
    if (listing !== null) upsert(tables, listing);
  }
  return { version: message.version, tables, awaitingSnapshot: false };
}

/** Apply one `lobbyDiff`. Returns `{state, resync}`; resync true means: send `lobby` again. The
 * given state is never modified. */
export function applyLobbyDiff(state, diff) {
  if (state.awaitingSnapshot || state.version === null) return { state, resync: false };
  if (!Number.isInteger(diff?.version)) return needLobby(state);
  if (diff.version <= state.version) return { state, resync: false };
  if (diff.version > state.version + 1) return needLobby(state);
  if (!Array.isArray(diff.changes)) return needLobby(state);
  const tables = [...state.tables];
  for (const change of diff.changes) {
    if (change?.op === 'upsert') {
      const listing = copyListing(change.table);
      if (listing === null) return needLobby(state);
      upsert(tables, listing);
    } else if (change?.op === 'remove' && typeof change.id === 'string') {
      const i = tables.findIndex((t) => t.id === change.id);
      if (i >= 0) tables.splice(i, 1);
    } else {
      return needLobby(state);
    }
  }
  return { state: { version: diff.version, tables, awaitingSnapshot: false }, resync: false };
}

/** The state after we have asked for a new snapshot (diffs are ignored until it comes). */
export function awaitLobby(state) {
  return { ...state, awaitingSnapshot: true };
}

/** A listing's seats as shown: "2/4". */
export function seatsLabel(listing) {
  return `${listing.seated}/${listing.seats}`;
}

/** A phase as shown in the lobby. */
export function phaseLabel(phase) {
  return { waiting: 'Waiting', countdown: 'Starting', playing: 'Playing', finished: 'Finished' }[phase] ?? phase;
}

/** Whether a listed table offers Join as well as Watch: it waits for players and has a seat. */
export function joinable(listing) {
  return listing.phase === 'waiting' && listing.seated < listing.seats;
}

/** The listings of one game, in list order: each game's tab shows its own tables. */
export function tablesOf(tables, game) {
  return tables.filter((t) => t.game === game);
}

/** A game id as shown: its title ("Set-Chain"), or what a game this page does not know is
 * (games.js gameLabel: "poker (not supported by this page)"). */
export function gameLabel(game) {
  return labelOf(game);
}

function needLobby(state) {
  return { state: awaitLobby(state), resync: true };
}

function upsert(tables, listing) {
  const i = tables.findIndex((t) => t.id === listing.id);
  if (i >= 0) tables[i] = listing;
  else tables.push(listing);
}

function copyListing(t) {
  if (t === null || typeof t !== 'object' || typeof t.id !== 'string') return null;
  const count = (v) => (Number.isInteger(v) && v >= 0 ? v : 0);
  return {
    id: t.id,
    game: typeof t.game === 'string' ? t.game : DEFAULT_GAME,
    seats: count(t.seats),
    seated: count(t.seated),
    spectators: count(t.spectators),
    phase: typeof t.phase === 'string' ? t.phase : 'waiting',
    players: Array.isArray(t.players)
      ? t.players
          .filter((p) => p !== null && typeof p === 'object' && typeof p.name === 'string')
          .map((p) => ({ name: p.name, away: p.away === true, ...ratingOf(p) }))
      : [],
    settings: t.settings !== null && typeof t.settings === 'object' && !Array.isArray(t.settings) ? { ...t.settings } : null,
    turnSeconds: Number.isInteger(t.turnSeconds) && t.turnSeconds > 0 ? t.turnSeconds : null,
  };
}

/** A listed player's rating (ratings.js), kept only where the row has one. */
function ratingOf(player) {
  const rating = readListedRating(player);
  return rating === null ? {} : { rating };
}

/** Who sits at a listed table, in seat order: [{name, away, rating (ratings.js shownRating, or
 * null)}]. A player without a name is "Player N" in the order listed. */
export function listingPlayers(listing) {
  return (listing.players ?? []).map((p, i) => ({
    name: p.name === '' ? `Player ${i + 1}` : p.name,
    away: p.away === true,
    rating: shownRating(p.rating),
  }));
}
