// Pure: the lobby form's own rules (lobby-view.js draws it): which game is picked, how many seats,
// and the table settings it shows (a setting the player has not changed follows the default for
// the seats chosen; every button sends what the form shows).

import { DEFAULT_GAME, gameIds, gameInfo, isKnownGame } from './games.js';
import { settingsFields } from './table-settings.js';
import { MAX_SEATS } from './seats.js';

/** The fewest seats a table has (the most: seats.js MAX_SEATS), and the form's default. */
export const MIN_SEATS = 1;
export const DEFAULT_SEATS = 4;

/** A game this page knows (a stored or clicked one may not be); else the first it offers. */
export function pickedGame(game) {
  return isKnownGame(game) ? game : (gameIds()[0] ?? DEFAULT_GAME);
}

/** The seats chosen in the form's select (its text), within bounds; else the default. */
export function seatsOf(raw) {
  const seats = Number.parseInt(raw, 10);
  return Number.isInteger(seats) && seats >= MIN_SEATS && seats <= MAX_SEATS ? seats : DEFAULT_SEATS;
}

/** The value a redrawn settings select shows: the one kept if the player changed it, else the
 * default for the seats chosen. */
export function settingValue(name, touched, kept, field) {
  return touched.has(name) && kept.has(name) ? kept.get(name) : String(field.default);
}

/** The message fields of the settings the form shows (`values`: name → the select's value), for
 * a table of `seats` seats: every button sends what the player sees, changed or not. */
export function shownSettings(game, values, seats) {
  return settingsFields(game, values, seats);
}

/** The invite dialog's title: which game, when the link names one ("You are invited to a game
 * of Set"); old links name none. */
export function inviteTitle(game) {
  return isKnownGame(game) ? `You are invited to a game of ${gameInfo(game).title}` : 'You are invited to a game';
}
