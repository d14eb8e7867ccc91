// No branch on a game's wire name outside games.js: what differs between games comes from the
// server's description of each (welcome's `games`), so a new game needs no client code. This reads
// every module of web-client/js and fails on a quoted wire name ('setChain', "concentration",
// `ultraSet`…) anywhere but games.js, which holds the descriptions known before a welcome.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { DEFAULT_GAMES } from '../js/games.js';

const JS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'js');
const NAMES = DEFAULT_GAMES.map((game) => game.name);

/** Where `source` quotes one of `names` as a string: [{name, line}]. */
function quotedNames(source, names) {
  const found = [];
  source.split('\n').forEach((text, i) => {
    for (const name of names) {
      if (new RegExp(`(['"\`])${name}\\1`).test(text)) found.push({ name, line: i + 1 });
    }
  });
  return found;
}

test('the scanner sees a quoted name, in any quotes, and not a word in prose', () => {
  assert.deepEqual(quotedNames("if (game === 'setChain') {", NAMES), [{ name: 'setChain', line: 1 }]);
  assert.deepEqual(quotedNames('x\nconst g = "concentration";', NAMES), [{ name: 'concentration', line: 2 }]);
  assert.deepEqual(quotedNames('const g = `ultraSet`;', NAMES), [{ name: 'ultraSet', line: 1 }]);
  assert.deepEqual(quotedNames("// a set of three; Set-Chain's chain", NAMES), []);
  assert.deepEqual(quotedNames("const kind = 'set-card';", NAMES), []);
});

test('the six standard games are the names looked for', () => {
  assert.deepEqual([...NAMES].sort(), ['concentration', 'matchismo', 'set', 'setChain', 'setJunior', 'ultraSet']);
});

test('no module but games.js names a game', () => {
  const files = readdirSync(JS).filter((f) => f.endsWith('.js') && f !== 'games.js');
  assert.ok(files.length > 50);
  const found = files.flatMap((file) => quotedNames(readFileSync(path.join(JS, file), 'utf8'), NAMES).map((f) => `${file}:${f.line} '${f.name}'`));
  assert.deepEqual(found, []);
});

test('the client keeps no rule module: the rule searches and Set-Chain\'s chain.js are gone', () => {
  const files = readdirSync(JS);
  assert.ok(!files.includes('chain.js'));
  const rules = /\b(isSet|thirdCard|findSets|findUltraSet|findChainSets|takeableSets|chainChoiceProblem)\b/;
  for (const file of files.filter((f) => f.endsWith('.js'))) {
    assert.ok(!rules.test(readFileSync(path.join(JS, file), 'utf8')), `${file} keeps a rule`);
  }
});
