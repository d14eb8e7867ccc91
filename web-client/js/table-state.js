// The client's copy of one table: pure functions that take a state and a server message and
// return a new state. Nothing here touches the DOM or the network; the caller sends `resync`
// when a function says so.
//
// State shape:
//   { table: null | Table, awaitingSnapshot: boolean }
//   Table = { id, game, version, you, over, deckCount, settings, board: [Card],
//             players: [{seat, name, score, matches, selection: [cardId]}],
//             status: [Run], standings: null | [{seat, name, score, matches, rank}] }
// `standings` is client-side: set by the `over` event (or derived from the players when a
// snapshot shows a finished game), cleared by `redeal`.
//
// Versions (PROTOCOL.md, "Versions"): a diff is applied only when its version is exactly one
// more than ours; an older or equal one is a duplicate and ignored; a newer one means we missed
// something: we ask for a resync and ignore every diff until the next snapshot.

/** The state before any snapshot. */
export function initialState() {
  return { table: null, awaitingSnapshot: false };
}

/** A fresh state from a snapshot's `table` object. Throws TypeError if it is malformed. */
export function applySnapshot(table) {
  if (table === null || typeof table !== 'object') throw new TypeError('snapshot without table');
  if (typeof table.id !== 'string') throw new TypeError('table.id');
  if (!Number.isInteger(table.version) || table.version < 0) throw new TypeError('table.version');
  if (!Array.isArray(table.board)) throw new TypeError('table.board');
  if (!Array.isArray(table.players)) throw new TypeError('table.players');
  const players = table.players.map(copyPlayer);
  const over = table.over === true;
  return {
    table: {
      id: table.id,
      game: table.game,
      version: table.version,
      you: Number.isInteger(table.you) ? table.you : null,
      over,
      deckCount: Number.isInteger(table.deckCount) ? table.deckCount : 0,
      settings: { ...(table.settings ?? {}) },
      board: table.board.map(copyCard),
      players,
      status: Array.isArray(table.status) ? table.status.map((run) => ({ ...run })) : [],
      standings: over ? standingsFromPlayers(players) : null,
    },
    awaitingSnapshot: false,
  };
}

/**
 * Apply one `diff` message. Returns `{state, resync}`: `resync` is true when the caller must send
 * a `resync` message (a version gap, or a diff this client cannot apply faithfully). The given
 * state is never modified.
 */
export function applyDiff(state, diff) {
  const table = state.table;
  if (table === null || state.awaitingSnapshot) return { state, resync: false };
  if (diff.table !== undefined && diff.table !== table.id) return { state, resync: false };
  if (!Number.isInteger(diff.version)) return needSnapshot(state);
  if (diff.version <= table.version) return { state, resync: false };
  if (diff.version > table.version + 1) return needSnapshot(state);
  if (!Array.isArray(diff.events)) return needSnapshot(state);

  const next = structuredClone(table);
  try {
    for (const event of diff.events) applyEvent(next, event);
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) return needSnapshot(state);
    throw error;
  }
  next.version = diff.version;
  return { state: { table: next, awaitingSnapshot: false }, resync: false };
}

/** Apply a `status` message: it replaces the status line when it belongs to our table and to the
 * version we are at (it follows the diff or snapshot with the same version). */
export function applyStatus(state, message) {
  const table = state.table;
  if (table === null || state.awaitingSnapshot) return state;
  if (message.table !== table.id || message.version !== table.version) return state;
  if (!Array.isArray(message.runs)) return state;
  return { ...state, table: { ...table, status: message.runs.map((run) => ({ ...run })) } };
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
function applyEvent(table, event) {
  const handler = Object.hasOwn(EVENT_HANDLERS, event?.kind) ? EVENT_HANDLERS[event.kind] : null;
  if (handler === null) throw new TypeError(`unknown event kind ${event?.kind}`);
  handler(table, event);
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
  match(table, e) {
    const player = playerAt(table, e.seat);
    const cards = new Set(requireArray(e.cards, 'cards'));
    for (const p of table.players) p.selection = p.selection.filter((id) => !cards.has(id));
    player.matches += 1;
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
      p.matches = 0;
    }
    table.over = false;
    table.standings = null;
  },
  over(table, e) {
    table.over = true;
    table.standings = requireArray(e.standings, 'standings').map((s) => ({ ...s }));
  },
};

function playerAt(table, seat) {
  const player = table.players.find((p) => p.seat === seat);
  if (player === undefined) throw new RangeError(`no seat ${seat}`);
  return player;
}

function requireInteger(value, name) {
  if (!Number.isInteger(value)) throw new TypeError(`${name} is not an integer`);
  return value;
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

function copyPlayer(p) {
  if (p === null || typeof p !== 'object' || !Number.isInteger(p.seat)) throw new TypeError('player');
  return {
    seat: p.seat,
    name: typeof p.name === 'string' ? p.name : '',
    score: Number.isInteger(p.score) ? p.score : 0,
    matches: Number.isInteger(p.matches) ? p.matches : 0,
    selection: Array.isArray(p.selection) ? [...p.selection] : [],
  };
}
