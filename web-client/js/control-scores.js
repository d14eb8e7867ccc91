// The controller's high scores (the lobby's second tab): the query, its answer and its refusal.
// Only the newest `scores` sent is waited on (requests.js), so an older query's answer is ignored.
// Functions of the controller (controller.js), which passes itself as `c`.

import * as messages from './messages.js';
import { DEFAULT_GAME } from './games.js';
import { requestDaily } from './control-daily.js';
import { ratingsForGame, requestRatings } from './control-ratings.js';
import { showArenasTab } from './control-arenas.js';
import { initialQuery, readScores, withAnsweredList, withGame, withLatestList, withList, withMine, withPage, withSort } from './scores.js';

/** The tab before it is opened: `open`, the query (scores.js), the last answer (readScores plus
 * the `query` it answers; kept while the next one loads) and the error said in place of rows.
 * status: idle | loading | ready | unavailable | error. */
export function initialScores(pageSize) {
  return { open: false, query: initialQuery(DEFAULT_GAME, pageSize), status: 'idle', answer: null, error: null };
}

/** Ask for the page the query names; the rows shown stay until the answer comes. Offline, the
 * next welcome asks (news.js `lobby`: SCORES_NEWS). */
export function requestScores(c, fx, ctx) {
  const id = c.nextId();
  c.requests.replace(id, 'scores');
  c.scores = { ...c.scores, status: 'loading', error: null };
  c.send(fx, ctx, messages.scores(id, c.scores.query), { quiet: true });
  fx.push({ type: 'renderScores' });
}

/** A new query: asked for when the tab is shown (and when it differs from the one answered). */
function query(c, fx, ctx, next) {
  if (next === c.scores.query && c.scores.status !== 'error') return;
  c.scores = { ...c.scores, query: next };
  if (c.scores.open) requestScores(c, fx, ctx);
}

/** `scores`: the page asked for last (an older query's answer is ignored). */
export function scoresAnswered(c, fx, message) {
  if (c.requests.takeIf(message.replyTo, 'scores') === null) return; // an older query's
  let answer;
  try {
    answer = readScores(message);
  } catch (error) {
    fx.push({ type: 'warn', text: 'Unreadable scores', error });
    c.scores = { ...c.scores, status: 'error', error: 'The high scores could not be read.' };
    fx.push({ type: 'renderScores' });
    return;
  }
  // The query it answers goes with it: the rows of another game are not shown under this one. A
  // query that named no list takes the one the server chose, so that the next page, sort or
  // "only mine" stays in it.
  const query = withAnsweredList(c.scores.query, answer);
  c.scores = { ...c.scores, query, status: 'ready', answer: { ...answer, query }, error: null };
  fx.push({ type: 'renderScores' });
}

/** The newest `scores` refused: said in place of the rows. This server keeps no records, cannot
 * answer right now (too many questions waiting, the database down: the server's words say
 * which), or refused the query. */
export function scoresRefused(c, fx, message) {
  const text = typeof message.message === 'string' ? message.message : null;
  const unavailable = message.code === 'unavailable';
  c.scores = {
    ...c.scores,
    status: unavailable ? 'unavailable' : 'error',
    answer: null,
    error: unavailable ? text : (text ?? 'The server refused this query.'),
  };
  fx.push({ type: 'renderScores' });
}

/** The tab's events: each takes the controller, the event and the effects. */
export const SCORES_HANDLERS = {
  /** The lobby's tab: the live tables, the high scores or the daily puzzle of the game picked,
   * or the arenas. */
  lobbyTab(c, event, fx) {
    const open = event.tab === 'scores';
    const daily = event.tab === 'daily';
    const arenas = event.tab === 'arenas';
    if (open === c.scores.open && daily === c.daily.open && arenas === c.arenas.open) return;
    c.scores = { ...c.scores, open };
    c.daily = { ...c.daily, open: daily };
    showArenasTab(c, fx, event, arenas);
    if (open) {
      c.scores = { ...c.scores, query: withGame(c.scores.query, event.game ?? c.scores.query.game) };
      requestScores(c, fx, event);
      requestRatings(c, fx, event);
    } else if (daily) {
      requestDaily(c, fx, event);
    } else {
      fx.push({ type: 'renderScores' });
    }
  },

  /** Another game picked in the lobby: its high scores, from the first page, and its daily board. */
  pickGame(c, event, fx) {
    if (typeof event.game !== 'string') return;
    query(c, fx, event, withGame(c.scores.query, event.game));
    ratingsForGame(c, fx, event);
    if (c.daily.open) requestDaily(c, fx, event);
  },

  /** A sort heading of the high scores clicked: {sort: date | score | duration}. */
  scoresSort(c, event, fx) {
    query(c, fx, event, withSort(c.scores.query, event.sort));
  },

  /** Previous / Next page: {by: -1 | 1}. */
  scoresPage(c, event, fx) {
    const total = c.scores.answer?.total ?? 0;
    query(c, fx, event, withPage(c.scores.query, c.scores.query.page + Math.sign(event.by ?? 0), total));
  },

  /** Another high-score list picked: {list} (an id from the answer's lists). */
  scoresList(c, event, fx) {
    query(c, fx, event, withList(c.scores.query, event.list));
  },

  /** "Only my games": {mine}. */
  scoresMine(c, event, fx) {
    query(c, fx, event, withMine(c.scores.query, event.mine === true));
  },
};

/** What the high scores do with the news: in the lobby, an open tab asks again (back from a
 * table, for the list of the game just played). */
export const SCORES_NEWS = {
  lobby(c, fx, ctx, how) {
    if (how === 'subscribe') return;
    if (how === 'back') c.scores = { ...c.scores, query: withLatestList(c.scores.query) };
    if (c.scores.open) requestScores(c, fx, ctx);
  },
};
