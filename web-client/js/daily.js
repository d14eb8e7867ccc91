// The daily puzzle's board (PROTOCOL.md, "The daily puzzle"): the `daily` answer read and checked,
// what the lobby's Daily tab shows, and the result to share as text (no cards given away). Pure:
// scores-view.js draws it (the Daily tab is one of the lobby's tabs), controller.js asks.
//
// State = {open, yesterday, status: idle | loading | ready | error, answer, error}
// Answer (readDaily) = {game, day, total, results: [Result], you: Result | null}
//   Result = {place, name, matches, mistakes, seconds, score, you}

import { formatAt } from './history.js';
import { gameInfo } from './games.js';

/** The lobby's daily button: an offer, or (today's attempt at the game used) the way to the
 * day's results. */
export function dailyButton(played) {
  return played
    ? { text: 'Today’s daily puzzle: played ✓ · see the results', played: true }
    : { text: 'Today’s daily puzzle', played: false };
}

/** The UTC day of `now` (ms), as the server names days: "2026-11-29". */
export function utcDay(now) {
  return new Date(now).toISOString().slice(0, 10);
}

/** The tab before it is opened: today's board. */
export function initialDaily() {
  return { open: false, yesterday: false, status: 'idle', answer: null, error: null };
}

/** A `daily` answer, checked and copied; throws TypeError when it cannot be read. */
export function readDaily(message) {
  if (message === null || typeof message !== 'object' || !Array.isArray(message.results)) throw new TypeError('daily');
  return {
    game: typeof message.game === 'string' ? message.game : null,
    day: typeof message.day === 'string' ? message.day : '',
    total: Number.isInteger(message.total) && message.total >= 0 ? message.total : message.results.length,
    results: message.results.filter((r) => r !== null && typeof r === 'object').map(readResult),
    you: message.you !== null && typeof message.you === 'object' ? readResult(message.you) : null,
  };
}

function readResult(r) {
  const count = (n) => (Number.isInteger(n) && n >= 0 ? n : 0);
  return {
    place: count(r.place),
    name: typeof r.name === 'string' ? r.name : '',
    matches: count(r.matches),
    mistakes: count(r.mistakes),
    seconds: typeof r.seconds === 'number' && Number.isFinite(r.seconds) && r.seconds >= 0 ? r.seconds : 0,
    score: Number.isInteger(r.score) ? r.score : 0,
    you: r.you === true,
  };
}

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** A result in words: "27 sets · 1 mistake · 6:02". */
export function resultText(result, game) {
  const [one, many] = gameInfo(game).match;
  return `${result.matches} ${result.matches === 1 ? one : many} · ${result.mistakes} ${result.mistakes === 1 ? 'mistake' : 'mistakes'} · ${formatAt(result.seconds)}`;
}

/** The player's result to share, as text (no cards): "Matchismo Live daily Set, 2026-11-27:
 * 27 sets · 1 mistake · 6:02 — 3rd of 41." Null without a result of theirs. */
export function shareText(answer, game) {
  if (answer?.you == null) return null;
  const title = gameInfo(game).title;
  return `Matchismo Live daily ${title}, ${answer.day}: ${resultText(answer.you, game)} — ${ordinal(answer.you.place)} of ${answer.total}.`;
}

/**
 * What the Daily tab shows, from the controller's `daily` state and the game picked: {open,
 * title, day ("Today, 2026-11-27"), yesterday, busy, rows: [{place, name, result, you}], you
 * (a line, or ''), share (text, or null), empty (a text, or null)}. An answer for another game is
 * not shown under this one.
 */
export function dailyView({ open, yesterday, status, answer, error }, game) {
  const shown = answer !== null && answer.game === game && answer.yesterday === yesterday ? answer : null;
  const title = `${gameInfo(game).title} daily puzzle`;
  const rows = (shown?.results ?? []).map((r) => ({ place: `${r.place}.`, name: r.name, result: resultText(r, game), you: r.you }));
  let empty = null;
  if (status === 'error') empty = error ?? 'The daily board could not be loaded.';
  else if (shown === null) empty = 'Loading the daily board…';
  else if (rows.length === 0) empty = yesterday ? 'Nobody played yesterday’s puzzle here.' : 'Nobody has finished today’s puzzle yet — be the first.';
  return {
    open,
    title,
    day: shown === null ? '' : `${yesterday ? 'Yesterday' : 'Today'}, ${shown.day}`,
    yesterday,
    busy: status === 'loading',
    rows: status === 'error' ? [] : rows,
    you: shown?.you == null ? '' : `You: ${ordinal(shown.you.place)} of ${shown.total} — ${resultText(shown.you, game)}`,
    share: status === 'error' ? null : shareText(shown, game),
    empty,
  };
}
