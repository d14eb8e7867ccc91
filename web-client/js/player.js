// The player token: who this person is across sessions, for "my games" in the high scores
// (PROTOCOL.md, "Players: hello's player"). Made once at random (16 bytes, base64url without
// padding: 22 characters) and kept in localStorage["matchismo.player"]; sent as `player` in every
// `hello`. The server keeps only its hash and never sends it to anyone. Pure: the storage and the
// random source are parameters.

/** localStorage key of the player token. */
export const PLAYER_KEY = 'matchismo.player';

/** Random bytes in a token. */
export const PLAYER_BYTES = 16;

/** What the server accepts as `player`: 16–64 characters of A–Z a–z 0–9 - _. */
const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Whether the server would take `value` as a player token. */
export function isPlayerToken(value) {
  return typeof value === 'string' && TOKEN.test(value);
}

/** Bytes as base64url without padding (RFC 4648 §5). */
export function base64url(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c += 1) out += ALPHABET[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}

/** The browser's random bytes (crypto.getRandomValues). */
function cryptoBytes(count) {
  return globalThis.crypto.getRandomValues(new Uint8Array(count));
}

/** A new token: PLAYER_BYTES random bytes in base64url (22 characters). */
export function makePlayerToken(randomBytes = cryptoBytes) {
  return base64url(randomBytes(PLAYER_BYTES));
}

/**
 * This browser's token: the stored one when it is one the server accepts, else a new one, stored
 * (a storage that throws, as some private modes do, still gets a token for this page's life).
 */
export function loadPlayer(storage, randomBytes = cryptoBytes) {
  let stored = null;
  try {
    stored = storage?.getItem(PLAYER_KEY) ?? null;
  } catch {
    stored = null;
  }
  if (isPlayerToken(stored)) return stored;
  const token = makePlayerToken(randomBytes);
  try {
    storage?.setItem(PLAYER_KEY, token);
  } catch {
    // Not remembered: this page's games are still ours, later ones will not know it.
  }
  return token;
}
