// The client's copy of one table: pure functions that take a state and a server message and
// return a new state. Nothing here touches the DOM or the network; the caller sends `resync`
// when a function says so.
//
// State shape:
//   { table: null | Table, awaitingSnapshot: boolean }
//   Table = { id, game, version, you, over, deckCount, settings, board: [Card], chain: null | [Card],
//             players: [Player], status: [Run], standings: null | [{seat, name, score, matches, rank}],
//             phase, code, private, seats, host, spectators,
//             countdown, countdownUntil, vote, turn }
//   Player = { seat, name, score, matches, selection: [cardId], connected, away, awayUntil, flips?,
//              rating? (ratings.js: absent when none is shown) }
//   Table also has turnSeconds (null: no turn clock), turnUntil (ms deadline of the current turn:
//   the snapshot's turnLeft, then turnSeconds from each `turn` event), history: [Entry] (oldest
//   first; a `history` event appends, `redeal` clears) and lastMatch ({seat, cards, at} of the last
//   `match` event, client-side), daily (the daily puzzle's day, or null) and dailyCompare (how
//   that puzzle went against everyone's that day, once asked for at its end: look-back.js);
//   computerOffer (whether a computer player is offered to the host waiting alone); arena (an
//   arena's table: {id, name, sets, endsAt (ms: the sprint's end)}, arenas.js readTableArena; else null).
//   Entry = { n, at (seconds into the game, or null), seat, kind: 'match'|'mismatch', points, penalty, runs }
//   ratingChanges ({seat: change}) is what the game just played did to each seat's rating, once
//   `seatRatings` says (ratings.js applySeatRatings; a re-deal empties it).
// Set-Chain: `chain` is the previous set, beside the board (its cards are chosen by id like the
// board's); `[]` before a deal's first set; a `chain` event replaces it, `redeal` empties it.
// Other games have no chain (null).
// Face-down games (Matchismo, Concentration): a board entry's `id` is its slot handle; `flip`
// replaces the entry with the same id, `hide` turns entries back down, `turn` says whose turn it
// is (Concentration; `turn` is null otherwise) and players carry `flips`.
// Hidden selections (`settings.showSelections` false): a player is sent only their own `select`,
// `deselect` and `flip` events, and only their own `flips`; a `flip` without a seat shows a card
// an opponent matched.
// `players` lists occupied seats only, in seat order. `you` is null for a spectator.
// `standings` is client-side: set by the `over` event (or derived from the players when a
// snapshot shows a finished game), cleared by `redeal`.
// Timers: the server says "N seconds left" (`countdown`, a player's `away`); we keep the number as
// sent and also the absolute deadline `now + N·1000` (ms, `countdownUntil`, `awayUntil`) so the
// view can count down locally (secondsLeft). `now` is a parameter, so these stay pure.
// `vote` is `{seats: [seat], needed}` while a re-deal vote is open, else null.
//
// Versions (PROTOCOL.md, "Versions"): a diff is applied only when its version is exactly one
// more than ours; an older or equal one is a duplicate and ignored; a newer one means we missed
// something: we ask for a resync and ignore every diff until the next snapshot.
// The events themselves are table-events.js's; the checks and copies of fields table-values.js's.

import { applyEvent } from './table-events.js';
import { PHASES, copyCard, copyEntry, copyPlayer, copyVote, isCount, isHistoryEntry, standingsFrom } from './table-values.js';
import { readTableArena } from './arenas.js';

export { PHASES, standingsFromPlayers } from './table-values.js';
export { countsFlips, selectionsShown } from './table-events.js';

/** The state before any snapshot. */
export function initialState() {
  return { table: null, awaitingSnapshot: false };
}

/** A fresh state from a snapshot's `table` object, received at time `now` (ms). Throws TypeError
 * if it is malformed. Fields a solo server of the first version leaves out get defaults: a one-seat
 * table in phase `playing` (or `finished` when over), hosted by `you`, nobody watching. */
export function applySnapshot(table, now = Date.now()) {
  if (table === null || typeof table !== 'object') throw new TypeError('snapshot without table');
  if (typeof table.id !== 'string') throw new TypeError('table.id');
  if (!Number.isInteger(table.version) || table.version < 0) throw new TypeError('table.version');
  if (!Array.isArray(table.board)) throw new TypeError('table.board');
  if (!Array.isArray(table.players)) throw new TypeError('table.players');
  const players = table.players.map((p) => copyPlayer(p, now)).sort((a, b) => a.seat - b.seat);
  const you = Number.isInteger(table.you) ? table.you : null;
  const phase = PHASES.includes(table.phase) ? table.phase : table.over === true ? 'finished' : 'playing';
  const over = table.over === true || phase === 'finished';
  const countdown = phase === 'countdown' && isCount(table.countdown) ? table.countdown : null;
  return {
    table: {
      id: table.id,
      game: table.game,
      version: table.version,
      you,
      over,
      deckCount: Number.isInteger(table.deckCount) ? table.deckCount : 0,
      settings: { ...(table.settings ?? {}) },
      board: table.board.map(copyCard),
      chain: Array.isArray(table.chain) ? table.chain.map(copyCard) : null,
      players,
      status: Array.isArray(table.status) ? table.status.map((run) => ({ ...run })) : [],
      standings: over ? standingsFrom(table.standings, players) : null,
      phase,
      code: typeof table.code === 'string' ? table.code : null,
      private: table.private === true,
      seats: Number.isInteger(table.seats) && table.seats > 0 ? table.seats : Math.max(1, players.length),
      host: Number.isInteger(table.host) ? table.host : (you ?? players[0]?.seat ?? null),
      spectators: Number.isInteger(table.spectators) && table.spectators >= 0 ? table.spectators : 0,
      countdown,
      countdownUntil: countdown === null ? null : now + countdown * 1000,
      vote: copyVote(table.vote),
      turn: Number.isInteger(table.turn) ? table.turn : null,
      turnSeconds: isCount(table.turnSeconds) && table.turnSeconds > 0 ? table.turnSeconds : null,
      turnUntil: Number.isInteger(table.turn) && isCount(table.turnLeft) ? now + table.turnLeft * 1000 : null,
      history: Array.isArray(table.history) ? table.history.filter(isHistoryEntry).map(copyEntry) : [],
      lastMatch: null,
      daily: typeof table.daily === 'string' ? table.daily : null,
      computerOffer: table.computerOffer === true,
      arena: readTableArena(table.arena, now),
      dailyCompare: null,
      ratingChanges: {},
    },
    awaitingSnapshot: false,
  };
}

/**
 * Apply one `diff` message. Returns `{state, resync}`: `resync` is true when the caller must send
 * a `resync` message (a version gap, or a diff this client cannot apply faithfully). The given
 * state is never modified. `now` (ms) turns the seconds of `away` and `countdown` into deadlines.
 */
export function applyDiff(state, diff, now = Date.now()) {
  const table = state.table;
  if (table === null || state.awaitingSnapshot) return { state, resync: false };
  if (diff.table !== undefined && diff.table !== table.id) return { state, resync: false };
  if (!Number.isInteger(diff.version)) return needSnapshot(state);
  if (diff.version <= table.version) return { state, resync: false };
  if (diff.version > table.version + 1) return needSnapshot(state);
  if (!Array.isArray(diff.events)) return needSnapshot(state);

  const next = structuredClone(table);
  try {
    for (const event of diff.events) applyEvent(next, event, now);
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) return needSnapshot(state);
    throw error;
  }
  next.version = diff.version;
  // Protocol v2: a change's status line travels inside its diff (absent: unchanged).
  if (Array.isArray(diff.status)) next.status = diff.status.map((run) => ({ ...run }));
  return { state: { table: next, awaitingSnapshot: false }, resync: false };
}

/**
 * Apply a `spectators` message: how many watch the table now. It is no change of the game (no
 * version): it comes at most once a second, apart from the diffs. The given state is never
 * modified; a message for another table, or a count that is not one, changes nothing.
 */
export function applySpectators(state, message) {
  const table = state.table;
  if (table === null || message.table !== table.id) return state;
  if (!Number.isInteger(message.count) || message.count < 0 || message.count === table.spectators) return state;
  return { ...state, table: { ...table, spectators: message.count } };
}

/** My seat's player record, or null (no table, or a spectator). */
export function myPlayer(state) {
  const table = state.table;
  if (table === null || table.you === null) return null;
  return table.players.find((p) => p.seat === table.you) ?? null;
}

/** The card ids I have chosen, in the order chosen. */
export function mySelection(state) {
  return myPlayer(state)?.selection ?? [];
}

/** True when I watch this table rather than sit at it. */
export function isSpectator(state) {
  return state.table !== null && state.table.you === null;
}

/** True when I sit in the host's seat. */
export function isHost(state) {
  const table = state.table;
  return table !== null && table.you !== null && table.host === table.you;
}

/** Whether I may choose a card now: seated (not watching) at a table in play whose game is not
 * over and, at a turn-based table, on my turn. The one answer to "may I choose?": the controller
 * sends a choice only then, and the board is drawn disabled otherwise. */
export function mayChoose(state) {
  const table = state.table;
  if (table === null || table.you === null || table.over || table.phase !== 'playing') return false;
  return !Number.isInteger(table.turn) || table.turn === table.you;
}

/** For every card in some selection, the seats whose selection holds it (ascending):
 * `Map(cardId → [seat])`. */
export function selectionsByCard(table) {
  const result = new Map();
  if (table === null) return result;
  for (const p of [...table.players].sort((a, b) => a.seat - b.seat)) {
    for (const id of p.selection) {
      const seats = result.get(id);
      if (seats === undefined) result.set(id, [p.seat]);
      else if (!seats.includes(p.seat)) seats.push(p.seat);
    }
  }
  return result;
}

/** Whole seconds left before `deadline` (ms) at `now` (ms), rounded up, never below 0; null for
 * no deadline. 2.4 s left shows as 3, as a countdown should ("3, 2, 1" then 0). */
export function secondsLeft(deadline, now) {
  if (deadline === null || deadline === undefined || !Number.isFinite(deadline)) return null;
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

function needSnapshot(state) {
  return { state: { ...state, awaitingSnapshot: true }, resync: true };
}
