import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLAYER_KEY, base64url, isPlayerToken, loadPlayer, makePlayerToken } from '../js/player.js';

function memoryStorage(initial = {}) {
  const map = new Map(Object.entries(initial));
  return { getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => map.set(k, String(v)), map };
}

const counting = (count) => Uint8Array.from({ length: count }, (_, i) => i * 17);

test('base64url without padding, as RFC 4648 §5 writes it', () => {
  const bytes = (text) => new TextEncoder().encode(text);
  assert.equal(base64url(bytes('')), '');
  assert.equal(base64url(bytes('f')), 'Zg');
  assert.equal(base64url(bytes('fo')), 'Zm8');
  assert.equal(base64url(bytes('foo')), 'Zm9v');
  assert.equal(base64url(bytes('foob')), 'Zm9vYg');
  assert.equal(base64url(Uint8Array.of(0xfb, 0xff, 0xbf)), '-_-_');
  // The same as Node's own encoder for any 16 bytes.
  const sixteen = counting(16);
  assert.equal(base64url(sixteen), Buffer.from(sixteen).toString('base64url'));
});

test('a new token is 16 random bytes: 22 characters the server accepts', () => {
  const token = makePlayerToken(counting);
  assert.equal(token.length, 22);
  assert.ok(isPlayerToken(token));
  assert.equal(token, Buffer.from(counting(16)).toString('base64url'));
  // By default from the platform's crypto.getRandomValues: two tokens differ.
  const a = makePlayerToken();
  const b = makePlayerToken();
  assert.ok(isPlayerToken(a) && isPlayerToken(b));
  assert.notEqual(a, b);
});

test('what the server takes as a token', () => {
  assert.ok(isPlayerToken('x0Vd4bq9yRJ1pQo2mZ8c1A'));
  assert.ok(isPlayerToken('a'.repeat(16)) && isPlayerToken('a'.repeat(64)));
  for (const bad of ['a'.repeat(15), 'a'.repeat(65), 'x0Vd4bq9yRJ1pQo2mZ8c1A=', 'x0Vd4bq9yRJ1pQo2mZ8c+A', 'ä'.repeat(20), null, 17, undefined]) {
    assert.equal(isPlayerToken(bad), false, String(bad));
  }
});

test('the token is made once and kept', () => {
  const storage = memoryStorage();
  const first = loadPlayer(storage);
  assert.ok(isPlayerToken(first));
  assert.equal(storage.map.get(PLAYER_KEY), first);
  assert.equal(loadPlayer(storage), first, 'the same one the next time');
  assert.equal(PLAYER_KEY, 'matchismo.player');
});

test('a stored value the server would refuse is replaced', () => {
  const storage = memoryStorage({ [PLAYER_KEY]: 'not a token' });
  const token = loadPlayer(storage, counting);
  assert.equal(token, makePlayerToken(counting));
  assert.equal(storage.map.get(PLAYER_KEY), token);
});

test('without storage there is still a token for this page', () => {
  const throwing = {
    getItem() {
      throw new Error('denied');
    },
    setItem() {
      throw new Error('denied');
    },
  };
  assert.ok(isPlayerToken(loadPlayer(throwing)));
  assert.ok(isPlayerToken(loadPlayer(null)));
});
