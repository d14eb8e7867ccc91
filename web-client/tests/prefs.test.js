import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PREF_KEYS, loadPrefs, resolveTheme, savePref } from '../js/prefs.js';

function memoryStorage(initial = {}) {
  const map = new Map(Object.entries(initial));
  return { getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => map.set(k, String(v)), map };
}

test('defaults: follow the system, no colour cues, sound on', () => {
  assert.deepEqual(loadPrefs(memoryStorage()), { theme: 'system', colorCues: false, sound: true, shortcuts: true });
  assert.deepEqual(loadPrefs(null), { theme: 'system', colorCues: false, sound: true, shortcuts: true });
});

test('what is saved is loaded again', () => {
  const storage = memoryStorage();
  let prefs = loadPrefs(storage);
  prefs = savePref(storage, prefs, 'theme', 'dark');
  prefs = savePref(storage, prefs, 'colorCues', true);
  prefs = savePref(storage, prefs, 'sound', false);
  prefs = savePref(storage, prefs, 'shortcuts', false);
  assert.deepEqual(prefs, { theme: 'dark', colorCues: true, sound: false, shortcuts: false });
  assert.deepEqual(loadPrefs(storage), prefs);
  assert.equal(storage.map.get(PREF_KEYS.theme), 'dark');
  assert.equal(storage.map.get(PREF_KEYS.sound), 'off');
  assert.equal(storage.map.get(PREF_KEYS.shortcuts), 'off');
});

test('unknown stored values fall back to the defaults; a storage that throws is survived', () => {
  assert.equal(loadPrefs(memoryStorage({ [PREF_KEYS.theme]: 'purple' })).theme, 'system');
  assert.equal(savePref(memoryStorage(), loadPrefs(null), 'theme', 'sepia').theme, 'system');
  const broken = { getItem() { throw new Error('denied'); }, setItem() { throw new Error('denied'); } };
  assert.deepEqual(loadPrefs(broken), { theme: 'system', colorCues: false, sound: true, shortcuts: true });
  assert.equal(savePref(broken, loadPrefs(broken), 'theme', 'light').theme, 'light');
});

test('the system theme is used only when the choice is "system"', () => {
  assert.equal(resolveTheme('system', true), 'dark');
  assert.equal(resolveTheme('system', false), 'light');
  assert.equal(resolveTheme('light', true), 'light');
  assert.equal(resolveTheme('dark', false), 'dark');
});
