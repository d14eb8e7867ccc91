// The page's address: `#/` (or nothing) is the lobby, `#/t/<code>` a table's share link
// (PROTOCOL.md: "The share link of a table is /#/t/<code>"), `#/t/<code>/<game>` the same naming
// its game (so an invitation can say which), `#/replay/<id>` the replay of a finished game (an id
// from `scores`). Pure.

import { isKnownGame } from './games.js';

/** Invite codes as the server makes them: A–Z and 2–9 (PROTOCOL.md); we accept 4–12 of them, any
 * case, and hand back upper case. */
const CODE = /^[A-Za-z2-9]{4,12}$/;

/** A finished game's id as the client accepts it in an address (the server's are like "g2", at most 32 bytes). */
const RECORD = /^[A-Za-z0-9_-]{1,32}$/;

/** `{view: 'lobby'}`, `{view: 'table', code, game}` for a location hash ("#/t/ABC234", game
 * null; "#/t/ABC234/set", a game this client knows) or `{view: 'replay', record}`
 * ("#/replay/g2"). Anything unreadable is the lobby. */
export function parseRoute(hash) {
  let path = String(hash ?? '');
  if (path.startsWith('#')) path = path.slice(1);
  path = path.replace(/^\/+/, '').replace(/\/+$/, '');
  const parts = path.split('/');
  if ((parts.length === 2 || parts.length === 3) && parts[0] === 't') {
    let code;
    try {
      code = decodeURIComponent(parts[1]).trim();
    } catch {
      return { view: 'lobby' };
    }
    const game = parts.length === 3 ? parts[2] : null;
    if (CODE.test(code) && (game === null || isKnownGame(game))) {
      return { view: 'table', code: code.toUpperCase(), game };
    }
  }
  if (parts.length === 2 && parts[0] === 'replay' && RECORD.test(parts[1])) return { view: 'replay', record: parts[1] };
  return { view: 'lobby' };
}

/** The hash of a table's share link: "#/t/ABC234", or "#/t/ABC234/set" naming its game. */
export function tableHash(code, game = null) {
  const named = isKnownGame(game) ? `/${game}` : '';
  return `#/t/${encodeURIComponent(code)}${named}`;
}

/** The full share link of a table (naming its game when given), for a page at `location`
 * (origin + path + hash). */
export function shareLink(location, code, game = null) {
  return `${location.origin}${location.pathname}${tableHash(code, game)}`;
}

/** The hash of a finished game's replay: "#/replay/g2". */
export function replayHash(record) {
  return `#/replay/${encodeURIComponent(record)}`;
}
