// The controller's Daily tab (one of the lobby's tabs): today's or yesterday's board of the daily
// puzzle of the game picked, its answer and its refusal. Only the newest `daily` asked for is
// waited on (requests.js). Functions of the controller (controller.js), which passes itself as `c`.

import * as messages from './messages.js';
import { readDaily } from './daily.js';

/** Ask for the board of the game picked (`ctx.game`); the rows shown stay until it comes. */
export function requestDaily(c, fx, ctx) {
  const id = c.nextId();
  c.requests.replace(id, 'daily', { game: ctx.game ?? 'set', yesterday: c.daily.yesterday });
  c.daily = { ...c.daily, status: 'loading', error: null };
  c.send(fx, ctx, messages.daily(id, ctx.game ?? 'set', c.daily.yesterday), { quiet: true });
  fx.push({ type: 'renderScores' });
}

/** `daily`: the board asked for last (an older question's answer is ignored). */
export function dailyAnswered(c, fx, message) {
  const asked = c.requests.takeIf(message.replyTo, 'daily');
  if (asked === null) return;
  try {
    const answer = readDaily(message);
    c.daily = { ...c.daily, status: 'ready', answer: { ...answer, yesterday: asked.yesterday === true }, error: null };
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
