import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GAME_KEY, NAME_KEY, TABLE_KEY, forgetTable, loadGame, loadName, pageStorage, rememberTable, saveGame, saveName, storedTable,
} from '../js/storage.js';

/** A Map-backed storage, as localStorage behaves. */
function memory() {
  const map = new Map();
  return {
    map,
    getItem: (key) => (map.has(key) ? map.get(key) : null),
    setItem: (key, value) => map.set(key, String(value)),
    removeItem: (key) => map.delete(key),
  };
}

/** A storage that throws on every use, as some private modes do. */
const broken = {
  getItem() { throw new Error('denied'); },
  setItem() { throw new Error('denied'); },
  removeItem() { throw new Error('denied'); },
};

test('the name and the game are remembered in localStorage', () => {
  const local = memory();
  assert.equal(loadName(local), '');
  assert.equal(loadGame(local), 'set');
  saveName(local, 'Ada');
  saveGame(local, 'concentration');
  assert.deepEqual([local.map.get(NAME_KEY), local.map.get(GAME_KEY)], ['Ada', 'concentration']);
  assert.deepEqual([loadName(local), loadGame(local)], ['Ada', 'concentration']);
});

test('the table this tab sits at is remembered in sessionStorage, and forgotten', () => {
  const session = memory();
  assert.equal(storedTable(session), null);
  rememberTable(session, 'ABCD234XYZ');
  assert.equal(session.map.get(TABLE_KEY), 'ABCD234XYZ');
  rememberTable(session, null);
  assert.equal(storedTable(session), '', 'a private table without a code is still a table');
  forgetTable(session);
  assert.equal(storedTable(session), null);
});

test('a storage that throws or is missing remembers nothing and breaks nothing', () => {
  for (const storage of [broken, null]) {
    saveName(storage, 'Ada');
    rememberTable(storage, 'ABCD234XYZ');
    forgetTable(storage);
    assert.deepEqual([loadName(storage), loadGame(storage), storedTable(storage)], ['', 'set', null]);
  }
  const win = {};
  Object.defineProperty(win, 'localStorage', { get() { throw new Error('SecurityError'); } });
  win.sessionStorage = memory();
  const page = pageStorage(win);
  assert.equal(page.local, null);
  assert.equal(page.session, win.sessionStorage);
});
