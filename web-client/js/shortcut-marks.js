// Which keys the page announces as shortcuts (`aria-keyshortcuts`), as the settings allow: with
// single-key shortcuts off (prefs.js `shortcuts`, WCAG 2.1.4) a one-character key (a card's "3",
// "h", "?") does nothing, so it is not announced either; named keys (Escape, the arrows, Home,
// PageUp) stay. The key is kept in `data-keyshortcuts` to be announced again once they are on.

/** Whether `key` is a single-key shortcut (one character). */
export function isSingleKey(key) {
  return typeof key === 'string' && [...key].length === 1;
}

/** Announce, or not, the single-key shortcuts of the elements under `root` (and `root`). */
export function markShortcuts(root, on) {
  const elements = [root, ...root.querySelectorAll('[aria-keyshortcuts], [data-keyshortcuts]')];
  for (const el of elements) markShortcut(el, el.getAttribute('aria-keyshortcuts') ?? el.dataset?.keyshortcuts, on);
}

/** `el`'s shortcut is `key`: announced, unless it is a single key and they are not `on`. */
export function markShortcut(el, key, on) {
  if (typeof key !== 'string') return;
  if (on || !isSingleKey(key)) {
    el.setAttribute('aria-keyshortcuts', key);
    delete el.dataset.keyshortcuts;
  } else {
    el.dataset.keyshortcuts = key;
    el.removeAttribute('aria-keyshortcuts');
  }
}

/** Whether single-key shortcuts are on for this page (dialogs-view.js marks <body> when not). */
export function singleKeysOn() {
  return !document.body.classList.contains('shortcuts-off');
}
