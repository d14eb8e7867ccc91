// The controller's table: its snapshot and diffs (and what they show: sounds, flashes, points,
// "Bob took that set"), the cards chosen and their answers, re-deal, start, leave (back to the
// lobby: news.js `lobby`), and the errors that concern the table (the hint: control-hint.js).
// Functions of the controller (controller.js), which passes itself as `c`; `fx` is the list of
// effects to fill, `ctx` the event's context.

import { announcement } from './announce.js';
import * as messages from './messages.js';
import { applyDiff, applySnapshot, applySpectators, initialState, isSpectator, mayChoose, mySelection } from './table-state.js';
import { initialLobby } from './lobby-state.js';
import { tableHash } from './route.js';
import { leaveNeedsConfirmation, leaveWarning } from './seats.js';
import { lostRaceText } from './feedback.js';
import { holdsFaces, keptText } from './games.js';
import { soundForError, soundForEvents } from './sounds.js';
import { holdFaces, HOLD_MS } from './face-hold.js';
import { endReplay } from './control-replay.js';
import { requestDailyCompare } from './control-daily.js';
import { chatLeft } from './control-chat.js';
import { turnText } from './turns.js';

/** How long a chosen card waits for its answer before it stops looking pending. */
export const PENDING_MS = 3000;
/** How long the card a mismatch left chosen is pointed at. */
export const KEPT_MS = 2500;
/** What the player reads when a mismatch leaves their last card chosen (course scoring): the
 * game's words for its match size (welcome's description). */
export function keptTextOf(table) {
  return keptText(table.game, table.settings?.matchSize);
}

/** The cards of my mismatch that are still chosen after it (the course's rule keeps the last
 * one): empty when the mismatch let go of all of them, or was not mine. Pure. */
export function keptAfterMismatch(events, you, selectionAfter) {
  if (you === null || you === undefined || !Array.isArray(events)) return [];
  const mine = events.filter((e) => e.kind === 'mismatch' && e.seat === you && Array.isArray(e.cards));
  if (mine.length === 0) return [];
  const chosen = new Set(selectionAfter);
  return mine.at(-1).cards.filter((id) => chosen.has(id));
}

/** What a page opened again at a finished game says. */
export const FINISHED_TEXT = 'Your last game had ended: it is in the high scores.';
/** What a message that could not be sent says. */
export const NOT_CONNECTED = 'Not connected to the server — reconnecting…';

/** No table any more, however it was left: its state, the time played, the faces held up, the
 * choices on their way and its chat go, and the table's screen is reset (`leftTable`). */
export function resetTable(c, fx) {
  c.state = initialState();
  c.playingSince = null;
  c.held = new Map();
  forgetPending(c, fx);
  chatLeft(c, fx);
  fx.push({ type: 'leftTable' });
}

/** No table any more, and back to the lobby (news.js `lobby`, 'back': its list, and the high
 * scores, which may now hold the game just played). */
export function backToLobby(c, fx, ctx) {
  resetTable(c, fx);
  fx.push({ type: 'forgetTable' }, { type: 'hash', hash: null }, { type: 'view', view: 'lobby' });
  c.news.announce('lobby', c, fx, ctx, 'back');
}

/** What the table does with the news: a table lost is reset; a dropped connection's choices
 * are forgotten. */
export const TABLE_NEWS = {
  tableGone(c, fx) {
    resetTable(c, fx);
  },
  connectionLost(c, fx) {
    forgetPending(c, fx);
  },
};

/** Every choice on its way is forgotten (a new table, a dropped connection). */
export function forgetPending(c, fx) {
  c.requests.drop('choose');
  fx.push({ type: 'clearPending' });
}

/** My choice `replyTo` answered (by a diff of my seat, an error or its timer): no longer pending. */
function settleChoice(c, fx, replyTo, seat) {
  if (seat !== c.state.table?.you || c.requests.takeIf(replyTo, 'choose') === null) return;
  if (c.requests.count('choose') === 0) fx.push({ type: 'clearPending' });
}

/** Send `choose` for a card (a click, a key, an un-choose) if I may choose now. The card shows
 * pending only once the message is on its way. */
function choose(c, fx, ctx, card) {
  if (!mayChoose(c.state)) {
    // A turn-based game's click out of turn says whose turn it is, rather than nothing.
    const table = c.state.table;
    if (table !== null && table.you !== null && !table.over && table.phase === 'playing') {
      const whose = turnText(table);
      if (whose !== '' && whose !== 'Your turn') fx.push({ type: 'toast', text: `Not your turn: it is ${whose}.` });
    }
    return;
  }
  // Every rule is the server's: a choice it refuses (Set-Chain's `chainRule`…) comes back as an
  // error that says why.
  const id = c.nextId();
  if (!c.send(fx, ctx, messages.choose(id, card))) return;
  c.requests.add(id, 'choose', { card });
  // In case the answer never comes.
  fx.push({ type: 'markPending', card }, { type: 'timer', name: 'pending', id, ms: PENDING_MS });
}

/** Leave the table: `left` brings us back to the lobby. */
export function leave(c, fx, ctx) {
  if (c.state.table === null) return;
  if (c.send(fx, ctx, messages.leave(c.nextId()), { quiet: true })) return;
  // Offline: the seat is released after the grace period; do not let the session take it back.
  fx.push({ type: 'restart' });
  backToLobby(c, fx, ctx);
}

function noteGameStarted(c, now) {
  if (c.state.table?.phase === 'playing' && c.playingSince === null) c.playingSince = now;
}

/** `snapshot`: the whole table (a new one, or ours again after a gap). */
export function snapshot(c, fx, ctx, message) {
  let next;
  try {
    next = applySnapshot(message.table, ctx.now);
  } catch (error) {
    fx.push({ type: 'warn', text: 'Unreadable snapshot', error });
    return;
  }
  if (c.reloading) {
    c.reloading = false;
    // The page was opened again at a game that has ended since: the lobby, not its old
    // game-over screen (the game is in the high scores).
    if (next.table.over) {
      c.send(fx, ctx, messages.leave(c.nextId()), { quiet: true });
      backToLobby(c, fx, ctx);
      fx.push({ type: 'toast', text: FINISHED_TEXT });
      return;
    }
  }
  const changedTable = c.state.table?.id !== next.table.id;
  c.state = next;
  endReplay(c); // sitting or watching ends a replay
  c.heardFromTable = true;
  c.requests.drop('join');
  c.lobby = initialLobby(); // sitting or watching ends the lobby subscription
  forgetPending(c, fx);
  const code = next.table.code;
  fx.push({ type: 'rememberTable', code });
  if (code !== null) fx.push({ type: 'hash', hash: tableHash(code, next.table.game) });
  if (changedTable) {
    fx.push({ type: 'tableChanged' });
    c.playingSince = null;
    c.held = new Map();
  }
  noteGameStarted(c, ctx.now);
  fx.push({ type: 'view', view: 'table' }, { type: 'render' });
  if (changedTable && isSpectator(c.state)) fx.push({ type: 'toast', text: 'You are watching this table.' });
}

/** `diff`: the table's changes, and what they show beyond the table drawn again. */
/** A `spectators` message: the count in the header, nothing else. */
export function spectatorsCounted(c, fx, message) {
  const next = applySpectators(c.state, message);
  if (next === c.state) return;
  c.state = next;
  fx.push({ type: 'render' });
}

export function diff(c, fx, ctx, message) {
  if (c.state.table !== null && message.table === c.state.table.id) c.heardFromTable = true;
  const before = c.state;
  const result = applyDiff(before, message, ctx.now);
  c.state = result.state;
  if (result.resync) {
    c.send(fx, ctx, messages.resync(c.nextId()));
    return;
  }
  settleChoice(c, fx, message.replyTo, message.seat);
  const table = c.state.table;
  if (c.state === before || table === null || !Array.isArray(message.events)) {
    fx.push({ type: 'render' });
    return;
  }
  const events = message.events;
  holdHiddenFaces(c, fx, before.table, events, ctx.now);
  const matches = events
    .filter((e) => e.kind === 'match' && Array.isArray(e.cards))
    .map((e) => ({ cards: e.cards, points: e.points }));
  if (matches.length > 0) fx.push({ type: 'measureMatches', table: before.table, matches });
  fx.push({ type: 'render' });
  const sound = soundForEvents(events, table.you, mySelection(before));
  if (sound !== null) fx.push({ type: 'sound', name: sound });
  const turnBased = Number.isInteger(table.turn);
  for (const event of events) {
    // A mismatch shakes the cards: mine, or anyone's where everyone watches one player's turn.
    if (event.kind === 'mismatch' && Array.isArray(event.cards) && (event.seat === table.you || turnBased)) {
      fx.push({ type: 'flash', cards: event.cards, kind: 'mismatch', ms: 450 });
    }
  }
  if (matches.length > 0) fx.push({ type: 'showMatches' });
  const spoken = announcement(message, table.you, mySelection(c.state).length > 0);
  if (spoken !== null) fx.push({ type: 'announce', text: spoken });
  const kept = keptAfterMismatch(events, table.you, mySelection(c.state));
  if (kept.length > 0) {
    fx.push({ type: 'flash', cards: kept, kind: 'kept', ms: KEPT_MS });
    const text = keptTextOf(table);
    if (text !== '') fx.push({ type: 'toast', text });
  }
  // Someone else's match took a card I had chosen: say who was faster.
  const mineBefore = new Set(mySelection(before));
  const took = events.some(
    (e) => e.kind === 'match' && e.seat !== table.you && Array.isArray(e.cards) && e.cards.some((id) => mineBefore.has(id)),
  );
  if (took) fx.push({ type: 'toast', text: lostRaceText(table, ctx.now) ?? 'Someone was faster' });
  // A daily puzzle just ended: how did it go against everyone's that day?
  if (table.daily !== null && table.over && before.table?.over === false) requestDailyCompare(c, fx, ctx, table);
  noteGameStarted(c, ctx.now);
}

/** A game that holds faces (Concentration): the faces a `hide` turns down stay up a moment
 * (face-hold.js); the view draws them until the `unhold` timer, which restarts while any face is
 * held. */
function holdHiddenFaces(c, fx, table, events, now) {
  if (!holdsFaces(table?.game)) return;
  c.held = holdFaces(c.held, table, events, now);
  if (c.held.size > 0) fx.push({ type: 'timer', name: 'unhold', ms: HOLD_MS });
}

/** My choice refused: the sound of it, no longer pending, and when someone's match took the card
 * a moment ago, "Bob took that set" and a resync (true: nothing more to say). */
export function choiceRefused(c, fx, ctx, message) {
  const sound = soundForError(message.code);
  if (sound !== null) fx.push({ type: 'sound', name: sound });
  if (c.requests.count('choose') === 0) fx.push({ type: 'clearPending' });
  if (message.code !== 'cardNotOnTable' || c.state.table === null) return false;
  const lost = lostRaceText(c.state.table, ctx.now);
  if (lost === null) return false;
  fx.push({ type: 'toast', text: lost });
  c.send(fx, ctx, messages.resync(c.nextId()));
  return true;
}

/** Any refusal at a table (after its toast): a stale copy asks for the table again; a table we
 * are no longer at takes us back to the lobby. */
export function tableRefused(c, fx, ctx, message) {
  if (c.state.table === null) return;
  if (message.code === 'cardNotOnTable' || message.code === 'gameOver' || message.code === 'notPlaying') {
    // We showed a card (or a phase) the server no longer has: our copy is stale.
    c.send(fx, ctx, messages.resync(c.nextId()));
  } else if (message.code === 'notAtTable') {
    // A spectator's session came back without its watching (the server restarted, and only
    // seats are kept): it watches again. Anyone else has lost the table.
    if (isSpectator(c.state) && watchAgain(c, fx, ctx)) return;
    backToLobby(c, fx, ctx);
  }
}

/** A spectator whose session lost its watching (its node died, or the server restarted) asks
 * to watch the same table again, by its invite code (the id where it has none): the answer is
 * its snapshot, a redirect to the node that holds it now, or a refusal (`watchAgainRefused`).
 * False when offline. */
export function watchAgain(c, fx, ctx) {
  const table = c.state.table;
  const id = c.nextId();
  const target = typeof table.code === 'string' && table.code !== '' ? { code: table.code } : { table: table.id };
  if (!c.send(fx, ctx, messages.spectate(id, target), { quiet: true })) return false;
  c.requests.add(id, 'watchAgain');
  return true;
}

/** The table's events: each takes the controller, the event and the effects. */
export const TABLE_HANDLERS = {
  /** Leave the table (after any confirmation). */
  leave(c, event, fx) {
    leave(c, fx, event);
  },

  /** The leave button: ask first when a game in progress would be thrown away. */
  askLeave(c, event, fx) {
    if (leaveNeedsConfirmation(c.state.table)) {
      fx.push({ type: 'dialog', name: 'confirm-leave', open: true, text: leaveWarning(c.state.table) });
    }
    else leave(c, fx, event);
  },

  /** The re-deal button: alone, after a confirmation; at a multiplayer table, a vote. */
  askRedeal(c, event, fx) {
    const table = c.state.table;
    // At an arena's table the next game is the arena's (the server refuses with `arenaRule`).
    if (table === null || isSpectator(c.state) || table.arena != null) return;
    if (table.seats === 1) fx.push({ type: 'dialog', name: 'confirm-redeal', open: true });
    else c.send(fx, event, messages.redeal(c.nextId()));
  },

  /** A re-deal confirmed, or a vote to play again. */
  redeal(c, event, fx) {
    if (c.state.table?.arena != null) return;
    c.send(fx, event, messages.redeal(c.nextId()));
  },

  /** The host starts the game before every seat is taken. */
  /** The offer's "Add a computer", with its level. */
  addComputer(c, event, fx) {
    c.send(fx, event, messages.addComputer(c.nextId(), event.level));
  },

  start(c, event, fx) {
    c.send(fx, event, messages.start(c.nextId()));
  },

  /** A card clicked, tapped or picked by its key. */
  choose(c, event, fx) {
    choose(c, fx, event, event.card);
  },

  /** Un-choose my chosen cards (all, or the last one) through the same path as a click. */
  unchoose(c, event, fx) {
    const pending = new Set(c.requests.ofKind('choose').map(([, entry]) => entry.card));
    const mine = mySelection(c.state).filter((id) => !pending.has(id));
    for (const id of event.all ? [...mine].reverse() : mine.slice(-1)) choose(c, fx, event, id);
  },

  /** Messages that could not be sent after all ({ids}: the connection was not open when the
   * effect ran): a choice among them is not pending, and the player is told. */
  unsent(c, event, fx) {
    const choices = (event.ids ?? []).map((id) => c.requests.take(id)).filter((entry) => entry?.kind === 'choose');
    if (choices.length === 0) return;
    fx.push({ type: 'clearPending' });
    for (const [, entry] of c.requests.ofKind('choose')) fx.push({ type: 'markPending', card: entry.card });
    fx.push({ type: 'toast', text: NOT_CONNECTED });
  },
};

/** The table's timers (controller.js `timer` passes them on): true when `name` was one. */
export function tableTimer(c, fx, event) {
  switch (event.name) {
    case 'pending':
      settleChoice(c, fx, event.id, c.state.table?.you);
      return true;
    case 'resume':
      if (c.state.table !== null && !c.heardFromTable) c.send(fx, event, messages.resync(c.nextId()), { quiet: true });
      return true;
    case 'unhold':
      c.held = new Map();
      fx.push({ type: 'render' });
      return true;
    default:
      return false;
  }
}
