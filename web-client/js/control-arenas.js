// The controller's arenas (docs/PROTOCOL.md, "Arenas"): the lobby's Arenas tab (its list, asked for when
// the tab opens and every 15 s while it shows), the arena kept and shown in the arena dialog (an
// `arena` snapshot, kept up to date by `arenaStandings`), joining, leaving and watching, the
// featured game followed, and the refusals in words. A new arena table is the table concern's
// (its `snapshot` follows `arenaGame`). Functions of the controller (controller.js), which passes
// itself as `c`; state in `c.arenas` (arenas.js describes it).

import * as messages from './messages.js';
import * as arenaMessages from './arena-messages.js';
import {
  ARENAS_REFRESH_MS, applyStandings, arenaErrorText, readArena, readArenas, winnerText, withArenaInList, withKnownCodes,
} from './arenas.js';
import { arenaCode, readArenaForm } from './arena-model.js';

/** What a list refused says when the server knows no arenas (an older server). */
export const NO_ARENAS = 'This server holds no arenas.';

/** Ask for the list (only the newest question's answer counts); the rows shown stay until it
 * comes, and the list is asked for again in 15 s while the tab shows. */
export function requestArenas(c, fx, ctx) {
  const id = c.nextId();
  c.requests.replace(id, 'arenas');
  c.arenas = { ...c.arenas, status: 'loading', error: null };
  c.send(fx, ctx, arenaMessages.arenas(id), { quiet: true });
  fx.push({ type: 'timer', name: 'arenas', ms: ARENAS_REFRESH_MS }, { type: 'renderArenas' });
}

/** `arenas`: the list asked for last (an older question's answer is ignored). */
function arenasAnswered(c, fx, ctx, message) {
  if (c.requests.takeIf(message.replyTo, 'arenas') === null) return;
  try {
    const list = withKnownCodes(readArenas(message, ctx.now), c.arenas.list, c.arenas.shown);
    c.arenas = { ...c.arenas, status: 'ready', list, error: null };
  } catch (error) {
    fx.push({ type: 'warn', text: 'Unreadable arenas', error });
    c.arenas = { ...c.arenas, status: 'error', error: 'The arenas could not be read.' };
  }
  fx.push({ type: 'renderArenas' });
}

/** The list refused: said in place of it (no toast). */
function arenasRefused(c, fx, message) {
  const text = typeof message.message === 'string' ? message.message : null;
  c.arenas = { ...c.arenas, status: 'error', error: message.code === 'unknownType' ? NO_ARENAS : (text ?? 'The server refused this.') };
  fx.push({ type: 'renderArenas' });
}

/** The message of an arena intention (create, join: they need a session under the name typed,
 * so control-session.js sends them), its answer waited on. */
export function arenaIntentMessage(c, id, intent) {
  if (intent.kind === 'watchArena') {
    // After a redirect to the node that holds it.
    c.requests.add(id, 'arena', { action: 'watch', arena: intent.arena });
    return arenaMessages.watchArena(id, intent.arena);
  }
  c.requests.add(id, 'arena', { action: intent.kind, arena: intent.arena ?? null });
  if (intent.kind === 'createArena') return arenaMessages.createArena(id, intent);
  return arenaMessages.joinArena(id, { arena: intent.arena, code: intent.code });
}

/** Send an arena request now (no name needed, or a session already at a table: a new session
 * would cost its seat). `action`: the kind of answer it waits on. */
function sendArena(c, fx, ctx, action, arena, build) {
  const id = c.nextId();
  if (!c.send(fx, ctx, build(id, arena))) return false;
  c.requests.add(id, 'arena', { action, arena });
  c.arenas = { ...c.arenas, problem: null };
  return true;
}

/** Send an arena intention at once (at a table). */
export function sendArenaIntent(c, fx, ctx, intent) {
  const id = c.nextId();
  const message = arenaIntentMessage(c, id, intent);
  if (!c.send(fx, ctx, message)) c.requests.take(id);
}

/** The create form's values ({game, minutes, startsIn} as the form has them) as an intention,
 * or null after saying what is wrong. */
export function createArenaIntent(c, fx, event) {
  const form = readArenaForm(event);
  if (form.problem !== undefined) return refuse(c, fx, form.problem, form.field);
  c.arenas = { ...c.arenas, problem: null };
  return { kind: 'createArena', ...form };
}

/** Join an arena: by id (`arena`, from the list or the dialog) or by the code typed (`raw`); an
 * intention, or null after saying what is wrong. */
export function joinArenaIntent(c, fx, event) {
  c.arenas = { ...c.arenas, problem: null };
  if (typeof event.arena === 'string' && event.arena !== '') return { kind: 'joinArena', arena: event.arena };
  const code = arenaCode(event.raw);
  if (code === null) return refuse(c, fx, 'An arena code is letters and digits, like K7Q2M9XW4P.', 'arena-code');
  return { kind: 'joinArena', code };
}

function refuse(c, fx, text, target) {
  c.arenas = { ...c.arenas, problem: text };
  fx.push({ type: 'renderArenas' }, { type: 'toast', text }, { type: 'focus', target });
  return null;
}

/** `arena`: the arena whole, kept and shown in the dialog (unless it only refreshed the one
 * kept for the table's arena bar). Its news goes into the list too. */
function arenaReceived(c, fx, ctx, message) {
  const request = c.requests.takeIf(message.replyTo, 'arena');
  let arena;
  try {
    arena = readArena(message, ctx.now);
  } catch (error) {
    fx.push({ type: 'warn', text: 'Unreadable arena', error });
    return;
  }
  const action = request?.action ?? null;
  // Its standings come from now on to a player in it, and to its watcher.
  const live = arena.joined || action === 'watch' || action === 'refresh';
  c.arenas = { ...c.arenas, shown: { ...arena, live }, list: withArenaInList(c.arenas.list, arena), problem: null };
  fx.push({ type: 'renderArenas' });
  if (c.state.table?.arena?.id === arena.id) fx.push({ type: 'render' });
  if (action !== 'refresh') fx.push({ type: 'arenaDialog', open: true });
}

/** `arenaStandings`: the arena kept, live (another arena's are ignored). Its end is told. */
function arenaStandingsReceived(c, fx, ctx, message) {
  const before = c.arenas.shown;
  const next = applyStandings(before, message, ctx.now);
  if (next === before) return;
  c.arenas = { ...c.arenas, shown: next, list: withArenaInList(c.arenas.list, next) };
  fx.push({ type: 'renderArenas' });
  if (c.state.table?.arena?.id === next.id) fx.push({ type: 'render' });
  if (before.phase !== 'finished' && next.phase === 'finished' && next.joined) fx.push({ type: 'toast', text: `${winnerText(next)}.` });
}

/** `arenaGame`: a new game of the arena — mine (a player was paired), or the featured one I
 * follow as a spectator. Its `snapshot` comes next and seats (or moves) me there; the dialog
 * closes for it. */
function arenaGameReceived(c, fx, ctx, message) {
  if (typeof message.table !== 'string' || typeof message.arena !== 'string') return;
  const featured = message.featured === true;
  if (featured) c.requests.drop('featured');
  c.arenas = { ...c.arenas, follow: featured ? { arena: message.arena, table: message.table } : null };
  fx.push({ type: 'arenaDialog', open: false });
}

/** After a snapshot: the featured game is followed only at its table; a player at an arena's
 * table whose standings are not kept (a reload) asks for them, for the arena bar. */
export function arenaAfterSnapshot(c, fx, ctx) {
  const table = c.state.table;
  const follow = c.arenas.follow;
  if (follow !== null && table?.id !== follow.table) c.arenas = { ...c.arenas, follow: null };
  const id = table?.arena?.id;
  if (id === undefined || table.you === null) return;
  const shown = c.arenas.shown;
  if (shown?.id === id && shown.live) return;
  if (c.requests.ofKind('arena').some(([, e]) => e.action === 'refresh' && e.arena === id)) return;
  sendArena(c, fx, ctx, 'refresh', id, arenaMessages.watchArena);
}

/** The arenas' messages from the server, by type: each takes (c, fx, ctx, message). */
export const ARENA_MESSAGES = Object.freeze({
  arenas: arenasAnswered,
  arena: arenaReceived,
  arenaStandings: arenaStandingsReceived,
  arenaGame: arenaGameReceived,
});

/** A refused arena request (`request`: what it was): the list's is said in its place; any other
 * in the Arenas tab and as a toast. Already in it: it is shown instead. */
export function arenaRefused(c, fx, ctx, message, request) {
  if (request.kind === 'arenas') return arenasRefused(c, fx, message);
  const text = arenaErrorText(message.code) ?? (typeof message.message === 'string' ? message.message : 'The server refused that.');
  if (request.action === 'refresh') return; // the arena bar goes without
  c.arenas = { ...c.arenas, problem: text };
  fx.push({ type: 'renderArenas' }, { type: 'toast', text });
  if (message.code === 'alreadyJoined' && typeof request.arena === 'string') sendArena(c, fx, ctx, 'watch', request.arena, arenaMessages.watchArena);
}

/** The Arenas tab shown or not (control-scores.js's `lobbyTab` draws the tabs). */
export function showArenasTab(c, fx, ctx, open) {
  if (open === c.arenas.open) return;
  c.arenas = { ...c.arenas, open };
  if (open) requestArenas(c, fx, ctx);
  else fx.push({ type: 'cancelTimer', name: 'arenas' });
}

/** The arenas' timer: the open tab's list again, while the lobby shows (true: it was ours). */
export function arenasTimer(c, fx, event) {
  if (event.name !== 'arenas') return false;
  if (c.arenas.open && c.state.table === null) requestArenas(c, fx, event);
  return true;
}

/** The arena an event names, else the table's, else the one shown. */
const arenaOf = (c, event) => event.arena ?? c.state.table?.arena?.id ?? c.arenas.shown?.id ?? null;

/** The arenas' events (joining and creating go through controller.js: they need a session). */
export const ARENAS_HANDLERS = {
  /** Leave the arena: {arena}. At its table, the table too (`left` brings the lobby back). */
  leaveArena(c, event, fx) {
    const id = arenaOf(c, event);
    if (id === null || !sendArena(c, fx, event, 'leave', id, arenaMessages.leaveArena)) return;
    if (c.state.table?.arena?.id === id) c.send(fx, event, messages.leave(c.nextId()), { quiet: true });
  },

  /** Watch an arena's standings: {arena}. */
  watchArena(c, event, fx) {
    const id = arenaOf(c, event);
    if (id !== null) sendArena(c, fx, event, 'watch', id, arenaMessages.watchArena);
  },

  /** The arena bar's Standings: the arena kept, or asked for (watched) when its standings do
   * not come. */
  showArena(c, event, fx) {
    const id = arenaOf(c, event);
    const shown = c.arenas.shown;
    if (shown !== null && shown.id === id && shown.live) fx.push({ type: 'renderArenas' }, { type: 'arenaDialog', open: true });
    else if (id !== null) sendArena(c, fx, event, 'watch', id, arenaMessages.watchArena);
  },

  /** Watch the arena's top game, and each next one: {arena}. */
  watchFeatured(c, event, fx) {
    const id = arenaOf(c, event);
    if (id === null) return;
    const rid = c.nextId();
    if (c.send(fx, event, arenaMessages.watchFeatured(rid, id))) c.requests.replace(rid, 'featured', { action: 'featured', arena: id });
  },
};

/** What the arenas do with the news: in the lobby, the open tab asks again; a table left is no
 * longer a featured game followed. */
export const ARENAS_NEWS = {
  lobby(c, fx, ctx, how) {
    if (how === 'back') c.arenas = { ...c.arenas, follow: null };
    if (how !== 'subscribe' && c.arenas.open) requestArenas(c, fx, ctx);
  },
  tableGone(c) {
    c.arenas = { ...c.arenas, follow: null };
  },
  /** A session resumed on a new connection (a reconnect, perhaps to another node after one
   * died) is in the arena it joined, quietly: the server pairs it again when it is free (or
   * sends it to the arena's node). */
  welcome(c, fx, ctx, resumed) {
    const shown = c.arenas.shown;
    if (!resumed || shown === null || !shown.joined || shown.phase === 'finished') return;
    sendArena(c, fx, ctx, 'refresh', shown.id, (id, arena) => arenaMessages.joinArena(id, { arena }));
  },
  /** A new connection may not carry the arena watched: its Standings ask again. */
  connectionLost(c) {
    if (c.arenas.shown !== null) c.arenas = { ...c.arenas, shown: { ...c.arenas.shown, live: c.arenas.shown.joined } };
  },
};
