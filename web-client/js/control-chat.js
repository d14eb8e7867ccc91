// The controller's chat: a line typed and sent (checked first, as the server checks it; a lobby
// line under the name typed), the lines received, the answer or refusal of one's own (said under
// the input it was typed in, which keeps the text), mute and hide-spectators, the table's chat
// panel opened and closed (in place of the history view, never beside it), the table's lines
// joined with a snapshot's and dropped with the table. Functions of the controller
// (controller.js), which passes itself as `c`.

import * as messages from './messages.js';
import { chatProblem, chatRefusalText, chatText } from './chat-text.js';
import { placeOf, readLine, sameShown, withLine, withMuted, withoutTable, withProblem, withSnapshot } from './chat.js';
import { isSpectator } from './table-state.js';

/** What the lobby's input says when the name typed cannot be said hello with. */
export const CHAT_NAME_PROBLEM = 'Fix your name above first: lobby lines are said under it.';
/** The server's name for a player who gave none (PROTOCOL.md, `hello`). */
export const DEFAULT_NAME = 'Player';

/** Whether a lobby line typed now would be said under another name than the one in the name
 * box: the hello asked for another, or the session (resumed) has another. */
export function staleName(c, typed) {
  const wanted = messages.normalizeName(typed);
  if (wanted !== c.helloName) return true;
  return c.sessionName !== null && c.sessionName !== (wanted === '' ? DEFAULT_NAME : wanted);
}

function spectating(c) {
  return c.state.table !== null && isSpectator(c.state);
}

/** The chat is `chat` now; drawn again when that shows anything new. */
function update(c, fx, chat) {
  const shownAlready = sameShown(c.chat, chat);
  c.chat = chat;
  if (!shownAlready) fx.push({ type: 'renderChat' });
}

/** A `chat` message: someone's line, or (with `replyTo`) the answer to one's own, which empties
 * the input it was typed in (unless it holds other text by now). */
export function chatReceived(c, fx, message) {
  const request = c.requests.takeIf(message.replyTo, 'chat');
  if (request !== null) fx.push({ type: 'clearChatInput', where: request.where, text: request.text });
  const line = readLine(message);
  if (line === null) return;
  update(c, fx, withLine(c.chat, line, { spectator: spectating(c) }));
}

/** One's own line refused (`badField`, `tooFast`; `request` is what was sent): said under its
 * input, which still holds it. */
export function chatRefused(c, fx, message, request) {
  update(c, fx, withProblem(c.chat, request.where, chatRefusalText(request.text, message)));
}

/** A snapshot: the table's lines joined with the ones it carries (chat.js withSnapshot). One that
 * was not taken (the page went back to the lobby instead) brings nothing. */
export function chatSnapshot(c, fx, message) {
  const table = c.state.table;
  if (table === null || table.id !== message.table?.id) return;
  update(c, fx, withSnapshot(c.chat, table.id, message.chat, { spectator: spectating(c), you: table.you ?? null }));
}

/** No table any more, however it was left: its lines, unread count, problem and panel go. */
export function chatLeft(c, fx) {
  update(c, fx, withoutTable(c.chat));
}

/** A new session's welcome: the lobby line that waited for it (typed under a new name) goes now,
 * if the name it was said under is still the one typed. */
export function chatWelcomed(c, fx, ctx) {
  const text = c.pendingChat;
  if (text === null) return;
  if (c.state.table !== null) {
    c.pendingChat = null;
    return;
  }
  // (A new session named otherwise than asked is the server's choice: the line goes under it.)
  if (c.helloName !== messages.normalizeName(ctx.typed)) {
    if (!fx.some((e) => e.type === 'restart')) fx.push({ type: 'restart' });
    return;
  }
  c.pendingChat = null;
  sendLine(c, fx, ctx, 'lobby', text);
}

/** The connection dropped: no answer will come to the lines on their way (their text stays in
 * their inputs, to be sent again). */
export function chatDisconnected(c) {
  c.requests.drop('chat');
}

function sendLine(c, fx, ctx, where, text) {
  const id = c.nextId();
  if (c.send(fx, ctx, messages.chat(id, text))) c.requests.add(id, 'chat', { where, text });
}

/** The chat's events. */
export const CHAT_HANDLERS = {
  /** A line typed: {where, text}. Sent trimmed when it can be, else the problem is said by its
   * input; the input keeps the text until the line is answered. A lobby line is said under the
   * name typed: a name edited since the hello needs a new session first (the line waits for it). */
  chatSend(c, event, fx) {
    const where = placeOf(event.where);
    // The server says a line where its sender is: the table's input only at a table, the lobby's
    // only in the lobby.
    if ((where === 'table') !== (c.state.table !== null)) return;
    const problem = chatProblem(event.text);
    if (problem !== null) {
      update(c, fx, withProblem(c.chat, where, problem));
      return;
    }
    const text = chatText(event.text);
    // Enter pressed again before the answer: the line is on its way already.
    if (c.requests.ofKind('chat').some(([, r]) => r.where === where && r.text === text)) return;
    if (where === 'lobby') {
      if (messages.nameProblem(event.typed) !== null) {
        fx.push({ type: 'nameProblem' });
        update(c, fx, withProblem(c.chat, where, CHAT_NAME_PROBLEM));
        return;
      }
      const name = messages.normalizeName(event.typed);
      if (staleName(c, event.typed)) {
        const waiting = c.pendingChat !== null;
        c.pendingChat = text;
        if (waiting) return; // a new session is on its way already
        fx.push({ type: 'saveName', name });
        if (event.connection === 'online') fx.push({ type: 'restart' });
        else fx.push({ type: 'connect' }, { type: 'toast', text: 'Connecting to the server…' });
        return;
      }
    }
    sendLine(c, fx, event, where, text);
  },

  /** The text of an input edited: {where}; its problem goes. */
  chatEdited(c, event, fx) {
    update(c, fx, withProblem(c.chat, event.where, null));
  },

  /** Mute or unmute a name: {name, muted} (kept in the browser). */
  chatMute(c, event, fx) {
    if (typeof event.name !== 'string') return;
    c.chat = withMuted(c.chat, event.name, event.muted === true);
    fx.push({ type: 'saveMuted', names: c.chat.muted }, { type: 'renderChat' });
  },

  /** A player hides (or shows) the spectators' lines: {hide}. */
  chatHideSpectators(c, event, fx) {
    update(c, fx, { ...c.chat, hideSpectators: event.hide === true });
  },

  /** The table's chat panel opened or closed: {open}. Opening reads what was unread, and takes
   * the history view's place. */
  chatOpen(c, event, fx) {
    const open = event.open === true && c.state.table !== null;
    if (open) fx.push({ type: 'closeHistory' });
    update(c, fx, { ...c.chat, open, unread: open ? 0 : c.chat.unread });
  },

  /** The history view opened: it takes the chat panel's place. */
  historyShown(c, event, fx) {
    if (c.chat.open) update(c, fx, { ...c.chat, open: false });
  },
};

/** What the chat does with the news: a welcome sends the lobby line that waited for it; a
 * dropped connection's lines are no longer waited on. */
export const CHAT_NEWS = {
  welcome(c, fx, ctx) {
    chatWelcomed(c, fx, ctx);
  },
  connectionLost(c) {
    chatDisconnected(c);
  },
};
