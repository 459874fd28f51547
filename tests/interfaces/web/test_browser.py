"""The browser table in a real browser: Playwright driving Debian's Chromium (never a downloaded one).

Each game: a person creates a table in the lobby and plays a whole deal with the keyboard
only, with no error in the console; the screenshots under ``docs/`` are made here.  Two people at Le Truc and three at
Schafkopf play from separate browser contexts through the invite links.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from helpers import ROOT
from helpers.web import LOOSE
from interfaces.web.test_features import low_contrast  # the WCAG AA measure (imported at collection, not mid-test)
from parlour.web.run import ServerThread

CHROMIUM = "/usr/bin/chromium"
DOCS = ROOT / "docs"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with ServerThread(tmp_path_factory.mktemp("browser") / "web.db", limits=LOOSE) as srv:
        yield srv


def new_page(browser: Any, name: str | None = None) -> Any:
    context = browser.new_context(viewport={"width": 1200, "height": 820}, bypass_csp=True)  # for wait_for_function
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    # what the console reports as an error (a missing favicon, a failed request), kept apart from thrown errors
    page.console_errors = []  # type: ignore[attr-defined]
    page.on("console", lambda m: page.console_errors.append(f"{m.text} at {m.location}") if m.type == "error" else None)
    if name:
        page.add_init_script(f"localStorage.setItem('parlour-name', {json.dumps(name)})")
    return page


def create_table(page: Any, server: Any, game: str, seats: list[str], options: dict[str, str] | None = None) -> None:
    page.goto(server.url + "/")
    page.select_option("#game", game)
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    for name, value in (options or {}).items():
        page.fill(f"#opt-{name}", value)
    page.select_option("#delay", "0")
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/"))  # the creator's own seat opens at once (the invite links on its page)


def my_turn(page: Any) -> bool:
    return "Your turn" in (page.text_content("#status") or "")


def press_a_legal_key(page: Any) -> None:
    """What a keyboard player does: the key of the first playable card, or of the first choice."""
    keys = page.eval_on_selector_all(
        "#hand .card:not([aria-disabled])", "els => els.map(e => e.getAttribute('aria-keyshortcuts'))")
    if keys:
        page.keyboard.press(keys[0])
        return
    keys = page.eval_on_selector_all("#choices .choice", "els => els.map(e => e.dataset.keys || '')")
    if keys and keys[0]:
        for key in keys[0]:  # a choice that names a card is typed as its key, the card's rank and suit
            page.keyboard.press(key)
    else:
        page.keyboard.press("Enter")  # the highlighted choice


def play_until(pages: list[Any], done: Any, limit: int = 400) -> None:
    for _ in range(limit):
        if done():
            return
        moved = False
        for page in pages:
            if my_turn(page):
                before = page.text_content("#log")
                press_a_legal_key(page)
                try:
                    page.wait_for_function("b => document.querySelector('#log').textContent !== b", arg=before,
                                           timeout=3000)
                except sync_api.TimeoutError:
                    pass
                moved = True
        if not moved:
            pages[0].wait_for_timeout(50)
    raise AssertionError("the deal did not end")


def deal_over(page: Any) -> bool:
    return "=== Deal 1 over ===" in (page.text_content("#log") or "") or "Game over" in (
        page.text_content("#status") or "")


@pytest.mark.parametrize("game,seats,options", [
    ("clobby", ["me", "bot:easy"], {}), ("sixbid", ["me", "bot:easy", "bot:easy"], {}),
    ("schafkopf", ["me", "bot:easy", "bot:easy"], {}), ("truc", ["me", "bot:easy"], {}),
    ("gops", ["me", "bot:easy"], {"cards": "6"}),
])
def test_a_person_plays_a_whole_deal_with_the_keyboard(browser: Any, server: Any, game: str, seats: list[str],
                                                       options: dict[str, str]) -> None:
    page = new_page(browser)
    create_table(page, server, game, seats, options)
    page.wait_for_selector("#hand .card")
    page.wait_for_function("document.querySelector('#status').textContent.length > 0")
    play_until([page], lambda: deal_over(page))
    # the deal summary comes as a dialog (its keyboard handling: test_features.py); Escape closes it
    page.wait_for_selector("#summary-dialog[open]")
    assert "This deal:" in page.text_content("#summary-lines")
    # the cards the deal turns face up are drawn with its summary (Six-Bid's widow, Schafkopf's skat)
    said = str(page.text_content("#summary-lines"))
    # (Schafkopf's skat is shown after a Ramsch; a soloist's discard stays theirs)
    drawn = {"sixbid": ("The widow", 3), "schafkopf": ("The skat", 2)}.get(game) if game != "schafkopf" \
        or "The skat " in said else None
    assert page.locator("#summary-dialog-cards .card-svg").count() == (drawn[1] if drawn else 0)
    if drawn:
        assert str(page.text_content("#summary-dialog-cards figcaption")).startswith(drawn[0])
    page.keyboard.press("Escape")
    page.wait_for_selector("#summary-dialog:not([open])", state="attached")
    DOCS.mkdir(exist_ok=True)
    page.screenshot(path=str(DOCS / f"web-{game}.png"))  # the table, its log and the deal summary
    assert "This deal:" in page.text_content("#log")
    assert not page.errors
    assert not page.console_errors, "no console error in the lobby, nor during a whole deal"


def test_accessibility_names_and_live_region(browser: Any, server: Any) -> None:
    page = new_page(browser)
    create_table(page, server, "sixbid", ["me", "bot:easy", "bot:easy"])
    page.wait_for_selector("#hand .card")
    snapshot = page.locator("body").aria_snapshot()
    assert re.search(r'button "(Ace|King|Queen|Jack|Ten|Nine|Eight|Seven|Six) of (clubs|diamonds|hearts|spades)"',
                     snapshot), snapshot
    assert page.get_attribute("#log", "role") == "log" and page.get_attribute("#log", "aria-live") == "polite"
    assert 'log "Announcements"' in snapshot
    card = page.locator("#hand .card").first
    assert re.fullmatch(r"(Ace|King|Queen|Jack|Ten|Nine|Eight|Seven|Six) of (clubs|diamonds|hearts|spades)",
                        card.get_attribute("aria-label"))


def test_two_people_play_le_truc_through_the_invite_link(browser: Any, server: Any) -> None:
    ann = new_page(browser)
    create_table(ann, server, "truc", ["me", "invite"])
    invite = ann.get_attribute("#invites a.seat-link-1", "href")
    bob = new_page(browser, name="Bob")
    bob.goto(invite)
    bob.wait_for_selector("#hand .card")
    ann.wait_for_function("document.querySelector('#others').textContent.includes('Bob')")
    play_until([ann, bob], lambda: deal_over(ann) and deal_over(bob))
    # both read the same announcements, each with their own seat marked "(you)"
    assert "South (you)" in bob.text_content("#log") and "North (you)" in ann.text_content("#log")
    # a reload mid-game resumes the seat with the same link
    bob.reload()
    bob.wait_for_selector("#hand .card")
    assert "you are South" in bob.text_content("#where")


def test_three_people_play_schafkopf_and_a_reload_and_restart_resume(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "three.db"
    with ServerThread(db, limits=LOOSE) as srv:
        ann = new_page(browser)
        create_table(ann, srv, "schafkopf", ["me", "invite", "invite"])
        links = [ann.get_attribute(f"#invites a.seat-link-{i}", "href") for i in (1, 2)]
        bob, cat = new_page(browser, "Bob"), new_page(browser, "Cat")
        bob.goto(links[0])
        cat.goto(links[1])
        pages = [ann, bob, cat]
        for p in pages:
            p.wait_for_selector("#hand .card")
        # a few moves, then a reload mid-deal resumes the seat
        for _ in range(3):
            for p in pages:
                if my_turn(p):
                    press_a_legal_key(p)
                    p.wait_for_timeout(150)
        hand_before = cat.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
        cat.reload()
        cat.wait_for_selector("#hand .card")
        assert cat.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)") == hand_before
        url = srv.url
    # the server restarts (same database, same port): every page reconnects by itself
    port = int(url.rsplit(":", 1)[1])
    with ServerThread(db, port=port, limits=LOOSE):
        for p in pages:
            p.wait_for_function("document.querySelector('#status').textContent.startsWith('Your turn') || "
                                "document.querySelector('#status').textContent.startsWith('Waiting')", timeout=15000)
        assert cat.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)") == hand_before
        play_until(pages, lambda: all(deal_over(p) for p in pages))
        assert all(not p.errors for p in pages)


def test_the_page_paces_itself_by_the_rate_limit_instead_of_being_refused(browser: Any, server: Any) -> None:
    """Twelve changes of speed at once: the page sends the first few at once, holds the rest back to a
    little under the server's rate, and the server refuses none ("slow down" would be its answer)."""
    import time

    from parlour.web.play import BURST, RATE

    page = new_page(browser)
    sent: list[tuple[float, str]] = []
    received: list[str] = []

    def on_socket(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append((time.monotonic(), str(payload))))
        ws.on("framereceived", lambda payload: received.append(str(payload)))

    page.on("websocket", on_socket)
    create_table(page, server, "gops", ["me", "bot:easy"])
    page.wait_for_selector("#hand .card")
    values = ["0.3", "0"] * 6
    for value in values:
        page.select_option("#speed", value)
    deadline = time.monotonic() + 5 + len(values) / RATE
    while sum('"speed"' in text for _, text in sent) < len(values) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    page.wait_for_timeout(300)
    speeds = [at for at, text in sent if '"speed"' in text]
    assert len(speeds) == len(values), "every change reached the server"
    assert not [text for text in received if "slow down" in text], "none was refused"
    held = speeds[int(BURST):]
    assert held and held[-1] - speeds[0] >= (len(values) - BURST) / RATE, "the rest waited for the bucket"
    assert not page.errors


def test_a_table_is_made_while_the_lobby_statistics_are_still_on_their_way(browser: Any, server: Any) -> None:
    """The lobby's statistics are held back until the table is made: the form makes it all the same.
    Before, the form's handler waited for them, and a click in that gap sent the bare form, which
    reloaded the lobby (a slow server, or a quick hand, and no table opened)."""
    page = new_page(browser)
    held: list[Any] = []
    page.route("**/api/stats", lambda route: held.append(route))  # answered only at the end
    create_table(page, server, "gops", ["me", "bot:easy"])
    page.wait_for_selector("#hand .card")
    assert held, "the lobby asked for its statistics"
    for route in held:
        route.continue_()
    assert not page.errors


def test_the_lobby_gives_each_game_a_tile_and_its_screenshot_is_made(browser: Any, server: Any) -> None:
    from parlour.registry import game_class, names
    from parlour.web.pages import fan

    page = new_page(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#quick-games .tile")
    tiles = page.locator("#quick-games .tile")
    assert tiles.count() == len(names())
    for i, name in enumerate(names()):
        tile, cls = tiles.nth(i), game_class(name)
        assert tile.get_attribute("data-game") == name
        assert tile.locator("h3").text_content() == cls.title
        assert tile.locator(".tile-about").text_content() == cls.description
        assert tile.locator(".tile-players").text_content() == f"{cls.num_players} players"
        assert tile.locator(".fan .card-svg").count() == len(fan(cls.PACK)) == 3  # drawn, not an image file
        assert tile.locator("button.quick").text_content() == f"Play {cls.title}"
    assert low_contrast(page) == []
    DOCS.mkdir(exist_ok=True)
    page.screenshot(path=str(DOCS / "web-lobby.png"))
    page.set_viewport_size({"width": 360, "height": 740})  # a phone: one tile a row, nothing wider than the page
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    boxes = [tiles.nth(i).bounding_box() for i in range(2)]
    assert boxes[0] is not None and boxes[1] is not None and boxes[1]["y"] > boxes[0]["y"]
    assert not page.errors and not page.console_errors


def test_review_this_deal_from_the_summary_and_from_the_history(browser: Any, server: Any) -> None:
    """The deal-summary dialog's "Review this deal" (while play may go on), and each deal's on /history."""
    page = new_page(browser)
    create_table(page, server, "gops", ["me", "bot:easy"], {"cards": "3"})
    page.wait_for_selector("#hand .card")
    play_until([page], lambda: deal_over(page))
    page.wait_for_selector("#summary-dialog[open]")
    page.click("#summary-review")
    page.wait_for_selector("#review-dialog[open]", timeout=60000)
    assert page.text_content("#review-title") == "Review of deal 1"
    lines = str(page.text_content("#review-lines"))
    assert "Review of deal 1 of GOPS, for North (you)" in lines and "Verdict:" in lines
    assert "Verdict (1 of 4)" in str(page.text_content("#review-page"))
    page.click("#review-next")
    assert "Turn 1 (2 of 4)" in str(page.text_content("#review-page"))
    assert "North (you):" in str(page.text_content("#review-lines"))  # the hands as the turn began
    page.keyboard.press("ArrowRight")
    assert "Turn 2" in str(page.text_content("#review-page"))
    page.click("#review-close")
    page.wait_for_selector("#review-dialog:not([open])", state="attached")
    page.goto(server.url + "/history")
    page.wait_for_selector("#my-games button.my-record")
    page.locator("#my-games button.my-record").last.click()
    page.wait_for_selector("#record-dialog[open] button.review-deal")
    page.click("#record-dialog button.review-deal")
    page.wait_for_selector("#review-dialog[open]", timeout=60000)  # kept: the same review at once
    assert "Review of deal 1 of GOPS, for North (you)" in str(page.text_content("#review-lines"))
    assert not page.errors and not page.console_errors
