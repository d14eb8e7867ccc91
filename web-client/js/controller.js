// The web client's decisions: what a message from the server, a click, a key or a timer leads
// to. Nothing here touches the page, the socket, the clock or a timer: main.js feeds the
// controller events and carries out the effects it returns, in order (effects.js), and node
// --test drives it directly (web-client/tests/control-*.test.js). The decisions live by concern:
// control-session.js (hello, welcome, the lobby's intentions), control-lobby.js (the list of
// tables), control-table.js (the table, choices), control-scores.js, control-replay.js and
// control-ratings.js (ratings beside names, "Your rating"), control-arenas.js (arenas); this
// file holds the state they share and routes events, answers and refusals to them. The concerns
// never call each other back: what one learns that others must act on it announces (news.js),
// and the others listen (registered below), so the imports among them point one way.
//
// Every event carries its context, filled in by main.js:
//   now         the time in ms (Date.now())
//   connection  the connection's state (net.js: idle | connecting | online | reconnecting | stopped)
//   typed       the name in the lobby's name box, as typed
//   hash        the address's hash (a share link: #/t/CODE)
//   storedTable the code of the table this tab sat at before a reload (sessionStorage), or null
//   game        the game picked in the lobby (its tabs: the high scores follow it)
//
// The effects, each an object with a `type`:
//   send {message}             send it (the controller has checked the connection is online; if
//                              it cannot be sent after all, main.js dispatches {type: 'unsent', ids})
//   toast {text}               a short message at the bottom of the page
//   announce {text}            said to a screen reader, politely (others' moves: announce.js)
//   connect                    open the connection (or retry at once)
//   restart                    a new session (a new hello, e.g. with a new name)
//   redirect {redirect}        connect to the node the `redirect` names, with this session
//   nameProblem                say what is wrong with the name typed, and focus it
//   saveName {name}            remember the name (localStorage)
//   setName {name}             put the name in the lobby's name box
//   focus {target}             focus an element by id
//   view {view}                show 'lobby', 'table' or 'replay'
//   render, renderLobby        draw the table (with the faces in `held`), the lobby list
//   renderScores               draw the lobby's tabs: the high scores (controller.scores, with
//                              "Your rating": controller.myRating) and the daily puzzle's board
//                              (controller.daily)
//   renderReplay               draw the replay view (controller.replay)
//   renderChat                 draw the chat panels (controller.chat)
//   renderArenas               draw the Arenas tab and the arena dialog (controller.arenas)
//   renderPractice             draw the practice count (controller.practice: practice.js)
//   arenaDialog {open}         open (drawn) or close the arena dialog
//   clearChatInput {where, text}  a line was said: its input ('table' or 'lobby') is emptied if it
//                              still holds that line (chat-text.js inputHoldsLine)
//   closeHistory               the history view closes (the chat panel takes its place)
//   saveMuted {names}          remember the names muted in chat (localStorage)
//   lobbyGame {game}           show this game's tab in the lobby (as if picked; no pickGame event)
//   games                      the games the server describes changed (welcome: games.js
//                              learnGames): the picker, the lobby's words and forms, redrawn
//   focusRow {record}          focus the Replay button of that game's row in the high scores
//   download {name, text, mime}  save a file (Export)
//   hash {hash}                set the address without a history entry (null: the lobby)
//   rememberTable {code}, forgetTable
//   timer {name, ms, id?}      after ms, dispatch {type: 'timer', name, id} (replaces a timer of
//                              the same name and id)
//   cancelTimer {name}
//   sound {name}               play one of sounds.js's sounds
//   flash {cards, kind, ms}    flash cards on the board ('found', 'mismatch', 'hint')
//   markPending {card}, clearPending   the card is on its way to the server / all answered
//   measureMatches {table, matches}    before drawing: where these matched cards are now
//   showMatches                after drawing: flash the measured slots and show the points
//   tableChanged               a different table: the history view closes
//   leftTable                  no table any more: reset the table view (history, zoom, clocks)
//   dialog {name, open}        open or close a dialog
//   inviteName {code, game}    ask for a name before joining through an invite link (game: its
//                              game when the link names it, else null)
//   inviteProblem {text}       what is wrong with the name typed in that dialog
//   settingsProblem {text}     the server refused the new table's settings
//   tablesEmpty {text}         the text in place of the lobby's list
//   warn {text, error}         something unreadable arrived (console)

import * as messages from './messages.js';
import { initialState } from './table-state.js';
import { initialLobby } from './lobby-state.js';
import { parseRoute } from './route.js';
import { PendingRequests } from './requests.js';
import { News } from './news.js';
import { SESSION_HANDLERS, SESSION_NEWS, enterLobby, joinByLink, redirected, tableLost, welcomed } from './control-session.js';
import { LOBBY_NEWS, joinRefused, lobbyDiff, lobbyRefused, lobbySnapshot } from './control-lobby.js';
import {
  NOT_CONNECTED, TABLE_HANDLERS, TABLE_NEWS, backToLobby, choiceRefused, diff, leave, snapshot, spectatorsCounted,
  tableRefused, tableTimer,
} from './control-table.js';
import { SCORES_HANDLERS, SCORES_NEWS, initialScores, scoresAnswered, scoresRefused } from './control-scores.js';
import { REPLAY_HANDLERS, REPLAY_NEWS, closeReplay, openReplay, recordAnswered, recordRefused } from './control-replay.js';
import { DAILY_HANDLERS, DAILY_NEWS, dailyAfterSnapshot, dailyAnswered, dailyRefused, playDailyRefused } from './control-daily.js';
import { initialDaily } from './daily.js';
import { HINT_HANDLERS, hintAnswered } from './control-hint.js';
import { PRACTICE_HANDLERS, PRACTICE_NEWS, countRefused, matchCountAnswered, practiceAfterTable } from './control-practice.js';
import { initialPractice } from './practice.js';
import { CHAT_HANDLERS, CHAT_NEWS, chatReceived, chatRefused, chatSnapshot } from './control-chat.js';
import { initialChat } from './chat.js';
import {
  RATINGS_NEWS, ratingsAfterSnapshot, ratingsAnswered, ratingsRefused, seatRatingsReceived,
} from './control-ratings.js';
import { initialMyRating } from './rating-history.js';
import { ARENA_MESSAGES, ARENAS_HANDLERS, ARENAS_NEWS, arenaAfterSnapshot, arenaRefused, arenasTimer } from './control-arenas.js';
import { arenaErrorText, initialArenas } from './arenas.js';

export { PENDING_MS } from './control-table.js';
export { HINT_MS } from './control-hint.js';
export { RESUME_WAIT_MS } from './control-session.js';

export class Controller {
  /** `nextId` gives message ids (shared with the connection's hello and resync); `pageSize` the
   * games on one page of the high scores (scores.js pageSizeOf); `practice` the practice
   * count's preference (practice.js). */
  constructor({ nextId = messages.createIdSource(), pageSize, muted = [], dailyPlayed = {}, practice = false } = {}) {
    this.nextId = nextId;
    /** The table (table-state.js). */
    this.state = initialState();
    /** Concentration: card id → {card, until}, faces shown a moment after the server hid them
     * (face-hold.js). */
    this.held = new Map();
    /** The lobby list (lobby-state.js). */
    this.lobby = initialLobby();
    /** The name sent in this connection's hello (null before the first). */
    this.helloName = null;
    /** The name the server's welcome says this session has (a resumed one keeps its own), or null. */
    this.sessionName = null;
    /** A lobby intention waiting for a session under the name typed. */
    this.pendingIntent = null;
    /** Every request whose answer (`replyTo`) is waited on: choices, a join, the lobby, the high
     * scores, a record (requests.js). */
    this.requests = new PendingRequests();
    /** After a reload: the resumed session's table is on its way (its first snapshot decides
     * whether the page goes back to it, or to the lobby when its game has ended). */
    this.reloading = false;
    /** A snapshot, diff or status arrived since the last welcome. */
    this.heardFromTable = false;
    /** When this client saw the game start (the time played), or null. */
    this.playingSince = null;
    /** The code of the invite link whose name dialog is open. */
    this.inviteCode = '';
    /** The board a hint was last given for, and how many of its cards were shown. */
    this.hint = { key: '', shown: 0 };
    /** The practice count: the preference, the board asked about, the answer (control-practice.js). */
    this.practice = initialPractice(practice);
    /** The lobby's high scores tab (control-scores.js). */
    this.scores = initialScores(pageSize);
    /** The replay shown, or null (control-replay.js). */
    this.replay = null;
    /** The lobby's Daily tab: the daily puzzle's board (control-daily.js, daily.js). */
    this.daily = initialDaily();
    /** The daily puzzles started in this browser: game → UTC day (the daily button says so). */
    this.dailyPlayed = dailyPlayed;
    /** Chat at the table and in the lobby (control-chat.js, chat.js); `muted`: names muted. */
    this.chat = initialChat({ muted });
    /** A lobby line typed under a new name, waiting for the session under that name. */
    this.pendingChat = null;
    /** "Your rating" at the High scores tab's game (control-ratings.js, rating-history.js). */
    this.myRating = initialMyRating();
    /** The Arenas tab, the arena kept for its dialog, the featured game followed (arenas.js). */
    this.arenas = initialArenas();
    /** The concerns' news (news.js): each announces what happened, the others listen. The order
     * here is the order of their effects: the list first, then the address's share link or
     * replay, the high scores, "Your rating", the Daily tab, the Arenas tab; the table before its
     * chat. */
    this.news = new News();
    for (const listeners of [LOBBY_NEWS, SESSION_NEWS, REPLAY_NEWS, SCORES_NEWS, RATINGS_NEWS, DAILY_NEWS, ARENAS_NEWS, TABLE_NEWS, CHAT_NEWS, PRACTICE_NEWS]) {
      this.news.listenAll(listeners);
    }
  }

  /** What `event` leads to: the effects to carry out, in order. */
  dispatch(event) {
    const fx = [];
    const handler = HANDLERS[event.type];
    if (handler === undefined) throw new Error(`unknown event ${event.type}`);
    handler(this, event, fx);
    return fx;
  }

  /** Queue `message` if the connection is online (true); otherwise say so (unless quiet). */
  send(fx, ctx, message, { quiet = false } = {}) {
    if (ctx.connection === 'online') {
      fx.push({ type: 'send', message });
      return true;
    }
    if (!quiet) fx.push({ type: 'toast', text: NOT_CONNECTED });
    return false;
  }
}

/** A message from the server, to the concern it is for. */
function received(c, fx, ctx, message) {
  switch (message.type) {
    case 'welcome':
      return welcomed(c, fx, ctx, message);
    case 'snapshot': {
      const before = c.state;
      snapshot(c, fx, ctx, message);
      ratingsAfterSnapshot(c, before);
      arenaAfterSnapshot(c, fx, ctx);
      dailyAfterSnapshot(c, fx);
      chatSnapshot(c, fx, message);
      return practiceAfterTable(c, fx, ctx);
    }
    case 'diff':
      diff(c, fx, ctx, message);
      return practiceAfterTable(c, fx, ctx);
    case 'spectators':
      return spectatorsCounted(c, fx, message);
    case 'left':
      return backToLobby(c, fx, ctx);
    case 'chat':
      return chatReceived(c, fx, message);
    case 'lobbySnapshot':
      return lobbySnapshot(c, fx, message);
    case 'lobbyDiff':
      return lobbyDiff(c, fx, ctx, message);
    case 'error':
      return refused(c, fx, ctx, message);
    case 'redirect':
      return redirected(c, fx, message);
    case 'scores':
      return scoresAnswered(c, fx, message);
    case 'record':
      return recordAnswered(c, fx, message);
    case 'daily':
      return dailyAnswered(c, fx, message);
    case 'seatRatings':
      return seatRatingsReceived(c, fx, message);
    case 'ratings':
      return ratingsAnswered(c, fx, message);
    case 'hint':
      return hintAnswered(c, fx, message);
    case 'matchCount':
      return matchCountAnswered(c, fx, message);
    default:
      // The arenas' (arenas, arena, arenaStandings, arenaGame); messages of later versions are not shown.
      return ARENA_MESSAGES[message.type]?.(c, fx, ctx, message);
  }
}

/** An `error`: first the request it answers says what it means (requests.js), then the toast,
 * then what it means for the table. */
function refused(c, fx, ctx, message) {
  const request = c.requests.take(message.replyTo);
  switch (request?.kind) {
    case 'scores':
      return scoresRefused(c, fx, message); // said in place of the rows, no toast
    case 'record':
      return recordRefused(c, fx, message); // said in the replay view
    case 'daily':
      return dailyRefused(c, fx, message); // said in the Daily tab
    case 'ratings':
      return ratingsRefused(c, fx, message); // said in the High scores tab's "Your rating"
    case 'chat':
      return chatRefused(c, fx, message, request); // said under the chat's input
    case 'countMatches':
      return countRefused(c, fx, request); // the practice count hides, without a word
    case 'lobby':
      return lobbyRefused(c, fx);
    case 'watchAgain':
      // The table a spectator watched is not there to watch again (it ended meanwhile).
      return tableLost(c, fx, ctx, 'The connection was lost, and the game you watched has ended.');
    case 'arenas':
    case 'arena':
    case 'featured':
      return arenaRefused(c, fx, ctx, message, request); // said in the Arenas tab (and the toast)
    case 'choose':
      if (choiceRefused(c, fx, ctx, message)) return undefined;
      break;
    case 'join':
      if (joinRefused(c, fx, ctx, message, request)) return undefined;
      break;
    case 'playDaily':
      playDailyRefused(c, fx, ctx, message, request); // and said as any refusal is
      break;
    default:
      break;
  }
  // The arenas' refusals in our words (a re-deal at an arena's table, too many wrong codes).
  const text = arenaErrorText(message.code) ?? (typeof message.message === 'string' ? message.message : null);
  // The table was not opened: say what does not fit next to the form.
  if (message.code === 'badSettings') fx.push({ type: 'settingsProblem', text: text ?? 'The server refused these settings.' });
  fx.push({ type: 'toast', text: text ?? 'The server refused that.' });
  return tableRefused(c, fx, ctx, message);
}

/** One handler per event type: each takes the controller, the event and the effects to fill. */
const HANDLERS = {
  ...SESSION_HANDLERS,
  ...TABLE_HANDLERS,
  ...HINT_HANDLERS,
  ...PRACTICE_HANDLERS,
  ...SCORES_HANDLERS,
  ...REPLAY_HANDLERS,
  ...DAILY_HANDLERS,
  ...CHAT_HANDLERS,
  ...ARENAS_HANDLERS,

  /** A message from the server. */
  message(c, event, fx) {
    received(c, fx, event, event.message);
  },

  /** The address changed (a pasted share link, back/forward): go where it says. */
  route(c, event, fx) {
    const route = parseRoute(event.hash ?? '');
    const table = c.state.table;
    if (route.view === 'replay') {
      // A replay is watched from the lobby; a seat is not given up for one.
      if (table === null && c.replay?.id !== route.record) openReplay(c, fx, event, route.record);
      return;
    }
    if (c.replay !== null && table === null) closeReplay(c, fx, event, { hash: false });
    if (route.view === 'table') {
      if (table !== null && table.code === route.code) return;
      // A seat is taken under the name typed (act starts a new session when it changed).
      if (event.connection === 'online') joinByLink(c, fx, event, route.code, route.game);
    } else if (table !== null) {
      leave(c, fx, event);
    }
  },

  /** A timer the controller asked for ran out. */
  timer(c, event, fx) {
    if (tableTimer(c, fx, event) || arenasTimer(c, fx, event)) return;
    if (event.name === 'reload') c.reloading = false;
    if (event.name === 'reload' && c.state.table === null) {
      // After a reload the resumed session's table did not come: the lobby, then.
      fx.push({ type: 'forgetTable' });
      enterLobby(c, fx, event);
    }
  },
};
