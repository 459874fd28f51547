// Parlour in the browser: the lobby, the table and the history.  The server is the authority: this page
// only shows the frames it is sent (its own seat's view) and turns keys and clicks into messages.  The keys
// are the terminal table's (parlour.text: the game's CHOICE_KEYS, card keys bound to cards for the deal),
// sent by the server, so both tables read a key alike.
import { backSVG, cardName, cardSVG, isCard, itemName, itemSVG, prettyText, spokenText } from "./cards.js";
import { moveCards, placesBefore } from "./motion.js";

const $ = (id) => document.getElementById(id);
let four = localStorage.getItem("parlour-four") === "1";
const SPEEDS = [0, 0.3, 0.8, 1.5, 3];

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

function seatNames(n) { return n === 2 ? ["North", "South"] : ["North", "East", "West"]; }

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
    const names = seatNames(g.players);
    for (let i = 0; i < g.players; i++) {
      const s = el("select", { id: `seat-${i}`, "aria-label": `Seat ${names[i]}` });
      s.append(el("option", { value: "me", selected: i === 0 }, "me"));
      s.append(el("option", { value: "invite" }, "an invited person"));
      for (const lv of g.levels) {
        s.append(el("option", { value: `bot:${lv}`, selected: i > 0 && lv === "easy" }, `computer (${lv})`));
      }
      seats.append(el("label", {}, `${names[i]}: `, s));
    }
    // easy, as the computer seats: "random" is a test baseline, no way to stand in for a person
    $("takeover-level").replaceChildren(...g.levels.map((lv) => el("option", { value: lv, selected: lv === "easy" }, lv)));
  };
  select.addEventListener("change", show);
  show();
  // The statistics arrive when they arrive: the form is not held up for them (a click before its handler
  // was attached would submit the bare form, and reload the lobby instead of opening the table).
  fetch("/api/stats").then((res) => res.json()).then((stats) => {
    if (stats.shared) $("stats").textContent = stats.text;
    else { $("stats-title").textContent = "Your games"; $("stats").hidden = true; }  // not shared by this server
  });
  const formOptions = () => {
    const options = {};
    for (const input of $("options").querySelectorAll("[data-option]")) {
      const kind = input.dataset.kind;
      options[input.dataset.option] = kind === "bool" ? input.checked : kind === "int" ? Number(input.value) : input.value;
    }
    return options;
  };
  const request = (g, seats, extra, options = formOptions()) => {
    const name = $("my-name").value.trim();
    localStorage.setItem("parlour-name", name);
    return fetch("/api/tables", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: g.name, options, seats, name, open: $("open-hands").checked,
        delay: Number($("delay").value), ...extra }),
    });
  };
  const failed = async (res) => {
    const body = await res.json();
    $("links").replaceChildren(el("li", { role: "alert", class: "error" }, body.error));
    $("created").hidden = false;
  };
  // The name of a person who takes a seat is asked here, with the table (never later, on an empty felt).
  const myName = $("my-name");
  myName.addEventListener("input", () => myName.setCustomValidity(""));
  const named = (seats) => {
    myName.setCustomValidity("");  // (the form is novalidate: this is its one check)
    if (!seats.some((s) => s.kind === "me") || myName.value.trim()) return true;
    myName.setCustomValidity("Your name, please: the other players see it at the table.");
    myName.reportValidity();
    myName.focus();
    return false;
  };
  // A new table: the creator's own seat opens at once, the invite links (for the seats of invited people)
  // shown there with a copy button; a table without a seat of one's own lists them here.
  const sitDown = (g, body) => {
    const names = seatNames(g.players);
    const me = body.links.find((l) => l.kind === "me");
    const invites = body.links.filter((l) => l.kind !== "me")
      .map((l) => ({ seat: l.seat, who: names[l.seat], url: new URL(l.url, location.href).href }));
    const watch = new URL(body.watch, location.href).href;
    if (me) {
      if (invites.length) rememberInvites(body.id, invites, watch);
      location.href = me.url;
      return;
    }
    $("links").replaceChildren(...inviteItems(invites, watch));
    $("created").hidden = false;
  };
  $("new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const g = games.find((x) => x.name === select.value);
    const seats = [];
    for (let i = 0; i < g.players; i++) {
      const v = $(`seat-${i}`).value;
      seats.push(v.startsWith("bot:") ? { kind: "bot", level: v.slice(4) } : { kind: v });
    }
    if (!named(seats)) return;
    const takeover = $("takeover").checked
      ? { level: $("takeover-level").value, after: Number($("takeover-after").value) } : null;
    const res = await request(g, seats, { takeover });
    if (!res.ok) { await failed(res); return; }
    sitDown(g, await res.json());
  });
  // One click: a game against the computer at the level chosen last time (the game's own options as they come).
  const levels = [...new Set(games.flatMap((g) => g.levels))];
  const level = $("quick-level");
  const kept = localStorage.getItem("parlour-level");
  level.replaceChildren(...levels.map((lv) => el("option", { value: lv, selected: lv === (levels.includes(kept) ? kept : "easy") }, lv)));
  level.addEventListener("change", () => localStorage.setItem("parlour-level", level.value));
  // Each game a tile: its name, what it is in a line, for how many, a fan of its own cards, and its Play button.
  $("quick-games").replaceChildren(...games.map((g) => el("article", { class: "tile", "data-game": g.name,
    "aria-labelledby": `tile-${g.name}` },
  el("div", { class: "fan", "aria-hidden": "true" }, ...(g.fan || []).map((c) => el("span", { html: cardSVG(c, four) }))),
  el("h3", { id: `tile-${g.name}` }, g.title),
  el("p", { class: "tile-players" }, `${g.players} players`),
  el("p", { class: "tile-about" }, g.description || ""),
  el("button", { type: "button", class: "quick", "data-game": g.name,
    onclick: async () => {
      const seats = [{ kind: "me" }, ...Array.from({ length: g.players - 1 }, () => ({ kind: "bot", level: level.value }))];
      if (!named(seats)) return;
      const res = await request(g, seats, { takeover: null, open: false }, {});
      if (!res.ok) { await failed(res); return; }
      sitDown(g, await res.json());
    } }, `Play ${g.title}`))));
  // Demo: every seat a computer player (each seat's chosen level, else easy), watched with every hand open.
  $("demo").addEventListener("click", async () => {
    const g = games.find((x) => x.name === select.value);
    const seats = [];
    for (let i = 0; i < g.players; i++) {
      const v = $(`seat-${i}`).value;
      seats.push({ kind: "bot", level: v.startsWith("bot:") ? v.slice(4) : "easy" });
    }
    const delay = Number($("delay").value) || 0.8;
    const res = await request(g, seats, { open: true, delay });
    if (!res.ok) { await failed(res); return; }
    location.href = (await res.json()).watch;
  });
  // Only now can the form make a table (the page holds both buttons disabled until its handlers are on).
  $("create").disabled = false;
  $("demo").disabled = false;
}

// The invite links of the tables this browser made, kept for their table page (they hold the seats' secrets,
// as the seat links kept by rememberSeat do): table -> { invites: [{ seat, who, url }], watch }.
function rememberInvites(table, invites, watch) {
  const all = keptInvites();
  all[table] = { invites, watch, at: Date.now() };
  const newest = Object.entries(all).sort((a, b) => b[1].at - a[1].at).slice(0, 50);
  localStorage.setItem("parlour-invites", JSON.stringify(Object.fromEntries(newest)));
}

function keptInvites() {
  try { return JSON.parse(localStorage.getItem("parlour-invites") || "{}"); } catch { return {}; }
}

// The invite links as list items, each with a button that copies it; then the spectators' link.
function inviteItems(invites, watch) {
  const copy = (url, what) => el("button", { type: "button", class: "copy", "aria-label": `Copy ${what}`,
    onclick: async (ev) => {
      try { await navigator.clipboard.writeText(url); ev.target.textContent = "Copied"; }
      catch { ev.target.textContent = "Copy it from the link"; }
    } }, "Copy");
  return [...invites.map(({ seat, who, url }) => el("li", {}, `Invite link for ${who}: `,
    el("a", { href: url, class: `seat-link seat-link-${seat}`, "data-kind": "invite" }, url), " ",
    copy(url, `the invite link for ${who}`))),
  el("li", {}, "Watch: ", el("a", { href: watch, class: "watch-link" }, "spectator link"), " ", copy(watch, "the spectator link"))];
}

// ---------------------------------------------------------------- the history
// The seat links this browser has opened (table, seat, token): what proves which games are its own.
function seatLinks() {
  try { return JSON.parse(localStorage.getItem("parlour-seats") || "[]"); } catch { return []; }
}

function rememberSeat(table, seat, token) {
  const links = seatLinks().filter((l) => !(l.table === table && l.seat === seat));
  links.push({ table, seat, token });
  localStorage.setItem("parlour-seats", JSON.stringify(links.slice(-200)));
}

async function postJSON(url, body) {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

async function history() {
  $("history").hidden = false;
  $("where").textContent = "History";
  const mine = await (await postJSON("/api/my-games", { links: seatLinks() })).json();
  const myRows = $("my-games").tBodies[0];
  $("no-my-games").hidden = mine.games.length > 0;
  for (const g of mine.games.slice().reverse()) {  // g.result: parlour.text.game_result, as `parlour history` says it
    const when = g.when ? new Date(g.when * 1000).toLocaleString() : "";
    const link = { table: g.table, seat: g.seat, token: seatLinks().find((l) => l.table === g.table && l.seat === g.seat).token };
    const cell = g.finished
      ? el("button", { type: "button", class: "my-record", onclick: () => showMyRecord(g.game, link) }, "Record")
      : el("a", { href: `/t/${g.table}#seat=${g.seat}&k=${link.token}` }, "Back to the table");
    myRows.append(el("tr", { "data-table": g.table }, el("td", {}, String(g.game)), el("td", {}, g.names.filter((n) => n).join(", ")),
      el("td", {}, g.result), el("td", {}, g.scores ? g.scores.join(" ") : ""), el("td", {}, when), el("td", {}, cell)));
  }
  const res = await fetch("/api/history");
  if (!res.ok) return;  // this server does not share its history: only your own games
  const body = await res.json();
  $("all-games").hidden = false;
  $("history-stats").textContent = body.stats;
  const rows = $("games").tBodies[0];
  $("no-games").hidden = body.games.length > 0;
  for (const g of body.games) {
    const when = g.finished ? new Date(g.finished * 1000).toLocaleString() : "";
    const scores = Array.isArray(g.scores) ? g.scores.join(" ") : String(g.scores);
    const open = el("button", { type: "button", class: "record", "data-id": g.id, onclick: () => showRecord(g.id) },
      `Record of #${g.id}`);
    rows.append(el("tr", { "data-id": g.id }, el("td", {}, `#${g.id}`), el("td", {}, String(g.game)),
      el("td", {}, String(g.level)), el("td", {}, g.result), el("td", {}, scores), el("td", {}, when),
      el("td", {}, open)));
  }
}

async function showRecord(id) {
  const body = await (await fetch(`/api/history/${id}`)).json();
  recordDialog(`Game #${id}: ${body.record.game}`, body, (deal) => postJSON(`/api/history/${id}/review`, { deal }));
}

async function showMyRecord(game, link) {
  const res = await postJSON("/api/record", link);
  const body = await res.json();
  if (!res.ok) { $("no-my-games").hidden = false; $("no-my-games").textContent = body.error; return; }
  recordDialog(`Your game of ${game}`, body, (deal) => postJSON("/api/review", { ...link, deal }));
}

function recordDialog(title, body, ask) {
  $("record-title").textContent = title;
  $("record-review-status").textContent = "";
  $("record-deals").replaceChildren(...body.deals.map((lines, i) =>
    el("li", {}, ...lines.map((l) => el("div", {}, prettyText(l))),
      el("button", { type: "button", class: "review-deal", onclick: () => historyReview(ask, i + 1) }, "Review this deal"))));
  $("record-text").textContent = body.text;  // the stored text: its seeds are too long for a JSON number here
  $("record-dialog").showModal();
}

// A record as a file, for `parlour verify` (it holds the seeds: the server gives it only after the game).
async function downloadRecord() {
  const res = await postJSON("/api/record?download=1", { table: T.id, seat: T.seat, token: T.token });
  if (!res.ok) { tell((await res.json()).error); return; }
  const blob = await res.blob();  // the stored text as it is: parsed here, its seeds would be rounded
  const a = el("a", { href: URL.createObjectURL(blob), download: "parlour-game.json" });
  document.body.append(a);
  a.click();
  a.remove();
  tell("Record saved as parlour-game.json: run `parlour verify parlour-game.json`.");
}

function clientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---------------------------------------------------------------- the table
const T = { ws: null, frame: null, waiting: null, seat: null, token: null, id: null, cursor: 0, retry: 0, dealsSeen: null,
  keys: null, hint: null, opener: null, sequence: "", keying: false, waitingKeys: [], confirming: null,
  summaryDeal: null, reviews: {}, readyDeal: null };

function table(id) {
  T.id = id;
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.has("seat") && frag.has("k")) {
    T.seat = Number(frag.get("seat"));
    T.token = frag.get("k");
    rememberSeat(id, T.seat, T.token);
  }
  const made = keptInvites()[id];  // this browser made the table: its invite links, to pass on
  if (made) {
    $("invites").replaceChildren(...inviteItems(made.invites, made.watch));
    $("invite-box").hidden = false;
  }
  $("four").checked = four;
  $("four").addEventListener("change", () => toggleFour());
  $("hint").addEventListener("click", () => hint());
  $("last").addEventListener("click", () => showLastTrick());
  $("replay").addEventListener("click", () => send({ type: "replay" }));
  $("undo").addEventListener("click", () => send({ type: "undo" }));
  $("rules-button").addEventListener("click", () => showRules());
  $("sheet-button").addEventListener("click", () => showSheet());
  $("demo-seat").addEventListener("click", () => send({ type: "demo" }));
  $("speed").addEventListener("change", () => send({ type: "speed", delay: Number($("speed").value) }));
  $("fair-help").addEventListener("click", () => openDialog("fair-dialog"));
  $("resign").addEventListener("click", () => confirmLeaving("resign"));
  $("leave").addEventListener("click", () => confirmLeaving("leave"));
  $("confirm-dialog").addEventListener("close", () => {
    const asked = T.confirming;
    T.confirming = null;
    if ($("confirm-dialog").returnValue === "yes" && asked) send({ type: asked });
  });
  $("verify").addEventListener("click", () => downloadRecord());
  $("summary-review").addEventListener("click", () => askReview(T.summaryDeal));
  $("review-ready").addEventListener("click", () => { if (T.reviews[T.readyDeal]) showReview(T.reviews[T.readyDeal]); });
  for (const d of ["summary-dialog", "sheet-dialog", "rules-dialog", "keys-dialog", "fair-dialog", "confirm-dialog",
    "review-dialog"]) {
    $(d).addEventListener("close", () => restoreFocus());
  }
  document.addEventListener("keydown", onKey);
  // A person without a name gives it first, on a page of its own (not over an empty felt); the table follows.
  const name = localStorage.getItem("parlour-name");
  if (T.seat !== null && !name) {
    $("where").textContent = "Take your seat";
    $("join").hidden = false;
    $("join-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const given = $("join-name").value.trim();
      if (!given) { $("join-name").value = ""; $("join-name").reportValidity(); return; }
      localStorage.setItem("parlour-name", given);
      $("join").hidden = true;
      $("table").hidden = false;
      connect();
    });
    $("join-name").focus();
  } else {
    $("table").hidden = false;
    connect();
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${T.id}`);
  T.ws = ws;
  ws.addEventListener("open", () => {
    T.retry = 0;
    // the browser's own part of the cards' seed: it counts once, when this seat is first taken
    const hello = { type: "hello", seat: T.seat, token: T.token, client_seed: clientSeed() };
    const name = localStorage.getItem("parlour-name");
    if (T.seat !== null && name) hello.name = name;
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener("message", (ev) => onFrame(JSON.parse(ev.data)));
  ws.addEventListener("close", () => {
    T.keying = false;  // a choice of several keys half-typed is given up with the connection
    T.sequence = "";
    T.waitingKeys = [];
    // Losing the network keeps the seat: the same link takes it back.
    setStatus("Connection lost; reconnecting…");
    T.retry = Math.min(T.retry + 1, 10);
    setTimeout(connect, 300 * T.retry);
  });
}

// The server's per-connection rate limit, kept here as a token bucket a little slower than the
// server's (its numbers come with the first frame): a message the server would refuse waits its
// turn instead.  Why slower: the network may bring two messages closer together than they left.
const pace = { rate: 1.8, burst: 5, level: 5, at: performance.now(), queue: [], timer: null };

function send(message) {
  if (!(T.ws && T.ws.readyState === WebSocket.OPEN)) return;
  pace.queue.push({ ws: T.ws, text: JSON.stringify(message) });
  drain();
}

function drain() {
  const now = performance.now();
  pace.level = Math.min(pace.burst, pace.level + ((now - pace.at) / 1000) * pace.rate);
  pace.at = now;
  while (pace.queue.length && pace.level >= 1) {
    const { ws, text } = pace.queue.shift();
    if (ws !== T.ws || ws.readyState !== WebSocket.OPEN) continue;  // for a connection now closed
    pace.level -= 1;
    ws.send(text);
  }
  if (pace.queue.length && pace.timer === null) {
    pace.timer = setTimeout(() => { pace.timer = null; drain(); }, Math.ceil(((1 - pace.level) / pace.rate) * 1000) + 5);
  }
}

function setStatus(text) { $("status").textContent = prettyText(text); }
function tell(text) { $("reason").textContent = prettyText(text); }

function say(lines) {
  const log = $("log");
  for (const line of lines) log.append(el("p", {}, prettyText(line)));
  while (log.childElementCount > 200) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

// The keys of this game's table (sent with a full frame): the same as the terminal table's (see RUN, below).
function setKeys(game, keys) {
  T.keys = { game, ...keys };
  $("keys-title").textContent = `Keys at the ${T.frame.title} table`;
  $("keys-rows").replaceChildren(...T.keys.rows.map(([k, what]) => el("tr", {}, el("td", {}, k), el("td", {}, what))));
}

function onFrame(f) {
  // A refusal at the table is said under the hand, where the move was tried; the question stays on the felt.
  if (f.type === "error") {
    if (!T.frame) setStatus(f.message);
    if (T.keying) keysAnswered({ typed: "", said: f.message });  // (keys typed where they cannot be answered)
    else tell(f.message);
    return;
  }
  if (f.type === "hint") { showHint(f); return; }
  if (f.type === "keys") { keysAnswered(f); return; }
  if (f.type === "waiting") { showWaiting(f); return; }
  if (f.type === "reconnecting") { setStatus(f.message); return; }  // the servers' bus is away for a moment
  if (f.type === "left") { location.href = "/"; return; }  // this person left their seat (the lobby, again)
  if (f.type === "review") { onReview(f); return; }
  if (f.type === "presence") {  // the seats alone
    if (T.frame) { T.frame.players = f.players; render(); } else if (T.waiting) showWaiting({ ...T.waiting, players: f.players });
    return;
  }
  if (f.type !== "state") return;
  $("waiting").hidden = true;
  if (f.full) $("log").replaceChildren();
  // What was said under the hand (a hint, a refusal) was about the position before: it goes with it.
  if (T.frame && f.count !== T.frame.count) { tell(""); T.sequence = ""; }
  const prev = T.frame;
  const before = placesBefore($("trick"), $("hand"));  // where the cards were, for the ones that move now
  T.frame = f;
  say(f.log || []);
  if (f.keys_help) setKeys(f.game, f.keys_help);
  if (f.rate) {
    pace.rate = 0.9 * f.rate[0];
    pace.burst = Math.max(1, f.rate[1] - 1);
    pace.level = Math.min(pace.level, pace.burst);
  }
  render();
  moveCards(prev, f, before, { trick: $("trick"), layer: $("flights"), seat: seatPlace, winner: winnerPlace }, four);
  // The deal summary, once per scored deal (not for a deal scored before this page opened).
  if (T.dealsSeen === null || f.full) T.dealsSeen = Math.max(T.dealsSeen ?? 0, f.deals_scored);
  else if (f.deals_scored > T.dealsSeen) {
    T.dealsSeen = f.deals_scored;
    if (f.summary && f.summary.length) showSummary(f);
  }
}

// Where a seat's cards come from on the page: its box at the table, or (this page's own seat) the hand.
function seatPlace(seat) {
  return seat === T.frame.seat ? $("hand") : $("others").querySelector(`[data-seat="${seat}"]`);
}

// Where a completed trick goes: to its winner (this page's seat: its hand), or for nobody's to the last trick.
function winnerPlace(seat) {
  return seat === null || seat === undefined ? $("last-area") : seatPlace(seat);
}

// Before the first deal: the people still taking their seats, and the commitment already made.
function showWaiting(f) {
  T.waiting = f;
  const names = seatNames(f.players.length);
  const missing = f.players.map((p, i) => (p.kind === "human" && !p.joined ? names[i] : null)).filter((n) => n);
  $("where").textContent = `${f.title} · waiting for the players`;
  $("waiting").hidden = false;
  $("waiting").textContent = `The cards are dealt once every person has taken their seat` +
    (missing.length ? ` (waiting for ${missing.join(", ")}).` : ".") +
    (missing.length && !$("invite-box").hidden ? " Send each their invite link (Invite links, beside the table)." : "");
  showCommitment(f);
}

function showCommitment(f) {
  $("fair").hidden = !f.commitment;
  if (!f.commitment) return;
  $("commitment").textContent = f.commitment.short;
  $("fair-commitment").textContent = f.commitment.hex;
  $("reveal").hidden = !f.proof;
  if (f.proof) $("server-seed").textContent = f.proof.server_seed;
}

function act(action) {
  T.hint = null;
  send({ type: "act", action });
}

function legal() {
  const f = T.frame;
  if (!f || f.auto || f.view.current_player !== f.seat || f.seat === null) return [];
  return f.view.legal_actions || [];
}

// Why a card of the hand may not be played now: the engine's reason (its IllegalAction.why, which the server
// sends as the frame's ``illegal``), e.g. "9♦ may not be played now: you must follow suit: you hold a club."
function whyNot(card) {
  if (!legal().length) return "It is not your turn.";
  const why = (T.frame.illegal || {})[card];
  return `${card} may not be played now${why ? `: ${why}` : ""}.`;
}

function cardButton(code, index, playable, reason, key) {
  const b = el("button", { type: "button", class: "card", "aria-label": cardName(code), "data-card": code,
    "aria-disabled": playable ? null : "true", title: reason ? prettyText(reason) : null,
    "aria-description": reason ? spokenText(reason) : null,
    "aria-keyshortcuts": key || null, html: cardSVG(code, four, !playable) });
  b.prepend(el("span", { class: "key", "aria-hidden": "true" }, key));
  b.addEventListener("click", () => { if (playable) act(code); else tell(whyNot(code)); });
  b.addEventListener("focus", () => { T.cursor = index; tell(playable ? "" : whyNot(code)); });
  return b;
}

// Cards played (a trick's ``[seat, card]`` pairs), each face with its seat's name under it.
function played(cards, names) {
  return cards.filter(([, card]) => isCard(card)).map(([seat, card]) =>
    el("div", { class: "played", role: "img", "aria-label": `${names[seat]}: ${cardName(card)}`, "data-seat": seat,
      "data-card": card },
      el("div", { html: cardSVG(card, four) }), el("div", {}, names[seat])));
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
  $("where").textContent = `${f.title} · deal ${v.deal_number}` + (f.seat === null ? " · watching" : ` · you are ${f.seat_name}`);
  $("title").textContent = f.title;
  // other seats
  const others = $("others");
  others.replaceChildren();
  for (let s = 0; s < n; s++) {
    if (s === f.seat) continue;
    const p = f.players[s];
    let who = p.kind === "bot" ? `computer (${p.level})` : (p.name || "invited") + (p.connected ? "" : " — away");
    if (p.stand_in) who += ` · computer (${p.stand_in}) plays for them`;
    const box = el("div", { class: `seat${v.current_player === s ? " to-move" : ""}`, "aria-label": `${f.names[s]}, ${who}`,
      "data-seat": s });
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
  // the middle of the felt: what lies face up besides the trick (parlour.text.felt: GOPS's diamond at stake,
  // the carried ones beside it), the trick being played, and apart from both the last trick (GOPS: turn)
  const word = f.trick_word || "trick";
  $("felt").replaceChildren(...feltGroups(f.felt));
  $("trick-title").textContent = word.charAt(0).toUpperCase() + word.slice(1);
  $("trick").replaceChildren(...played(v.trick || [], f.names));
  const last = v.last_trick;
  $("last-area").hidden = !(last && (last.cards || []).length);
  if (last) {
    $("last-title").textContent = `Last ${word}`;
    $("last-cards").replaceChildren(...played(last.cards || [], f.names));
    const prizes = last.prizes && last.prizes.length ? ` ${last.prizes.join(" ")}` : "";
    const taker = last.winner === null || last.winner === undefined ? "Nobody" : f.names[last.winner];
    $("last-result").textContent = prettyText(`${taker} takes it${prizes ? `:${prizes}` : ""}.`);
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
  $("summary-cards").replaceChildren(...feltGroups(f.summary_felt));
  $("replay").hidden = !f.can_replay;
  $("undo").hidden = !f.can_undo;
  $("demo-seat").hidden = f.seat === null || v.is_over;
  $("demo-seat").setAttribute("aria-pressed", f.demo ? "true" : "false");
  $("demo-seat").textContent = f.demo ? "Take my seat back (F2)" : "Demo (F2)";
  $("speed-box").hidden = !f.can_speed;
  $("resign").hidden = !f.can_resign;
  $("leave").hidden = !f.can_leave;
  showCommitment(f);
  const nearest = SPEEDS.reduce((a, b) => (Math.abs(b - f.delay) < Math.abs(a - f.delay) ? b : a));
  $("speed").value = String(nearest);
  // my hand and my choices
  const hand = v.hand || [];
  const moves = legal();
  const handEl = $("hand");
  const hadFocus = handEl.contains(document.activeElement) || $("choices").contains(document.activeElement);
  const hinted = T.hint && T.hint.count === f.count ? T.hint.action : null;
  handEl.replaceChildren();
  hand.forEach((c, i) => {
    const b = cardButton(c, i, moves.includes(c), (f.illegal || {})[c] || (moves.length ? "" : "Not your turn."),
      (f.card_keys || {})[c] || "");
    if (c === hinted) b.classList.add("hinted");
    handEl.append(b);
  });
  const choices = $("choices");
  choices.replaceChildren();
  for (const a of (f.buttons || [])) {
    if (!moves.includes(a)) continue;
    const key = (f.keys || {})[a] || "";
    const keys = (f.sequences || {})[a] || key;
    const label = spokenText(a);
    choices.append(el("button", { type: "button", class: `choice${a === hinted ? " hinted" : ""}`, "data-action": a,
      "aria-keyshortcuts": key && keys === key ? key : null, "data-keys": keys || null, onclick: () => act(a) },
    keys ? `[${keys}] ${prettyText(a)}` : prettyText(a), el("span", { class: "sr" }, ` (${label})`)));
  }
  if (f.ended) setStatus(f.ended.text);
  else if (v.is_over) {
    const w = v.winner;
    setStatus(`Game over: ${w === null || w === undefined ? "a tie" : f.names[w] + " wins"}.`);
  } else if (f.seat !== null && v.current_player === f.seat && f.demo) {
    setStatus("Demo: the computer plays your seat (F2 takes it back).");
  } else if (f.seat !== null && v.current_player === f.seat && !f.auto) {
    setStatus(`Your turn: ${f.prompt || "make a choice"}.`);  // the game's own words (parlour.text.prompt)
  } else if (v.current_player !== null && v.current_player !== undefined) {
    setStatus(`Waiting for ${f.names[v.current_player]}.`);
  }
  if (!document.querySelector("dialog[open]") && (hadFocus || document.activeElement === document.body)) focusCursor();
}

// Cards lying face up, in captioned groups (parlour.text.felt on the table, summary_felt with a deal's summary);
// an item may be a suit alone, the trump, drawn as a card of that suit.
function feltGroups(groups) {
  return (groups || []).map(({ caption, cards }) => el("figure", { class: "felt-group" },
    el("div", { class: "row", role: "img", "aria-label": `${spokenText(caption)}: ${cards.map(itemName).join(", ")}` },
      ...cards.map((c) => el("span", { html: itemSVG(c, four) }))), el("figcaption", {}, prettyText(caption))));
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

// Where the keyboard goes when a dialog closes: back to the hand (or the choices), else where it was.
function restoreFocus() {
  const opener = T.opener;
  T.opener = null;
  if (legal().length) focusCursor();
  else if (opener && document.contains(opener)) opener.focus();
  else if ($("hand").firstElementChild) $("hand").firstElementChild.focus();
}

function openDialog(id) {
  if (!document.querySelector("dialog[open]")) T.opener = document.activeElement;
  else document.querySelector("dialog[open]").close();
  $(id).showModal();
}

function showSummary(f) {
  const lines = [...f.summary];
  if (f.view.is_over) {
    const w = f.view.winner;
    lines.push(`Game over: ${w === null || w === undefined ? "a tie" : f.names[w] + " wins"}.`);
  }
  T.summaryDeal = f.deals_scored;
  $("summary-review").hidden = T.seat === null;  // a review is a seat's own: a spectator has none
  $("summary-review-status").textContent = "";
  $("summary-title").textContent = f.view.is_over ? "The game is over" : "The deal is over";
  $("summary-lines").replaceChildren(...lines.map((l) => el("li", {}, prettyText(l))));
  $("summary-dialog-cards").replaceChildren(...feltGroups(f.summary_felt));
  openDialog("summary-dialog");
  $("summary-ok").focus();
}

// ---------------------------------------------------------------- reviews
// A deal's review is worked out by the server only when asked for (one at a time), while play goes on; it
// comes as pages of lines, said as the terminal says them (parlour.review.say).
function askReview(deal) {
  if (!deal) return;
  if (T.reviews[deal]) { showReview(T.reviews[deal]); return; }
  $("summary-review-status").textContent = `Asking for the review of deal ${deal}…`;
  send({ type: "review", deal });
}

function onReview(f) {
  if (f.status === "working") {
    $("summary-review-status").textContent = f.message;
    tell(f.message);
    return;
  }
  T.reviews[f.deal] = f;
  $("summary-review-status").textContent = "";
  if ($("reason").textContent.includes("being worked out")) tell("");
  const shown = document.querySelector("dialog[open]");
  if (!shown || shown.id === "summary-dialog") { showReview(f); return; }
  T.readyDeal = f.deal;  // another dialog is open: the review waits beside the last deal
  $("review-ready").textContent = `The review of deal ${f.deal} is ready: show it`;
  $("review-ready").hidden = false;
}

const R = { review: null, page: 0 };

function showReview(f) {
  R.review = f;
  R.page = 0;
  $("review-ready").hidden = true;
  $("review-title").textContent = `Review of deal ${f.deal}`;
  reviewPage();
  openDialog("review-dialog");
  $("review-next").focus();
}

function reviewPage() {
  const f = R.review;
  R.page = Math.max(0, Math.min(f.pages.length - 1, R.page));
  $("review-page").textContent = `${f.titles[R.page]} (${R.page + 1} of ${f.pages.length})`;
  $("review-lines").replaceChildren(...f.pages[R.page].map((l) => el("li", {}, prettyText(l))));
  $("review-prev").disabled = R.page === 0;
  $("review-next").disabled = R.page === f.pages.length - 1;
}

function turnReviewPage(step) { R.page += step; reviewPage(); }

$("review-prev").addEventListener("click", () => turnReviewPage(-1));
$("review-next").addEventListener("click", () => turnReviewPage(1));
$("review-dialog").addEventListener("keydown", (ev) => {
  if (ev.key === "ArrowLeft") { turnReviewPage(-1); ev.preventDefault(); }
  if (ev.key === "ArrowRight") { turnReviewPage(1); ev.preventDefault(); }
});

// On /history: a deal's review by HTTP, asked again every second while the server works it out.
async function historyReview(ask, deal) {
  const status = $("record-review-status");
  status.textContent = `Asking for the review of deal ${deal}…`;
  for (;;) {
    const res = await ask(deal);
    const body = await res.json();
    if (res.status === 200) { status.textContent = ""; $("record-dialog").close(); showReview(body); return; }
    if (res.status !== 202) { status.textContent = body.error; return; }
    status.textContent = body.message;
    await new Promise((done) => setTimeout(done, 1000));
  }
}

// Resigning or leaving one's seat cannot be taken back (and ends something for the others too, where
// there are others): it is asked once more, in a dialog.
const LEAVING = {
  resign: ["Resign the game?", "The game ends now for everyone at the table, and it is recorded as ended by your resignation."],
  resignAlone: ["Resign the game?", "The game ends now, and it is recorded as lost by your resignation."],
  leave: ["Leave your seat?", "A computer player takes your seat for the rest of the game, and this link will no longer open it."],
};

function confirmLeaving(what) {
  T.confirming = what;
  const f = T.frame;
  const alone = f.players.every((p, s) => s === f.seat || p.kind === "bot");
  const [title, text] = LEAVING[what === "resign" && alone ? "resignAlone" : what];
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = what === "resign" ? "Yes, resign" : "Yes, leave my seat";
  $("confirm-dialog").returnValue = "";
  openDialog("confirm-dialog");
  $("confirm-no").focus();
}

function showSheet() {
  if (!T.frame) return;
  $("sheet-title").textContent = `${T.frame.title}: score sheet`;
  $("sheet-text").textContent = T.frame.score_sheet || "";
  openDialog("sheet-dialog");
}

function showLastTrick() {
  const v = T.frame && T.frame.view;
  const t = v && v.last_trick;
  if (!t) { say(["No trick yet."]); return; }
  const names = T.frame.names;
  const cards = (t.cards || []).map(([s, c]) => `${names[s]} ${c}`).join(", ");
  const prizes = t.prizes && t.prizes.length ? ` for ${t.prizes.join(" ")}` : "";
  say([`Trick: ${cards} — won by ${t.winner === null || t.winner === undefined ? "nobody" : names[t.winner]}${prizes}.`]);
}

async function showRules() {
  const game = T.frame ? T.frame.game : null;
  if (!game) return;
  $("rules-text").textContent = await (await fetch(`/api/rules/${game}`)).text();
  openDialog("rules-dialog");
}

function toggleFour() {
  four = !four;
  $("four").checked = four;
  localStorage.setItem("parlour-four", four ? "1" : "0");
  if (T.frame) render();
}

function hint() {
  const f = T.frame;
  if (f && T.hint && T.hint.count === f.count) { act(T.hint.action); return; }
  if (legal().length) send({ type: "hint" });
  else tell("It is not your turn.");
}

// The hint player's move and its reason (parlour.table.Table.suggest, as the terminal shows it), unless the
// position has moved on since it was asked.
function showHint({ action, reason, count }) {
  if (!action || !T.frame || (count !== undefined && count !== T.frame.count)) return;
  T.hint = { count: T.frame.count, action };
  const hand = T.frame.view.hand || [];
  if (hand.includes(action)) T.cursor = hand.indexOf(action);
  render();
  const target = [...$("hand").children, ...$("choices").children].find((b) => (b.dataset.card || b.dataset.action) === action);
  if (target) target.focus();
  tell(`Hint: ${action}${reason ? ` — ${reason}` : ""}. Press . again or Enter to play it.`);
}

function speed(step) {
  const f = T.frame;
  if (!f.can_speed) { tell("The speed can be changed only at a table against computer players."); return; }
  const i = SPEEDS.indexOf(Number($("speed").value));
  const next = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + step))];
  send({ type: "speed", delay: next });
  tell(next ? `The computer pauses ${next} s between moves.` : "The computer no longer pauses.");
}

// ---------------------------------------------------------------- keys
// What a key means is parlour.text's, as at the terminal table, and the page only looks it up: the game's keys
// come with its first frame (keys_help: what each character means at this table, ``meanings``, and why each is
// refused when it does nothing now, ``refusals``), and every frame says what the game's keys do in its position
// (key_actions, sequence_keys, refusals and card_refusals: parlour.web.views.key_answers).  A choice made with
// several keys (x a s calls A♠, b 5 plays the card under 5 with bella) is decoded by the server, key by key, as
// the terminal's parlour.keyseq decodes it; the keys pressed while it answers wait their turn.

// What each of the page's and the table's functions does, by the names the server's ``meanings`` and ``fkeys``
// give them (parlour.web.views.key_meanings; tests/interfaces/web/test_features.py checks every name is here).
const RUN = {
  hint: () => hint(),
  help: () => openDialog("keys-dialog"),
  faster: () => speed(-1),
  slower: () => speed(1),
  four: () => toggleFour(),
  last_trick: () => showLastTrick(),
  undo: () => { if (T.frame.can_undo) send({ type: "undo" }); else tell("Nothing to take back here."); },
  replay: () => {
    if (T.frame.can_replay) send({ type: "replay" });
    else tell("The deal can be replayed only against computer players, after a deal.");
  },
  score_sheet: () => showSheet(),
  options: () => tell("The options were chosen in the lobby, when the table was made."),
  demo: () => { if (T.frame.seat !== null) send({ type: "demo" }); },
  rules: () => showRules(),
  quit: () => { location.href = "/"; },
};

// Why a key does nothing now: the engine's reason for a choice's key of the sort asked now (the frame's), else
// the game's line for that character (parlour.text.refuse_key).
function refuseKey(ch) {
  return (T.frame.refusals || {})[ch.toLowerCase()] || T.keys.refusals[ch] || "";
}

// One more key of a choice made with several ("" is Esc): the server decodes the keys typed so far.
function typeKeys(ch) {
  T.sequence = ch ? T.sequence + ch : "";
  T.keying = true;
  send({ type: "keys", keys: ch ? T.sequence : "" });
}

// The server's answer to typeKeys: what to say, and the keys that stand (none once the choice is made or
// given up); then the keys pressed meanwhile, in order.
function keysAnswered(f) {
  T.keying = false;
  T.sequence = f.typed || "";
  if (f.said) tell(f.said);
  for (const [key, ch] of T.waitingKeys.splice(0)) pressKey(key, ch);
}

// Several choices of one kind share a key (the cards one may call): the key moves between them.
function pressChoice(actions) {
  if (actions.length === 1) { act(actions[0]); return; }
  const buttons = [...$("choices").children];
  const current = document.activeElement && document.activeElement.dataset.action;
  const next = actions[(actions.indexOf(current) + 1) % actions.length];
  const b = buttons.find((x) => x.dataset.action === next);
  if (b) b.focus();
  tell(T.keys.choose_again.replace("{action}", next));
}

function onKey(ev) {
  if (document.querySelector("dialog[open]") || ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName) ||
      ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (!T.frame || !T.keys) return;
  const key = ev.key;
  const ch = key.length === 1 ? key : "";
  if (T.keying && (key === "Escape" || (ch && ch !== " "))) {  // the server is decoding a choice of several keys
    ev.preventDefault();
    T.waitingKeys.push([key, ch]);
    return;
  }
  if (pressKey(key, ch)) ev.preventDefault();
}

// A key pressed at the table (``ch``: the character it types, if any); whether the page used it.
function pressKey(key, ch) {
  const f = T.frame;
  const moves = legal();
  const hand = f.view.hand || [];
  const cards = hand.filter((c) => moves.includes(c));
  const buttons = (f.buttons || []).filter((a) => moves.includes(a));
  const hinted = T.hint && T.hint.count === f.count ? T.hint.action : null;
  const active = document.activeElement;
  const onTable = active === document.body || $("hand").contains(active) || $("choices").contains(active);
  if (T.sequence) {  // typing a choice of several keys: Esc cancels, any other key goes on
    if (key === "Escape" || (ch && ch !== " ")) { typeKeys(key === "Escape" ? "" : ch); return true; }
    T.sequence = "";
  }
  if (/^F\d+$/.test(key)) {
    const fn = T.keys.fkeys[key.toLowerCase()];
    if (fn) RUN[fn]();
    return Boolean(fn);
  }
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const step = key === "ArrowLeft" ? -1 : 1;
    if (cards.length) {
      const els = [...$("hand").children];
      T.cursor = (T.cursor + step + els.length) % els.length;
      els[T.cursor].focus();
    } else {
      const els = [...$("choices").children];
      const i = els.indexOf(active);
      if (els.length) els[(i + step + els.length) % els.length].focus();
    }
    return true;
  }
  if ((key === "ArrowUp" || key === "ArrowDown") && !cards.length && f.yes_no && f.yes_no[0] && f.yes_no[1]) {
    act(key === "ArrowUp" ? f.yes_no[0] : f.yes_no[1]);  // ↑ yes, ↓ no, as in the original Le Truc
    return true;
  }
  if ((key === "Enter" || key === " " || key === "ArrowUp") && onTable) {
    if (hinted) act(hinted);
    else if (active && active.dataset.card && cards.includes(active.dataset.card)) act(active.dataset.card);
    else if (active && active.dataset.action && buttons.includes(active.dataset.action)) act(active.dataset.action);
    else if (active && active.dataset.card) tell(whyNot(active.dataset.card));
    else if (!moves.length) tell("It is not your turn.");
    return true;
  }
  if (!ch || ch === " ") return false;
  const meaning = T.keys.meanings[ch];  // the table's or the page's own key
  if (meaning) { RUN[meaning](); return true; }
  const low = ch.toLowerCase();
  if ((f.sequence_keys || []).includes(low)) { typeKeys(ch); return true; }
  const picks = (f.key_actions || {})[low] || [];
  if (picks.length) { pressChoice(picks); return true; }
  const card = hand.find((c) => (f.card_keys || {})[c] === low);
  if (card) {
    if (cards.includes(card)) act(card);
    else if (moves.length) {
      tell((f.card_refusals || {})[card] || whyNot(card));  // the engine's reason, as the card's tooltip says it
      T.cursor = hand.indexOf(card);
    } else tell("It is not your turn.");
    return true;
  }
  if (moves.length || "123456789".includes(ch)) tell(refuseKey(ch));
  return true;
}

$("keys-button").addEventListener("click", () => openDialog("keys-dialog"));
const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,40})$/);
if (m) table(m[1]);
else if (location.pathname === "/history") history();
else lobby();
