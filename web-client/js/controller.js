// The web client's decisions: what a message from the server, a click, a key or a timer leads
// to. Nothing here touches the page, the socket, the clock or a timer: main.js feeds the
// controller events and carries out the effects it returns, in order, and node --test drives it
// directly (web-client/tests/controller.test.js).
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
//   send {message}             send it (the controller has checked the connection is online)
//   toast {text}               a short message at the bottom of the page
//   connect                    open the connection (or retry at once)
//   restart                    a new session (a new hello, e.g. with a new name)
//   nameProblem                say what is wrong with the name typed, and focus it
//   saveName {name}            remember the name (localStorage)
//   setName {name}             put the name in the lobby's name box
//   focus {target}             focus an element by id
//   view {view}                show 'lobby', 'table' or 'replay'
//   render, renderLobby        draw the table, the lobby list
//   renderScores               draw the lobby's high scores tab (controller.scores)
//   renderReplay               draw the replay view (controller.replay)
//   lobbyGame {game}           show this game's tab in the lobby (as if picked; no pickGame event)
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
//   holdFaces {table, events}  Concentration: keep the faces a `hide` turns down up a moment
//   tableChanged               a different table: the history view closes, held faces go
//   leftTable                  no table any more: reset the table view (history, zoom, clocks)
//   dialog {name, open}        open or close a dialog
//   inviteName {code}          ask for a name before joining through an invite link
//   inviteProblem {text}       what is wrong with the name typed in that dialog
//   settingsProblem {text}     the server refused the new table's settings
//   tablesEmpty {text}         the text in place of the lobby's list
//   warn {text, error}         something unreadable arrived (console)

import * as messages from './messages.js';
import { applyDiff, applySnapshot, initialState, isSpectator, mySelection } from './table-state.js';
import { applyLobbyDiff, applyLobbySnapshot, awaitLobby, initialLobby } from './lobby-state.js';
import { parseRoute, replayHash, tableHash } from './route.js';
import { leaveNeedsConfirmation } from './seats.js';
import { lostRaceText } from './feedback.js';
import { findSets, isValidCard } from './set-cards.js';
import { soundForError, soundForEvents } from './sounds.js';
import { initialQuery, readScores, withGame, withMine, withPage, withSort } from './scores.js';
import { buildReplay, exportFile, stepTo } from './replay.js';
import { GAME_IDS } from './games.js';

/** How long a chosen card waits for its answer before it stops looking pending. */
export const PENDING_MS = 3000;
/** How long a resumed session waits for its table before it asks (or gives up on it). */
export const RESUME_WAIT_MS = 2000;
/** How long a hint's cards flash. */
export const HINT_MS = 2500;

/** The messages a lobby intention sends. `join` and `spectate` carry a code or a table id. */
const INTENTS = Object.freeze({
  playSolo: (id, i) => messages.playSolo(id, i.game, i.settings ?? {}),
  quickMatch: (id, i) => messages.quickMatch(id, { game: i.game, seats: i.seats }),
  createTable: (id, i) =>
    messages.createTable(id, { game: i.game, seats: i.seats, private: true, settings: i.settings ?? {} }),
  join: (id, i) => messages.join(id, i.code),
  joinListed: (id, i) => messages.joinListed(id, i.table),
  spectate: (id, i) => messages.spectate(id, i.table !== undefined ? { table: i.table } : { code: i.code }),
});

/** What a refused `record` says in the replay view. */
const RECORD_ERRORS = Object.freeze({
  unknownRecord: 'That game is not kept on this server.',
  unavailable: 'This server keeps no records.',
});

export class Controller {
  /** `nextId` gives message ids (shared with the connection's hello and resync); `pageSize` the
   * games on one page of the high scores (scores.js pageSizeOf). */
  constructor({ nextId = messages.createIdSource(), pageSize } = {}) {
    this.nextId = nextId;
    /** The table (table-state.js). */
    this.state = initialState();
    /** The lobby list (lobby-state.js). */
    this.lobby = initialLobby();
    /** The name sent in this connection's hello (null before the first). */
    this.helloName = null;
    /** A lobby intention waiting for a session under the name typed. */
    this.pendingIntent = null;
    /** The id of the last `lobby` sent (its refusal: this server does not list tables). */
    this.lobbyRequestId = null;
    /** {id, code}: a `join` whose "full" or "already started" turns into watching. */
    this.joinRequest = null;
    /** A snapshot, diff or status arrived since the last welcome. */
    this.heardFromTable = false;
    /** choose message id → card id, until answered. */
    this.pendingChoices = new Map();
    /** When this client saw the game start (the time played), or null. */
    this.playingSince = null;
    /** The code of the invite link whose name dialog is open. */
    this.inviteCode = '';
    /** The board a hint was last given for, and how many of its cards were shown. */
    this.hint = { key: '', shown: 0 };
    /** The lobby's high scores tab: whether it is shown, the query (scores.js), the last answer
     * (scores.js readScores plus the `query` it answers; kept while the next one loads), and the
     * id of the `scores` whose answer counts.
     * status: idle | loading | ready | unavailable | error. */
    this.scores = { open: false, query: initialQuery('set', pageSize), status: 'idle', answer: null, error: null, requestId: null };
    /** The replay shown, or null: {id, status: loading | ready | error, requestId, data
     * (replay.js buildReplay), index (the step shown), error}. */
    this.replay = null;
  }

  /** What `event` leads to: the effects to carry out, in order. */
  dispatch(event) {
    const fx = [];
    const handler = HANDLERS[event.type];
    if (handler === undefined) throw new Error(`unknown event ${event.type}`);
    handler.call(this, event, fx);
    return fx;
  }

  // ---- Helpers ---------------------------------------------------------------------------------

  /** Queue `message` if the connection is online; otherwise say so (unless quiet). */
  send(fx, ctx, message, { quiet = false } = {}) {
    if (ctx.connection === 'online') {
      fx.push({ type: 'send', message });
      return true;
    }
    if (!quiet) fx.push({ type: 'toast', text: 'Not connected to the server — reconnecting…' });
    return false;
  }

  /** The message an intention sends, with a new id (a join is remembered). */
  messageFor(intent) {
    const id = this.nextId();
    if (intent.kind === 'join') this.joinRequest = { id, code: intent.code };
    return INTENTS[intent.kind](id, intent);
  }

  /**
   * Send a lobby intention as soon as we can. `hello` carries the name and is said once per
   * connection, so a name edited since then needs a new session first (only ever from the lobby,
   * where there is no seat to lose); watching needs no name.
   */
  act(fx, ctx, intent) {
    const needsName = intent.kind !== 'spectate';
    if (needsName && messages.nameProblem(ctx.typed) !== null) {
      fx.push({ type: 'nameProblem' });
      return;
    }
    const name = messages.normalizeName(ctx.typed);
    fx.push({ type: 'saveName', name });
    if (ctx.connection === 'online' && (!needsName || name === this.helloName)) {
      this.send(fx, ctx, this.messageFor(intent));
      return;
    }
    this.pendingIntent = intent;
    if (ctx.connection === 'online') {
      fx.push({ type: 'restart' });
    } else {
      fx.push({ type: 'connect' }, { type: 'toast', text: 'Connecting to the server…' });
    }
  }

  subscribeLobby(fx, ctx) {
    this.lobby = awaitLobby(this.lobby);
    this.lobbyRequestId = this.nextId();
    this.send(fx, ctx, messages.lobby(this.lobbyRequestId), { quiet: true });
    fx.push({ type: 'renderLobby' });
  }

  /** Online without a table: list the tables, and follow a share link (or a replay's address) if
   * the address has one; ask again for what was asked while offline. */
  enterLobby(fx, ctx) {
    this.subscribeLobby(fx, ctx);
    const route = parseRoute(ctx.hash ?? '');
    if (route.view === 'table') this.joinByLink(fx, ctx, route.code);
    else if (route.view === 'replay' && this.replay?.id !== route.record) this.openReplay(fx, ctx, route.record);
    else if (this.replay?.status === 'loading') this.requestRecord(fx, ctx);
    if (this.scores.open) this.requestScores(fx, ctx);
  }

  /** An invite link: join under the name typed, or, with none yet, ask for one first (or just
   * watch, which needs no name). */
  joinByLink(fx, ctx, code) {
    if (messages.normalizeName(ctx.typed) !== '') {
      this.act(fx, ctx, { kind: 'join', code });
      return;
    }
    this.inviteCode = code;
    fx.push({ type: 'inviteName', code });
  }

  /** Forget a pending choice once the server has answered it. */
  settle(fx, replyTo, seat) {
    if (seat !== this.state.table?.you || !this.pendingChoices.has(replyTo)) return;
    this.pendingChoices.delete(replyTo);
    if (this.pendingChoices.size === 0) fx.push({ type: 'clearPending' });
  }

  forgetPending(fx) {
    this.pendingChoices.clear();
    fx.push({ type: 'clearPending' });
  }

  /** No table any more: back to the lobby's list (and its high scores, which may now hold the
   * game just played). */
  backToLobby(fx, ctx) {
    this.state = initialState();
    this.playingSince = null;
    this.forgetPending(fx);
    fx.push({ type: 'leftTable' }, { type: 'forgetTable' }, { type: 'hash', hash: null }, { type: 'view', view: 'lobby' });
    if (ctx.connection === 'online') this.subscribeLobby(fx, ctx);
    else fx.push({ type: 'renderLobby' });
    if (this.scores.open) this.requestScores(fx, ctx);
  }

  // ---- High scores and replays -----------------------------------------------------------------

  /** Ask for the page the query names; the rows shown stay until the answer comes. Offline, the
   * next welcome asks (enterLobby). */
  requestScores(fx, ctx) {
    const requestId = this.nextId();
    this.scores = { ...this.scores, status: 'loading', error: null, requestId };
    this.send(fx, ctx, messages.scores(requestId, this.scores.query), { quiet: true });
    fx.push({ type: 'renderScores' });
  }

  /** A new query: asked for when the tab is shown (and when it differs from the one answered). */
  query(fx, ctx, next) {
    if (next === this.scores.query && this.scores.status !== 'error') return;
    this.scores = { ...this.scores, query: next };
    if (this.scores.open) this.requestScores(fx, ctx);
  }

  scoresAnswered(fx, message) {
    if (message.replyTo === undefined || message.replyTo !== this.scores.requestId) return; // an older query's
    let answer;
    try {
      answer = readScores(message);
    } catch (error) {
      fx.push({ type: 'warn', text: 'Unreadable scores', error });
      this.scores = { ...this.scores, status: 'error', error: 'The high scores could not be read.', requestId: null };
      fx.push({ type: 'renderScores' });
      return;
    }
    // The query it answers goes with it: the rows of another game are not shown under this one.
    this.scores = { ...this.scores, status: 'ready', answer: { ...answer, query: this.scores.query }, error: null, requestId: null };
    fx.push({ type: 'renderScores' });
  }

  /** Show the replay of a finished game (an id from `scores`): loading until `record` answers. */
  openReplay(fx, ctx, id) {
    this.replay = { id, status: 'loading', requestId: null, data: null, index: 0, error: null };
    fx.push({ type: 'hash', hash: replayHash(id) }, { type: 'view', view: 'replay' });
    this.requestRecord(fx, ctx);
  }

  requestRecord(fx, ctx) {
    const requestId = this.nextId();
    this.replay = { ...this.replay, requestId };
    this.send(fx, ctx, messages.record(requestId, this.replay.id), { quiet: true });
    fx.push({ type: 'renderReplay' });
  }

  recordAnswered(fx, message) {
    if (this.replay === null || message.replyTo === undefined || message.replyTo !== this.replay.requestId) return;
    let data;
    try {
      data = buildReplay(message);
    } catch (error) {
      fx.push({ type: 'warn', text: 'Unreadable record', error });
      this.replay = { ...this.replay, status: 'error', requestId: null, error: 'This game could not be read.' };
      fx.push({ type: 'renderReplay' });
      return;
    }
    this.replay = { ...this.replay, status: 'ready', requestId: null, data, index: 0, error: null };
    fx.push({ type: 'renderReplay' });
  }

  /** Leave the replay for the high scores of its game. */
  closeReplay(fx, ctx, { hash = true } = {}) {
    if (this.replay === null) return;
    const { id, data } = this.replay;
    this.replay = null;
    const game = GAME_IDS.includes(data?.record.game) ? data.record.game : (ctx.game ?? this.scores.query.game);
    if (hash) fx.push({ type: 'hash', hash: null });
    fx.push({ type: 'view', view: 'lobby' });
    if (game !== ctx.game) fx.push({ type: 'lobbyGame', game });
    const next = withGame(this.scores.query, game);
    const stale = !this.scores.open || next !== this.scores.query || this.scores.status !== 'ready';
    this.scores = { ...this.scores, open: true, query: next };
    if (stale) this.requestScores(fx, ctx);
    else fx.push({ type: 'renderScores' });
    fx.push({ type: 'focusRow', record: id });
  }

  leave(fx, ctx) {
    if (this.state.table === null) return;
    // `left` brings us back to the lobby.
    if (this.send(fx, ctx, messages.leave(this.nextId()), { quiet: true })) return;
    // Offline: the seat is released after the grace period; do not let the session take it back.
    fx.push({ type: 'restart' });
    this.backToLobby(fx, ctx);
  }

  choose(fx, ctx, card) {
    const table = this.state.table;
    if (table === null || table.over || isSpectator(this.state) || table.phase !== 'playing') return;
    const id = this.nextId();
    if (!this.send(fx, ctx, messages.choose(id, card))) return;
    this.pendingChoices.set(id, card);
    // In case the answer never comes.
    fx.push({ type: 'markPending', card }, { type: 'timer', name: 'pending', id, ms: PENDING_MS });
  }

  noteGameStarted(now) {
    if (this.state.table?.phase === 'playing' && this.playingSince === null) this.playingSince = now;
  }

  // ---- Messages from the server ----------------------------------------------------------------

  welcomed(fx, ctx, message) {
    fx.push({ type: 'cancelTimer', name: 'resume' }, { type: 'cancelTimer', name: 'reload' });
    this.heardFromTable = false;
    const resumed = message.resumed === true;
    if (this.state.table !== null) {
      if (resumed) {
        // The server sends the diffs we missed (or a snapshot). If nothing comes, the seat is
        // gone or we were never told: ask.
        fx.push({ type: 'timer', name: 'resume', ms: RESUME_WAIT_MS });
        return;
      }
      this.state = initialState();
      this.playingSince = null;
      this.forgetPending(fx);
      fx.push(
        { type: 'leftTable' },
        { type: 'forgetTable' },
        { type: 'hash', hash: null },
        { type: 'view', view: 'lobby' },
        { type: 'toast', text: 'The connection was lost and the game with it. Start a new one!' },
      );
    }
    if (this.pendingIntent !== null) {
      if (this.helloName !== messages.normalizeName(ctx.typed)) {
        fx.push({ type: 'restart' }); // the name was edited while this hello was on its way
        return;
      }
      const intent = this.pendingIntent;
      this.pendingIntent = null;
      this.subscribeLobby(fx, ctx);
      this.send(fx, ctx, this.messageFor(intent));
      return;
    }
    if (resumed && ctx.storedTable !== null && ctx.storedTable !== undefined) {
      // After a reload: the resumed session sits at a table and its snapshot is on its way.
      fx.push({ type: 'timer', name: 'reload', ms: RESUME_WAIT_MS });
      return;
    }
    this.enterLobby(fx, ctx);
  }

  snapshot(fx, ctx, message) {
    let next;
    try {
      next = applySnapshot(message.table, ctx.now);
    } catch (error) {
      fx.push({ type: 'warn', text: 'Unreadable snapshot', error });
      return;
    }
    const changedTable = this.state.table?.id !== next.table.id;
    this.state = next;
    this.replay = null; // sitting or watching ends a replay
    this.heardFromTable = true;
    this.joinRequest = null;
    this.lobby = initialLobby(); // sitting or watching ends the lobby subscription
    this.forgetPending(fx);
    const code = next.table.code;
    fx.push({ type: 'rememberTable', code });
    if (code !== null) fx.push({ type: 'hash', hash: tableHash(code) });
    if (changedTable) {
      fx.push({ type: 'tableChanged' });
      this.playingSince = null;
    }
    this.noteGameStarted(ctx.now);
    fx.push({ type: 'view', view: 'table' }, { type: 'render' });
    if (changedTable && isSpectator(this.state)) fx.push({ type: 'toast', text: 'You are watching this table.' });
  }

  diff(fx, ctx, message) {
    if (this.state.table !== null && message.table === this.state.table.id) this.heardFromTable = true;
    const before = this.state;
    const result = applyDiff(before, message, ctx.now);
    this.state = result.state;
    if (result.resync) {
      this.send(fx, ctx, messages.resync(this.nextId()));
      return;
    }
    this.settle(fx, message.replyTo, message.seat);
    const table = this.state.table;
    if (this.state === before || table === null || !Array.isArray(message.events)) {
      fx.push({ type: 'render' });
      return;
    }
    const events = message.events;
    fx.push({ type: 'holdFaces', table: before.table, events });
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
    // Someone else's match took a card I had chosen: say who was faster.
    const mineBefore = new Set(mySelection(before));
    const took = events.some(
      (e) => e.kind === 'match' && e.seat !== table.you && Array.isArray(e.cards) && e.cards.some((id) => mineBefore.has(id)),
    );
    if (took) fx.push({ type: 'toast', text: lostRaceText(table, ctx.now) ?? 'Someone was faster' });
    this.noteGameStarted(ctx.now);
  }

  error(fx, ctx, message) {
    const text = typeof message.message === 'string' ? message.message : null;
    if (message.replyTo !== undefined && message.replyTo === this.scores.requestId) {
      // Said in place of the rows: this server keeps no records, cannot answer right now (too
      // many questions waiting, the database down: the server's words say which), or refused
      // the query.
      const unavailable = message.code === 'unavailable';
      this.scores = {
        ...this.scores,
        status: unavailable ? 'unavailable' : 'error',
        answer: null,
        error: unavailable ? text : (text ?? 'The server refused this query.'),
        requestId: null,
      };
      fx.push({ type: 'renderScores' });
      return;
    }
    if (this.replay !== null && message.replyTo !== undefined && message.replyTo === this.replay.requestId) {
      // `unavailable` has several reasons, which only the server's words tell apart.
      const said = message.code === 'unavailable' ? text : null;
      this.replay = { ...this.replay, status: 'error', requestId: null, error: said ?? RECORD_ERRORS[message.code] ?? text ?? 'The server refused that.' };
      fx.push({ type: 'renderReplay' });
      return;
    }
    const mine = this.pendingChoices.has(message.replyTo);
    if (mine) {
      const sound = soundForError(message.code);
      if (sound !== null) fx.push({ type: 'sound', name: sound });
    }
    this.settle(fx, message.replyTo, this.state.table?.you);
    if (message.code === 'badSettings') {
      // The table was not opened: say what does not fit next to the form.
      fx.push({ type: 'settingsProblem', text: text ?? 'The server refused these settings.' });
    }
    if (mine && message.code === 'cardNotOnTable' && this.state.table !== null) {
      const lost = lostRaceText(this.state.table, ctx.now);
      if (lost !== null) {
        fx.push({ type: 'toast', text: lost });
        this.send(fx, ctx, messages.resync(this.nextId()));
        return;
      }
    }
    if (message.replyTo !== undefined && message.replyTo === this.lobbyRequestId) {
      this.lobbyRequestId = null;
      fx.push({ type: 'tablesEmpty', text: 'This server does not list tables.' });
      return;
    }
    if (this.joinRequest !== null && message.replyTo === this.joinRequest.id) {
      const { code } = this.joinRequest;
      this.joinRequest = null;
      if (message.code === 'alreadyStarted' || message.code === 'tableFull') {
        fx.push({
          type: 'toast',
          text: message.code === 'tableFull' ? 'That table is full — watching instead.' : 'That game has started — watching instead.',
        });
        this.send(fx, ctx, messages.spectate(this.nextId(), { code }));
        return;
      }
      if (this.state.table === null) fx.push({ type: 'hash', hash: null });
    }
    fx.push({ type: 'toast', text: text ?? 'The server refused that.' });
    if (this.state.table === null) return;
    if (message.code === 'cardNotOnTable' || message.code === 'gameOver' || message.code === 'notPlaying') {
      // We showed a card (or a phase) the server no longer has: our copy is stale.
      this.send(fx, ctx, messages.resync(this.nextId()));
    } else if (message.code === 'notAtTable') {
      this.backToLobby(fx, ctx);
    }
  }
}

/** One handler per event type; `this` is the controller, `fx` the effects to fill. */
const HANDLERS = {
  /** The connection is about to say hello: the name it carries (none if the server would
   * refuse the one typed; actions then wait for a good one, see act). */
  hello(event) {
    this.helloName = messages.nameProblem(event.typed) === null ? messages.normalizeName(event.typed) : '';
  },

  /** A message from the server. */
  message(event, fx) {
    const message = event.message;
    switch (message.type) {
      case 'welcome':
        this.welcomed(fx, event, message);
        break;
      case 'snapshot':
        this.snapshot(fx, event, message);
        break;
      case 'diff':
        this.diff(fx, event, message);
        break;
      case 'left':
        this.backToLobby(fx, event);
        break;
      case 'lobbySnapshot':
        if (this.state.table !== null) return;
        try {
          this.lobby = applyLobbySnapshot(message);
        } catch (error) {
          fx.push({ type: 'warn', text: 'Unreadable lobby snapshot', error });
          return;
        }
        fx.push({ type: 'renderLobby' });
        break;
      case 'lobbyDiff': {
        if (this.state.table !== null) return;
        const result = applyLobbyDiff(this.lobby, message);
        this.lobby = result.state;
        if (result.resync) this.subscribeLobby(fx, event);
        else fx.push({ type: 'renderLobby' });
        break;
      }
      case 'error':
        this.error(fx, event, message);
        break;
      case 'scores':
        this.scoresAnswered(fx, message);
        break;
      case 'record':
        this.recordAnswered(fx, message);
        break;
      default:
        break; // Messages of later versions are not shown.
    }
  },

  /** The connection's state changed (net.js). */
  connection(event, fx) {
    if (event.state === 'reconnecting') this.forgetPending(fx);
    if (event.state === 'stopped' && event.detail?.code === 4001) {
      // Another tab of this browser took the session.
      this.state = initialState();
      this.playingSince = null;
      this.forgetPending(fx);
      fx.push(
        { type: 'toast', text: 'This game continued in another tab.' },
        { type: 'leftTable' },
        { type: 'forgetTable' },
        { type: 'view', view: 'lobby' },
        { type: 'renderLobby' },
      );
    }
  },

  /** A lobby button: {intent: {kind: playSolo | quickMatch | createTable | join | joinListed |
   * spectate, ...}}. */
  intent(event, fx) {
    this.act(fx, event, event.intent);
  },

  /** An invite code typed in the lobby. */
  joinCode(event, fx) {
    const code = messages.cleanCode(event.raw);
    const route = parseRoute(tableHash(code));
    if (route.view !== 'table') {
      fx.push(
        { type: 'toast', text: 'An invite code is 10 letters and digits, like ABCD234XYZ.' },
        { type: 'focus', target: 'join-code' },
      );
      return;
    }
    this.act(fx, event, { kind: 'join', code: route.code });
  },

  /** The invite dialog's name, submitted. */
  inviteSubmit(event, fx) {
    const raw = event.raw;
    const problem = messages.normalizeName(raw) === '' ? 'Type a name to take a seat.' : messages.nameProblem(raw);
    if (problem !== null) {
      fx.push({ type: 'inviteProblem', text: problem });
      return;
    }
    const name = messages.normalizeName(raw);
    fx.push({ type: 'setName', name });
    this.act(fx, { ...event, typed: name }, { kind: 'join', code: this.inviteCode });
  },

  /** The invite dialog's "Just watch". */
  inviteWatch(event, fx) {
    fx.push({ type: 'dialog', name: 'invite-name', open: false });
    this.act(fx, event, { kind: 'spectate', code: this.inviteCode });
  },

  /** The address changed (a pasted share link, back/forward): go where it says. */
  route(event, fx) {
    const route = parseRoute(event.hash ?? '');
    const table = this.state.table;
    if (route.view === 'replay') {
      // A replay is watched from the lobby; a seat is not given up for one.
      if (table === null && this.replay?.id !== route.record) this.openReplay(fx, event, route.record);
      return;
    }
    if (this.replay !== null && table === null) this.closeReplay(fx, event, { hash: false });
    if (route.view === 'table') {
      if (table !== null && table.code === route.code) return;
      // A seat is taken under the name typed (act starts a new session when it changed).
      if (event.connection === 'online') this.joinByLink(fx, event, route.code);
    } else if (table !== null) {
      this.leave(fx, event);
    }
  },

  /** Leave the table (after any confirmation). */
  leave(event, fx) {
    this.leave(fx, event);
  },

  /** The leave button: ask first when a game in progress would be thrown away. */
  askLeave(event, fx) {
    if (leaveNeedsConfirmation(this.state.table)) fx.push({ type: 'dialog', name: 'confirm-leave', open: true });
    else this.leave(fx, event);
  },

  /** The re-deal button: alone, after a confirmation; at a multiplayer table, a vote. */
  askRedeal(event, fx) {
    const table = this.state.table;
    if (table === null || isSpectator(this.state)) return;
    if (table.seats === 1) fx.push({ type: 'dialog', name: 'confirm-redeal', open: true });
    else this.send(fx, event, messages.redeal(this.nextId()));
  },

  /** A re-deal confirmed, or a vote to play again. */
  redeal(event, fx) {
    this.send(fx, event, messages.redeal(this.nextId()));
  },

  /** The host starts the game before every seat is taken. */
  start(event, fx) {
    this.send(fx, event, messages.start(this.nextId()));
  },

  /** A card clicked, tapped or picked by its key. */
  choose(event, fx) {
    this.choose(fx, event, event.card);
  },

  /** Un-choose my chosen cards (all, or the last one) through the same path as a click. */
  unchoose(event, fx) {
    const pending = new Set(this.pendingChoices.values());
    const mine = mySelection(this.state).filter((id) => !pending.has(id));
    for (const id of event.all ? [...mine].reverse() : mine.slice(-1)) this.choose(fx, event, id);
  },

  /** Solo Set: show one card of a set, then two on the same board (the third is the player's). */
  hint(event, fx) {
    const table = this.state.table;
    if (table === null) return;
    const sets = findSets(table.board.filter(isValidCard));
    if (sets.length === 0) {
      fx.push({ type: 'toast', text: 'No set on this board.' });
      return;
    }
    const key = table.board.map((c) => c.id).join(',');
    this.hint = { key, shown: this.hint.key === key ? Math.min(2, this.hint.shown + 1) : 1 };
    fx.push({ type: 'flash', cards: sets[0].slice(0, this.hint.shown).map((c) => c.id), kind: 'hint', ms: HINT_MS });
  },

  /** The lobby's tab: the live tables or the high scores of the game picked. */
  lobbyTab(event, fx) {
    const open = event.tab === 'scores';
    if (open === this.scores.open) return;
    this.scores = { ...this.scores, open };
    if (open) {
      const next = withGame(this.scores.query, event.game ?? this.scores.query.game);
      this.scores = { ...this.scores, query: next };
      this.requestScores(fx, event);
    } else {
      fx.push({ type: 'renderScores' });
    }
  },

  /** Another game picked in the lobby: its high scores, from the first page. */
  pickGame(event, fx) {
    if (typeof event.game !== 'string') return;
    this.query(fx, event, withGame(this.scores.query, event.game));
  },

  /** A sort heading of the high scores clicked: {sort: date | score | duration}. */
  scoresSort(event, fx) {
    this.query(fx, event, withSort(this.scores.query, event.sort));
  },

  /** Previous / Next page: {by: -1 | 1}. */
  scoresPage(event, fx) {
    const total = this.scores.answer?.total ?? 0;
    this.query(fx, event, withPage(this.scores.query, this.scores.query.page + Math.sign(event.by ?? 0), total));
  },

  /** "Only my games": {mine}. */
  scoresMine(event, fx) {
    this.query(fx, event, withMine(this.scores.query, event.mine === true));
  },

  /** A row's Replay button: {record} (the game's id). */
  openReplay(event, fx) {
    if (typeof event.record !== 'string' || event.record === '' || this.state.table !== null) return;
    this.openReplay(fx, event, event.record);
  },

  /** A step control of the replay: {how: first | prev | next | last | <the slider's number>}. */
  replayStep(event, fx) {
    const replay = this.replay;
    if (replay === null || replay.status !== 'ready') return;
    const index = stepTo(replay.data, replay.index, event.how);
    if (index === replay.index) return;
    this.replay = { ...replay, index };
    fx.push({ type: 'renderReplay' });
  },

  /** Export: the record as a JSON file. */
  replayExport(event, fx) {
    if (this.replay?.status !== 'ready') return;
    fx.push({ type: 'download', ...exportFile(this.replay.data.record) });
  },

  /** "Back to high scores". */
  closeReplay(event, fx) {
    this.closeReplay(fx, event);
  },

  /** A timer the controller asked for ran out. */
  timer(event, fx) {
    switch (event.name) {
      case 'pending':
        this.settle(fx, event.id, this.state.table?.you);
        break;
      case 'resume':
        if (this.state.table !== null && !this.heardFromTable) {
          this.send(fx, event, messages.resync(this.nextId()), { quiet: true });
        }
        break;
      case 'reload':
        if (this.state.table === null) {
          fx.push({ type: 'forgetTable' });
          this.enterLobby(fx, event);
        }
        break;
      default:
        break;
    }
  },
};
