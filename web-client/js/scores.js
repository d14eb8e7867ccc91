// The high scores of one game: the query the lobby's "High scores" tab asks with, the `scores`
// answer read and checked, and everything the table shows, as data (PROTOCOL.md, "Finished games,
// high scores and replays"). Pure: scores-view.js draws the rows, controller.js sends the queries.
//
// Query = {game, list (a high-score list's id, or null: the latest game's), sort: 'date'|'score'|
//          'duration', order: 'asc'|'desc', page (from 0), pageSize, mine}
// Answer (readScores) = {game, list, lists: [List], sort, order, page, pageSize, total,
//          games: [Game], best, shortest}
//   List = {id, kind: 'solo'|'multiplayer'|'computer', scoring, cards, matchSize, total}: only games whose
//   scores compare share one (who played, the scoring, and the board where it is the whole game).
//   Game = {id, endedAt, seconds, seats, score, mine, players: [{name, score, matches, rank, you,
//          rating? (ratings.js readScoreRating: after that game, with its change)}]}
//   best = {id, score} | null, shortest = {id, seconds} | null: over all pages, not just this one.

import { SCORE_LIST, SCORE_SORTS, MAX_PAGE_SIZE } from './messages.js';
import { formatAt } from './history.js';
import { DEFAULT_GAME, gameInfo } from './games.js';
import { listChoices, listOf, listText } from './score-lists.js';
import { readScoreRating, scoreRatingShown } from './ratings.js';
import { botLevel } from './bots.js';

/** Games on one page unless the page asks for another size (main.js: `?pageSize=N`). */
export const DEFAULT_PAGE_SIZE = 10;

/** The sortable columns, in the order the table shows them, with their headings. */
export const SORT_COLUMNS = Object.freeze([
  { sort: 'date', heading: 'Ended' },
  { sort: 'score', heading: 'Best' },
  { sort: 'duration', heading: 'Time' },
]);

/** A page size the server takes (1–50), else the default. */
export function pageSizeOf(value) {
  const n = typeof value === 'string' && /^\d{1,3}$/.test(value.trim()) ? Number(value.trim()) : value;
  return Number.isInteger(n) && n >= 1 && n <= MAX_PAGE_SIZE ? n : DEFAULT_PAGE_SIZE;
}

/** The first query: the newest games of `game`, everyone's, in the latest game's list. */
export function initialQuery(game = DEFAULT_GAME, pageSize = DEFAULT_PAGE_SIZE) {
  return { game, list: null, sort: 'date', order: SCORE_SORTS.date, page: 0, pageSize: pageSizeOf(pageSize), mine: false };
}

/** Another game's high scores, from its first page, in its latest game's list (sort and "only
 * mine" stay). */
export function withGame(query, game) {
  return game === query.game ? query : { ...query, game, list: null, page: 0 };
}

/** Another high-score list of the same game, from its first page. */
export function withList(query, list) {
  if (list === query.list || !(typeof list === 'string' && SCORE_LIST.test(list))) return query;
  return { ...query, list, page: 0 };
}

/** Back from a table: the list of the latest game (likely the one just played), from its first
 * page. */
export function withLatestList(query) {
  return query.list === null ? query : { ...query, list: null, page: 0 };
}

/** The query an answer shows: the list the server chose when none was asked for. */
export function withAnsweredList(query, answer) {
  return query.list === null && answer.list !== null && answer.game === query.game ? { ...query, list: answer.list } : query;
}

/** A sort heading clicked: the active sort flips its order; another starts at its default order.
 * Either way from the first page. */
export function withSort(query, sort) {
  if (!Object.hasOwn(SCORE_SORTS, sort)) return query;
  const order = sort === query.sort ? (query.order === 'asc' ? 'desc' : 'asc') : SCORE_SORTS[sort];
  return { ...query, sort, order, page: 0 };
}

/** Page `page`, kept within the pages `total` games fill. */
export function withPage(query, page, total) {
  const last = pageCount(total, query.pageSize) - 1;
  const clamped = Math.max(0, Math.min(last, Number.isInteger(page) ? page : 0));
  return clamped === query.page ? query : { ...query, page: clamped };
}

/** Only my games, or everyone's, from the first page. */
export function withMine(query, mine) {
  return mine === query.mine ? query : { ...query, mine: mine === true, page: 0 };
}

/** How many pages `total` games fill (at least one, an empty one). */
export function pageCount(total, pageSize) {
  return Math.max(1, Math.ceil((Number.isInteger(total) && total > 0 ? total : 0) / pageSize));
}

/** "Page 1 of 3". */
export function pageText(page, total, pageSize) {
  return `Page ${page + 1} of ${pageCount(total, pageSize)}`;
}

/** The `aria-sort` of a column's header: the active sort's direction, else 'none'. */
export function ariaSort(query, sort) {
  if (query.sort !== sort) return 'none';
  return query.order === 'asc' ? 'ascending' : 'descending';
}

/** How the list is ordered, in words: "newest first", "highest score first", "shortest first"… */
export function orderText(query) {
  const words = {
    date: { desc: 'newest first', asc: 'oldest first' },
    score: { desc: 'highest score first', asc: 'lowest score first' },
    duration: { asc: 'shortest first', desc: 'longest first' },
  };
  return words[query.sort]?.[query.order] ?? '';
}

/** The table's caption: "Finished Set games (Solo · classic scoring), newest first" ("My
 * finished Set games …"). */
export function captionText(query) {
  const title = gameInfo(query.game).title;
  const list = listOf(query.list);
  const which = list === null ? '' : ` (${listText(list, query.game)})`;
  return `${query.mine ? 'My finished' : 'Finished'} ${title} games${which}, ${orderText(query)}`;
}

/** A `scores` answer, checked and copied; throws TypeError when it cannot be read. */
export function readScores(message) {
  if (message === null || typeof message !== 'object') throw new TypeError('scores');
  if (!Array.isArray(message.games)) throw new TypeError('scores.games');
  const total = Number.isInteger(message.total) && message.total >= 0 ? message.total : message.games.length;
  return {
    game: typeof message.game === 'string' ? message.game : null,
    list: listOf(message.list) === null ? null : message.list,
    lists: Array.isArray(message.lists) ? message.lists.map(readList).filter((l) => l !== null) : [],
    sort: Object.hasOwn(SCORE_SORTS, message.sort) ? message.sort : null,
    order: message.order === 'asc' || message.order === 'desc' ? message.order : null,
    page: Number.isInteger(message.page) && message.page >= 0 ? message.page : 0,
    pageSize: Number.isInteger(message.pageSize) && message.pageSize > 0 ? message.pageSize : Math.max(1, message.games.length),
    total,
    games: message.games.map(readGame),
    best: isObject(message.best) && typeof message.best.id === 'string' ? { id: message.best.id, score: numberOr(message.best.score, null) } : null,
    shortest:
      isObject(message.shortest) && typeof message.shortest.id === 'string'
        ? { id: message.shortest.id, seconds: numberOr(message.shortest.seconds, null) }
        : null,
  };
}

function readList(entry) {
  const list = isObject(entry) ? listOf(entry.id) : null;
  if (list === null) return null;
  return { ...list, total: Number.isInteger(entry.total) && entry.total >= 0 ? entry.total : 0 };
}

function readGame(game) {
  if (!isObject(game) || typeof game.id !== 'string') throw new TypeError('scores game');
  const players = Array.isArray(game.players) ? game.players.filter(isObject) : [];
  return {
    id: game.id,
    endedAt: typeof game.endedAt === 'string' ? game.endedAt : null,
    seconds: numberOr(game.seconds, null),
    seats: Number.isInteger(game.seats) ? game.seats : players.length,
    score: numberOr(game.score, null),
    mine: game.mine === true,
    players: players.map((p) => ({
      name: typeof p.name === 'string' ? p.name : '',
      score: numberOr(p.score, 0),
      matches: Number.isInteger(p.matches) ? p.matches : 0,
      rank: Number.isInteger(p.rank) ? p.rank : null,
      you: p.you === true,
      ...(botLevel(p.bot) === null ? {} : { bot: botLevel(p.bot) }),
      ...(readScoreRating(p.rating) === null ? {} : { rating: readScoreRating(p.rating) }),
    })),
  };
}

/**
 * When a game ended, for people: {date: "Nov 24, 2026", time: "7:12 AM", full: "Nov 24, 2026,
 * 7:12 AM", iso}, in the reader's locale and time zone (given here for tests), or null.
 */
export function formatEnded(iso, { locale, timeZone } = {}) {
  if (typeof iso !== 'string') return null;
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return null;
  const zone = timeZone === undefined ? {} : { timeZone };
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', ...zone }).format(when);
  const time = new Intl.DateTimeFormat(locale, { timeStyle: 'short', ...zone }).format(when);
  const full = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', ...zone }).format(when);
  return { date, time, full, iso };
}

/** How long a game lasted: "m:ss" ('' when unknown). */
export function formatDuration(seconds) {
  return formatAt(seconds);
}

/** A signed score as shown: "9", "−3" (a real minus sign). */
export function scoreText(score) {
  if (typeof score !== 'number' || !Number.isFinite(score)) return '';
  return score < 0 ? `−${-score}` : String(score);
}

/**
 * The rows of one page, as data:
 * {id, position, ended, players: [{name, score, you, bot (a computer's level, or null), rating (ratings.js scoreRatingShown, or null)}],
 *  score, seconds, duration, best, shortest,
 *  mine, badges: ['Best score', 'Shortest'], replayLabel}.
 * `position` counts from 1 over all pages in the order asked for.
 */
export function scoreRows(answer, { locale, timeZone } = {}) {
  if (answer === null) return [];
  return answer.games.map((game, i) => {
    const best = answer.best !== null && answer.best.id === game.id;
    const shortest = answer.shortest !== null && answer.shortest.id === game.id;
    const ended = formatEnded(game.endedAt, { locale, timeZone });
    const players = game.players.map((p) => ({
      name: p.name, score: scoreText(p.score), you: p.you, bot: p.bot ?? null, rating: scoreRatingShown(p.rating),
    }));
    const who = players.map((p) => `${p.name} ${p.score}`).join(', ');
    return {
      id: game.id,
      position: answer.page * answer.pageSize + i + 1,
      ended,
      players,
      score: scoreText(game.score),
      rawScore: game.score,
      seconds: game.seconds,
      duration: formatDuration(game.seconds),
      best,
      shortest,
      mine: game.mine,
      badges: [...(best ? ['Best score'] : []), ...(shortest ? ['Shortest'] : [])],
      replayLabel: `Replay the game${ended === null ? '' : ` that ended ${ended.full}`}${who === '' ? '' : ` (${who})`}`,
    };
  });
}

/** What the tab says instead of rows (null when it has rows to show). */
export function emptyText({ status, answer, error, query }) {
  const title = gameInfo(query.game).title;
  if (status === 'unavailable') return error ?? 'This server keeps no records.';
  if (status === 'error') return error ?? 'The high scores could not be loaded.';
  if (answer === null) return 'Loading high scores…';
  if (answer.games.length > 0) return null;
  if (answer.total > 0) return 'No games on this page.';
  const list = listOf(answer.list ?? query.list);
  if (answer.lists.length > 0 && list !== null) {
    return `${query.mine ? 'You have not' : 'Nobody has'} finished a ${title} game here in this list (${listText(list, query.game)}) yet — pick another list.`;
  }
  return query.mine
    ? `You have not finished a ${title} game here yet.`
    : `No finished ${title} games yet — play one to the end and it shows here.`;
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function numberOr(value, fallback) {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/**
 * Everything the High scores tab shows, from the controller's `scores` state ({open, query,
 * status, answer, error}): {open, title, caption, mine, busy, lists (listChoices), sorts:
 * [{sort, ariaSort, mark}], rows (scoreRows), empty (a text, or null), pager (shown or not), page
 * ("Page 1 of 3"), canPrev, canNext}. An answer to another game's or another list's query is not
 * shown under this one.
 */
export function scoresView({ open, query, status, answer, error }, { locale, timeZone } = {}) {
  const asked = answer?.query ?? answer;
  const shown =
    answer !== null && asked.game === query.game && (query.list === null || (asked.list ?? answer.list) === query.list) ? answer : null;
  const failed = status === 'unavailable' || status === 'error';
  const rows = failed ? [] : scoreRows(shown, { locale, timeZone });
  const total = shown?.total ?? 0;
  return {
    open,
    title: `${gameInfo(query.game).title} high scores`,
    caption: captionText(query),
    mine: query.mine,
    lists: listChoices(query, shown),
    busy: status === 'loading',
    sorts: SORT_COLUMNS.map(({ sort }) => {
      const aria = ariaSort(query, sort);
      return { sort, ariaSort: aria, mark: aria === 'ascending' ? '▲' : aria === 'descending' ? '▼' : '' };
    }),
    rows,
    empty: emptyText({ status, answer: failed ? null : shown, error, query }),
    pager: rows.length > 0,
    page: pageText(query.page, total, query.pageSize),
    canPrev: query.page > 0,
    canNext: query.page < pageCount(total, query.pageSize) - 1,
  };
}
