// Protocol v2 (docs/PROTOCOL.md): the client messages as plain objects, and the small pure
// helpers around them. No DOM, no sockets.

import { isPlayerToken } from './player.js';
import { DEFAULT_GAME } from './games.js';

/** The WebSocket subprotocol of protocol version 2. */
export const SUBPROTOCOL = 'matchismo.v2';

/** The protocol version this client speaks (`welcome.protocol`). */
export const PROTOCOL_VERSION = 2;

/** Most Unicode scalars (code points) in a name after trimming, as the server counts them. */
export const MAX_NAME_LENGTH = 24;

/** Most UTF-8 bytes in a name after trimming. */
export const MAX_NAME_BYTES = 64;

/** Whether the server refuses this code point in a name (docs/PROTOCOL.md, Conventions): a
 * control character (category Cc) or a bidirectional formatting control. */
export function isRefusedCodePoint(cp) {
  return (
    cp <= 0x1f ||
    (cp >= 0x7f && cp <= 0x9f) ||
    cp === 0x061c ||
    cp === 0x200e ||
    cp === 0x200f ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069)
  );
}

/** Whether the code point has the Unicode White_Space property, which the server trims. (Not
 * JavaScript's `trim()`: that also trims U+FEFF and keeps U+0085.) */
function isWhiteSpace(cp) {
  return (
    (cp >= 0x09 && cp <= 0x0d) ||
    cp === 0x20 ||
    cp === 0x85 ||
    cp === 0xa0 ||
    cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0x202f ||
    cp === 0x205f ||
    cp === 0x3000
  );
}

/** The code points of a string; a lone surrogate stays one (it is not a Unicode scalar). */
function codePoints(text) {
  return Array.from(text, (c) => c.codePointAt(0));
}

function utf8Length(cp) {
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  if (cp < 0x10000) return 3;
  return 4;
}

/** A name as the server reads it: without leading and trailing White_Space. */
export function normalizeName(raw) {
  const cps = codePoints(String(raw ?? ''));
  let start = 0;
  let end = cps.length;
  while (start < end && isWhiteSpace(cps[start])) start += 1;
  while (end > start && isWhiteSpace(cps[end - 1])) end -= 1;
  return cps
    .slice(start, end)
    .map((cp) => String.fromCodePoint(cp))
    .join('');
}

/** Why the server would refuse this name in `hello`, as a sentence for the user, or null when
 * it accepts it (a blank name is accepted: the server calls the player `Player`). The same rule
 * as the server's: after trimming, at most MAX_NAME_LENGTH Unicode scalars and MAX_NAME_BYTES
 * UTF-8 bytes, and no refused characters. */
export function nameProblem(raw) {
  const cps = codePoints(normalizeName(raw));
  // A lone surrogate cannot be sent as JSON the server reads: it is no character at all.
  if (cps.some((cp) => isRefusedCodePoint(cp) || (cp >= 0xd800 && cp <= 0xdfff))) {
    return 'Names cannot contain control characters or text-direction marks.';
  }
  if (cps.length > MAX_NAME_LENGTH) {
    return (
      `That name is too long: at most ${MAX_NAME_LENGTH} characters, and this one has ` +
      `${cps.length} (an emoji or accent can count as more than one).`
    );
  }
  const bytes = cps.reduce((sum, cp) => sum + utf8Length(cp), 0);
  if (bytes > MAX_NAME_BYTES) {
    return (
      `That name is too long: emoji and non-Latin letters take more room, and it needs ` +
      `${bytes} of the ${MAX_NAME_BYTES} bytes a name may have.`
    );
  }
  return null;
}

/** The WebSocket URL of the server that served the page: same host, `wss:` under https. A page
 * opened with `?node=N` (a node of a cluster, behind its front door) connects to that node:
 * the front door sends a URL that names a node there while it is up. */
export function socketURL(location) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const node = new URLSearchParams(location.search ?? '').get('node');
  if (node !== null && /^[A-Za-z0-9._:-]{1,64}$/.test(node)) return `${scheme}://${location.host}/ws?node=${node}`;
  return `${scheme}://${location.host}/`;
}

/** The longest `gamesVersion` a `hello` may carry (PROTOCOL.md, `hello`). */
const MAX_GAMES_VERSION = 64;

/** A source of message ids: 1, 2, 3, … */
export function createIdSource(first = 1) {
  let next = first;
  return () => next++;
}

/** `hello`: the first message on a connection. An empty name is left out (the server then says
 * `Player`), and so is a name the server would refuse (see nameProblem: the caller tells the
 * user before sending, and a refused hello would leave the connection without a session); `resume` is the session token of an earlier `welcome`, if any; `version` the last
 * table version applied (sent only with `resume`: it asks for the diffs missed since); `player`
 * the browser's player token (player.js; left out unless the server would accept it); `games`
 * true to get the games' descriptions in `welcome`, or the `gamesVersion` of those held (sent
 * only when the server's differ). */
export function hello(id, { name = '', resume = null, version = null, player = null, games = null } = {}) {
  const message = { type: 'hello', id };
  const clean = normalizeName(name);
  if (clean !== '' && nameProblem(clean) === null) message.name = clean;
  if (typeof resume === 'string' && resume !== '') {
    message.resume = resume;
    if (Number.isInteger(version) && version >= 0) message.version = version;
  }
  if (isPlayerToken(player)) message.player = player;
  if (games === true || (typeof games === 'string' && games !== '' && games.length <= MAX_GAMES_VERSION)) {
    message.games = games;
  }
  return message;
}

/** The orders of a `scores` query, and each sort's default (PROTOCOL.md, `scores`). */
export const SCORE_SORTS = Object.freeze({ date: 'desc', score: 'desc', duration: 'asc' });

/** Most games on one page of `scores`. */
export const MAX_PAGE_SIZE = 50;

/** A high-score list's id as `scores` names it: `solo.course`, `multiplayer.custom.16x2`. */
export const SCORE_LIST = /^(solo|daily|multiplayer|computer)\.(classic|course|custom)(\.[1-9]\d{0,2}x[1-9]\d{0,2})?$/;

/** `scores`: one page of a game's finished games, of one high-score list (`list`; null: the
 * server shows the latest game's). Every field is sent as given, after checking it is one the
 * server takes (a RangeError otherwise: the caller builds queries from its own state). */
export function scores(id, { game, list = null, sort = 'date', order = SCORE_SORTS[sort], page = 0, pageSize = 20, mine = false } = {}) {
  if (typeof game !== 'string' || game === '') throw new TypeError('scores needs a game');
  if (!Object.hasOwn(SCORE_SORTS, sort)) throw new RangeError(`sort ${sort}`);
  if (order !== 'asc' && order !== 'desc') throw new RangeError(`order ${order}`);
  if (!Number.isInteger(page) || page < 0) throw new RangeError(`page ${page}`);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) throw new RangeError(`pageSize ${pageSize}`);
  if (list !== null && !(typeof list === 'string' && SCORE_LIST.test(list))) throw new RangeError(`list ${list}`);
  return { type: 'scores', id, game, ...(list === null ? {} : { list }), sort, order, page, pageSize, mine: mine === true };
}

/** `record`: one finished game, whole, with its replay; `record` is a game's id from `scores`. */
export function record(id, recordId) {
  if (typeof recordId !== 'string' || recordId === '') throw new TypeError('record needs a game id');
  return { type: 'record', id, record: recordId };
}

/** `ratings`: the asking player's rating at `game` and their latest rated games (PROTOCOL.md,
 * "Ratings"). */
export function ratings(id, game) {
  if (typeof game !== 'string' || game === '') throw new TypeError('ratings needs a game');
  return { type: 'ratings', id, game };
}

/** `chat`: a line for everyone at the table, or in the lobby (PROTOCOL.md, "Chat"). The caller
 * checked it (chat.js chatProblem). */
export function chat(id, text) {
  return { type: 'chat', id, text };
}

/** `playDaily`: today's daily puzzle of `game`, at a new one-seat table (PROTOCOL.md, "The daily
 * puzzle"). */
export function playDaily(id, game = DEFAULT_GAME) {
  return { type: 'playDaily', id, game };
}

/** `daily`: the board of `game`'s daily puzzle, today's or (`yesterday`) yesterday's. */
export function daily(id, game = DEFAULT_GAME, yesterday = false) {
  return { type: 'daily', id, game, day: yesterday ? 'yesterday' : 'today' };
}

/** `playSolo`: a new one-seat table of `game`, with the table settings (table-settings.js
 * settingsFields) as top-level fields. */
export function playSolo(id, game = DEFAULT_GAME, settings = {}) {
  return { ...settings, type: 'playSolo', id, game };
}

/** The levels of computer players (PROTOCOL.md, `playBot`), slowest first. */
export const BOT_LEVELS = Object.freeze(['beginner', 'casual', 'good', 'expert']);

/** `playBot`: a new private table of `game` with `bots` computer players (1–3) of `level`, and
 * the table settings as top-level fields. */
export function playBot(id, { game = DEFAULT_GAME, level = 'casual', bots = 1, settings = {} } = {}) {
  if (!BOT_LEVELS.includes(level)) throw new RangeError(`level must be one of ${BOT_LEVELS.join(', ')}`);
  if (!Number.isInteger(bots) || bots < 1 || bots > 3) throw new RangeError('bots must be 1–3');
  return { ...settings, type: 'playBot', id, game, level, bots };
}

/** `addComputer`: as the host offered one, seat a computer player of `level`. */
export function addComputer(id, level = 'casual') {
  if (!BOT_LEVELS.includes(level)) throw new RangeError(`level must be one of ${BOT_LEVELS.join(', ')}`);
  return { type: 'addComputer', id, level };
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

/** `hint`: ask for a match on my table's board (the server answers `hint`). */
export function hint(id) {
  return { type: 'hint', id };
}

/** `countMatches`: ask how many matches my table's board holds now (the server answers
 * `matchCount`; practice.js). */
export function countMatches(id) {
  return { type: 'countMatches', id };
}

/** `resync`: ask for a fresh snapshot of my table. */
export function resync(id) {
  return { type: 'resync', id };
}

/** `lobby`: subscribe to the list of public tables (a `lobbySnapshot`, then `lobbyDiff`s). */
export function lobby(id) {
  return { type: 'lobby', id };
}

/** `quickMatch`: a seat at the fullest waiting public table of `game` with `seats` seats and these
 * table settings (table-settings.js `settingsFields`), or a new one with them. */
export function quickMatch(id, { game = DEFAULT_GAME, seats = 4, settings = {} } = {}) {
  return { ...settings, type: 'quickMatch', id, game, seats: requireSeats(seats) };
}

/** `createTable`: a new table with me as its host; `private` tables are reached only by code. */
export function createTable(id, { game = DEFAULT_GAME, seats = 4, private: isPrivate = false, settings = {} } = {}) {
  return { ...settings, type: 'createTable', id, game, seats: requireSeats(seats), private: isPrivate === true };
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
