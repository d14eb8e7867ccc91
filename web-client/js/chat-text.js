// A line of chat as the server reads it (PROTOCOL.md, "Chat"): trimmed of the same whitespace
// (Unicode White_Space, as messages.js normalizeName: not JavaScript's trim(), which also trims
// U+FEFF and keeps U+0085), then 1 to 200 code points, at most 1,024 UTF-8 bytes, and no control
// or bidirectional characters. The client checks a line here before sending it, so that a line
// the server would refuse is refused at once, in the same words a refusal from the server is
// shown with (chatRefusalText). Pure.

import { isRefusedCodePoint, normalizeName } from './messages.js';

/** Most characters (code points) in a line, after trimming: the server's limit. */
export const CHAT_MAX = 200;
/** Most UTF-8 bytes of a line's text as sent: the server's limit. */
export const CHAT_MAX_BYTES = 1024;

/** What is said of each problem a line can have. */
export const CHAT_PROBLEMS = Object.freeze({
  empty: 'Type something to say.',
  long: `A line holds at most ${CHAT_MAX} characters.`,
  bytes: `A line holds at most ${CHAT_MAX_BYTES} bytes (emoji and non-Latin letters take more room).`,
  control: 'A line cannot hold line breaks or control characters.',
});

/** The line as it is sent and kept: trimmed as the server trims. */
export function chatText(raw) {
  return typeof raw === 'string' ? normalizeName(raw) : '';
}

/** A line measured as the server measures it: {text (trimmed), characters (code points), bytes
 * (UTF-8)}. (200 characters take at most 800 bytes today; the byte limit is checked anyway, as
 * the protocol states it.) */
export function chatMeasure(raw) {
  const text = chatText(raw);
  return { text, characters: Array.from(text).length, bytes: new TextEncoder().encode(text).length };
}

/** What is wrong with a line about to be sent, in words, or null when it can go. */
export function chatProblem(raw) {
  const { text, characters, bytes } = chatMeasure(raw);
  if (text === '') return CHAT_PROBLEMS.empty;
  // A lone surrogate is no character the server can read: refused like a control character.
  if (Array.from(text, (c) => c.codePointAt(0)).some((cp) => isRefusedCodePoint(cp) || (cp >= 0xd800 && cp <= 0xdfff))) {
    return CHAT_PROBLEMS.control;
  }
  if (characters > CHAT_MAX) return CHAT_PROBLEMS.long;
  if (bytes > CHAT_MAX_BYTES) return CHAT_PROBLEMS.bytes;
  return null;
}

/** What the input says when the server refused `text` (an `error` with `code` and `message`):
 * a `badField` in this client's words for that line when it knows them, else the server's. */
export function chatRefusalText(text, { code, message } = {}) {
  const own = code === 'badField' ? chatProblem(text) : null;
  if (own !== null) return own;
  return typeof message === 'string' && message !== '' ? message : 'That line was not sent.';
}

/** Whether an input holding `value` still holds the line `sent` (then its answer empties it; text
 * typed since is kept). */
export function inputHoldsLine(value, sent) {
  return chatText(value) === sent;
}
