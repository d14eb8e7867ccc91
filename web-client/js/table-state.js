// The client's copy of one table: pure functions that take a state and a server message and
// return a new state. Nothing here touches the DOM or the network; the caller sends `resync`
// when a function says so.
//
// State shape:
//   { table: null | Table, awaitingSnapshot: boolean }
//   Table = { id, game, version, you, over, deckCount, settings, board: [Card],
//             players: [Player], status: [Run], standings: null | [{seat, name, score, matches, rank}],
//             phase, code, private, seats, host, spectators,
//             countdown, countdownUntil, vote, turn }
//   Player = { seat, name, score, matches, selection: [cardId], connected, away, awayUntil, flips? }
//   Table also has turnSeconds (null: no turn clock), turnUntil (ms deadline of the current turn:
//   the snapshot's turnLeft, then turnSeconds from each `turn` event), history: [Entry] (oldest
//   first; a `history` event appends, `redeal` clears) and lastMatch ({seat, cards, at} of the last
//   `match` event, client-side).
//   Entry = { n, at (seconds into the game, or null), seat, kind: 'match'|'mismatch', points, penalty, runs }
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

/** The table phases, in order. */
export const PHASES = Object.freeze(['waiting', 'countdown', 'playing', 'finished']);

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

function needSnapshot(state) {
  return { state: { ...state, awaitingSnapshot: true }, resync: true };
}

/** One event of a diff, applied in place to a table copy. Throws TypeError/RangeError when the
 * event cannot be applied (unknown kind, unknown seat, slot out of range…). */
function applyEvent(table, event, now) {
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
  redeal(table, e) {
    table.board = requireArray(e.board, 'board').map(copyCard);
    table.deckCount = requireInteger(e.deckCount, 'deckCount');
    for (const p of table.players) {
      p.selection = [];
      p.score = 0;
      if (p.flips !== undefined || countsFlips(table, p.seat)) p.flips = 0;
      p.matches = 0;
    }
    table.over = false;
    table.standings = null;
    // A re-deal starts a game: from `finished` it goes "straight back to playing"; a vote that was
    // open is settled by it.
    if (table.phase === 'finished' || table.phase === 'waiting' || table.phase === 'countdown') table.phase = 'playing';
    table.countdown = null;
    table.countdownUntil = null;
    table.vote = null;
    table.history = [];
    table.lastMatch = null;
  },
  over(table, e) {
    table.over = true;
    table.phase = 'finished';
    table.standings = requireArray(e.standings, 'standings').map((s) => ({ ...s }));
  },
  join(table, e, now) {
    const seat = requireSeat(e.seat);
    const player = copyPlayer({ seat, name: requireString(e.name, 'name'), connected: true }, now);
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
  spectators(table, e) {
    table.spectators = requireCount(e.count, 'count');
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

function playerAt(table, seat) {
  const player = table.players.find((p) => p.seat === seat);
  if (player === undefined) throw new RangeError(`no seat ${seat}`);
  return player;
}

function requireInteger(value, name) {
  if (!Number.isInteger(value)) throw new TypeError(`${name} is not an integer`);
  return value;
}

function requireSeat(value) {
  if (!Number.isInteger(value) || value < 0) throw new TypeError('seat is not a seat number');
  return value;
}

function requireCount(value, name) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new TypeError(`${name} is not a count`);
  return value;
}

function requireString(value, name) {
  if (typeof value !== 'string') throw new TypeError(`${name} is not a string`);
  return value;
}

function isCount(value) {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** A history entry (PROTOCOL.md, `history`): `{n, at, seat, kind, points | penalty, runs}`. */
function isHistoryEntry(entry) {
  return (
    entry !== null &&
    typeof entry === 'object' &&
    Number.isInteger(entry.n) &&
    (entry.kind === 'match' || entry.kind === 'mismatch') &&
    Array.isArray(entry.runs)
  );
}

function copyEntry(entry) {
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

function copyVote(vote) {
  if (vote === null || typeof vote !== 'object' || !Array.isArray(vote.seats) || vote.seats.length === 0) return null;
  return { seats: vote.seats.filter(Number.isInteger), needed: Number.isInteger(vote.needed) ? vote.needed : 0 };
}

/** The snapshot's standings when it has them, else derived from the players. */
function standingsFrom(standings, players) {
  if (Array.isArray(standings)) return standings.map((s) => ({ ...s }));
  return standingsFromPlayers(players);
}

function requireArray(value, name) {
  if (!Array.isArray(value)) throw new TypeError(`${name} is not an array`);
  return value;
}

function copyCard(card) {
  if (card === null || typeof card !== 'object' || !Number.isInteger(card.id)) {
    throw new TypeError('card without id');
  }
  return { ...card };
}

function copyPlayer(p, now) {
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
  };
}
