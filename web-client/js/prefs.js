// The player's display and sound preferences, remembered in localStorage. Pure: the storage is a
// parameter (anything with getItem/setItem), so tests pass a Map-backed object.
//
//   localStorage["matchismo.theme"]      "system" (default) | "light" | "dark"
//   localStorage["matchismo.colorCues"]  "on" | "off" (default): letters R/G/P on Set cards
//   localStorage["matchismo.sound"]      "on" (default) | "off"
//   localStorage["matchismo.shortcuts"]  "on" (default) | "off": single-key shortcuts (WCAG 2.1.4)

export const THEMES = Object.freeze(['system', 'light', 'dark']);
export const PREF_KEYS = Object.freeze({
  theme: 'matchismo.theme',
  colorCues: 'matchismo.colorCues',
  sound: 'matchismo.sound',
  shortcuts: 'matchismo.shortcuts',
});

/** The preferences stored in `storage`, each falling back to its default when absent or unknown
 * (or when storage throws, as it does in some private modes). */
export function loadPrefs(storage) {
  const read = (key) => {
    try {
      return storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  };
  const theme = read(PREF_KEYS.theme);
  return {
    theme: THEMES.includes(theme) ? theme : 'system',
    colorCues: read(PREF_KEYS.colorCues) === 'on',
    sound: read(PREF_KEYS.sound) !== 'off',
    shortcuts: read(PREF_KEYS.shortcuts) !== 'off',
  };
}

/** Store one preference (`name` is theme | colorCues | sound | shortcuts); returns the new prefs
 * object. */
export function savePref(storage, prefs, name, value) {
  const next = { ...prefs, [name]: value };
  const text = name === 'theme' ? (THEMES.includes(value) ? value : 'system') : value ? 'on' : 'off';
  if (name === 'theme') next.theme = text;
  try {
    storage?.setItem(PREF_KEYS[name], text);
  } catch {
    // Not remembered, still applied.
  }
  return next;
}

/** The theme to show: the choice, or the system's when the choice is "system". */
export function resolveTheme(choice, systemPrefersDark) {
  if (choice === 'light' || choice === 'dark') return choice;
  return systemPrefersDark ? 'dark' : 'light';
}
