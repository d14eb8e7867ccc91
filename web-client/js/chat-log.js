// How a chat log on the page follows its lines, as data: which rows go and which come (the log
// is changed row by row, never drawn again whole, so that a screen reader reading its live region
// hears only the new lines and the reader keeps their place), and whether the log follows the
// newest line. Pure: chat-view.js carries it out.

/** How far from the bottom (px) a reader still counts as at the bottom. */
export const BOTTOM_SLACK = 24;

/**
 * The changes that turn the rows drawn into the rows wanted, both keys in the same order (a key
 * says what a row shows: chat-view.js rowKey). `{remove: [key], add: [{key, before}]}`: the rows
 * to remove, then the rows to add, each before the row of key `before` (null: at the end), in
 * order. Rows kept are not touched.
 */
export function logChanges(drawn, wanted) {
  const want = new Set(wanted);
  const remove = drawn.filter((key) => !want.has(key));
  const gone = new Set(remove);
  const stays = drawn.filter((key) => !gone.has(key));
  const add = [];
  let i = 0;
  for (const key of wanted) {
    if (stays[i] === key) i += 1;
    else add.push({ key, before: stays[i] ?? null });
  }
  return { remove, add };
}

/** Whether a log scrolled like this shows its last line (a log too short to scroll does). */
export function atBottom({ scrollHeight, scrollTop, clientHeight }) {
  return scrollHeight - scrollTop - clientHeight < BOTTOM_SLACK;
}
