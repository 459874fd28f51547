// Cards that move on the felt: a card played goes from its seat (or from the hand) to the trick, and a
// completed trick goes to its winner.  Only a look: every frame is drawn in full first, and these are brief
// movements over what is drawn, so nothing waits for them and nothing is lost without them.  They last a few
// hundred milliseconds, never longer than the computer's pause (its next move comes after the pause, and a
// movement still running then would be cut short), none when there is no pause, and none at all for a person
// whose system asks for less motion (prefers-reduced-motion).
import { cardSVG, isCard } from "./cards.js";

// The longest a movement takes (ms), and the share of the computer's pause it may take at most.
const LONGEST = 400;
const SHARE = 0.8;
const lessMotion = matchMedia("(prefers-reduced-motion: reduce)");

// How long the movements after a frame take (ms) at a table whose computer pauses ``delay`` seconds: 0, none.
export function motionMs(delay) {
  if (lessMotion.matches || !(delay > 0)) return 0;
  return Math.min(LONGEST, Math.round(delay * 1000 * SHARE));
}

const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
const rectOf = (el) => (el && el.getClientRects().length ? el.getBoundingClientRect() : null);
const cardKey = (seat, card) => `${seat} ${card}`;

// Where the cards are before a frame is drawn: the trick's, by seat and card, and the hand's (a card played
// leaves the hand when the frame is drawn, so where it was must be read first).
export function placesBefore(trick, hand) {
  const face = (e) => rectOf(e.querySelector("svg") || e);
  return {
    trick: new Map([...trick.children].map((e) => [cardKey(e.dataset.seat, e.dataset.card), face(e)])),
    hand: new Map([...hand.children].map((e) => [e.dataset.card, face(e)])),
  };
}

// After frame ``f`` is drawn (``prev``: the frame before it, ``before``: placesBefore then): each card new in
// the trick comes from where it was played; a trick just completed flies, as copies over the felt, to its
// winner.  ``at``: the page's places (trick, layer for the copies, seat(s) and winner(s) -> an element).
export function moveCards(prev, f, before, at, four) {
  at.layer.replaceChildren();  // a movement still running belongs to the position before
  const ms = motionMs(f.delay);
  if (!ms || !prev || f.full || f.count <= prev.count || prev.view.deal_number !== f.view.deal_number) return;
  const shown = new Set((prev.view.trick || []).map(([s, c]) => cardKey(s, c)));
  const from = (seat, card) => (seat === f.seat && before.hand.get(card)) || rectOf(at.seat(seat));
  for (const el of at.trick.children) {
    const seat = Number(el.dataset.seat);
    const start = shown.has(cardKey(seat, el.dataset.card)) ? null : from(seat, el.dataset.card);
    const end = rectOf(el);
    if (!start || !end) continue;
    const a = centre(start);
    const b = centre(end);
    el.classList.add("moving");
    const move = el.animate([{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px)` }, { transform: "none" }],
      { duration: ms, easing: "ease-out" });
    move.onfinish = move.oncancel = () => el.classList.remove("moving");
  }
  const done = f.view.last_trick;
  if (!done || JSON.stringify(done) === JSON.stringify(prev.view.last_trick || null)) return;
  const target = rectOf(at.winner(done.winner));
  const box = rectOf(at.trick);
  if (!target || !box) return;
  const cards = (done.cards || []).filter(([, c]) => isCard(c));
  const to = centre(target);
  cards.forEach(([seat, card], i) => {
    // where it lay in the trick, or (the card that completed it, never drawn there) a place in the trick's box
    const lay = before.trick.get(cardKey(seat, card));
    const slot = lay ? centre(lay) : { x: centre(box).x + (i - (cards.length - 1) / 2) * 76, y: centre(box).y };
    const start = lay ? null : from(seat, card);
    const copy = document.createElement("div");
    copy.className = "flight";
    copy.innerHTML = cardSVG(card, four);
    copy.style.left = `${slot.x}px`;
    copy.style.top = `${slot.y}px`;
    at.layer.append(copy);
    const away = `translate(-50%, -50%) translate(${to.x - slot.x}px, ${to.y - slot.y}px) scale(0.5)`;
    const frames = [{ transform: "translate(-50%, -50%)" }, { transform: away }];
    if (start) {  // first to the trick, then with it to the winner
      const s = centre(start);
      frames.unshift({ transform: `translate(-50%, -50%) translate(${s.x - slot.x}px, ${s.y - slot.y}px)` });
    }
    const fly = copy.animate(frames, { duration: ms, easing: "ease-in-out", fill: "forwards" });
    fly.onfinish = fly.oncancel = () => copy.remove();
  });
}
