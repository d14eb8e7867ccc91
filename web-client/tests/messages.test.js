import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as m from '../js/messages.js';

test('builders produce the JSON documented in PROTOCOL.md', () => {
  assert.equal(m.encode(m.hello(1, { name: 'Ada' })), '{"type":"hello","id":1,"name":"Ada"}');
  assert.equal(
    m.encode(m.hello(1, { name: 'Ada', resume: 'q3J1bHqk1n7wWm7v0k3t8A' })),
    '{"type":"hello","id":1,"name":"Ada","resume":"q3J1bHqk1n7wWm7v0k3t8A"}',
  );
  assert.equal(m.encode(m.playSolo(2, 'set')), '{"type":"playSolo","id":2,"game":"set"}');
  assert.equal(m.encode(m.playSolo(2)), '{"type":"playSolo","id":2,"game":"set"}');
  assert.equal(m.encode(m.choose(3, 17)), '{"type":"choose","id":3,"card":17}');
  assert.equal(m.encode(m.redeal(4)), '{"type":"redeal","id":4}');
  assert.equal(m.encode(m.resync(5)), '{"type":"resync","id":5}');
});

test('hello leaves out an empty name and a missing token', () => {
  assert.deepEqual(m.hello(1), { type: 'hello', id: 1 });
  assert.deepEqual(m.hello(7, { name: '   ', resume: null }), { type: 'hello', id: 7 });
  assert.deepEqual(m.hello(7, { name: '  Bo  ', resume: '' }), { type: 'hello', id: 7, name: 'Bo' });
});

test('choose insists on an integer card id', () => {
  assert.throws(() => m.choose(1, '17'), TypeError);
  assert.throws(() => m.choose(1, 1.5), TypeError);
});

test('names are trimmed and cut to 24 characters', () => {
  assert.equal(m.MAX_NAME_LENGTH, 24);
  assert.equal(m.normalizeName('  Ada Lovelace  '), 'Ada Lovelace');
  assert.equal(m.normalizeName('x'.repeat(30)), 'x'.repeat(24));
  assert.equal(m.normalizeName(null), '');
  // 30 family emoji are 30 characters (grapheme clusters) but far more code units.
  const family = '👨‍👩‍👧';
  assert.equal(m.normalizeName(family.repeat(30)), family.repeat(24));
  assert.equal(m.normalizeName(`${'a'.repeat(23)} b`), 'a'.repeat(23));
});

test('decode accepts JSON objects with a type and nothing else', () => {
  assert.deepEqual(m.decode('{"type":"welcome","session":"s"}'), { type: 'welcome', session: 's' });
  assert.equal(m.decode('not json'), null);
  assert.equal(m.decode('[1,2]'), null);
  assert.equal(m.decode('{"kind":"x"}'), null);
  assert.equal(m.decode('{"type":3}'), null);
  assert.equal(m.decode('null'), null);
  assert.equal(m.decode(42), null);
});

test('socketURL follows the page: ws under http, wss under https', () => {
  assert.equal(m.socketURL({ protocol: 'http:', host: '127.0.0.1:8080' }), 'ws://127.0.0.1:8080/');
  assert.equal(m.socketURL({ protocol: 'https:', host: 'example.org' }), 'wss://example.org/');
  assert.equal(m.SUBPROTOCOL, 'matchismo.v2');
});

test('ids count up from 1', () => {
  const next = m.createIdSource();
  assert.deepEqual([next(), next(), next()], [1, 2, 3]);
});

test('lobby and table messages', () => {
  assert.equal(m.encode(m.lobby(3)), '{"type":"lobby","id":3}');
  assert.equal(m.encode(m.quickMatch(4, { seats: 3 })), '{"type":"quickMatch","id":4,"game":"set","seats":3}');
  assert.equal(m.encode(m.quickMatch(4)), '{"type":"quickMatch","id":4,"game":"set","seats":4}');
  assert.equal(
    m.encode(m.createTable(5, { seats: 2, private: true })),
    '{"type":"createTable","id":5,"game":"set","seats":2,"private":true}',
  );
  assert.equal(m.encode(m.createTable(5, { seats: 6 })), '{"type":"createTable","id":5,"game":"set","seats":6,"private":false}');
  assert.equal(m.encode(m.join(6, 'ABC234')), '{"type":"join","id":6,"code":"ABC234"}');
  assert.equal(m.encode(m.spectate(7, { table: 't7' })), '{"type":"spectate","id":7,"table":"t7"}');
  assert.equal(m.encode(m.spectate(7, { code: 'ABC234' })), '{"type":"spectate","id":7,"code":"ABC234"}');
  assert.equal(m.encode(m.leave(8)), '{"type":"leave","id":8}');
  assert.equal(m.encode(m.start(9)), '{"type":"start","id":9}');
  assert.throws(() => m.quickMatch(1, { seats: 9 }), RangeError);
  assert.throws(() => m.createTable(1, { seats: 0 }), RangeError);
  assert.throws(() => m.join(1, ''), TypeError);
  assert.throws(() => m.spectate(1, {}), TypeError);
});

test('hello carries the table version only when resuming', () => {
  assert.deepEqual(m.hello(1, { name: 'Ada', resume: 'tok', version: 12 }), {
    type: 'hello', id: 1, name: 'Ada', resume: 'tok', version: 12,
  });
  assert.deepEqual(m.hello(1, { name: 'Ada', resume: 'tok', version: 0 }).version, 0);
  assert.deepEqual(m.hello(1, { name: 'Ada', version: 12 }), { type: 'hello', id: 1, name: 'Ada' });
  assert.deepEqual(m.hello(1, { resume: 'tok', version: null }), { type: 'hello', id: 1, resume: 'tok' });
});

test('typed invite codes are cleaned', () => {
  assert.equal(m.cleanCode(' abc-234 '), 'ABC234');
  assert.equal(m.cleanCode('q7r t2m'), 'Q7RT2M');
  assert.equal(m.cleanCode(undefined), '');
});

test('joinListed joins a public table by its id', async () => {
  const messages = await import('../js/messages.js');
  assert.deepEqual(messages.joinListed(7, 't3'), { type: 'join', id: 7, table: 't3' });
  assert.throws(() => messages.joinListed(7, ''), TypeError);
});
