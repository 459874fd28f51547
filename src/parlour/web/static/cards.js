// Cards drawn by Parlour as SVG: readable faces at phone size, a four-colour option, a clear back.
// How cards and suits are written (the symbols, the names, the faces, and which suit letters in a sentence
// become symbols) is parlour.cards's, sent in the page (card_words): the same rules as the terminal's.
const WORDS = JSON.parse(document.getElementById("card-words").textContent);
const SUITS = WORDS.suit_symbols;
const SUIT_NAMES = WORDS.suit_names;
const RANK_NAMES = WORDS.rank_names;
const FACES = WORDS.rank_faces;
// The card colours (tests/interfaces/web/test_features.py measures each suit colour on both faces: WCAG AA).
const TWO = { C: "#111111", S: "#111111", H: "#b8001a", D: "#b8001a" };
const FOUR = { C: "#005c1a", S: "#111111", H: "#b8001a", D: "#0039b3" };
const FACE = "#ffffff"; // a card's face
const FACE_DIM = "#e2e2e2"; // the face of a card that may not be played now (grey, never transparent)
const EDGE = "#333333";

export function isCard(code) {
  return typeof code === "string" && code.length === 2 && code[0] in RANK_NAMES && code[1] in SUITS;
}

export function cardName(code) {
  return `${RANK_NAMES[code[0]]} of ${SUIT_NAMES[code[1]]}`;
}

export function cardShort(code) {
  return FACES[code[0]] + SUITS[code[1]];
}

export function suitColour(suit, four) {
  return (four ? FOUR : TWO)[suit];
}

// A card code in a sentence ("plays KC"), and a suit letter after a word that names a suit ("trump C"), but
// not a list of suit letters ("one of C D H S", which names the letters to type): parlour.cards's patterns.
const CARD_CODE = new RegExp(WORDS.card_word, "g");
const SUIT_WORD = new RegExp(WORDS.suit_word, "g");

// Card codes and suits in a sentence written as faces and symbols ("North plays K♣", "trump ♣"): the same
// sentence, easier to read (parlour.cards.pretty_action).  Every text the page shows a person goes through
// here (or spokenText).
export function prettyText(text) {
  return String(text).replace(CARD_CODE, (code) => cardShort(code))
    .replace(SUIT_WORD, (_, word, space, suit) => word + space + SUITS[suit]);
}

// The same sentence for a screen reader: "call AS" -> "call Ace of spades", "trump C" -> "trump clubs".
export function spokenText(text) {
  return String(text).replace(CARD_CODE, (code) => cardName(code))
    .replace(SUIT_WORD, (_, word, space, suit) => word + space + SUIT_NAMES[suit]);
}

export function cardSVG(code, four = false, dim = false) {
  const rank = FACES[code[0]];
  const suit = SUITS[code[1]];
  const colour = suitColour(code[1], four);
  return `<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
<rect x="1" y="1" width="58" height="82" rx="6" fill="${dim ? FACE_DIM : FACE}" stroke="${EDGE}" stroke-width="1.5"${dim ? ' stroke-dasharray="4 3"' : ""}/>
<text x="5" y="20" font-size="17" font-weight="700" fill="${colour}" font-family="sans-serif">${rank}</text>
<text x="5" y="37" font-size="16" fill="${colour}" font-family="sans-serif">${suit}</text>
<text x="32" y="64" font-size="34" text-anchor="middle" fill="${colour}" font-family="sans-serif">${suit}</text>
<text x="55" y="79" font-size="13" font-weight="700" text-anchor="end" fill="${colour}" font-family="sans-serif">${rank}${suit}</text>
</svg>`;
}

// A suit by itself (the trump: parlour.text.felt's suit letter), drawn as a card of that suit: the same
// face, edge and colours as a card, its suit large in the middle and in the corners, no rank.
export function suitSVG(suit, four = false) {
  const symbol = SUITS[suit];
  const colour = suitColour(suit, four);
  return `<svg class="card-svg suit-card" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
<rect x="1" y="1" width="58" height="82" rx="6" fill="${FACE}" stroke="${EDGE}" stroke-width="1.5"/>
<text x="6" y="20" font-size="16" fill="${colour}" font-family="sans-serif">${symbol}</text>
<text x="30" y="58" font-size="40" text-anchor="middle" fill="${colour}" font-family="sans-serif">${symbol}</text>
<text x="54" y="78" font-size="16" text-anchor="end" fill="${colour}" font-family="sans-serif">${symbol}</text>
</svg>`;
}

export function isSuit(code) {
  return typeof code === "string" && code.length === 1 && code in SUITS;
}

// What a screen reader says for an item on the felt: a card's name, or a suit's.
export function itemName(code) {
  return isSuit(code) ? SUIT_NAMES[code] : cardName(code);
}

// An item on the felt drawn: a card's face, or a suit by itself.
export function itemSVG(code, four = false) {
  return isSuit(code) ? suitSVG(code, four) : cardSVG(code, four);
}

export function backSVG() {
  return `<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
<defs><pattern id="pb" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
<rect width="8" height="8" fill="#1d3f8f"/><rect width="3" height="8" fill="#3560c4"/></pattern></defs>
<rect x="1" y="1" width="58" height="82" rx="6" fill="${FACE}" stroke="${EDGE}" stroke-width="1.5"/>
<rect x="5" y="5" width="50" height="74" rx="4" fill="url(#pb)"/>
</svg>`;
}
