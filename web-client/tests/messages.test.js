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
  assert.equal(m.SUBPROTOCOL, 'matchismo.v1');
});

test('ids count up from 1', () => {
  const next = m.createIdSource();
  assert.deepEqual([next(), next(), next()], [1, 2, 3]);
});
