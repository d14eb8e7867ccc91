// Chat (PROTOCOL.md, "Chat"): the lines received, read and kept (the table's and the lobby's, the
// last 100 of each); a snapshot's lines joined to those already seen; who is muted and whether a
// player hides the spectators' lines; each input's problem line; and what the chat panels show,
// as data. Pure: chat-text.js checks a line before it goes, chat-view.js draws, control-chat.js
// decides.
//
// State = {table: [Line], lobby: [Line], tableId, unread, open, muted: [name], hideSpectators,
//          problems: {table, lobby}, next}
//   Line = {n, where: 'table' | 'lobby', name, seat: number | null, spectator, text, mine}
//   `tableId`: the table whose lines `table` holds; `problems`: what each input says (or null);
//   `n`: a line's number, never reused (the view keys its rows by it).

export { CHAT_MAX, chatProblem } from './chat-text.js';

/** Lines kept per place: the table keeps as many. */
export const CHAT_KEPT = 100;

/** The places that have a chat, each with its own input. */
export const PLACES = Object.freeze(['table', 'lobby']);

/** The chat before anything was said. */
export function initialChat({ muted = [] } = {}) {
  return {
    table: [], lobby: [], tableId: null, unread: 0, open: false, muted: [...new Set(muted)], hideSpectators: false,
    problems: { table: null, lobby: null }, next: 1,
  };
}

/** `place` when it is one, else the table's. */
export function placeOf(place) {
  return place === 'lobby' ? 'lobby' : 'table';
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

function keep(lines) {
  return lines.length > CHAT_KEPT ? lines.slice(lines.length - CHAT_KEPT) : lines;
}

/** Whether `line` is shown to a viewer (`spectator`: they watch the table). */
export function shown(chat, line, { spectator = false } = {}) {
  if (line.mine) return true;
  if (chat.muted.includes(line.name)) return false;
  return !(line.spectator && chat.hideSpectators && !spectator);
}

/** Whether a line counts as unread now: the table's, the panel closed, someone else's, shown. */
function counts(chat, line, spectator) {
  return line.where === 'table' && !chat.open && !line.mine && shown(chat, line, { spectator });
}

/** `place`'s input says `problem` (null: nothing). */
export function withProblem(chat, place, problem) {
  const key = placeOf(place);
  if (chat.problems[key] === problem) return chat;
  return { ...chat, problems: { ...chat.problems, [key]: problem } };
}

/** `line` received: kept with its place's lines; counted unread when it counts (see counts). My
 * own line answers my input: its problem goes. */
export function withLine(chat, line, { spectator = false } = {}) {
  const place = placeOf(line.where);
  const next = {
    ...chat,
    [place]: keep([...chat[place], { ...line, n: chat.next }]),
    unread: counts(chat, line, spectator) ? chat.unread + 1 : chat.unread,
    next: chat.next + 1,
  };
  return line.mine ? withProblem(next, place, null) : next;
}

const sameLine = (a, b) => a.name === b.name && a.seat === b.seat && a.spectator === b.spectator && a.text === b.text;

/**
 * How many of a snapshot's lines (`theirs`, oldest first) were seen already, as the last lines of
 * `ours`. The snapshot holds the table's last lines: those we saw, perhaps fewer at the front (the
 * table keeps 100), then any said since. So the lines seen end at index j ≤ ours.length - 1, and
 * the largest j whose lines agree with the end of ours is taken (lines carry no id: where the same
 * words were said again and again while away, fewer may count as new).
 */
export function seenCount(ours, theirs) {
  for (let j = Math.min(ours.length, theirs.length) - 1; j >= 0; j -= 1) {
    const m = j + 1;
    let agree = true;
    for (let k = 0; k < m && agree; k += 1) agree = sameLine(ours[ours.length - m + k], theirs[k]);
    if (agree) return m;
  }
  return 0;
}

/**
 * A snapshot of table `tableId` with its `lines` (its `chat`: absent when none). The same table
 * again (a resync, a reconnection): the lines seen stay as they are (their numbers, whether they
 * were mine) and only the ones said since are added, and counted unread. Another table: its lines
 * are those, none unread, its panel closed. `you`: my seat there (my seat's lines are mine).
 */
export function withSnapshot(chat, tableId, lines, { spectator = false, you = null } = {}) {
  const theirs = (Array.isArray(lines) ? lines : [])
    .map((value) => readLine(value, 'table'))
    .filter((line) => line !== null)
    .map((line) => ({ ...line, mine: Number.isInteger(you) && line.seat === you }));
  const same = chat.tableId === tableId;
  const seen = same ? seenCount(chat.table, theirs) : 0;
  const added = theirs.slice(seen);
  if (same && added.length === 0 && seen === chat.table.length) {
    return chat; // nothing new, nothing gone
  }
  let next = chat.next;
  const fresh = added.map((line) => ({ ...line, n: next++ }));
  if (!same) {
    const none = fresh.length === 0 && chat.table.length === 0;
    return { ...withoutTable(chat), tableId, table: none ? chat.table : keep(fresh), next };
  }
  const kept = chat.table.slice(chat.table.length - seen);
  const unread = chat.unread + fresh.filter((line) => counts(chat, line, spectator)).length;
  return { ...chat, table: keep([...kept, ...fresh]), unread, next };
}

/** No table any more (however it was left): its lines, unread count, panel and problem go. */
export function withoutTable(chat) {
  if (chat.tableId === null && chat.table.length === 0 && chat.unread === 0 && !chat.open && chat.problems.table === null) return chat;
  return { ...withProblem(chat, 'table', null), table: chat.table.length === 0 ? chat.table : [], tableId: null, unread: 0, open: false };
}

/** Whether `a` and `b` show the same (they may differ in what is not shown: the table's id, the
 * next line's number). */
export function sameShown(a, b) {
  return ['table', 'lobby', 'unread', 'open', 'muted', 'hideSpectators', 'problems'].every((key) => a[key] === b[key]);
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
  const key = placeOf(place);
  const lines = chat[key]
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
    // Lines said there that are not shown (muted people's, or spectators' hidden).
    hidden: chat[key].length - lines.length,
    muted: [...chat.muted],
    unread: chat.unread > 0 ? String(chat.unread) : '',
    hideSpectators: key === 'table' && !spectator ? chat.hideSpectators : null,
    problem: chat.problems[key],
  };
}

/** What the table's chat says when it shows no line: nothing was said, or what was is hidden. */
export function chatEmptyText(hidden) {
  if (hidden === 0) return 'Nothing said yet. Players and spectators see every line.';
  return `Nothing to show: ${hidden === 1 ? 'one line is' : `${hidden} lines are`} hidden (muted, or spectators' lines hidden).`;
}
