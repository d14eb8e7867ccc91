// Protocol v2 (docs/PROTOCOL.md): the client messages as plain objects, and the small pure
// helpers around them. No DOM, no sockets.

/** The WebSocket subprotocol of protocol version 2. */
export const SUBPROTOCOL = 'matchismo.v2';

/** The protocol version this client speaks (`welcome.protocol`). */
export const PROTOCOL_VERSION = 2;

/** Longest name the server accepts, in characters after trimming. */
export const MAX_NAME_LENGTH = 24;

/** The WebSocket URL of the server that served the page: same host, `wss:` under https. */
export function socketURL(location) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/`;
}

/** A name as the server will accept it: trimmed and cut to MAX_NAME_LENGTH characters (user-
 * perceived characters where the runtime can split them, else code points). */
export function normalizeName(raw) {
  const trimmed = String(raw ?? '').trim();
  const chars =
    typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function'
      ? Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(trimmed), (s) => s.segment)
      : Array.from(trimmed);
  return chars.slice(0, MAX_NAME_LENGTH).join('').trim();
}

/** A source of message ids: 1, 2, 3, … */
export function createIdSource(first = 1) {
  let next = first;
  return () => next++;
}

/** `hello`: the first message on a connection. An empty name is left out (the server then says
 * `Player`); `resume` is the session token of an earlier `welcome`, if any; `version` the last
 * table version applied (sent only with `resume`: it asks for the diffs missed since). */
export function hello(id, { name = '', resume = null, version = null } = {}) {
  const message = { type: 'hello', id };
  const clean = normalizeName(name);
  if (clean !== '') message.name = clean;
  if (typeof resume === 'string' && resume !== '') {
    message.resume = resume;
    if (Number.isInteger(version) && version >= 0) message.version = version;
  }
  return message;
}

/** `playSolo`: a new one-seat table of `game`. */
export function playSolo(id, game = 'set') {
  return { type: 'playSolo', id, game };
}

/** `choose`: choose or un-choose a card on the board, by card id. */
export function choose(id, card) {
  if (!Number.isInteger(card)) throw new TypeError('card id must be an integer');
  return { type: 'choose', id, card };
}

/** `redeal`: throw the board away and deal a new game. */
export function redeal(id) {
  return { type: 'redeal', id };
}

/** `resync`: ask for a fresh snapshot of my table. */
export function resync(id) {
  return { type: 'resync', id };
}

/** `lobby`: subscribe to the list of public tables (a `lobbySnapshot`, then `lobbyDiff`s). */
export function lobby(id) {
  return { type: 'lobby', id };
}

/** `quickMatch`: a seat at the fullest waiting public table of `seats` seats, or a new one. */
export function quickMatch(id, { game = 'set', seats = 4 } = {}) {
  return { type: 'quickMatch', id, game, seats: requireSeats(seats) };
}

/** `createTable`: a new table with me as its host; `private` tables are reached only by code. */
export function createTable(id, { game = 'set', seats = 4, private: isPrivate = false } = {}) {
  return { type: 'createTable', id, game, seats: requireSeats(seats), private: isPrivate === true };
}

/** `join`: a seat at the table with this invite code. */
export function join(id, code) {
  if (typeof code !== 'string' || code === '') throw new TypeError('join needs a code');
  return { type: 'join', id, code };
}

/** `join` a listed public table by its id. */
export function joinListed(id, table) {
  if (typeof table !== 'string' || table === '') throw new TypeError('joinListed needs a table id');
  return { type: 'join', id, table };
}

/** `spectate`: watch a table, by its listed id (`{table}`) or by its invite code (`{code}`). */
export function spectate(id, { table, code } = {}) {
  if (typeof table === 'string' && table !== '') return { type: 'spectate', id, table };
  if (typeof code === 'string' && code !== '') return { type: 'spectate', id, code };
  throw new TypeError('spectate needs a table id or a code');
}

/** `leave`: give up my seat (or stop watching). */
export function leave(id) {
  return { type: 'leave', id };
}

/** `start`: the host starts the countdown. */
export function start(id) {
  return { type: 'start', id };
}

/** An invite code as typed: spaces and dashes dropped, upper case. */
export function cleanCode(raw) {
  return String(raw ?? '').replace(/[\s-]+/g, '').toUpperCase();
}

function requireSeats(seats) {
  if (!Number.isInteger(seats) || seats < 1 || seats > 8) throw new RangeError('seats must be 1…8');
  return seats;
}

/** Encode a client message as the text of one frame. */
export function encode(message) {
  return JSON.stringify(message);
}

/** Decode one server frame: the object if it is a JSON object with a string `type`, else null. */
export function decode(text) {
  if (typeof text !== 'string') return null;
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  return typeof value.type === 'string' ? value : null;
}
