// The games this page knows, as data. The server describes every game it deals in `welcome`
// (`games`: PROTOCOL.md, "The games in `welcome`"); the controller hands that list to
// `learnGames`, and from then on the page knows exactly those games. Until the first welcome it
// knows the six standard games as the server describes them (DEFAULT_GAMES, held equal to the
// server's by e2e/test_games_described.py). Nothing here is a rule: no match is judged, no board
// searched; a game this page has not been told of is shown as "not supported by this page",
// never as another game. This is the one file that names a game.

/** The game a page offers first, and a table or row that names none is (the first servers). */
export const DEFAULT_GAME = 'set';

/** What a game this page was not told of is said to be. */
export const UNSUPPORTED = 'not supported by this page';

/** The words of a game this page does not know. */
const UNKNOWN_MATCH = Object.freeze({ one: 'match', many: 'matches', a: 'a match' });

/** A description from the server (or DEFAULT_GAMES) as the page keeps it, or null when it cannot
 * be read: `match` becomes [one, many] (with `a`: "a set"), `board` base and step; anything else
 * missing gets a harmless value. */
export function readGame(raw) {
  if (raw === null || typeof raw !== 'object' || typeof raw.name !== 'string' || raw.name === '') return null;
  if (typeof raw.title !== 'string' || raw.title === '') return null;
  const text = (v, fallback) => (typeof v === 'string' ? v : fallback);
  const count = (v, fallback) => (Number.isInteger(v) && v >= 0 ? v : fallback);
  const match = raw.match !== null && typeof raw.match === 'object' ? raw.match : UNKNOWN_MATCH;
  const one = text(match.one, UNKNOWN_MATCH.one);
  const many = text(match.many, UNKNOWN_MATCH.many);
  const texts = raw.texts !== null && typeof raw.texts === 'object' ? raw.texts : {};
  return Object.freeze({
    name: raw.name,
    title: raw.title,
    rules: text(raw.rules, ''),
    match: Object.freeze([one, many]),
    a: text(match.a, `a ${one}`),
    matchSize: count(raw.matchSize, 2),
    base: count(raw.board?.base, 0),
    step: count(raw.board?.step, 0),
    hints: raw.hints === true,
    chain: raw.chain === true,
    faceDown: raw.faceDown === true,
    turnBased: raw.turnBased === true,
    computers: raw.computers === true,
    // Whether arenas deal this game (null: the description does not say; see arenaGameIds).
    arenas: typeof raw.arenas === 'boolean' ? raw.arenas : null,
    settings: Object.freeze((Array.isArray(raw.settings) ? raw.settings : []).map(readSetting).filter((s) => s !== null)),
    texts: Object.freeze({
      hintOne: text(texts.hintOne, ''),
      hintTwo: text(texts.hintTwo, ''),
      hintNone: text(texts.hintNone, ''),
      kept: Object.freeze(texts.kept !== null && typeof texts.kept === 'object' ? { ...texts.kept } : {}),
      chainStart: text(texts.chainStart, ''),
      chainRule: text(texts.chainRule, ''),
    }),
    supported: true,
  });
}

/** One described setting, or null when it cannot be read. */
function readSetting(raw) {
  if (raw === null || typeof raw !== 'object' || typeof raw.name !== 'string' || !Array.isArray(raw.choices)) return null;
  const choices = raw.choices
    .filter((c) => c !== null && typeof c === 'object' && ['number', 'string', 'boolean'].includes(typeof c.value))
    .map((c) => Object.freeze({
      value: c.value,
      text: typeof c.text === 'string' ? c.text : String(c.value),
      summary: typeof c.summary === 'string' ? c.summary : typeof c.text === 'string' ? c.text : String(c.value),
      form: c.form !== false,
    }));
  return Object.freeze({
    name: raw.name,
    label: typeof raw.label === 'string' ? raw.label : raw.name,
    default: raw.default,
    defaultWithOthers: raw.defaultWithOthers === undefined ? raw.default : raw.defaultWithOthers,
    choices: Object.freeze(choices),
    min: Number.isInteger(raw.min) ? raw.min : null,
    max: Number.isInteger(raw.max) ? raw.max : null,
    unit: typeof raw.unit === 'string' ? raw.unit : null,
    withOthersOnly: raw.withOthersOnly === true,
    requires: raw.requires !== null && typeof raw.requires === 'object' ? { ...raw.requires } : null,
  });
}

/** The games, by name, in the order the lobby offers them (made on first use: DEFAULT_GAMES
 * is at the end of this file). */
let known = null;

function catalog() {
  known ??= index(DEFAULT_GAMES);
  return known;
}

function index(list) {
  const games = new Map();
  for (const raw of list) {
    const game = readGame(raw);
    if (game !== null && !games.has(game.name)) games.set(game.name, game);
  }
  return games;
}

/** The `gamesVersion` of the descriptions learnt, or null before any. */
let heldVersion = null;

/** Learns the games of a `welcome` (its `games`, named by its `gamesVersion`): the page knows
 * exactly those from now on. A list with no game it can read changes nothing. Returns whether
 * the games changed. */
export function learnGames(list, version = null) {
  if (!Array.isArray(list)) return false;
  const games = index(list);
  if (games.size === 0) return false;
  const before = catalog();
  const same =
    games.size === before.size && [...games].every(([name, game]) => JSON.stringify(before.get(name)) === JSON.stringify(game));
  known = games;
  heldVersion = typeof version === 'string' && version !== '' ? version : null;
  return !same;
}

/** What `hello` asks of the games (its `games`): the version of the descriptions learnt, so
 * that a server with the same ones sends none, or true before any were learnt. */
export function gamesAsked() {
  return heldVersion ?? true;
}

/** Back to the games known before any welcome (tests). */
export function resetGames() {
  known = null;
  heldVersion = null;
}

/** The names of the games known, in the order the lobby offers them. */
export function gameIds() {
  return [...catalog().keys()];
}

/** The games a new arena may deal, in the lobby's order: those whose description says `arenas:
 * true`; when no description says either way (a server that does not tell), every game known. */
export function arenaGameIds() {
  const games = [...catalog().values()];
  if (games.every((g) => g.arenas === null)) return games.map((g) => g.name);
  return games.filter((g) => g.arenas === true).map((g) => g.name);
}

/** Whether this page knows `game`. */
export function isKnownGame(game) {
  return typeof game === 'string' && catalog().has(game);
}

/** The game as this page knows it; a game it does not know is described by its name alone, as
 * not supported (`supported: false`: no hints, no settings, "match"/"matches"). */
export function gameInfo(game) {
  if (isKnownGame(game)) return catalog().get(game);
  const name = typeof game === 'string' && game !== '' ? game : 'unknown';
  return Object.freeze({
    ...readGame({ name, title: name, match: UNKNOWN_MATCH }),
    supported: false,
  });
}

/** "Set", or "poker (not supported by this page)". */
export function gameLabel(game) {
  const info = gameInfo(game);
  return info.supported ? info.title : `${info.title} (${UNSUPPORTED})`;
}

/** What a table or replay of a game this page does not know says in place of its board; null for
 * a known game. */
export function unsupportedText(game) {
  return isKnownGame(game) ? null : `${gameInfo(game).title} is ${UNSUPPORTED}: this page cannot show it.`;
}

/** How the board grows, for layout.js chooseStableGrid: {base, step}. A game that deals more
 * cards while the board holds no match grows by its step from the table's board size; the others
 * keep every slot until the end. */
export function boardShape(game, settings, boardLength) {
  const info = gameInfo(game);
  if (info.step === 0) return { base: boardLength, step: 0 };
  const size = Number.isInteger(settings?.boardSize) && settings.boardSize > 0 ? settings.boardSize : info.base;
  return { base: size, step: info.step };
}

/** "1 set", "3 matches", "2 pairs". */
export function matchesText(game, count) {
  const [one, many] = gameInfo(game).match;
  return `${count} ${count === 1 ? one : many}`;
}

/** The heading of the "Sets" statistic: "Sets", "Matches", "Pairs". */
export function matchesHeading(game) {
  const word = gameInfo(game).match[1];
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** What a miss that keeps the last card chosen says, for a table of `matchSize` cards a match
 * (the server's words; '' when it gave none). */
export function keptText(game, matchSize) {
  const kept = gameInfo(game).texts.kept;
  return kept[String(matchSize)] ?? kept[String(gameInfo(game).matchSize)] ?? '';
}

/** Whether a face a `hide` turns down is held up a moment: in a face-down game played in turns,
 * where everyone watches one player's cards (face-hold.js). */
export function holdsFaces(game) {
  const info = gameInfo(game);
  return info.faceDown && info.turnBased;
}

/** What the page draws of each game's cards named by their id in the full deck (a look back's
 * ids: deck-cards.js reads them by `deck`), and one match of the game with real cards for "How
 * to play" (`example`: full-deck ids, in the order shown). The one table of them: a game not in
 * it is drawn without its cards. tests/game-cards.test.js checks each example against its rule. */
export const GAME_CARDS = Object.freeze({
  set: Object.freeze({ deck: 'set-cards', example: Object.freeze([1, 40, 79]) }),
  setJunior: Object.freeze({ deck: 'solid-set-cards', example: Object.freeze([1, 13, 25]) }),
  ultraSet: Object.freeze({ deck: 'set-cards', example: Object.freeze([0, 27, 10, 47]) }),
  setChain: Object.freeze({ deck: 'set-cards', example: Object.freeze([0, 40, 80]) }),
  matchismo: Object.freeze({ deck: 'playing-cards', example: Object.freeze([11, 24]) }),
  concentration: Object.freeze({ deck: 'emoji-pairs', example: Object.freeze([0, 1]) }),
});

/** `game`'s deck and example (GAME_CARDS), or null for a game without them. */
export function gameCards(game) {
  return typeof game === 'string' && Object.hasOwn(GAME_CARDS, game) ? GAME_CARDS[game] : null;
}

/** The server's descriptions of its six standard games (`welcome`'s `games`), verbatim. */
// (Written as the server's welcome sends them: e2e/test_games_described.py fails when they differ.)
// prettier-ignore
export const DEFAULT_GAMES = Object.freeze([
  {
    "name": "set",
    "title": "Set",
    "rules": "Find three cards where every feature — number, symbol, shading, colour — is all the same or all different on each card. Race others to it, or play alone.",
    "match": {"one":"set","many":"sets","a":"a set"},
    "matchSize": 3,
    "board": {"base":12,"step":3},
    "hints": true,
    "chain": false,
    "faceDown": false,
    "turnBased": false,
    "computers": true,
    "settings": [
      {"name":"scoring","label":"Scoring","default":"course","defaultWithOthers":"classic","choices":[{"value":"classic","text":"Classic (a set is a point)","summary":"Classic scoring"},{"value":"course","text":"Course (a choice costs 1, a miss 2)","summary":"Course scoring"},{"value":"custom","text":"Custom (your own constants)","summary":"Custom scoring","form":false}]},
      {"name":"boardSize","label":"Cards","default":12,"choices":[{"value":9,"text":"9 cards"},{"value":12,"text":"12 cards"},{"value":15,"text":"15 cards"},{"value":18,"text":"18 cards"},{"value":21,"text":"21 cards"}]},
      {"name":"matchSize","label":"Match","default":3,"choices":[{"value":3,"text":"3 cards","summary":""}]},
      {"name":"costToChoose","label":"Cost to choose","default":1,"choices":[],"min":0,"max":10,"requires":{"scoring":"custom"}},
      {"name":"mismatchPenalty","label":"Mismatch penalty","default":2,"choices":[],"min":0,"max":20,"requires":{"scoring":"custom"}},
      {"name":"matchBonus","label":"Match bonus","default":4,"choices":[],"min":1,"max":20,"requires":{"scoring":"custom"}},
      {"name":"showSelections","label":"Opponents’ picks","default":true,"choices":[{"value":true,"text":"shown","summary":""},{"value":false,"text":"hidden","summary":"opponents’ picks hidden"}],"withOthersOnly":true},
    ],
    "texts": {
      "hintOne": "Hint: the outlined card is part of a set. Hints are free. Ask again for a second card.",
      "hintTwo": "Hint: the two outlined cards are part of a set; find the third. Hints are free.",
      "hintNone": "No set on this board.",
      "kept": {"3":"No set. Your last card stays chosen (course rules): pick two more to go with it, or click it to let it go."},
    },
  },
  {
    "name": "setJunior",
    "title": "Set Junior",
    "rules": "Set with three features — number, symbol, colour — and 27 cards, all solid: three cards are a set when each feature is all the same or all different.",
    "match": {"one":"set","many":"sets","a":"a set"},
    "matchSize": 3,
    "board": {"base":9,"step":3},
    "hints": true,
    "chain": false,
    "faceDown": false,
    "turnBased": false,
    "computers": true,
    "settings": [
      {"name":"scoring","label":"Scoring","default":"course","defaultWithOthers":"classic","choices":[{"value":"classic","text":"Classic (a set is a point)","summary":"Classic scoring"},{"value":"course","text":"Course (a choice costs 1, a miss 2)","summary":"Course scoring"},{"value":"custom","text":"Custom (your own constants)","summary":"Custom scoring","form":false}]},
      {"name":"boardSize","label":"Cards","default":9,"choices":[{"value":6,"text":"6 cards"},{"value":9,"text":"9 cards"},{"value":12,"text":"12 cards"}]},
      {"name":"matchSize","label":"Match","default":3,"choices":[{"value":3,"text":"3 cards","summary":""}]},
      {"name":"costToChoose","label":"Cost to choose","default":1,"choices":[],"min":0,"max":10,"requires":{"scoring":"custom"}},
      {"name":"mismatchPenalty","label":"Mismatch penalty","default":2,"choices":[],"min":0,"max":20,"requires":{"scoring":"custom"}},
      {"name":"matchBonus","label":"Match bonus","default":4,"choices":[],"min":1,"max":20,"requires":{"scoring":"custom"}},
      {"name":"showSelections","label":"Opponents’ picks","default":true,"choices":[{"value":true,"text":"shown","summary":""},{"value":false,"text":"hidden","summary":"opponents’ picks hidden"}],"withOthersOnly":true},
    ],
    "texts": {
      "hintOne": "Hint: the outlined card is part of a set. Hints are free. Ask again for a second card.",
      "hintTwo": "Hint: the two outlined cards are part of a set; find the third. Hints are free.",
      "hintNone": "No set on this board.",
      "kept": {"3":"No set. Your last card stays chosen (course rules): pick two more to go with it, or click it to let it go."},
    },
  },
  {
    "name": "ultraSet",
    "title": "UltraSet",
    "rules": "Find four cards that make two pairs needing the same third card to be a set (that card need not be on the table). Race others to it, or play alone.",
    "match": {"one":"UltraSet","many":"UltraSets","a":"an UltraSet"},
    "matchSize": 4,
    "board": {"base":12,"step":3},
    "hints": true,
    "chain": false,
    "faceDown": false,
    "turnBased": false,
    "computers": true,
    "settings": [
      {"name":"scoring","label":"Scoring","default":"course","defaultWithOthers":"classic","choices":[{"value":"classic","text":"Classic (an UltraSet is a point)","summary":"Classic scoring"},{"value":"course","text":"Course (a choice costs 1, a miss 2)","summary":"Course scoring"},{"value":"custom","text":"Custom (your own constants)","summary":"Custom scoring","form":false}]},
      {"name":"boardSize","label":"Cards","default":12,"choices":[{"value":9,"text":"9 cards"},{"value":12,"text":"12 cards"},{"value":15,"text":"15 cards"},{"value":18,"text":"18 cards"},{"value":21,"text":"21 cards"}]},
      {"name":"matchSize","label":"Match","default":4,"choices":[{"value":4,"text":"4 cards","summary":""}]},
      {"name":"costToChoose","label":"Cost to choose","default":1,"choices":[],"min":0,"max":10,"requires":{"scoring":"custom"}},
      {"name":"mismatchPenalty","label":"Mismatch penalty","default":2,"choices":[],"min":0,"max":20,"requires":{"scoring":"custom"}},
      {"name":"matchBonus","label":"Match bonus","default":4,"choices":[],"min":1,"max":20,"requires":{"scoring":"custom"}},
      {"name":"showSelections","label":"Opponents’ picks","default":true,"choices":[{"value":true,"text":"shown","summary":""},{"value":false,"text":"hidden","summary":"opponents’ picks hidden"}],"withOthersOnly":true},
    ],
    "texts": {
      "hintOne": "Hint: the outlined card is part of an UltraSet. Hints are free. Ask again for a second card.",
      "hintTwo": "Hint: the two outlined cards are part of an UltraSet; find the other two. Hints are free.",
      "hintNone": "No UltraSet on this board.",
      "kept": {"4":"No UltraSet. Your last card stays chosen (course rules): pick three more to go with it, or click it to let it go."},
    },
  },
  {
    "name": "setChain",
    "title": "Set-Chain",
    "rules": "Set, chained: the first set is any set; after it, every set takes exactly one card of the set before (the chain, shown above the board) and two cards of the table, and becomes the next chain.",
    "match": {"one":"set","many":"sets","a":"a set"},
    "matchSize": 3,
    "board": {"base":12,"step":3},
    "hints": true,
    "chain": true,
    "faceDown": false,
    "turnBased": false,
    "computers": true,
    "settings": [
      {"name":"scoring","label":"Scoring","default":"course","defaultWithOthers":"classic","choices":[{"value":"classic","text":"Classic (a set is a point)","summary":"Classic scoring"},{"value":"course","text":"Course (a choice costs 1, a miss 2)","summary":"Course scoring"},{"value":"custom","text":"Custom (your own constants)","summary":"Custom scoring","form":false}]},
      {"name":"boardSize","label":"Cards","default":12,"choices":[{"value":9,"text":"9 cards"},{"value":12,"text":"12 cards"},{"value":15,"text":"15 cards"},{"value":18,"text":"18 cards"},{"value":21,"text":"21 cards"}]},
      {"name":"matchSize","label":"Match","default":3,"choices":[{"value":3,"text":"3 cards","summary":""}]},
      {"name":"costToChoose","label":"Cost to choose","default":1,"choices":[],"min":0,"max":10,"requires":{"scoring":"custom"}},
      {"name":"mismatchPenalty","label":"Mismatch penalty","default":2,"choices":[],"min":0,"max":20,"requires":{"scoring":"custom"}},
      {"name":"matchBonus","label":"Match bonus","default":4,"choices":[],"min":1,"max":20,"requires":{"scoring":"custom"}},
      {"name":"showSelections","label":"Opponents’ picks","default":true,"choices":[{"value":true,"text":"shown","summary":""},{"value":false,"text":"hidden","summary":"opponents’ picks hidden"}],"withOthersOnly":true},
    ],
    "texts": {
      "hintOne": "Hint: the outlined card is part of a chain set. Hints are free. Ask again for a second card.",
      "hintTwo": "Hint: the two outlined cards are part of a chain set; find the third. Hints are free.",
      "hintNone": "No chain set on this board.",
      "kept": {"3":"No set. Your last card stays chosen (course rules): pick two more to go with it, or click it to let it go."},
      "chainStart": "The first set starts the chain.",
      "chainRule": "Each set: one card of the chain and two of the table.",
    },
  },
  {
    "name": "matchismo",
    "title": "Matchismo",
    "rules": "Turn up playing cards two at a time: the same suit scores, the same rank scores four times as much. A miss costs you.",
    "match": {"one":"match","many":"matches","a":"a match"},
    "matchSize": 2,
    "board": {"base":24,"step":0},
    "hints": false,
    "chain": false,
    "faceDown": true,
    "turnBased": false,
    "computers": true,
    "settings": [
      {"name":"matchSize","label":"Match","default":2,"choices":[{"value":2,"text":"2 cards","summary":"2-card matches"},{"value":3,"text":"3 cards","summary":"3-card matches"}]},
      {"name":"boardSize","label":"Cards","default":24,"choices":[{"value":12,"text":"12 cards"},{"value":16,"text":"16 cards"},{"value":20,"text":"20 cards"},{"value":24,"text":"24 cards"},{"value":30,"text":"30 cards"},{"value":36,"text":"36 cards"}],"min":12,"max":40,"unit":"cards"},
      {"name":"scoring","label":"Scoring","default":"course","choices":[{"value":"course","text":"Course (a choice costs 1, a miss 2)","summary":""},{"value":"custom","text":"Custom (your own constants)","summary":"Custom scoring","form":false}]},
      {"name":"costToChoose","label":"Cost to choose","default":1,"choices":[],"min":0,"max":10,"requires":{"scoring":"custom"}},
      {"name":"mismatchPenalty","label":"Mismatch penalty","default":2,"choices":[],"min":0,"max":20,"requires":{"scoring":"custom"}},
      {"name":"matchBonus","label":"Match bonus","default":4,"choices":[],"min":1,"max":20,"requires":{"scoring":"custom"}},
      {"name":"showSelections","label":"Opponents’ picks","default":true,"choices":[{"value":true,"text":"shown","summary":""},{"value":false,"text":"hidden","summary":"opponents’ picks hidden"}],"withOthersOnly":true},
    ],
    "texts": {
      "hintOne": "Hint: the outlined card is part of a match. Hints are free. Ask again for a second card.",
      "hintTwo": "Hint: the two outlined cards are a match. Hints are free.",
      "hintNone": "No match on this board.",
      "kept": {"2":"No match. Your last card stays chosen (course rules): pick one more to go with it, or click it to let it go.","3":"No match. Your last card stays chosen (course rules): pick two more to go with it, or click it to let it go."},
    },
  },
  {
    "name": "concentration",
    "title": "Concentration",
    "rules": "Take turns flipping two cards. Find a pair and go again; miss and they turn back over. Remember where everything is.",
    "match": {"one":"pair","many":"pairs","a":"a pair"},
    "matchSize": 2,
    "board": {"base":16,"step":0},
    "hints": false,
    "chain": false,
    "faceDown": true,
    "turnBased": true,
    "computers": true,
    "settings": [
      {"name":"boardSize","label":"Pairs","default":16,"choices":[{"value":8,"text":"4 pairs"},{"value":10,"text":"5 pairs"},{"value":12,"text":"6 pairs"},{"value":14,"text":"7 pairs"},{"value":16,"text":"8 pairs"},{"value":18,"text":"9 pairs"},{"value":20,"text":"10 pairs"}]},
      {"name":"theme","label":"Theme","default":0,"choices":[{"value":0,"text":"Animals"},{"value":1,"text":"Food"},{"value":2,"text":"Sports"},{"value":3,"text":"Travel"},{"value":4,"text":"Weather"},{"value":5,"text":"Music"}]},
      {"name":"turnSeconds","label":"Turn","default":0,"defaultWithOthers":30,"choices":[{"value":0,"text":"no limit","summary":"no turn limit"},{"value":10,"text":"10 s","summary":"10 s turns"},{"value":20,"text":"20 s","summary":"20 s turns"},{"value":30,"text":"30 s","summary":"30 s turns"},{"value":60,"text":"60 s","summary":"60 s turns"}],"min":5,"max":300,"unit":"s turns","withOthersOnly":true},
      {"name":"matchSize","label":"Match","default":2,"choices":[{"value":2,"text":"2 cards","summary":""}]},
      {"name":"scoring","label":"Scoring","default":"custom","choices":[{"value":"custom","text":"A point a pair","summary":""}]},
      {"name":"costToChoose","label":"Cost to choose","default":0,"choices":[],"min":0,"max":10,"requires":{"scoring":"custom"}},
      {"name":"mismatchPenalty","label":"Mismatch penalty","default":0,"choices":[],"min":0,"max":20,"requires":{"scoring":"custom"}},
      {"name":"matchBonus","label":"Match bonus","default":1,"choices":[],"min":1,"max":20,"requires":{"scoring":"custom"}},
      {"name":"showSelections","label":"Opponents’ picks","default":true,"choices":[{"value":true,"text":"shown","summary":""}],"withOthersOnly":true},
    ],
    "texts": {
      "hintOne": "Hint: the outlined card is part of a pair. Hints are free. Ask again for a second card.",
      "hintTwo": "Hint: the two outlined cards are a pair. Hints are free.",
      "hintNone": "No pair on this board.",
      "kept": {"2":"No pair. Your last card stays chosen (course rules): pick one more to go with it, or click it to let it go."},
    },
  },
]);
