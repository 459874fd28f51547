"""The browser table's later features: a computer taking over an absent seat, demo tables and their
speed, the history and statistics pages, the deal summary dialog, the terminal's keys, WCAG contrast.

Server behaviour is driven by scripted WebSocket clients; what is about the page runs in Debian's
Chromium through Playwright (one browser for the module).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

import parlour.web.views as web_views
from helpers.web import LOOSE, create, frames_until, parlour_history
from parlour.cards import pretty_action
from parlour.cli import main as cli_main
from parlour.engine import Step, apply_recorded, replay
from parlour.keyseq import KeySequence
from parlour.records import from_json
from parlour.registry import load, names
from parlour.store import open_store
from parlour.table import Event, Table
from parlour.text import (
    TABLE_LETTER_FUNCTIONS,
    CardKeys,
    actions_for_key,
    choice_key,
    choice_keys,
    deal_summary,
    format_stats,
    history_result,
    key_kind,
    key_table,
    narrate,
    rank_keys,
    refuse_card,
    refuse_key,
    summarize,
    table_letter,
)
from parlour.web.run import ServerThread
from parlour.web.views import BROWSER_TAKES, TYPED, seat_frame, web_key_table, web_keys

STATIC = Path(web_views.__file__).resolve().parent / "static"
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with ServerThread(tmp_path_factory.mktemp("features") / "web.db", rate=(10_000, 10_000), limits=LOOSE) as srv:
        yield srv


def hello(seat: int | None = None, token: str | None = None) -> str:
    return json.dumps({"type": "hello", "seat": seat, "token": token})


def lines_of(frames: list[dict[str, Any]]) -> list[str]:
    return [line for f in frames if f["type"] == "state" for line in f["log"]]


def state(f: dict[str, Any]) -> bool:
    return bool(f["type"] == "state")


async def take_seat_and_leave(url: str, seat: int, token: str) -> None:
    """A person opens their link (so the table is dealt: no deal before the people) and closes it."""
    async with websockets.connect(url) as ws:
        await ws.send(hello(seat, token))
        await frames_until(ws, state, [])


# ------------------------------------------------------------------ 1. a computer takes over an absent seat
def test_an_absent_persons_seat_is_played_by_a_computer_after_the_grace_and_given_back(server: Any) -> None:
    table = create(server, "gops", [{"kind": "invite"}, {"kind": "bot", "level": "easy"}], delay=0.15,
                   takeover={"level": "easy", "after": 0.3})
    url = f"{server.ws_url}/ws/{table['id']}"

    async def scenario() -> None:
        seen: list[dict[str, Any]] = []
        await take_seat_and_leave(url, 0, table["tokens"][0])
        async with websockets.connect(url) as watcher:  # North has left: after 0.3 s a computer plays North
            await watcher.send(hello())
            await frames_until(watcher, lambda f: state(f) and f["count"] >= 6, seen)
        assert any("North is away: a computer player (easy) plays that seat" in line for line in lines_of(seen))
        assert any(state(f) and f["players"][0]["stand_in"] == "easy" for f in seen)
        record = json.loads(open_store(server.db).load_web_table(table["id"]).record)
        replayed = from_json({**record, "actions": []})
        movers: list[int | None] = []

        def make(step: Step) -> None:
            movers.append(replayed.current_player)
            apply_recorded(replayed, step.entry)

        for _ in replay(replayed, record["actions"], make):
            pass
        assert 0 in movers, "the computer played North's seat"
        # North opens the same link: the seat is theirs again, and the computer stops playing it
        mine: list[dict[str, Any]] = []
        async with websockets.connect(url) as north:
            await north.send(hello(0, table["tokens"][0]))
            turn = await frames_until(north, lambda f: state(f) and f["view"]["current_player"] == 0
                                      and not f["auto"] and f["players"][0]["stand_in"] is None, mine)
            await asyncio.sleep(1.0)  # three grace periods and more: nobody moves for North
            assert open_store(server.db).load_web_table(table["id"]).actions == turn["count"]
            await north.send(json.dumps({"type": "act", "action": turn["view"]["legal_actions"][0]}))
            await frames_until(north, lambda f: state(f) and f["count"] > turn["count"], mine)
        assert any("North (you) is back and plays again." in line for line in lines_of(mine))

    asyncio.run(scenario())


def test_without_the_option_an_absent_persons_seat_waits_and_bad_options_are_refused(server: Any) -> None:
    table = create(server, "gops", [{"kind": "invite"}, {"kind": "bot", "level": "easy"}])

    async def scenario() -> None:
        seen: list[dict[str, Any]] = []
        await take_seat_and_leave(f"{server.ws_url}/ws/{table['id']}", 0, table["tokens"][0])
        async with websockets.connect(f"{server.ws_url}/ws/{table['id']}") as watcher:
            await watcher.send(hello())
            first = await frames_until(watcher, lambda f: state(f) and f["view"]["current_player"] == 0, seen)
            await asyncio.sleep(1.0)
            assert open_store(server.db).load_web_table(table["id"]).actions == first["count"]
            assert first["players"][0]["stand_in"] is None

    asyncio.run(scenario())
    for bad in ({"level": "grandmaster", "after": 5}, {"level": "easy", "after": 0}, {"level": "easy", "after": "x"},
                {"level": "easy", "after": 10_000}, [1]):
        r = httpx.post(server.url + "/api/tables", json={"game": "gops", "takeover": bad,
                                                         "seats": [{"kind": "invite"}, {"kind": "bot"}]})
        assert r.status_code == 400, bad


def test_demo_f2_lets_the_computer_play_a_persons_own_seat_and_gives_it_back(server: Any) -> None:
    table = create(server, "gops", [{"kind": "invite"}, {"kind": "bot", "level": "easy"}], delay=0.1)

    async def scenario() -> None:
        seen: list[dict[str, Any]] = []
        async with websockets.connect(f"{server.ws_url}/ws/{table['id']}") as north:
            await north.send(hello(0, table["tokens"][0]))
            await frames_until(north, lambda f: state(f) and f["view"]["current_player"] == 0, seen)
            await north.send(json.dumps({"type": "demo"}))
            await frames_until(north, lambda f: state(f) and f["demo"] and f["count"] >= 4, seen)
            await north.send(json.dumps({"type": "demo"}))
            turn = await frames_until(north, lambda f: state(f) and not f["demo"] and not f["auto"]
                                      and f["view"]["current_player"] == 0, seen)
            await asyncio.sleep(0.5)
            assert open_store(server.db).load_web_table(table["id"]).actions == turn["count"]
        # the terminal's demo: the hint player's level plays the seat
        assert any(re.fullmatch(r"Demo: the computer \((easy|strong)\) plays North \(you\) too\.", line)
                   for line in lines_of(seen)), lines_of(seen)
        assert any(line == "Demo over: North (you) plays again." for line in lines_of(seen))

    asyncio.run(scenario())


# ------------------------------------------------------------------ 2. demo tables and their speed; 3. history
def play_gops_as_a_person(server: Any) -> str:
    """A whole short GOPS game, a person (scripted) against the easy computer; returns the table id."""
    table = create(server, "gops", [{"kind": "invite"}, {"kind": "bot", "level": "easy"}], options={"cards": 4})
    rng = random.Random(3)

    async def scenario() -> None:
        async with websockets.connect(f"{server.ws_url}/ws/{table['id']}") as north:
            await north.send(hello(0, table["tokens"][0]))
            acted = -1
            while True:
                frame = json.loads(await asyncio.wait_for(north.recv(), 30))
                if not state(frame):
                    continue
                if frame["view"]["is_over"]:
                    return
                if frame["view"]["current_player"] == 0 and not frame["auto"] and frame["count"] > acted:
                    acted = frame["count"]
                    action = rng.choice(frame["view"]["legal_actions"])
                    await north.send(json.dumps({"type": "act", "action": action}))

    asyncio.run(scenario())
    return str(table["id"])


def test_a_demo_table_is_watched_live_and_its_watchers_set_the_speed(server: Any) -> None:
    table = create(server, "gops", [{"kind": "bot", "level": "easy"}] * 2, options={"cards": 5}, delay=2.0,
                   open=True)
    assert table["links"] == [], "a demo has no seat for a person"

    async def scenario() -> None:
        seen: list[dict[str, Any]] = []
        async with websockets.connect(f"{server.ws_url}/ws/{table['id']}") as watcher:
            await watcher.send(hello())
            first = await frames_until(watcher, state, seen)
            assert first["can_speed"] and first["delay"] == 2.0 and set(first["view"]["open_hands"]) == {"0", "1"}
            await watcher.send(json.dumps({"type": "speed", "delay": 0}))
            await frames_until(watcher, lambda f: state(f) and f["delay"] == 0, seen)
            await frames_until(watcher, lambda f: state(f) and f["view"]["is_over"], seen)
        assert open_store(server.db).load_web_table(table["id"]).settings["delay"] == 0, "the speed is kept"
        assert "=== Deal 1 over ===" in lines_of(seen)

    asyncio.run(scenario())
    # at a table with people, only a person playing alone against computers changes the speed
    people = create(server, "truc", [{"kind": "invite"}, {"kind": "invite"}])

    async def refused() -> None:
        url = f"{server.ws_url}/ws/{people['id']}"
        for seat, token in ((None, None), (0, people["tokens"][0])):
            async with websockets.connect(url) as ws:
                await ws.send(hello(seat, token))
                await ws.send(json.dumps({"type": "speed", "delay": 0.3}))
                got: list[dict[str, Any]] = []
                error = await frames_until(ws, lambda f: f["type"] == "error", got)
                assert "speed" in error["message"]
        assert open_store(server.db).load_web_table(people["id"]).settings["delay"] == 0

    asyncio.run(refused())


def test_history_and_statistics_are_the_stores_as_parlour_history_and_stats_say(
        server_of_each_store: Any, capsys: pytest.CaptureFixture[str]) -> None:
    server = server_of_each_store
    play_gops_as_a_person(server)
    body = httpx.get(server.url + "/api/history").json()
    store = open_store(server.db)
    try:
        assert body["games"] == [{**g.as_json(), "result": history_result(g)} for g in store.finished_games(limit=200)]
        assert body["stats"] == format_stats(store.stats())
        assert "gops" in body["stats"]
        newest = body["games"][0]
        record = json.loads(store.finished_record(newest["id"]) or "null")
    finally:
        store.close()
    listed = parlour_history(server.db, capsys)
    assert re.search(rf"^#{newest['id']}\s+gops\s+vs easy", listed, re.M), listed
    assert cli_main(["stats", "--db", str(server.db)]) == 0
    assert capsys.readouterr().out.strip() == body["stats"]
    one = httpx.get(f"{server.url}/api/history/{newest['id']}").json()
    assert one["record"] == record
    finished = from_json(json.dumps(record))
    assert one["deals"] == [narrate(Event("deal_scored", None, dict(d)), "gops", 2) for d in finished.deals]
    assert all(set(summarize("gops", dict(d))) <= set(lines) for d, lines in zip(finished.deals, one["deals"],
                                                                                   strict=True))
    assert httpx.get(f"{server.url}/api/history/999999").status_code == 404
    assert httpx.get(f"{server.url}/api/history?game=nope").status_code == 404


# ------------------------------------------------------------------ 6. the terminal's keys
def test_the_page_gets_the_terminal_tables_keys() -> None:
    imports = [line for line in inspect.getsource(web_views).splitlines() if line.startswith(("from ", "import "))]
    assert not any("tui" in line for line in imports), "the browser reads keys from parlour.text, as the terminal"
    for game in names():
        g = load(game)
        table = Table(g.new_state(seed=5), [None] * g.num_players)
        keys = CardKeys(game)
        rng = random.Random(1)
        before: dict[str, str] = {}
        deal = None
        for _ in range(400):
            if table.is_over:
                break
            seat = table.to_move
            assert seat is not None
            frame = seat_frame(table, 0, count=0, lines=[], players=[], table_id="t", card_keys=keys)
            assert frame["keys"] == {b: choice_key(game, b) for b in frame["buttons"]}
            bound = frame["card_keys"]
            # the terminal's rule (parlour.text.CardKeys): until a card joins the hand no key changes; GOPS keys ranks
            if frame["view"]["deal_number"] == deal and set(bound) <= set(before):
                assert all(bound[c] == before[c] for c in bound), (game, bound, before)
            if rank_keys(game):
                assert all(key == card[0].lower() for card, key in bound.items()), (game, bound)
            deal, before = frame["view"]["deal_number"], bound
            table.play(rng.choice(table.state.legal_actions()))
        rows = web_key_table(game)
        assert not [k for k, _ in rows if k.lower() in BROWSER_TAKES], "no F-key the browser keeps for itself"
        terminal = [row for row in key_table(game) if not re.fullmatch(r"F\d+", row[0])]
        missing = {k for k, _ in terminal} - {"O", "Shift+O", "="} - {k for k, _ in rows}
        assert not missing, (game, missing)
        assert all(row in rows for row in terminal if row[0] not in ("O", "Shift+O", "=", "R", "Shift+R")), game
        assert any(k in ("I", "Shift+I") and "(F5 in the terminal)" in what for k, what in rows), "rules: a letter"


def test_the_pages_keys_are_the_python_definitions_and_its_script_keeps_no_copy() -> None:
    """Issue 25: the browser's key handling reads the definitions the terminal reads.  Every character's
    meaning at the table (``key_meanings``) and its refusal (``refuse_key``) come from ``parlour.text``, each
    position's answers (``key_answers``) from the functions the terminal asks, every function they name is
    the page's, and the page's scripts hold no copy of the rules or the words (nor of ``parlour.cards``'s
    suit symbols and patterns: the page carries ``card_words``)."""
    app = (STATIC / "app.js").read_text()
    block = app[app.index("const RUN = {"):app.index("\n};", app.index("const RUN = {"))]
    run = set(re.findall(r"^  (\w+): \(\) =>", block, re.M))
    for game in names():
        keys = web_keys(game)
        assert keys["refusals"] == {char: refuse_key(game, char) for char in TYPED}
        meanings = keys["meanings"]
        for letter, function in TABLE_LETTER_FUNCTIONS.items():
            assert meanings[letter.upper()] == function  # upper case: always the table's
            assert (meanings.get(letter) == function) == (table_letter(game, letter) is not None), (game, letter)
        game_letters = set(choice_keys(game).values()) | ({"a", "t", "j", "q", "k"} if rank_keys(game) else set())
        assert not game_letters & set(meanings), (game, "a letter of the game is never the page's in lower case")
        assert set(meanings.values()) | set(keys["fkeys"].values()) <= run, "every function named is the page's"
    # each position's answers are the terminal's functions' (seat 0's frames, the first 150 moves of a game)
    for game in names():
        g = load(game)
        table = Table(g.new_state(seed=9), [None] * g.num_players)
        rng = random.Random(2)
        for _ in range(150):
            if table.is_over:
                break
            frame = seat_frame(table, 0, count=0, lines=[], players=[], table_id="t", card_keys=CardKeys(game))
            now = [] if frame["auto"] else list(frame["view"].get("legal_actions") or [])
            hand = list(frame["view"]["hand"])
            buttons = [a for a in now if a not in hand]
            assert frame["key_actions"] == {k: picked for k in sorted(set(choice_keys(game).values()) | {"y", "n"})
                                            if (picked := actions_for_key(game, k, buttons))}
            playable = any(c in now for c in hand)
            assert frame["sequence_keys"] == sorted(k for k in choice_keys(game).values()
                                                    if KeySequence(game).starts(k, buttons, playable))
            for card, said in frame["card_refusals"].items():
                assert said == refuse_card(frame["card_keys"][card], card, table.state.why_not(card)), (game, card)
            for key, said in frame["refusals"].items():
                kind = key_kind(game, key)
                assert said == refuse_key(game, key, table.state.why_not(kind or "")), (game, key)
            table.play(rng.choice(table.state.legal_actions()))
    # no copy left in the scripts (their code, not their comments): the rules' words, the page's own letters,
    # the suits' symbols and patterns
    app, cards = (re.sub(r"//[^\n]*", "", (STATIC / name).read_text()) for name in ("app.js", "cards.js"))
    for words in ("means nothing at this table", "is not a rank", "is not a suit", "which card?", "of which suit",
                  "Cancelled", "answers a yes/no question", "is not the rank of", "which you may not play now",
                  "Enter makes it", "WEB_LETTERS", "lurso", "rank_letters", "card_kinds", "announce_kinds"):
        assert words not in app, words
    for words in ("\u2663", "\\u2663", "clubs", "Queen", "trump|name", "[CDHS]"):
        assert words not in cards and words not in app, words


# ------------------------------------------------------------------ 5. WCAG AA contrast, measured
def _luminance(colour: str) -> float:
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    channels = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_formula() -> None:
    assert contrast("#000", "#fff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


def stylesheet() -> tuple[dict[str, str], list[tuple[str, dict[str, str]]]]:
    """The stylesheet's colour variables and its rules (selector -> declarations, variables resolved)."""
    css = re.sub(r"/\*.*?\*/", "", (STATIC / "style.css").read_text(), flags=re.S)
    root = re.search(r":root\s*\{(.*?)\}", css, re.S)
    assert root is not None
    variables = dict(re.findall(r"--([\w-]+)\s*:\s*(#[0-9a-fA-F]{3,6})\s*;", root.group(1)))
    rules = []
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css[root.end():]):
        decls = {}
        for name, value in re.findall(r"([\w-]+)\s*:\s*([^;]+)", body):
            decls[name] = re.sub(r"var\(--([\w-]+)\)", lambda m: variables[m.group(1)], value.strip())
        rules.append((selector.strip(), decls))
    return variables, rules


def card_colours() -> dict[str, str]:
    js = (STATIC / "cards.js").read_text()
    out = {}
    for name in ("TWO", "FOUR"):
        block = re.search(rf"const {name} = \{{(.*?)\}};", js)
        assert block is not None
        for suit, colour in re.findall(r"(\w): \"(#[0-9a-fA-F]{6})\"", block.group(1)):
            out[f"{name}.{suit}"] = colour
    for name in ("FACE", "FACE_DIM", "EDGE"):
        found = re.search(rf"const {name} = \"(#[0-9a-fA-F]{{6}})\"", js)
        assert found is not None
        out[name] = found.group(1)
    return out


# text colour, background, the minimum (4.5 normal text; 3 large text and the boundary of a control)
PAIRS = [
    ("ink", "page", 4.5), ("ink", "panel", 4.5), ("ink", "log", 4.5), ("ink", "dialog", 4.5), ("link", "page", 4.5),
    ("link", "panel", 4.5), ("link", "dialog", 4.5), ("on-header", "header", 4.5), ("on-felt", "felt", 4.5),
    ("on-accent", "accent", 4.5), ("on-control", "control", 4.5), ("muted", "page", 4.5), ("muted", "dialog", 4.5),
    ("error", "page", 4.5), ("error", "dialog", 4.5),
    # boundaries and focus indicators (WCAG 1.4.11): 3:1 against what surrounds them
    ("control-edge", "page", 3), ("control-edge", "panel", 3), ("control-edge", "dialog", 3),
    ("control", "header", 3), ("control", "felt", 3), ("log-edge", "panel", 3), ("log-edge", "log", 3),
    ("accent", "felt", 3), ("link", "page", 3), ("link", "panel", 3),
]


def test_every_text_colour_meets_wcag_aa_on_its_background() -> None:
    variables, rules = stylesheet()
    failures = [f"{fg} on {bg}: {contrast(variables[fg], variables[bg]):.2f} < {need}" for fg, bg, need in PAIRS
                if contrast(variables[fg], variables[bg]) < need]
    # the cards: each suit colour on the face and on the grey face of a card that may not be played now
    cards = card_colours()
    for suit in [k for k in cards if "." in k]:
        for face in ("FACE", "FACE_DIM"):
            ratio = contrast(cards[suit], cards[face])
            if ratio < 4.5:
                failures.append(f"card {suit} on {face}: {ratio:.2f}")
    for face in ("FACE", "FACE_DIM"):  # a card's edge and its face stand out from the felt
        if contrast(cards[face], variables["felt"]) < 3 or contrast(cards["EDGE"], cards[face]) < 3:
            failures.append(f"card {face} boundary")
    assert not failures, failures
    # every colour is a variable of :root (so the pairs above are every colour used) ...
    css = re.sub(r"/\*.*?\*/", "", (STATIC / "style.css").read_text(), flags=re.S)
    outside = css[css.index("}", css.index(":root")):]
    assert not re.findall(r"#[0-9a-fA-F]{3,6}\b|rgba?\(|hsla?\(", outside), "a colour outside :root"
    # ... every variable used for text or a background is in a checked pair, and nothing is made transparent
    used_as_text = {fg for fg, _, need in PAIRS if need >= 4.5}
    backgrounds = {bg for _, bg, _ in PAIRS}
    for selector, decls in rules:
        assert "opacity" not in decls, f"{selector}: transparency lowers the contrast of text"
        for name, value in decls.items():
            for var, colour in variables.items():
                if colour == value and name == "color":
                    assert var in used_as_text or any(v in used_as_text for v, c in variables.items()
                                                      if c == colour), (selector, var)
                if colour == value and name.startswith("background"):
                    assert var in backgrounds or any(v in backgrounds for v, c in variables.items()
                                                     if c == colour), (selector, var)


# ------------------------------------------------------------------ in the browser: 4. the summary dialog, 2. the
# demo from the lobby, 3. the history page, 6. the key list
pytest_playwright = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")


def new_page(browser: Any) -> Any:
    page = browser.new_context(viewport={"width": 1200, "height": 820}, bypass_csp=True).new_page()  # wait_for_function
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def play_a_key(page: Any) -> None:
    keys = page.eval_on_selector_all("#hand .card:not([aria-disabled])",
                                     "els => els.map(e => e.getAttribute('aria-keyshortcuts'))")
    if not keys:
        keys = page.eval_on_selector_all("#choices .choice", "els => els.map(e => e.dataset.keys || '')")
    if keys and keys[0]:
        for key in keys[0]:
            page.keyboard.press(key)
    elif keys:
        page.keyboard.press("Enter")


def play_until_the_summary(page: Any, limit: int = 300) -> None:
    for _ in range(limit):
        if page.locator("#summary-dialog[open]").count():
            return
        if (page.text_content("#status") or "").startswith("Your turn"):
            before = page.text_content("#log")
            play_a_key(page)
            try:
                page.wait_for_function("b => document.querySelector('#log').textContent !== b || "
                                       "document.querySelector('#summary-dialog').open", arg=before, timeout=3000)
            except Exception as exc:  # a key that changed nothing (refused): look again
                if type(exc).__name__ != "TimeoutError":
                    raise
        else:
            page.wait_for_timeout(50)
    raise AssertionError("no deal summary came")


# Every element showing text: its computed colour on the first opaque background behind it (what the
# stylesheet check above cannot see: inheritance, the browser's own defaults).
LOW_CONTRAST_JS = """() => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(",").map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const lum = ({ r, g, b }) => {
    const f = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0.99) return c;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  };
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (!(el instanceof HTMLElement) || !el.getClientRects().length || el.closest(".sr")) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const style = getComputedStyle(el);
    if (Number(style.opacity) < 1) { out.push([el.tagName, el.id, "transparent"]); continue; }
    if (style.visibility === "hidden") continue;
    const a = lum(parse(style.color)), b = lum(behind(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) out.push([el.tagName, el.id, el.className, style.color, ratio.toFixed(2), el.textContent]);
  }
  return out;
}"""


def low_contrast(page: Any) -> list[Any]:
    return list(page.evaluate(LOW_CONTRAST_JS))


def focus_is_at_the_table(page: Any) -> bool:
    return bool(page.evaluate("document.querySelector('#hand').contains(document.activeElement) || "
                              "document.querySelector('#choices').contains(document.activeElement)"))


@pytest_playwright
def test_the_deal_summary_is_a_dialog_closed_by_enter_or_escape_with_focus_back_at_the_table(
        browser: Any, server: Any) -> None:
    table = create(server, "truc", [{"kind": "invite"}, {"kind": "bot", "level": "easy"}])
    page = new_page(browser)
    page.goto(server.url + table["links"][0]["url"])
    page.wait_for_selector("#join-form")
    page.fill("#join-name", "Ann")
    page.press("#join-name", "Enter")
    page.wait_for_selector("#hand .card")
    # ? lists the terminal's keys, F-keys the browser keeps replaced by letters
    page.wait_for_function("document.querySelector('#status').textContent.length > 0")
    page.keyboard.press("?")
    page.wait_for_selector("#keys-dialog[open]")
    shown = page.eval_on_selector_all("#keys-rows tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    assert [tuple(r) for r in shown] == web_key_table("truc")
    assert low_contrast(page) == []
    page.keyboard.press("Escape")
    assert low_contrast(page) == []
    for closing in ("Enter", "Escape"):
        play_until_the_summary(page)
        store = open_store(server.db)
        try:
            record = json.loads(store.load_web_table(table["id"]).record)
        finally:
            store.close()
        deals = from_json(json.dumps(record)).deals
        dialog = page.eval_on_selector_all("#summary-lines li", "els => els.map(e => e.textContent)")
        # (no "=== Deal N over ===")
        expected = [pretty_action(line) for line in deal_summary("truc", dict(deals[-1]), 2, 0)]
        assert dialog[:len(expected)] == expected, (dialog, expected)
        assert page.evaluate("document.activeElement.id") == "summary-ok", "focus moves into the dialog"
        assert low_contrast(page) == []
        page.keyboard.press(closing)
        page.wait_for_selector("#summary-dialog:not([open])", state="attached")
        page.wait_for_function("document.querySelector('#hand').children.length > 0")
        assert focus_is_at_the_table(page), f"after {closing} the keyboard is back at the hand"
    # a choice's key is the game's own (CHOICE_KEYS), as in the terminal
    for action, key in page.eval_on_selector_all(
            "#choices .choice", "els => els.map(e => [e.dataset.action, e.getAttribute('aria-keyshortcuts')])"):
        assert (key or "") == choice_key("truc", action)
    assert not page.errors


@pytest_playwright
def test_a_demo_from_the_lobby_is_watched_with_a_speed_control_and_shows_in_the_history(
        browser: Any, server: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.select_option("#game", "gops")
    page.fill("#opt-cards", "4")
    page.select_option("#delay", "1.5")
    assert low_contrast(page) == []
    page.click("#demo")
    page.wait_for_url(re.compile(r"/t/"))
    page.wait_for_function("document.querySelector('#where').textContent.includes('watching')")
    assert page.locator("#others [role=img][aria-label$='of clubs'], #others [role=img][aria-label$='of spades'], "
                        "#others [role=img][aria-label$='of hearts'], #others [role=img][aria-label$='of diamonds']"
                        ).count() > 0, "a demo shows every hand"
    assert page.is_visible("#speed") and page.input_value("#speed") == "1.5"
    assert low_contrast(page) == []
    page.select_option("#speed", "0")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over')", timeout=20000)
    table_id = page.url.rsplit("/", 1)[1]
    assert open_store(server.db).load_web_table(table_id).settings["delay"] == 0
    # the history page lists it (a demo: nobody's result) with its record and the statistics
    page.goto(server.url + "/history")
    page.wait_for_selector("#games tbody tr")
    store = open_store(server.db)
    try:
        newest = store.finished_games(limit=1)[0]
        stats = format_stats(store.stats())
    finally:
        store.close()
    row = page.locator(f"#games tbody tr[data-id='{newest.id}']")
    assert row.locator("td").nth(3).text_content() == "demo"
    assert row.locator("td").nth(4).text_content() == " ".join(str(s) for s in newest.scores)
    row.locator("button.record").click()
    page.wait_for_selector("#record-dialog[open]")
    assert "=== Deal 1 over ===" in page.text_content("#record-deals")
    assert json.loads(page.text_content("#record-text"))["game"] == "gops"
    page.keyboard.press("Escape")
    assert page.text_content("#history-stats") == stats
    assert low_contrast(page) == []
    assert not page.errors
