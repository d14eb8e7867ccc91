// Concentration cards: one emoji, large, on a plain face. Pure: `emojiCardDrawing` returns
// {viewBox, label, shapes} like playing-cards.js; the back is playing-cards.js cardBackDrawing.
// The emoji is drawn as SVG text (set with textContent by svg-dom.js, never parsed).

import { CARD_VIEWBOX } from './card-view.js';

/** The server's six themes (Sources/Model/EmojiCard.swift), with the names its status runs use
 * as labels, so a card on the board and in the status line read the same. */
const THEME_NAMES = {
  '🦊': 'fox', '🐼': 'panda', '🐸': 'frog', '🦉': 'owl', '🐢': 'turtle',
  '🦒': 'giraffe', '🐙': 'octopus', '🦔': 'hedgehog', '🐝': 'bee', '🦩': 'flamingo',
  '🍕': 'pizza', '🍣': 'sushi', '🥐': 'croissant', '🌮': 'taco', '🍩': 'doughnut',
  '🥑': 'avocado', '🍉': 'watermelon', '🧀': 'cheese', '🍔': 'burger', '🥨': 'pretzel',
  '⚽': 'football', '🏀': 'basketball', '🎾': 'tennis ball', '🏓': 'table tennis', '🏈': 'american football',
  '⛳': 'golf flag', '🥊': 'boxing glove', '🏒': 'ice hockey stick', '🎳': 'bowling', '🏐': 'volleyball',
  '🚀': 'rocket', '🚲': 'bicycle', '⛵': 'sailboat', '🚂': 'locomotive', '🚁': 'helicopter',
  '🚗': 'car', '🛶': 'canoe', '🎈': 'balloon', '🚠': 'cable car', '🛴': 'kick scooter',
  '☀️': 'sun', '🌧️': 'rain cloud', '⛄': 'snowman', '🌈': 'rainbow', '⚡': 'lightning',
  '🌪️': 'tornado', '🌙': 'crescent moon', '❄️': 'snowflake', '🌊': 'wave', '🔥': 'fire',
  '🎸': 'guitar', '🎹': 'keyboard', '🥁': 'drum', '🎺': 'trumpet', '🎻': 'violin',
  '🎷': 'saxophone', '🪗': 'accordion', '🎤': 'microphone', '🎧': 'headphones', '🪕': 'banjo',
};

/** The themes' emoji in the server's order (theme by theme): Concentration's full deck holds two
 * copies of each, the card of id `i` showing THEME_EMOJI[⌊i / 2⌋] (deck-cards.js). */
export const THEME_EMOJI = Object.freeze(Object.keys(THEME_NAMES));

/** Names for the emoji a Concentration deck is likely to use (the themes' names win); anything
 * else reads as "card showing 🦊". */
export const EMOJI_NAMES = Object.freeze({
  '🦊': 'fox', '🐶': 'dog', '🐱': 'cat', '🐭': 'mouse', '🐹': 'hamster', '🐰': 'rabbit', '🐻': 'bear',
  '🐼': 'panda', '🐨': 'koala', '🐯': 'tiger', '🦁': 'lion', '🐮': 'cow', '🐷': 'pig', '🐸': 'frog',
  '🐵': 'monkey', '🐔': 'chicken', '🐧': 'penguin', '🐦': 'bird', '🦉': 'owl', '🦄': 'unicorn',
  '🐝': 'bee', '🦋': 'butterfly', '🐢': 'turtle', '🐙': 'octopus', '🐳': 'whale', '🐬': 'dolphin',
  '🐠': 'tropical fish', '🦀': 'crab', '👻': 'ghost', '🎃': 'jack-o-lantern', '💀': 'skull',
  '👽': 'alien', '🤖': 'robot', '🍎': 'apple', '🍌': 'banana', '🍒': 'cherries', '🍓': 'strawberry',
  '🍇': 'grapes', '🍉': 'watermelon', '🍋': 'lemon', '🍕': 'pizza', '🍩': 'doughnut', '⚽': 'soccer ball',
  '🏀': 'basketball', '🎲': 'die', '🚀': 'rocket', '🚗': 'car', '✈️': 'airplane', '🌈': 'rainbow',
  '⭐': 'star', '🌙': 'moon', '☀️': 'sun', '🔥': 'fire', '💧': 'droplet', '🌵': 'cactus', '🌻': 'sunflower',
  '🍄': 'mushroom', '🎈': 'balloon', '🎁': 'gift', '🔔': 'bell', '🎸': 'guitar', '🎩': 'top hat',
  ...THEME_NAMES,
});

/** True for a face-up Concentration entry: a short non-empty `emoji` string. */
export function isEmojiCard(card) {
  return card !== null && typeof card === 'object' && typeof card.emoji === 'string' &&
    card.emoji.length > 0 && card.emoji.length <= 16;
}

/** "fox", or "card showing 🦊" for an emoji the table does not know. */
export function emojiLabel(emoji) {
  return EMOJI_NAMES[emoji] ?? `card showing ${emoji}`;
}

/** The drawing of a face-up emoji card. */
export function emojiCardDrawing(card) {
  const { width, height } = CARD_VIEWBOX;
  return {
    viewBox: `0 0 ${width} ${height}`,
    label: emojiLabel(card.emoji),
    shapes: [
      {
        tag: 'text',
        part: 'emoji',
        attrs: { class: 'emoji', x: width / 2, y: height / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': 150 },
        text: card.emoji,
      },
    ],
  };
}
