// The controller's chat: a line typed and sent (checked first, as the server checks it), the
// lines received, the answer or refusal of one's own, mute and hide-spectators, the table's chat
// panel opened and closed. Functions of the controller (controller.js), which passes itself as `c`.

import * as messages from './messages.js';
import { chatProblem, readLine, withLine, withMuted, withSnapshot } from './chat.js';
import { isSpectator } from './table-state.js';

function spectating(c) {
  return c.state.table !== null && isSpectator(c.state);
}

/** A `chat` message: someone's line, or (with `replyTo`) the answer to one's own. */
export function chatReceived(c, fx, message) {
  if (message.replyTo !== undefined) c.requests.takeIf(message.replyTo, 'chat');
  const line = readLine(message);
  if (line === null) return;
  c.chat = withLine(c.chat, line, { spectator: spectating(c) });
  fx.push({ type: 'renderChat' });
}

/** One's own line refused (`badField`, `tooFast`): said by the input, in the server's words. */
export function chatRefused(c, fx, message) {
  c.chat = { ...c.chat, problem: typeof message.message === 'string' ? message.message : 'That line was not sent.' };
  fx.push({ type: 'renderChat' });
}

/** A snapshot: the table's lines are the ones it carries. */
export function chatSnapshot(c, fx, message) {
  if (c.chat.table.length === 0 && !Array.isArray(message.chat)) return; // nothing said, nothing to draw
  c.chat = withSnapshot(c.chat, message.chat);
  fx.push({ type: 'renderChat' });
}

/** No table any more: its lines go, the panel closes. */
export function chatLeft(c, fx) {
  if (c.chat.table.length === 0 && !c.chat.open) return;
  c.chat = { ...c.chat, table: [], unread: 0, open: false, problem: null };
  fx.push({ type: 'renderChat' });
}

/** The chat's events. */
export const CHAT_HANDLERS = {
  /** A line typed: {text} (sent when it can be; else the problem is said by the input). */
  chatSend(c, event, fx) {
    const problem = chatProblem(event.text);
    if (problem !== null) {
      c.chat = { ...c.chat, problem };
      fx.push({ type: 'renderChat' });
      return;
    }
    const id = c.nextId();
    c.requests.add(id, 'chat');
    if (c.send(fx, event, messages.chat(id, event.text.trim()))) {
      c.chat = { ...c.chat, problem: null };
      fx.push({ type: 'clearChatInput', where: event.where === 'lobby' ? 'lobby' : 'table' });
    } else {
      c.requests.take(id);
    }
    fx.push({ type: 'renderChat' });
  },

  /** Mute or unmute a name: {name, muted} (kept in the browser). */
  chatMute(c, event, fx) {
    if (typeof event.name !== 'string') return;
    c.chat = withMuted(c.chat, event.name, event.muted === true);
    fx.push({ type: 'saveMuted', names: c.chat.muted }, { type: 'renderChat' });
  },

  /** A player hides (or shows) the spectators' lines: {hide}. */
  chatHideSpectators(c, event, fx) {
    c.chat = { ...c.chat, hideSpectators: event.hide === true };
    fx.push({ type: 'renderChat' });
  },

  /** The table's chat panel opened or closed: {open} (opening reads what was unread). */
  chatOpen(c, event, fx) {
    const open = event.open === true;
    c.chat = { ...c.chat, open, unread: open ? 0 : c.chat.unread };
    fx.push({ type: 'renderChat' });
  },
};
