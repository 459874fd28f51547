// Parlour in the browser: the lobby and the table.  The server is the authority: this page only
// shows the frames it is sent (its own seat's view) and turns keys and clicks into messages.
import { backSVG, cardName, cardSVG, isCard, prettyText } from "./cards.js";

const CARD_KEYS = "123456789abcdefghijk";
const $ = (id) => document.getElementById(id);
let four = localStorage.getItem("parlour-four") === "1";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "html") node.innerHTML = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c);
  return node;
}

// ---------------------------------------------------------------- the lobby
async function lobby() {
  $("lobby").hidden = false;
  $("where").textContent = "Lobby";
  const games = await (await fetch("/api/games")).json();
  const select = $("game");
  for (const g of games) select.append(el("option", { value: g.name }, g.title));
  $("my-name").value = localStorage.getItem("parlour-name") || "";
  const show = () => {
    const g = games.find((x) => x.name === select.value);
    $("game-description").textContent = g.description || "";
    const opts = $("options");
    opts.replaceChildren(el("legend", {}, "Game options"));
    for (const o of g.options) {
      let input;
      const id = `opt-${o.name}`;
      if (o.kind === "bool") input = el("input", { type: "checkbox", id, checked: o.default });
      else if (o.choices) {
        input = el("select", { id });
        for (const c of o.choices) input.append(el("option", { value: c, selected: c === o.default }, c));
      } else input = el("input", { type: o.kind === "int" ? "number" : "text", id, value: o.default,
        min: o.low, max: o.high });
      input.dataset.option = o.name;
      input.dataset.kind = o.kind;
      opts.append(el("label", {}, input, ` ${o.name.replaceAll("_", " ")} — ${o.help}`));
    }
    if (!g.options.length) opts.append(el("p", {}, "This game has no options."));
    const seats = $("seats");
    seats.replaceChildren(el("legend", {}, "Seats"));
    const names = g.players === 2 ? ["North", "South"] : ["North", "East", "West"];
    for (let i = 0; i < g.players; i++) {
      const s = el("select", { id: `seat-${i}`, "aria-label": `Seat ${names[i]}` });
      s.append(el("option", { value: "me", selected: i === 0 }, "me"));
      s.append(el("option", { value: "invite" }, "an invited person"));
      for (const lv of g.levels) {
        s.append(el("option", { value: `bot:${lv}`, selected: i > 0 && lv === "easy" }, `computer (${lv})`));
      }
      seats.append(el("label", {}, `${names[i]}: `, s));
    }
  };
  select.addEventListener("change", show);
  show();
  $("stats").textContent = (await (await fetch("/api/stats")).json()).text;
  $("new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const g = games.find((x) => x.name === select.value);
    const options = {};
    for (const input of $("options").querySelectorAll("[data-option]")) {
      const kind = input.dataset.kind;
      options[input.dataset.option] = kind === "bool" ? input.checked : kind === "int" ? Number(input.value) : input.value;
    }
    const seats = [];
    for (let i = 0; i < g.players; i++) {
      const v = $(`seat-${i}`).value;
      seats.push(v.startsWith("bot:") ? { kind: "bot", level: v.slice(4) } : { kind: v });
    }
    const name = $("my-name").value.trim();
    localStorage.setItem("parlour-name", name);
    const res = await fetch("/api/tables", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: g.name, options, seats, name, open: $("open-hands").checked,
        delay: Number($("delay").value) }),
    });
    const body = await res.json();
    const links = $("links");
    links.replaceChildren();
    $("created").hidden = false;
    if (!res.ok) { links.append(el("li", { role: "alert" }, body.error)); return; }
    const names = g.players === 2 ? ["North", "South"] : ["North", "East", "West"];
    for (const link of body.links) {
      const url = new URL(link.url, location.href).href;
      const text = link.kind === "me" ? `Your seat (${names[link.seat]}): open it` : `Invite link for ${names[link.seat]}: `;
      const a = el("a", { href: url, class: `seat-link seat-link-${link.seat}`, "data-kind": link.kind },
        link.kind === "me" ? text : url);
      links.append(el("li", {}, link.kind === "me" ? "" : text, a));
    }
    links.append(el("li", {}, "Watch: ", el("a", { href: new URL(body.watch, location.href).href }, "spectator link")));
  });
}

// ---------------------------------------------------------------- the table
const T = { ws: null, frame: null, seat: null, token: null, id: null, cursor: 0, lastTrick: null,
  lastDeal: 0, retry: 0, logged: 0 };

function table(id) {
  T.id = id;
  $("table").hidden = false;
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.has("seat") && frag.has("k")) {
    T.seat = Number(frag.get("seat"));
    T.token = frag.get("k");
  }
  $("four").checked = four;
  $("four").addEventListener("change", () => toggleFour());
  $("hint").addEventListener("click", () => send({ type: "hint" }));
  $("last").addEventListener("click", () => showLastTrick());
  $("replay").addEventListener("click", () => send({ type: "replay" }));
  $("undo").addEventListener("click", () => send({ type: "undo" }));
  $("rules-button").addEventListener("click", () => showRules());
  document.addEventListener("keydown", onKey);
  const name = localStorage.getItem("parlour-name");
  if (T.seat !== null && !name) {
    $("join").hidden = false;
    $("join-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      localStorage.setItem("parlour-name", $("join-name").value.trim());
      $("join").hidden = true;
      connect();
    });
    $("join-name").focus();
  } else connect();
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${T.id}`);
  T.ws = ws;
  ws.addEventListener("open", () => {
    T.retry = 0;
    const hello = { type: "hello", seat: T.seat, token: T.token };
    const name = localStorage.getItem("parlour-name");
    if (T.seat !== null && name) hello.name = name;
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener("message", (ev) => onFrame(JSON.parse(ev.data)));
  ws.addEventListener("close", () => {
    // Losing the network keeps the seat: the same link takes it back.
    setStatus("Connection lost; reconnecting…");
    T.retry = Math.min(T.retry + 1, 10);
    setTimeout(connect, 300 * T.retry);
  });
}

function send(message) {
  if (T.ws && T.ws.readyState === WebSocket.OPEN) T.ws.send(JSON.stringify(message));
}

function setStatus(text) { $("status").textContent = text; }

function say(lines) {
  const log = $("log");
  for (const line of lines) log.append(el("p", {}, prettyText(line)));
  while (log.childElementCount > 200) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

function onFrame(f) {
  if (f.type === "error") { setStatus(f.message); $("reason").textContent = f.message; return; }
  if (f.type === "hint") { if (f.action) act(f.action); return; }
  if (f.type !== "state") return;
  if (f.full) $("log").replaceChildren();
  T.frame = f;
  say(f.log || []);
  render();
}

function act(action) {
  send({ type: "act", action });
}

function legal() {
  const f = T.frame;
  if (!f || f.auto || f.view.current_player !== f.seat || f.seat === null) return [];
  return f.view.legal_actions || [];
}

function cardButton(code, index, playable, reason) {
  const key = CARD_KEYS[index] || "";
  const b = el("button", { type: "button", class: "card", "aria-label": cardName(code), "data-card": code,
    "aria-disabled": playable ? null : "true", title: reason || null, "aria-description": reason || null,
    "aria-keyshortcuts": key || null, html: cardSVG(code, four) });
  b.prepend(el("span", { class: "key", "aria-hidden": "true" }, key));
  b.addEventListener("click", () => { if (playable) act(code); else $("reason").textContent = reason || "Not now."; });
  b.addEventListener("focus", () => { T.cursor = index; $("reason").textContent = playable ? "" : (reason || ""); });
  return b;
}

function faces(cards, cls = "row") {
  const row = el("div", { class: cls });
  for (const c of cards) row.append(el("span", { role: "img", "aria-label": cardName(c), html: cardSVG(c, four) }));
  return row;
}

function render() {
  const f = T.frame;
  const v = f.view;
  const n = v.num_players;
  $("where").textContent = `${f.title} · deal ${v.deal_number}` + (f.seat === null ? " · watching" : ` · you are ${f.names[f.seat]}`);
  $("title").textContent = f.title;
  // other seats
  const others = $("others");
  others.replaceChildren();
  for (let s = 0; s < n; s++) {
    if (s === f.seat) continue;
    const p = f.players[s];
    const who = p.kind === "bot" ? `computer (${p.level})` : (p.name || "invited") + (p.connected ? "" : " — away");
    const box = el("div", { class: `seat${v.current_player === s ? " to-move" : ""}`, "aria-label": `${f.names[s]}, ${who}` });
    box.append(el("div", { class: "seat-name" }, `${f.names[s]} · ${who}${v.dealer === s ? " · dealer" : ""}`));
    const open = v.open_hands && v.open_hands[String(s)];
    if (open) box.append(faces(open, "row mini"));
    else {
      const row = el("div", { class: "row mini", role: "img", "aria-label": `${(v.hand_sizes || [])[s] ?? 0} cards` });
      for (let i = 0; i < ((v.hand_sizes || [])[s] || 0); i++) row.insertAdjacentHTML("beforeend", backSVG());
      box.append(row);
    }
    others.append(box);
  }
  // the trick (or the last one, dimmed, until the next card is led)
  const trick = $("trick");
  trick.replaceChildren();
  let cards = v.trick || [];
  trick.classList.toggle("old", !cards.length);
  if (!cards.length && v.last_trick) cards = v.last_trick.cards || [];
  for (const [seat, card] of cards) {
    if (!isCard(card)) continue;
    trick.append(el("div", { class: "played", role: "img", "aria-label": `${f.names[seat]}: ${cardName(card)}` },
      el("div", { html: cardSVG(card, four) }), el("div", {}, f.names[seat])));
  }
  // scores and what the game says
  const scores = el("table", { class: "scores" });
  for (let s = 0; s < n; s++) {
    const p = f.players[s];
    scores.append(el("tr", {}, el("td", {}, f.names[s]), el("td", {}, p.kind === "bot" ? `computer (${p.level})` : p.name || ""),
      el("td", {}, String(v.scores[s]))));
  }
  $("scores").replaceChildren(scores);
  $("describe").replaceChildren(...(f.describe || []).map((l) => el("li", {}, prettyText(l))));
  $("summary-box").hidden = !(f.summary && f.summary.length);
  $("summary").replaceChildren(...(f.summary || []).map((l) => el("li", {}, prettyText(l))));
  $("replay").hidden = !f.can_replay;
  $("undo").hidden = !f.can_undo;
  // my hand and my choices
  const hand = v.hand || [];
  const moves = legal();
  const handEl = $("hand");
  const hadFocus = handEl.contains(document.activeElement) || $("choices").contains(document.activeElement);
  handEl.replaceChildren();
  hand.forEach((c, i) => handEl.append(cardButton(c, i, moves.includes(c), (f.illegal || {})[c] ||
    (moves.length ? "" : "Not your turn."))));
  const choices = $("choices");
  choices.replaceChildren();
  for (const a of (f.buttons || [])) {
    if (!moves.includes(a)) continue;
    const key = (f.keys || {})[a] || "";
    const label = a.split(" ").map((w) => (isCard(w) ? cardName(w) : w)).join(" ");
    choices.append(el("button", { type: "button", class: "choice", "data-action": a, "aria-keyshortcuts": key || null,
      onclick: () => act(a) }, key ? `[${key}] ${prettyText(a)}` : prettyText(a), el("span", { class: "sr" }, ` (${label})`)));
  }
  if (v.is_over) {
    const w = v.winner;
    setStatus(`Game over: ${w === null || w === undefined ? "a tie" : f.names[w] + " wins"}.`);
  } else if (f.seat !== null && v.current_player === f.seat && !f.auto) {
    setStatus(hand.some((c) => moves.includes(c)) ? "Your turn: play a card." : "Your turn: make a choice.");
  } else if (v.current_player !== null && v.current_player !== undefined) {
    setStatus(`Waiting for ${f.names[v.current_player]}.`);
  }
  if (hadFocus || document.activeElement === document.body) focusCursor();
}

function focusCursor() {
  const cards = [...$("hand").children];
  const buttons = [...$("choices").children];
  const moves = legal();
  if (cards.length && cards.some((b) => moves.includes(b.dataset.card))) {
    let i = Math.min(T.cursor, cards.length - 1);
    if (!moves.includes(cards[i].dataset.card)) i = cards.findIndex((b) => moves.includes(b.dataset.card));
    T.cursor = i;
    cards[i].focus();
  } else if (buttons.length) buttons[0].focus();
}

function showLastTrick() {
  const v = T.frame && T.frame.view;
  const t = v && v.last_trick;
  if (!t) { say(["No trick yet."]); return; }
  const names = T.frame.names;
  const cards = (t.cards || []).map(([s, c]) => `${names[s]} ${c}`).join(", ");
  say([`Trick: ${cards} — won by ${t.winner === null ? "nobody" : names[t.winner]}.`]);
}

async function showRules() {
  const game = T.frame ? T.frame.game : null;
  if (!game) return;
  $("rules-text").textContent = await (await fetch(`/api/rules/${game}`)).text();
  $("rules-dialog").showModal();
}

function toggleFour() {
  four = !four;
  $("four").checked = four;
  localStorage.setItem("parlour-four", four ? "1" : "0");
  if (T.frame) render();
}

function onKey(ev) {
  if (document.querySelector("dialog[open]") || ev.target.tagName === "INPUT" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const f = T.frame;
  if (!f) return;
  const key = ev.key;
  if (key === "?") { $("keys-dialog").showModal(); ev.preventDefault(); return; }
  if (key === "R") { showRules(); ev.preventDefault(); return; }
  if (key === "C") { toggleFour(); ev.preventDefault(); return; }
  if (key === "P") { if (f.can_replay) send({ type: "replay" }); ev.preventDefault(); return; }
  if (key === "U") { if (f.can_undo) send({ type: "undo" }); ev.preventDefault(); return; }
  if (key === "l") { showLastTrick(); ev.preventDefault(); return; }
  if (key === ".") { send({ type: "hint" }); ev.preventDefault(); return; }
  const moves = legal();
  if (!moves.length) return;
  const hand = f.view.hand || [];
  const cardsPlayable = hand.some((c) => moves.includes(c));
  const lower = key.toLowerCase();
  if (key.length === 1 && cardsPlayable && CARD_KEYS.includes(lower)) {
    const i = CARD_KEYS.indexOf(lower);
    if (i < hand.length) {
      ev.preventDefault();
      if (moves.includes(hand[i])) act(hand[i]);
      else { $("reason").textContent = (f.illegal || {})[hand[i]] || "Not now."; T.cursor = i; focusCursor(); }
      return;
    }
  }
  if (key.length === 1) {
    const action = Object.keys(f.keys || {}).find((a) => f.keys[a] === lower && moves.includes(a));
    if (action) { ev.preventDefault(); act(action); return; }
  }
  if (key === "ArrowLeft" || key === "ArrowRight") {
    ev.preventDefault();
    const step = key === "ArrowLeft" ? -1 : 1;
    if (cardsPlayable) {
      const cards = [...$("hand").children];
      T.cursor = (T.cursor + step + cards.length) % cards.length;
      cards[T.cursor].focus();
    } else {
      const buttons = [...$("choices").children];
      const i = buttons.indexOf(document.activeElement);
      if (buttons.length) buttons[(i + step + buttons.length) % buttons.length].focus();
    }
    return;
  }
  if (key === "ArrowUp" && document.activeElement && document.activeElement.classList.contains("card")) {
    ev.preventDefault();
    document.activeElement.click();
  }
}

$("keys-button").addEventListener("click", () => $("keys-dialog").showModal());
const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,40})$/);
if (m) table(m[1]);
else lobby();
