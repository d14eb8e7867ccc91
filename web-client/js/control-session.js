// The controller's session: the hello and its name, the welcome (a new session or a resumed one,
// and the games the server describes), the connection's states, and the lobby intentions (play
// solo, quick match, create, join, watch) that wait for a session under the name typed. Functions
// of the controller (controller.js), which passes itself as `c`; `fx` is the list of effects to
// fill, `ctx` the event's context. What the session learns it announces (news.js: welcome, lobby,
// tableGone, connectionLost); the other concerns listen, and it imports none of them but the
// chat's question whether a name is stale and the arenas' messages (creating or joining an
// arena is an intention too: it needs a session under the name typed).

import * as messages from './messages.js';
import { parseRoute, tableHash } from './route.js';
import { learnGames } from './games.js';
import { isSpectator } from './table-state.js';
import { watchAgain } from './control-table.js';
import { staleName } from './control-chat.js';
import { arenaIntentMessage, createArenaIntent, joinArenaIntent, sendArenaIntent } from './control-arenas.js';

/** The intentions that seat the player with others, who will see the name. */
const WITH_OTHERS = new Set(['quickMatch', 'createTable', 'join', 'joinListed']);
/** What the name box says when one of them is asked for without a name. */
export const NAME_FOR_OTHERS = 'Type your name first: the others at the table will see it.';

/** How long a resumed session waits for its table before it asks (or gives up on it). */
export const RESUME_WAIT_MS = 2000;

/** The messages a lobby intention sends. `join` and `spectate` carry a code or a table id. */
const INTENTS = Object.freeze({
  playSolo: (id, i) => messages.playSolo(id, i.game, i.settings ?? {}),
  playDaily: (id, i) => messages.playDaily(id, i.game),
  playBot: (id, i) => messages.playBot(id, { game: i.game, level: i.level, bots: i.bots, settings: i.settings ?? {} }),
  quickMatch: (id, i) => messages.quickMatch(id, { game: i.game, seats: i.seats, settings: i.settings ?? {} }),
  createTable: (id, i) =>
    messages.createTable(id, { game: i.game, seats: i.seats, private: true, settings: i.settings ?? {} }),
  join: (id, i) => messages.join(id, i.code),
  joinListed: (id, i) => messages.joinListed(id, i.table),
  spectate: (id, i) => messages.spectate(id, i.table !== undefined ? { table: i.table } : { code: i.code }),
});

/** The message an intention sends, with a new id (a join is waited on: its refusal may turn
 * into watching). */
function messageFor(c, intent) {
  const id = c.nextId();
  if (['createArena', 'joinArena', 'watchArena'].includes(intent.kind)) return arenaIntentMessage(c, id, intent);
  if (intent.kind === 'join') c.requests.replace(id, 'join', { code: intent.code });
  if (intent.kind === 'playDaily') c.requests.replace(id, 'playDaily', { game: intent.game });
  return INTENTS[intent.kind](id, intent);
}

/**
 * Send a lobby intention as soon as we can. `hello` carries the name and is said once per
 * connection, so a name edited since then needs a new session first (only ever from the lobby,
 * where there is no seat to lose); watching needs no name.
 */
export function act(c, fx, ctx, intent) {
  // Watching needs no name, but a name typed goes with the watcher too: the table's chat shows
  // it (a watcher with none is "Player").
  const named = messages.normalizeName(ctx.typed) !== '' && messages.nameProblem(ctx.typed) === null;
  const needsName = intent.kind !== 'spectate' || named;
  if (needsName && messages.nameProblem(ctx.typed) !== null) {
    fx.push({ type: 'nameProblem' });
    return;
  }
  // Others will see it: a game with them is not entered as "Player" (the name is kept in the
  // browser, so it is asked once).
  if (!named && WITH_OTHERS.has(intent.kind)) {
    fx.push({ type: 'nameProblem', text: NAME_FOR_OTHERS });
    return;
  }
  const name = messages.normalizeName(ctx.typed);
  fx.push({ type: 'saveName', name });
  // A resumed session keeps the name it had (PROTOCOL.md, `hello`): one edited since needs a new
  // session too, or the table would show the old name.
  if (ctx.connection === 'online' && (!needsName || !staleName(c, ctx.typed))) {
    c.send(fx, ctx, messageFor(c, intent));
    return;
  }
  c.pendingIntent = intent;
  if (ctx.connection === 'online') {
    fx.push({ type: 'restart' });
  } else {
    fx.push({ type: 'connect' }, { type: 'toast', text: 'Connecting to the server…' });
  }
}

/** An invite link: join under the name typed, or, with none yet, ask for one first (or just
 * watch, which needs no name); `game` is the link's game when it names one. */
export function joinByLink(c, fx, ctx, code, game = null) {
  if (messages.normalizeName(ctx.typed) !== '') {
    act(c, fx, ctx, { kind: 'join', code });
    return;
  }
  c.inviteCode = code;
  fx.push({ type: 'inviteName', code, game });
}

/** Online without a table: the lobby, entered (its list, the address's share link or replay, the
 * tabs' questions: each concern's part, news.js `lobby`). */
export function enterLobby(c, fx, ctx) {
  c.news.announce('lobby', c, fx, ctx, 'enter');
}

/** `welcome`: the games the server describes are learnt (the page draws them from then on); a
 * resumed session waits for its table; a new one has lost any table it had; an intention that
 * waited for this session goes now; else the lobby. Then the news of it. */
export function welcomed(c, fx, ctx, message) {
  greet(c, fx, ctx, message);
  c.news.announce('welcome', c, fx, ctx, message.resumed === true);
}

function greet(c, fx, ctx, message) {
  fx.push({ type: 'cancelTimer', name: 'resume' }, { type: 'cancelTimer', name: 'reload' });
  if (learnGames(message.games, message.gamesVersion)) fx.push({ type: 'games' });
  // What others see: a resumed session keeps the name it had, whatever this hello asked for.
  c.sessionName = typeof message.name === 'string' ? message.name : null;
  c.heardFromTable = false;
  c.reloading = false;
  const resumed = message.resumed === true;
  if (c.state.table !== null) {
    if (resumed) {
      // The server sends the diffs we missed (or a snapshot). If nothing comes, the seat is
      // gone or we were never told: ask.
      fx.push({ type: 'timer', name: 'resume', ms: RESUME_WAIT_MS });
      return;
    }
    if (!isSpectator(c.state)) {
      tableLost(c, fx, ctx);
    } else if (c.pendingIntent === null) {
      // A spectator loses no seat with its session (its node died, or the server restarted):
      // it watches the same table again, where the table is now.
      if (watchAgain(c, fx, ctx)) return;
      tableLost(c, fx, ctx);
    }
    // (A spectator redirected here watches it again through the redirect's intent, below.)
  }
  if (c.pendingIntent !== null) {
    if (c.helloName !== messages.normalizeName(ctx.typed)) {
      fx.push({ type: 'restart' }); // the name was edited while this hello was on its way
      return;
    }
    const intent = c.pendingIntent;
    c.pendingIntent = null;
    c.news.announce('lobby', c, fx, ctx, 'subscribe');
    c.send(fx, ctx, messageFor(c, intent));
    return;
  }
  if (resumed && ctx.storedTable !== null && ctx.storedTable !== undefined) {
    // After a reload: the resumed session sits at a table and its snapshot is on its way.
    c.reloading = true;
    fx.push({ type: 'timer', name: 'reload', ms: RESUME_WAIT_MS });
    return;
  }
  enterLobby(c, fx, ctx);
}

/** The table this page showed is lost with its session: back to the lobby, told why. */
export function tableLost(c, fx, ctx, text = 'The connection was lost and the game with it. Start a new one!') {
  c.news.announce('tableGone', c, fx, ctx);
  fx.push({ type: 'forgetTable' }, { type: 'hash', hash: null }, { type: 'view', view: 'lobby' }, { type: 'toast', text });
}

/** `redirect`: the table is on another node of the cluster. The request that led here (a
 * join, a watch, a quick match) waits for this session's welcome there, and the connection
 * moves: the player sees nothing of it but the table. */
export function redirected(c, fx, message) {
  if (typeof message.table !== 'string' || typeof message.path !== 'string') return;
  c.requests.take(message.replyTo);
  const code = typeof message.code === 'string' ? message.code : undefined;
  if (message.role === 'arenaPlayer') {
    // An arena held by another node: joined there (by its code when it came by one).
    c.pendingIntent = code !== undefined ? { kind: 'joinArena', code } : { kind: 'joinArena', arena: message.table };
  } else if (message.role === 'arenaWatcher') {
    c.pendingIntent = { kind: 'watchArena', arena: message.table };
  } else if (message.role === 'spectator') {
    c.pendingIntent = code !== undefined ? { kind: 'spectate', code } : { kind: 'spectate', table: message.table };
  } else {
    c.pendingIntent = code !== undefined ? { kind: 'join', code } : { kind: 'joinListed', table: message.table };
  }
  fx.push({ type: 'redirect', redirect: message });
}

/** The session's events; `this`-free: each takes the controller, the event and the effects. */
export const SESSION_HANDLERS = {
  /** The connection is about to say hello: the name it carries (none if the server would
   * refuse the one typed; actions then wait for a good one, see act). */
  hello(c, event) {
    c.helloName = messages.nameProblem(event.typed) === null ? messages.normalizeName(event.typed) : '';
  },

  /** The connection's state changed (net.js). */
  connection(c, event, fx) {
    if (event.state === 'reconnecting') c.news.announce('connectionLost', c, fx, event);
    if (event.state === 'stopped' && event.detail?.code === 4001) {
      // Another tab of this browser took the session.
      c.news.announce('tableGone', c, fx, event);
      fx.push(
        { type: 'toast', text: 'This game continued in another tab.' },
        { type: 'forgetTable' },
        { type: 'view', view: 'lobby' },
        { type: 'renderLobby' },
      );
    }
  },

  /** A lobby button: {intent: {kind: playSolo | playBot | quickMatch | createTable | join |
   * joinListed | spectate | createArena | joinArena, ...}}. */
  intent(c, event, fx) {
    act(c, fx, event, event.intent);
  },

  /** An invite code typed in the lobby. */
  joinCode(c, event, fx) {
    const code = messages.cleanCode(event.raw);
    const route = parseRoute(tableHash(code));
    if (route.view !== 'table') {
      fx.push(
        { type: 'toast', text: 'An invite code is 10 letters and digits, like ABCD234XYZ.' },
        { type: 'focus', target: 'join-code' },
      );
      return;
    }
    act(c, fx, event, { kind: 'join', code: route.code });
  },

  /** "Create a private arena": {game, minutes, startsIn} as the form has them. */
  createArena(c, event, fx) {
    arenaIntent(c, fx, event, createArenaIntent(c, fx, event));
  },

  /** Join an arena: {arena} (its id) or {raw} (a code typed). */
  joinArena(c, event, fx) {
    arenaIntent(c, fx, event, joinArenaIntent(c, fx, event));
  },

  /** The invite dialog's name, submitted. */
  inviteSubmit(c, event, fx) {
    const raw = event.raw;
    const problem = messages.normalizeName(raw) === '' ? 'Type a name to take a seat.' : messages.nameProblem(raw);
    if (problem !== null) {
      fx.push({ type: 'inviteProblem', text: problem });
      return;
    }
    const name = messages.normalizeName(raw);
    fx.push({ type: 'setName', name });
    act(c, fx, { ...event, typed: name }, { kind: 'join', code: c.inviteCode });
  },

  /** The invite dialog's "Just watch", under the name typed in it (when it is one). */
  inviteWatch(c, event, fx) {
    fx.push({ type: 'dialog', name: 'invite-name', open: false });
    const name = messages.normalizeName(event.raw ?? '');
    if (name !== '' && messages.nameProblem(name) === null) {
      fx.push({ type: 'setName', name });
      act(c, fx, { ...event, typed: name }, { kind: 'spectate', code: c.inviteCode });
      return;
    }
    act(c, fx, event, { kind: 'spectate', code: c.inviteCode });
  },
};

/** An arena intention (null: refused by its form) goes under the name typed, but from a table at
 * once: a new session would cost the seat. */
function arenaIntent(c, fx, ctx, intent) {
  if (intent === null) return;
  if (c.state.table !== null) sendArenaIntent(c, fx, ctx, intent);
  else act(c, fx, ctx, intent);
}

/** What the session does with the news: entering the lobby follows the address's share link. */
export const SESSION_NEWS = {
  lobby(c, fx, ctx, how) {
    if (how !== 'enter') return;
    const route = parseRoute(ctx.hash ?? '');
    if (route.view === 'table') joinByLink(c, fx, ctx, route.code, route.game);
  },
};
