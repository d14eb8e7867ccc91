// Chat (PROTOCOL.md, "Chat"): a line checked before it is sent, as the server checks it; lines
// received read and kept (the table's and the lobby's, the last 100 of each); who is muted and
// whether a player hides the spectators' lines; and what the chat panels show, as data. Pure:
// chat-view.js draws it, control-chat.js decides.
//
// State = {table: [Line], lobby: [Line], unread, open, muted: [name], hideSpectators, problem}
//   Line = {n, where: 'table' | 'lobby', name, seat: number | null, spectator, text, mine}

/** Most characters (code points) in a line, after trimming: the server's limit. */
export const CHAT_MAX = 200;
/** Lines kept per place: the table keeps as many. */
export const CHAT_KEPT = 100;

// Control characters (a line break included) and bidirectional controls: refused by the server.
const REFUSED = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** What is wrong with a line about to be sent, in words, or null when it can go. */
export function chatProblem(raw) {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (text === '') return 'Type something to say.';
  if ([...text].length > CHAT_MAX) return `A line holds at most ${CHAT_MAX} characters.`;
  if (REFUSED.test(text)) return 'A line cannot hold line breaks or control characters.';
  return null;
}

/** The chat before anything was said. */
export function initialChat({ muted = [] } = {}) {
  return { table: [], lobby: [], unread: 0, open: false, muted: [...new Set(muted)], hideSpectators: false, problem: null, next: 1 };
}

/** A `chat` message or a snapshot's line, read, or null when it cannot be. */
export function readLine(value, where = value?.where) {
  if (value === null || typeof value !== 'object') return null;
  if (typeof value.name !== 'string' || typeof value.text !== 'string') return null;
  if (where !== 'table' && where !== 'lobby') return null;
  return {
    where,
    name: value.name,
    seat: Number.isInteger(value.seat) ? value.seat : null,
    spectator: value.spectator === true,
    text: value.text,
    mine: value.replyTo !== undefined && value.replyTo !== null,
  };
}

function keep(lines, line) {
  const all = [...lines, line];
  return all.length > CHAT_KEPT ? all.slice(all.length - CHAT_KEPT) : all;
}

/** Whether `line` is shown to a viewer (`spectator`: they watch the table). */
export function shown(chat, line, { spectator = false } = {}) {
  if (line.mine) return true;
  if (chat.muted.includes(line.name)) return false;
  return !(line.spectator && chat.hideSpectators && !spectator);
}

/** `line` received: kept with its place's lines; counted unread when the table's panel is closed
 * and it is shown. */
export function withLine(chat, line, { spectator = false } = {}) {
  const numbered = { ...line, n: chat.next };
  const place = line.where === 'lobby' ? 'lobby' : 'table';
  const unread = place === 'table' && !chat.open && !line.mine && shown(chat, line, { spectator }) ? chat.unread + 1 : chat.unread;
  return { ...chat, [place]: keep(chat[place], numbered), unread, next: chat.next + 1, problem: line.mine ? null : chat.problem };
}

/** A snapshot's lines: the table's lines are those (a table left or changed starts afresh). */
export function withSnapshot(chat, lines) {
  let next = chat.next;
  const table = (Array.isArray(lines) ? lines : [])
    .map((value) => readLine(value, 'table'))
    .filter((line) => line !== null)
    .map((line) => ({ ...line, mine: false, n: next++ }))
    .slice(-CHAT_KEPT);
  return { ...chat, table, unread: 0, next };
}

/** Mute or unmute everyone who speaks under `name`. */
export function withMuted(chat, name, muted) {
  const names = chat.muted.filter((n) => n !== name);
  return { ...chat, muted: muted ? [...names, name] : names };
}

/**
 * What a chat panel shows: {lines: [{n, name, who, text, mine, canMute}], muted: [name],
 * unread ('' or a count), hideSpectators (null when the viewer cannot: a spectator, or the
 * lobby), problem}. `place` is 'table' or 'lobby'; `spectator` whether the viewer watches.
 */
export function chatView(chat, { place = 'table', spectator = false, myName = null } = {}) {
  const lines = chat[place]
    .filter((line) => shown(chat, line, { spectator }))
    .map((line) => ({
      n: line.n,
      name: line.name,
      who: line.seat !== null ? `Seat ${line.seat + 1}` : line.spectator ? 'watching' : '',
      text: line.text,
      mine: line.mine,
      canMute: !line.mine && line.name !== myName,
    }));
  return {
    lines,
    muted: [...chat.muted],
    unread: chat.unread > 0 ? String(chat.unread) : '',
    hideSpectators: place === 'table' && !spectator ? chat.hideSpectators : null,
    problem: chat.problem,
  };
}
