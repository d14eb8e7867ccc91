// Reconnect delays: exponential backoff with jitter, so that many clients dropped by one server
// restart do not all come back in the same instant. Pure.

/** First retry waits about this long (ms). */
export const BASE_DELAY_MS = 500;

/** No retry waits longer than this (ms). */
export const MAX_DELAY_MS = 15_000;

/**
 * The wait before reconnect attempt `attempt` (0 for the first retry after a drop): between half
 * and all of min(MAX, BASE·2^attempt). `random` returns a number in [0, 1).
 */
export function reconnectDelay(attempt, random = Math.random) {
  const n = Math.max(0, Math.min(30, Math.floor(attempt)));
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** n);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
