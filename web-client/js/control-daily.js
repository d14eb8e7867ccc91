// The controller's Daily tab (one of the lobby's tabs): today's or yesterday's board of the daily
// puzzle of the game picked, its answer and its refusal. Only the newest `daily` asked for is
// waited on (requests.js). Functions of the controller (controller.js), which passes itself as `c`.

import * as messages from './messages.js';
import { readDaily, utcDay } from './daily.js';
import { DEFAULT_GAME } from './games.js';
import { readDailyCompare } from './look-back.js';

/** Ask for the board of the game picked (`ctx.game`); the rows shown stay until it comes. */
export function requestDaily(c, fx, ctx) {
  const id = c.nextId();
  c.requests.replace(id, 'daily', { game: ctx.game ?? DEFAULT_GAME, yesterday: c.daily.yesterday });
  c.daily = { ...c.daily, status: 'loading', error: null };
  c.send(fx, ctx, messages.daily(id, ctx.game ?? DEFAULT_GAME, c.daily.yesterday), { quiet: true });
  fx.push({ type: 'renderScores' });
}

/** A daily puzzle just ended at `table`: ask for today's board, whose `compare` says how the
 * player did against everyone that day (shown in the game-over look back). */
export function requestDailyCompare(c, fx, ctx, table) {
  const id = c.nextId();
  c.requests.replace(id, 'dailyCompare', { table: table.id });
  c.send(fx, ctx, messages.daily(id, table.game ?? DEFAULT_GAME, false), { quiet: true });
}

/** Today's attempt at `game` (on the UTC `day`) is used: the lobby's daily button says so, in
 * this browser from now on (kept, as the muted names are). */
export function markDailyPlayed(c, fx, game, day) {
  if (typeof game !== 'string' || typeof day !== 'string' || c.dailyPlayed[game] === day) return;
  c.dailyPlayed = { ...c.dailyPlayed, [game]: day };
  fx.push({ type: 'saveDailyPlayed', played: c.dailyPlayed }, { type: 'renderLobby' });
}

/** A snapshot of a daily puzzle's table we sit at: its day's attempt is used. */
export function dailyAfterSnapshot(c, fx) {
  c.requests.drop('playDaily');
  const table = c.state.table;
  if (table !== null && table.daily !== null && table.you !== null) markDailyPlayed(c, fx, table.game, table.daily);
}

/** `playDaily` refused with `alreadyPlayed` (started before, in another tab or browser). */
export function playDailyRefused(c, fx, ctx, message, request) {
  if (message.code === 'alreadyPlayed') markDailyPlayed(c, fx, request.game, utcDay(ctx.now));
}

/** The answer to requestDailyCompare: the comparison goes into the table it was asked for (still
 * the one shown), for its look back. True when it was that answer. */
function dailyCompareAnswered(c, fx, message) {
  const asked = c.requests.takeIf(message.replyTo, 'dailyCompare');
  if (asked === null) return false;
  const table = c.state.table;
  const compare = readDailyCompare(message.compare ?? null);
  if (table !== null && table.id === asked.table && compare !== null && compare.day === table.daily) {
    c.state = { ...c.state, table: { ...table, dailyCompare: compare } };
    fx.push({ type: 'render' });
  }
  return true;
}

/** `daily`: the board asked for last (an older question's answer is ignored). */
export function dailyAnswered(c, fx, message) {
  if (dailyCompareAnswered(c, fx, message)) return;
  const asked = c.requests.takeIf(message.replyTo, 'daily');
  if (asked === null) return;
  try {
    const answer = readDaily(message);
    c.daily = { ...c.daily, status: 'ready', answer: { ...answer, yesterday: asked.yesterday === true }, error: null };
    if (asked.yesterday !== true && message.played === true) markDailyPlayed(c, fx, answer.game ?? asked.game, answer.day);
  } catch (error) {
    fx.push({ type: 'warn', text: 'Unreadable daily board', error });
    c.daily = { ...c.daily, status: 'error', error: 'The daily board could not be read.' };
  }
  fx.push({ type: 'renderScores' });
}

/** The newest `daily` refused: said in place of the rows (the server's words). */
export function dailyRefused(c, fx, message) {
  c.daily = { ...c.daily, status: 'error', answer: null, error: typeof message.message === 'string' ? message.message : 'The server refused this.' };
  fx.push({ type: 'renderScores' });
}

/** The Daily tab's events. */
export const DAILY_HANDLERS = {
  /** Today's or yesterday's board: {yesterday}. */
  dailyDay(c, event, fx) {
    const yesterday = event.yesterday === true;
    if (yesterday === c.daily.yesterday && c.daily.status !== 'error') return;
    c.daily = { ...c.daily, yesterday };
    if (c.daily.open) requestDaily(c, fx, event);
  },
};

/** What the Daily tab does with the news: in the lobby, an open tab asks again. */
export const DAILY_NEWS = {
  lobby(c, fx, ctx, how) {
    if (how !== 'subscribe' && c.daily.open) requestDaily(c, fx, ctx);
  },
};
