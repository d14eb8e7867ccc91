// The three Set colours are written in three places, each for a reason no other copy can serve:
// - Sources/Protocol/WireCard.swift, `SetCard.colorHex`: the source of truth. The server sends
//   these values in the styled runs of status lines, to every client.
// - css/app.css, `--set-<color>` on :root: the stylesheet's own rules (striped fills, colour cues)
//   need the values, and js/card-view.js reads them when the page starts.
// - js/card-view.js, `DEFAULT_PALETTE`: drawing with no stylesheet (these tests, or a page whose
//   CSS did not load).
// No build step turns one into the others, so this test holds the two web copies to the Swift one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_PALETTE } from '../js/card-view.js';
import { ATTRIBUTES } from '../js/set-cards.js';

/** `SetCard.colorHex` as the Swift source writes it, in colour value order. */
function swiftColorHex() {
  const swift = readFileSync(
    new URL('../../Sources/Protocol/WireCard.swift', import.meta.url), 'utf8');
  const list = swift.match(/static let colorHex = \[([^\]]*)\]/);
  assert.ok(list, 'WireCard.swift declares SetCard.colorHex as an array literal');
  return [...list[1].matchAll(/"([^"]*)"/g)].map((match) => match[1]);
}

test('the Swift source has one hex colour per colour value', () => {
  const hex = swiftColorHex();
  assert.equal(hex.length, ATTRIBUTES.color.length);
  for (const value of hex) assert.match(value, /^#[0-9a-f]{6}$/);
});

test('the default palette is the server\'s colours', () => {
  const hex = swiftColorHex();
  assert.deepEqual(
    Object.fromEntries(ATTRIBUTES.color.map((name, i) => [name, hex[i]])), { ...DEFAULT_PALETTE });
});

test('the stylesheet defines the server\'s colours', () => {
  const css = readFileSync(new URL('../css/app.css', import.meta.url), 'utf8');
  const hex = swiftColorHex();
  ATTRIBUTES.color.forEach((name, i) => {
    const defined = [...css.matchAll(new RegExp(`--set-${name}:\\s*([^;]+);`, 'g'))];
    assert.deepEqual(defined.map((match) => match[1].trim().toLowerCase()), [hex[i]]);
  });
});
