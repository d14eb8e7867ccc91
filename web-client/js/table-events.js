// One event of a diff (PROTOCOL.md, "Events"), applied in place to the copy of a table that
// table-state.js applyDiff makes. An event that cannot be applied throws a TypeError or
// RangeError (an unknown kind, an unknown seat, a slot out of range…), and the diff asks for a
// snapshot.

import {
  PHASES, copyCard, copyEntry, copyPlayer, isHistoryEntry, playerAt, requireArray, requireCount, requireInteger,
  requireSeat, requireString, standingsFromPlayers,
} from './table-values.js';

/** One event of a diff, applied in place to a table copy. Throws TypeError/RangeError when the
 * event cannot be applied (unknown kind, unknown seat, slot out of range…). */
export function applyEvent(table, event, now) {
  const handler = Object.hasOwn(EVENT_HANDLERS, event?.kind) ? EVENT_HANDLERS[event.kind] : null;
  if (handler === null) throw new TypeError(`unknown event kind ${event?.kind}`);
  handler(table, event, now);
}

const EVENT_HANDLERS = {
  select(table, e) {
    const player = playerAt(table, e.seat);
    requireInteger(e.card, 'card');
    if (!player.selection.includes(e.card)) player.selection.push(e.card);
  },
  deselect(table, e) {
    const player = playerAt(table, e.seat);
    player.selection = player.selection.filter((id) => id !== e.card);
  },
  match(table, e, now) {
    const player = playerAt(table, e.seat);
    const cards = new Set(requireArray(e.cards, 'cards'));
    for (const p of table.players) p.selection = p.selection.filter((id) => !cards.has(id));
    player.matches += 1;
    // Face-down games keep matched cards on the board, out of play (a snapshot says `matched`).
    table.board = table.board.map((c) => (cards.has(c.id) && c.faceUp !== undefined ? { ...c, matched: true } : c));
    // Who took which cards, and when: a choice of mine refused with cardNotOnTable right after
    // can then say who was faster.
    table.lastMatch = { seat: e.seat, cards: [...cards], at: now };
  },
  mismatch(table, e) {
    // Nothing to change: the deselect events that follow say which cards leave the selection.
    playerAt(table, e.seat);
  },
  score(table, e) {
    const player = playerAt(table, e.seat);
    player.score = requireInteger(e.score, 'score');
  },
  replace(table, e) {
    const slot = requireInteger(e.slot, 'slot');
    if (slot < 0 || slot >= table.board.length) throw new RangeError(`slot ${slot}`);
    table.board[slot] = copyCard(e.card);
  },
  remove(table, e) {
    const cards = new Set(requireArray(e.cards, 'cards'));
    table.board = table.board.filter((card) => !cards.has(card.id));
  },
  deal(table, e) {
    table.board.push(...requireArray(e.cards, 'cards').map(copyCard));
  },
  deck(table, e) {
    table.deckCount = requireInteger(e.count, 'count');
  },
  chain(table, e) {
    // Set-Chain: the set just taken is the chain now; the old chain's cards are gone.
    table.chain = requireArray(e.cards, 'cards').map(copyCard);
  },
  redeal(table, e) {
    table.board = requireArray(e.board, 'board').map(copyCard);
    table.deckCount = requireInteger(e.deckCount, 'deckCount');
    // A new deal's chain is empty until its first set (Set-Chain; other games have none).
    if (Array.isArray(table.chain)) table.chain = [];
    for (const p of table.players) {
      p.selection = [];
      p.score = 0;
      if (p.flips !== undefined || countsFlips(table, p.seat)) p.flips = 0;
      p.matches = 0;
    }
    table.over = false;
    table.standings = null;
    table.lookBack = null;
    // A re-deal starts a game: from `finished` it goes "straight back to playing"; a vote that was
    // open is settled by it.
    if (table.phase === 'finished' || table.phase === 'waiting' || table.phase === 'countdown') table.phase = 'playing';
    table.countdown = null;
    table.countdownUntil = null;
    table.vote = null;
    table.history = [];
    table.lastMatch = null;
    table.ratingChanges = {};
  },
  over(table, e) {
    table.over = true;
    table.phase = 'finished';
    table.standings = requireArray(e.standings, 'standings').map((s) => ({ ...s }));
  },
  computerOffer(table, e) {
    // A computer player offered to the host waiting alone, or no longer.
    if (typeof e.open !== 'boolean') throw new TypeError('computerOffer.open');
    table.computerOffer = e.open;
  },
  lookBack(table, e) {
    // The game's look back (PROTOCOL.md, "The look back"), read by look-back.js when shown.
    if (e.lookBack === null || typeof e.lookBack !== 'object') throw new TypeError('lookBack');
    table.lookBack = e.lookBack;
  },
  join(table, e, now) {
    const seat = requireSeat(e.seat);
    const player = copyPlayer({ seat, name: requireString(e.name, 'name'), connected: true, bot: e.bot }, now);
    if (countsFlips(table, seat)) player.flips = 0;
    table.players = table.players.filter((p) => p.seat !== seat);
    table.players.push(player);
    table.players.sort((a, b) => a.seat - b.seat);
  },
  leave(table, e) {
    playerAt(table, e.seat);
    table.players = table.players.filter((p) => p.seat !== e.seat);
    if (table.vote !== null) table.vote = { ...table.vote, seats: table.vote.seats.filter((s) => s !== e.seat) };
  },
  away(table, e, now) {
    const player = playerAt(table, e.seat);
    const seconds = requireCount(e.seconds, 'seconds');
    player.connected = false;
    player.away = seconds;
    player.awayUntil = now + seconds * 1000;
  },
  back(table, e) {
    const player = playerAt(table, e.seat);
    player.connected = true;
    player.away = null;
    player.awayUntil = null;
  },
  host(table, e) {
    // No seat: nobody is left to host.
    table.host = e.seat === undefined || e.seat === null ? null : requireSeat(e.seat);
  },
  phase(table, e, now) {
    if (!PHASES.includes(e.phase)) throw new TypeError(`phase ${e.phase}`);
    table.phase = e.phase;
    if (e.phase === 'countdown') {
      table.countdown = requireCount(e.countdown, 'countdown');
      table.countdownUntil = now + table.countdown * 1000;
    } else {
      table.countdown = null;
      table.countdownUntil = null;
    }
    if (e.phase === 'finished') {
      table.over = true;
      if (table.standings === null) table.standings = standingsFromPlayers(table.players);
    } else {
      table.over = false;
      table.standings = null;
    }
  },
  // Face-down games (Matchismo, Concentration): board ids are slot handles.
  flip(table, e) {
    const card = copyCard(e.card);
    const i = table.board.findIndex((c) => c.id === card.id);
    if (i === -1) throw new RangeError(`no slot ${card.id}`);
    table.board[i] = card;
    // Each card a player turns up is one flip (the snapshot's `flips` counts the same way). A flip
    // without a seat shows an opponent's hidden card as their claim is judged: nobody's flip.
    const player = Number.isInteger(e.seat) ? table.players.find((p) => p.seat === e.seat) : undefined;
    if (player !== undefined && (player.flips !== undefined || countsFlips(table, player.seat))) {
      player.flips = (player.flips ?? 0) + 1;
    }
  },
  hide(table, e) {
    const ids = new Set(requireArray(e.cards, 'cards'));
    table.board = table.board.map((c) => (ids.has(c.id) ? { id: c.id, faceUp: false } : c));
  },
  turn(table, e, now) {
    table.turn = requireSeat(e.seat);
    playerAt(table, e.seat);
    // Every turn starts with the table's whole turn time (none: no clock).
    table.turnUntil = table.turnSeconds === null ? null : now + table.turnSeconds * 1000;
  },
  history(table, e) {
    if (!isHistoryEntry(e.entry)) throw new TypeError('history entry');
    table.history.push(copyEntry(e.entry));
  },
  vote(table, e) {
    const seats = requireArray(e.seats, 'seats');
    seats.forEach(requireSeat);
    table.vote = seats.length === 0 ? null : { seats: [...seats], needed: requireCount(e.needed, 'needed') };
  },
};

/** Whether this client counts `seat`'s flips: in face-down games, every seat's while players see
 * each other's selections (and always for a spectator), otherwise only its own (the snapshot
 * leaves the others' out). */
export function countsFlips(table, seat) {
  if (table.settings?.faceDown !== true) return false;
  return table.settings?.showSelections !== false || table.you === null || seat === table.you;
}

/** Whether players at this table see each other's selections (spectators always do). */
export function selectionsShown(table) {
  return table.settings?.showSelections !== false;
}
