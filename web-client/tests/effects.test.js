import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Timers, runEffects } from '../js/effects.js';
import { Controller } from '../js/controller.js';
import { cardFromId } from '../js/set-cards.js';

test('effects are carried out in order by their handlers; an unknown one is a programming error', () => {
  const done = [];
  const handlers = { toast: (e) => done.push(`toast ${e.text}`), render: () => done.push('render') };
  assert.deepEqual(runEffects([{ type: 'render' }, { type: 'toast', text: 'hi' }], handlers), []);
  assert.deepEqual(done, ['render', 'toast hi']);
  assert.throws(() => runEffects([{ type: 'nonsense' }], handlers), /unknown effect nonsense/);
});

test('a send the connection refuses is reported by its message id', () => {
  const handlers = { send: (e) => e.message.id !== 2 };
  const effects = [1, 2, 3].map((id) => ({ type: 'send', message: { type: 'choose', id, card: 0 } }));
  assert.deepEqual(runEffects(effects, handlers), [2]);
});

test('a card is not left pending when its choice could not be sent (the connection closed under it)', () => {
  // The controller believes the connection online; the socket is gone when the effect runs.
  let id = 0;
  const controller = new Controller({ nextId: () => ++id });
  const ctx = { now: 0, connection: 'online', typed: 'Ada', hash: '', storedTable: null };
  const pending = new Set();
  const handlers = {
    send: () => false,
    markPending: (e) => pending.add(e.card),
    clearPending: () => pending.clear(),
    timer: () => {},
    toast: () => {},
  };
  const dispatch = (event) => {
    const unsent = runEffects(controller.dispatch({ ...ctx, ...event }), { ...handlers, ...ignoreRest });
    if (unsent.length > 0) dispatch({ type: 'unsent', ids: unsent });
  };
  const ignoreRest = Object.fromEntries(
    ['saveName', 'renderLobby', 'rememberTable', 'hash', 'view', 'render', 'tableChanged', 'cancelTimer'].map((t) => [t, () => {}]),
  );
  controller.dispatch({ ...ctx, type: 'hello' });
  controller.dispatch({ ...ctx, type: 'message', message: { type: 'welcome', resumed: false } });
  const table = {
    id: 't', version: 1, you: 0, seats: 1, phase: 'playing', board: [0, 1, 2].map(cardFromId),
    players: [{ seat: 0, name: 'Ada', score: 0, matches: 0, selection: [] }],
  };
  dispatch({ type: 'message', message: { type: 'snapshot', table } });
  dispatch({ type: 'choose', card: 1 });
  assert.deepEqual([...pending], [], 'nothing shown pending');
  assert.equal(controller.requests.count('choose'), 0, 'nothing waited on');
});

test('timers: one per name and id, replaced when started again, cancelled by name', () => {
  const fired = [];
  const pending = new Map();
  let next = 0;
  const timers = new Timers((name, id) => fired.push([name, id]), {
    set: (fn) => {
      pending.set(++next, fn);
      return next;
    },
    clear: (handle) => pending.delete(handle),
  });
  timers.start('pending', 3000, 2);
  timers.start('pending', 3000, 3);
  timers.start('pending', 3000, 2); // replaces the first
  timers.start('resume', 2000);
  assert.equal(pending.size, 3);
  timers.cancel('resume');
  assert.equal(pending.size, 2);
  for (const fn of [...pending.values()]) fn();
  assert.deepEqual(fired, [['pending', 3], ['pending', 2]]);
  assert.equal(timers.running.size, 0);
});

test('by default the timers call the global setTimeout and clearTimeout as plain functions', () => {
  // A browser refuses its timer functions called on another `this` ("Illegal invocation").
  const { setTimeout: realSet, clearTimeout: realClear } = globalThis;
  const calls = [];
  globalThis.setTimeout = function (fn, ms) {
    if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
    calls.push(['set', ms]);
    return 7;
  };
  globalThis.clearTimeout = function (handle) {
    if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
    calls.push(['clear', handle]);
  };
  try {
    const timers = new Timers(() => {});
    timers.start('resume', 2000);
    timers.cancel('resume');
  } finally {
    globalThis.setTimeout = realSet;
    globalThis.clearTimeout = realClear;
  }
  assert.deepEqual(calls, [['clear', undefined], ['set', 2000], ['clear', 7]]);
});
