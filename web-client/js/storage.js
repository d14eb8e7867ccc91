// What this page remembers between visits and reloads, other than the preferences (prefs.js) and
// the player token (player.js): the name typed, the game last picked (localStorage), and the code
// of the table this tab sits at (sessionStorage: after a reload, the resumed session will get that
// table's snapshot and the share link need not be joined again). Pure: the storages are
// parameters (anything with getItem/setItem/removeItem); a storage that is missing or throws, as
// in some private modes, simply remembers nothing.

import { DEFAULT_GAME } from './games.js';

export const NAME_KEY = 'matchismo.name';
export const GAME_KEY = 'matchismo.game';
export const TABLE_KEY = 'matchismo.table';
export const MUTED_KEY = 'matchismo.muted';
export const DAILY_PLAYED_KEY = 'matchismo.dailyPlayed';

/** The page's storages, or null where reading them throws. */
export function pageStorage(window) {
  const get = (name) => {
    try {
      return window[name] ?? null;
    } catch {
      return null;
    }
  };
  return { local: get('localStorage'), session: get('sessionStorage') };
}

function read(storage, key) {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(storage, key, value) {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Not remembered.
  }
}

/** The name last used ('' when none). */
export function loadName(local) {
  return read(local, NAME_KEY) ?? '';
}

export function saveName(local, name) {
  write(local, NAME_KEY, name);
}

/** The game last picked, as stored (lobby-form.js pickedGame checks it), else the default. */
export function loadGame(local) {
  return read(local, GAME_KEY) ?? DEFAULT_GAME;
}

export function saveGame(local, game) {
  write(local, GAME_KEY, game);
}

/** The code of the table this tab sat at before a reload, or null. */
export function storedTable(session) {
  return read(session, TABLE_KEY);
}

export function rememberTable(session, code) {
  write(session, TABLE_KEY, code ?? '');
}

export function forgetTable(session) {
  write(session, TABLE_KEY, null);
}

/** The names this browser's player muted in chat (chat.js), as stored: a JSON list of strings. */
export function loadMuted(local) {
  try {
    const names = JSON.parse(read(local, MUTED_KEY) ?? '[]');
    return Array.isArray(names) ? names.filter((n) => typeof n === 'string').slice(0, 200) : [];
  } catch {
    return [];
  }
}

export function saveMuted(local, names) {
  write(local, MUTED_KEY, JSON.stringify(names.slice(0, 200)));
}

/** The daily puzzles this browser's player started, as stored: game → its UTC day
 * ("2026-11-29"), the latest only (a few games, so a few entries). */
export function loadDailyPlayed(local) {
  try {
    const played = JSON.parse(read(local, DAILY_PLAYED_KEY) ?? '{}');
    if (played === null || typeof played !== 'object' || Array.isArray(played)) return {};
    const days = Object.entries(played).filter(([game, day]) => typeof game === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day));
    return Object.fromEntries(days.slice(0, 32));
  } catch {
    return {};
  }
}

export function saveDailyPlayed(local, played) {
  write(local, DAILY_PLAYED_KEY, JSON.stringify(Object.fromEntries(Object.entries(played).slice(0, 32))));
}
