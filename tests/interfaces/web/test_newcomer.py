"""What a new player trips over at the browser table (issue 25): each point in Debian's Chromium.

The positions are made with the engine and stored as a table (as ``test_bella_browser`` does), so each
test opens the page right where the point is: a Schafkopf discard, a Six-Bid give-back and trump,
GOPS after a tie, a card that must follow suit.  The texts the page must show come from where the
terminal takes them (``parlour.text.prompt``, the engine's ``IllegalAction.why``, ``Table.suggest``).
"""

from __future__ import annotations

import json
import os
import re
import string
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import parlour
from helpers.web import LOOSE
from parlour.cards import SUIT_NAMES, SUIT_SYMBOLS, card_name, pretty_action
from parlour.store import open_store
from parlour.table import Table
from parlour.text import CardKeys, felt, prompt
from parlour.web.run import ServerThread
from parlour.web.tables import token_hash
from parlour.web.views import seat_frame, web_keys

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")

@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("newcomer") / "web.db"


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[Any]:
    with ServerThread(db, limits=LOOSE) as srv:
        yield srv


def new_page(browser: Any, name: str | None = "Ann", **context: Any) -> Any:
    page = browser.new_context(viewport={"width": 1200, "height": 820}, bypass_csp=True, **context).new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    if name:
        page.add_init_script(f"localStorage.setItem('parlour-name', {json.dumps(name)})")
    return page


_made = [0]


def stored(server: Any, state: parlour.State, humans: tuple[int, ...], delay: float = 0.0) -> str:
    """A table at ``state`` (``humans``: the people's seats, each link's secret ``tok<seat>``; the rest
    computer players); returns its page's address without the seat."""
    _made[0] += 1
    table_id = f"newcomer{_made[0]}"
    seats: list[dict[str, Any]] = []
    for s in range(state.game.num_players):
        if s in humans:
            seats.append({"kind": "human", "level": None, "name": f"P{s}", "token": token_hash(f"tok{s}"),
                          "claimed": True})
        else:
            seats.append({"kind": "bot", "level": "easy", "name": "computer (easy)"})
    store = open_store(server.db)
    try:
        store.create_web_table(table_id, state.game.name, state.to_json(), seats, {"open": False, "delay": delay},
                               len(state.actions))
    finally:
        store.close()
    return f"{server.url}/t/{table_id}"


def open_seat(browser: Any, url: str, seat: int, script: str | None = None, **context: Any) -> Any:
    """The page of ``seat`` at ``url``, once it is that seat's turn (``script``: run in the page before its own;
    ``context``: the browser context's options)."""
    page = new_page(browser, **context)
    if script:
        page.add_init_script(script)
    page.goto(f"{url}#seat={seat}&k=tok{seat}")
    page.wait_for_selector("#hand .card")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Your turn')")
    return page


def drive(game: str, until: Callable[[parlour.State], bool], choose: Callable[[parlour.State], str],
          seeds: range = range(200), **options: Any) -> parlour.State:
    """The first position ``until`` accepts, playing ``choose`` from a seeded deal."""
    for seed in seeds:
        state = parlour.load(game, **options).new_state(seed=seed)
        for _ in range(300):
            if state.is_over:
                break
            if until(state):
                return state
            state.apply(choose(state))
    raise AssertionError(f"no {game} position found")


def first(state: parlour.State) -> str:
    return state.legal_actions()[0]


def status(page: Any) -> str:
    return str(page.text_content("#status"))


# ------------------------------------------------------------------ 1. what is asked, on the felt, in words
def schafkopf_discard() -> parlour.State:
    def choose(state: parlour.State) -> str:
        legal = state.legal_actions()
        return "pick-up" if "pick-up" in legal else legal[0]
    return drive("schafkopf", lambda s: s.view(s.current_player)["phase"] == "discard", choose)  # type: ignore[arg-type]


def sixbid_call(phase: str) -> parlour.State:
    """Six-Bid with the first bidder's ``call`` standing; at ``give``, a card of another seat was called."""
    def choose(state: parlour.State) -> str:
        view = state.view(state.current_player)  # type: ignore[arg-type]
        legal = state.legal_actions()
        if view["phase"] == "bid":
            return "call" if "call" in legal else "pass"
        if view["phase"] == "call":
            others = {c for s in range(3) if s != state.current_player for c in state.view(s)["hand"]}
            return next(a for a in legal if a.split()[1] in others)
        return legal[0]
    return drive("sixbid", lambda s: s.view(s.current_player)["phase"] == phase, choose)  # type: ignore[arg-type]


def test_the_frame_asks_in_the_games_own_words_as_the_terminal_does() -> None:
    for state in (schafkopf_discard(), sixbid_call("give")):
        seat = state.current_player
        assert seat is not None
        frame = seat_frame(Table(state, [None] * state.game.num_players), seat, count=0, lines=[],
                           players=[{}] * state.game.num_players, table_id="t")
        view = state.view(seat)
        assert frame["prompt"] == prompt(view, view["legal_actions"], view["hand"])
        assert frame["prompt"].startswith(("Discard 2 cards to the skat (1 of 2)", "Give "))


def test_the_deal_summary_has_no_heading_bullet_of_its_own() -> None:
    """Issue 25, point 10: the summary box has its title; its first line is not "=== Deal 1 over ==="."""
    import random

    from parlour.bots import make

    state = parlour.load("gops").new_state(seed=3)
    easy = make("gops", "easy")
    rng = random.Random(1)
    while not state.deals:
        state.apply(easy.act(state.view(state.current_player), rng))
    frame = seat_frame(Table(state, [None, None]), 0, count=0, lines=[], players=[{}, {}], table_id="t")
    assert frame["summary"] and not any(line.startswith("===") for line in frame["summary"])
    assert frame["seat_name"] == "North" and frame["names"][0] == "North (you)"  # the header: "you are North"


def test_the_schafkopf_discard_is_asked_card_by_card_and_the_first_may_be_taken_back(
        browser: Any, server: Any) -> None:
    state = schafkopf_discard()
    seat = state.current_player
    assert seat is not None
    page = open_seat(browser, stored(server, state, (seat,)), seat)
    assert status(page) == "Your turn: Discard 2 cards to the skat (1 of 2)."
    assert page.locator("#hand .card:not([aria-disabled])").count() == 12
    page.locator("#hand .card").first.click()
    page.wait_for_function("document.querySelector('#status').textContent.includes('(2 of 2)')")
    assert page.locator("#hand .card").count() == 11
    # against computer players the first card goes back to the hand before the second is laid
    page.click("#undo")
    page.wait_for_function("document.querySelector('#status').textContent.includes('(1 of 2)')")
    assert page.locator("#hand .card").count() == 12
    assert not page.errors, page.errors


def test_the_sixbid_give_back_says_whom_and_for_which_card(browser: Any, server: Any) -> None:
    state = sixbid_call("give")
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    page = open_seat(browser, stored(server, state, (seat,)), seat)
    said = pretty_action(prompt(view, view["legal_actions"], view["hand"]))
    assert status(page) == f"Your turn: {said}.", status(page)
    assert "Give " in said and "play a card" not in status(page).lower()
    assert not page.errors, page.errors


# ------------------------------------------------------------------ the cards lying face up, drawn (issue 25, point 4)
def test_the_upcard_the_trump_and_the_picked_up_skat_are_drawn_on_the_felt(browser: Any, server: Any) -> None:
    """Clobby's upcard and, once fixed, its trump; Six-Bid's trump; Schafkopf's picked-up skat: each drawn in
    the middle of the felt (the trump as a card of its suit, read out as the suit), not only named."""
    clobby = parlour.load("clobby").new_state(seed=1)
    clobby.apply("take")  # elder takes the upcard's suit: it is the trump
    sixbid = sixbid_solo_declared()
    sixbid.apply("trump C")
    upcard = clobby.view(0)["upcard"]
    cases: list[tuple[parlour.State, list[list[Any]]]] = [
        (clobby, [["Upcard", 1, 0, "Upcard: " + card_name(upcard)],
                  ["Trump", 1, 1, "Trump: " + SUIT_NAMES[upcard[1]]]]),
        (sixbid, [["Trump", 1, 1, "Trump: clubs"]]),
        (schafkopf_discard(), [["The skat you picked up", 2, 0, None]])]
    for state, expected in cases:
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        assert [[caption, len(items)] for caption, items in felt(view)] == [e[:2] for e in expected]
        page = open_seat(browser, stored(server, state, (seat,)), seat)
        groups = page.eval_on_selector_all(
            "#felt .felt-group", "gs => gs.map(g => [g.querySelector('figcaption').textContent, "
            "g.querySelectorAll('svg.card-svg').length, g.querySelectorAll('svg.suit-card').length, "
            "g.querySelector('[role=img]').getAttribute('aria-label')])")
        assert [g if e[3] else g[:3] for g, e in zip(groups, expected, strict=True)] == \
            [e if e[3] else e[:3] for e in expected], groups
        assert not page.errors, page.errors
        page.close()


# ------------------------------------------------------------------ 4. a card played moves, and the trick to its winner
#: Every movement the page starts (motion.js), kept in ``window.moves``: [the moving element's class, the
#: duration of each of its animations in ms].  A card coming to the trick is marked "moving", a trick's
#: card flying to its winner is a "flight" copy.
MOVES_SEEN = """
window.moves = [];
new MutationObserver((records) => {
  for (const r of records) {
    const found = r.type === "attributes" ? [r.target].filter((e) => e.classList.contains("moving"))
      : [...r.addedNodes].filter((n) => n.classList && n.classList.contains("flight"));
    const times = (e) => e.getAnimations().map((a) => a.effect.getTiming().duration);
    for (const e of found) window.moves.push([e.className, ...times(e)]);
  }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
"""


def sixbid_lead() -> parlour.State:
    """Six-Bid's first trick, to be led."""
    def until(state: parlour.State) -> bool:
        view = state.view(state.current_player)  # type: ignore[arg-type]
        return view["phase"] == "play" and not view["trick"]
    return drive("sixbid", until, first)


@pytest.mark.parametrize("motion", ["moving", "reduced motion", "no pause"])
def test_a_card_played_moves_to_the_trick_and_the_trick_to_its_winner(browser: Any, server: Any, motion: str) -> None:
    """With the computer pausing 0.8 s, the card led and each card after it move into the trick, and the
    completed trick to its winner, each within the pause; none of it for a person whose system asks for
    less motion, and none at a table where the computer does not pause."""
    state = sixbid_lead()
    seat = state.current_player
    assert seat is not None
    delay = 0.0 if motion == "no pause" else 0.8
    page = open_seat(browser, stored(server, state, (seat,), delay=delay), seat, MOVES_SEEN,
                     reduced_motion="reduce" if motion == "reduced motion" else "no-preference")
    key = page.get_attribute("#hand .card:not([aria-disabled])", "aria-keyshortcuts")
    page.keyboard.press(key)
    page.wait_for_function("document.querySelector('#log').textContent.includes('Trick:')", timeout=10000)
    if motion == "moving":
        page.wait_for_function("window.moves.filter((m) => m[0] === 'flight').length === 3")
        moves = page.evaluate("window.moves")
        assert [m[0] for m in moves] == ["played moving"] * 2 + ["flight"] * 3, moves  # the third card: a flight
        assert all(len(m) == 2 and 0 < m[1] <= delay * 1000 for m in moves), "each within the computer's pause"
        page.wait_for_function("!document.querySelector('#flights').children.length")  # and gone after
    else:
        page.wait_for_timeout(400)
        assert page.evaluate("window.moves") == []
    assert not page.errors, page.errors


# ------------------------------------------------------------------ 2. GOPS: the stake on the felt, the last turn apart
def gops_after_a_tie() -> parlour.State:
    state = parlour.load("gops").new_state(seed=5)
    state.apply("AC")
    state.apply("AS")  # a tie: the diamond is carried to the next turn
    return state


def test_gops_shows_the_diamond_at_stake_on_the_felt_the_carried_beside_it_and_the_last_turn_apart(
        browser: Any, server: Any) -> None:
    state = gops_after_a_tie()
    view = state.view(0)
    stake = view["stake"]
    assert len(stake) == 2, "one diamond carried, one turned"
    page = open_seat(browser, stored(server, state, (0,)), 0)
    groups = page.eval_on_selector_all(
        "#felt .felt-group", "gs => gs.map(g => [g.querySelector('figcaption').textContent, "
        "g.querySelector('[role=img]').getAttribute('aria-label')])")
    assert [caption for caption, _ in groups] == [pretty_action(c) for c, _ in felt(view)]
    names = {"D": "diamonds"}
    rank = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "Ten", "9": "Nine", "8": "Eight", "7": "Seven",
            "6": "Six", "5": "Five", "4": "Four", "3": "Three", "2": "Two"}
    spoken = [f"{rank[c[0]]} of {names[c[1]]}" for c in stake]
    assert spoken[-1] in groups[0][1] and spoken[0] in groups[1][1], groups
    assert groups[0][0].startswith("At stake") and groups[1][0] == "Carried from ties"
    # the middle of the felt is where the stake is; the turn just played is in its own area, captioned
    assert page.is_visible("#last-area")
    assert page.text_content("#last-title") == "Last turn"
    last = page.eval_on_selector_all("#last-cards .played", "els => els.map(e => e.getAttribute('aria-label'))")
    assert last == ["North (you): Ace of clubs", "South: Ace of spades"]
    assert "Nobody takes it" in str(page.text_content("#last-result"))
    assert page.locator("#trick .played").count() == 0, "the last turn is not shown as the trick"
    box = page.locator("#felt").bounding_box()
    board = page.locator("#board").bounding_box()
    assert abs((box["x"] + box["width"] / 2) - (board["x"] + board["width"] / 2)) < board["width"] / 4, \
        "the stake is in the middle of the felt"
    assert not page.errors, page.errors


# ------------------------------------------------------------------ 3. the lobby
def test_the_lobby_asks_for_a_missing_name_and_takes_over_at_easy(browser: Any, server: Any) -> None:
    page = new_page(browser, name=None)
    page.goto(server.url + "/")
    page.select_option("#game", "sixbid")
    assert page.input_value("#takeover-level") == "easy"
    page.fill("#my-name", "   ")
    page.click("#create")
    page.wait_for_timeout(300)
    assert page.is_hidden("#created"), "no table without a name"
    assert page.evaluate("document.activeElement.id") == "my-name"
    assert page.eval_on_selector("#my-name", "e => e.validationMessage").startswith("Your name")
    # with no seat of one's own (everyone invited) no name is needed
    for i in range(3):
        page.select_option(f"#seat-{i}", "invite")
    page.click("#create")
    page.wait_for_selector("#links a")
    invite = page.get_attribute("#links a.seat-link-0", "href")
    assert not page.errors, page.errors
    # an invited person without a name gives it on a page of its own, not over an empty felt
    guest = new_page(browser, name=None)
    guest.goto(invite)
    guest.wait_for_selector("#join-name")
    assert guest.is_hidden("#table") and guest.is_hidden("#board")
    guest.fill("#join-name", "Bob")
    guest.press("#join-name", "Enter")
    guest.wait_for_selector("#table:not([hidden])")
    assert guest.is_hidden("#join")
    assert not guest.errors, guest.errors


def test_create_the_table_opens_your_seat_with_the_invite_links_to_copy(browser: Any, server: Any) -> None:
    page = new_page(browser, name=None, permissions=["clipboard-read", "clipboard-write"])
    page.goto(server.url + "/")
    page.select_option("#game", "truc")
    page.select_option("#seat-1", "invite")
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/[^#]+#seat=0&k="))  # straight to one's own seat
    page.wait_for_selector("#invite-box:not([hidden])")
    # the box shows as the page loads, the waiting line when the table's first frame arrives
    page.wait_for_selector("#waiting:not([hidden])")
    assert "Send each their invite link" in str(page.text_content("#waiting"))
    invite = page.get_attribute("#invites a.seat-link-1", "href")
    assert invite and "#seat=1&k=" in invite
    page.click("#invites li:first-child button.copy")
    page.wait_for_function("document.querySelector('#invites button.copy').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == invite
    # the copied link seats the guest, and the table is dealt
    guest = new_page(browser, name="Bob")
    guest.goto(invite)
    guest.wait_for_selector("#hand .card")
    page.wait_for_selector("#hand .card")
    assert not page.errors and not guest.errors, (page.errors, guest.errors)


def test_one_click_plays_a_game_against_the_computer_at_the_level_chosen_last(browser: Any, server: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#quick-games button.quick", state="attached")
    assert page.input_value("#quick-level") == "easy"
    page.select_option("#quick-level", "random")
    page.click("#quick-games button[data-game=gops]")
    page.wait_for_url(re.compile(r"/t/[^#]+#seat=0&k="))
    page.wait_for_selector("#hand .card")
    assert "computer (random)" in str(page.text_content("#others"))
    assert page.is_hidden("#invite-box"), "nobody to invite"
    page.goto(server.url + "/")
    page.wait_for_selector("#quick-games button.quick", state="attached")
    assert page.input_value("#quick-level") == "random", "the level is remembered"
    assert not page.errors, page.errors


# ------------------------------------------------------------------ 4. the favicon
def test_the_page_has_an_icon_and_the_old_address_answers_too(browser: Any, server: Any) -> None:
    r = httpx.get(server.url + "/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    page = new_page(browser)
    failed: list[str] = []
    page.on("response", lambda res: failed.append(res.url) if res.status >= 400 else None)
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    icon = page.get_attribute("link[rel=icon]", "href")
    assert icon and httpx.get(server.url + icon).status_code == 200
    assert not failed and not page.errors, (failed, page.errors)


# ------------------------------------------------------------------ 5. a hint that no longer applies
def test_a_hint_goes_when_the_position_changes(browser: Any, server: Any) -> None:
    """Two people at GOPS: North asks a hint, bids; while South is to bid North's hint is gone."""
    state = parlour.load("gops", cards=6).new_state(seed=3)
    url = stored(server, state, (0, 1))
    north = open_seat(browser, url, 0)
    north.keyboard.press(".")
    north.wait_for_function("document.querySelector('#reason').textContent.startsWith('Hint:')")
    before = north.text_content("#log")
    key = north.eval_on_selector("#hand .card:not(.hinted)", "e => e.getAttribute('aria-keyshortcuts')")
    north.keyboard.press(key)  # another card than the hinted one, by its key (the highlight stays where it was)
    north.wait_for_function("b => document.querySelector('#log').textContent !== b", arg=before)
    assert status(north).startswith("Waiting for South")
    captions = north.eval_on_selector_all("#felt figcaption", "els => els.map(e => e.textContent)")
    assert captions[-1] == "Your bid, face down", "the bid made lies on the felt, the prize beside it"
    assert "Hint" not in str(north.text_content("#reason"))
    assert north.locator(".hinted").count() == 0
    assert not north.errors, north.errors


@pytest.mark.parametrize("game", parlour.names()[:5])
def test_every_key_refused_in_the_page_says_the_python_words(browser: Any, server: Any, game: str) -> None:
    """At each game's first position, every letter, digit and a few signs that do nothing there say, under the
    hand, exactly what ``parlour.text`` says of them (``refuse_key``, ``refuse_card``, with the engine's reason
    where there is one), as the terminal would: the page looks them up in what the server sends."""
    state = parlour.load(game).new_state(seed=1)
    seat = state.current_player
    assert seat is not None
    players: list[Any] = [None] * state.game.num_players
    frame = seat_frame(Table(state.clone(), players), seat, count=0, lines=[], players=[], table_id="t",
                       card_keys=CardKeys(game))
    keys = web_keys(game)
    playable = {key for card, key in frame["card_keys"].items() if card in state.legal_actions()}
    chosen = set(frame["key_actions"]) | set(frame["sequence_keys"]) | playable
    refused = [c for c in string.ascii_letters + string.digits + "%#!*" if c not in keys["meanings"]
               and c.lower() not in chosen]
    page = open_seat(browser, stored(server, state, (seat,)), seat)
    by_key = {key: card for card, key in frame["card_keys"].items() if key}
    for char in refused:
        card = by_key.get(char.lower())
        expected = frame["card_refusals"][card] if card else \
            frame["refusals"].get(char.lower()) or keys["refusals"][char]
        page.keyboard.press(char)
        assert page.text_content("#reason") == pretty_action(expected), (game, char)
    assert len(refused) > 30 and not page.errors, page.errors


def test_gops_cards_are_keyed_by_rank_as_at_the_terminal_and_q_is_the_queen(browser: Any, server: Any) -> None:
    """The terminal keys GOPS's cards by rank (parlour.text.rank_keys); the page's own Q (the lobby) is then
    Shift+Q only, so that q bids the queen."""
    state = parlour.load("gops").new_state(seed=4)
    page = open_seat(browser, stored(server, state, (0,)), 0)
    keys = page.eval_on_selector_all(
        "#hand .card", "els => els.map(e => [e.dataset.card, e.getAttribute('aria-keyshortcuts')])")
    assert all(key == card[0].lower() for card, key in keys), keys
    before = page.text_content("#log")
    page.keyboard.press("q")
    page.wait_for_function("b => document.querySelector('#log').textContent !== b", arg=before)
    assert "/t/" in page.url, "q stayed at the table"
    assert page.locator("#hand .card[data-card='QC']").count() == 0, "q bid the queen"
    page.keyboard.press("q")  # the queen is gone: the terminal's words for a rank with no card
    assert page.text_content("#reason") == ("Q is not the rank of a card you may play now"
                                            " (the keys are the ranks A 2-9 T J Q K).")
    assert not page.errors, page.errors


# ------------------------------------------------------------------ 10. suit symbols for people
def sixbid_solo_declared() -> parlour.State:
    """Six-Bid: the soloist of a plain solo names the trump (any suit but hearts)."""
    def choose(state: parlour.State) -> str:
        legal = state.legal_actions()
        return "solo" if "solo" in legal else "pass" if "pass" in legal else legal[0]
    return drive("sixbid", lambda s: s.view(s.current_player)["phase"] == "declare", choose)  # type: ignore[arg-type]


def test_suits_are_symbols_on_buttons_in_tooltips_and_in_the_log(browser: Any, server: Any) -> None:
    state = sixbid_solo_declared()
    seat = state.current_player
    assert seat is not None
    page = open_seat(browser, stored(server, state, (seat,)), seat)
    buttons = page.eval_on_selector_all("#choices .choice", "els => els.map(e => [e.dataset.action, e.textContent])")
    assert buttons and all(a.startswith("trump ") for a, _ in buttons)
    for action, text in buttons:
        suit = action[-1]
        assert f"trump {SUIT_SYMBOLS[suit]}" in text and action not in text.replace(f"({action})", ""), text
        assert f"(trump {dict(C='clubs', D='diamonds', H='hearts', S='spades')[suit]})" in text, "read out in words"
    # a card's tooltip: the engine's reason, a list of suit letters to type left as letters
    title = page.get_attribute("#hand .card", "title")
    why = state.why_not(state.view(seat)["hand"][0])
    assert title == pretty_action(why) and "one of C D H S" in title, title
    before = page.text_content("#log")
    page.click("#choices .choice[data-action='trump C']")
    page.wait_for_function("b => document.querySelector('#log').textContent !== b", arg=before)
    assert "trump \u2663" in str(page.text_content("#log"))
    assert not re.search(r"\b[2-9TJQKA][CDHS]\b|trump C\b", str(page.text_content("#log"))), "no raw codes"
    assert not page.errors, page.errors


# ------------------------------------------------------------------ 11. a refusal gives the engine's reason
def must_follow() -> parlour.State:
    """Six-Bid in play, the seat to move holding a card it may not play (it must follow suit)."""
    def until(state: parlour.State) -> bool:
        view = state.view(state.current_player)  # type: ignore[arg-type]
        return view["phase"] == "play" and any(c not in view["legal_actions"] for c in view["hand"])
    return drive("sixbid", until, first)


def test_a_refused_card_says_the_engines_reason(browser: Any, server: Any) -> None:
    state = must_follow()
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    card = next(c for c in view["hand"] if c not in view["legal_actions"])
    why = state.why_not(card)
    assert "follow suit" in why
    page = open_seat(browser, stored(server, state, (seat,)), seat)
    page.click(f"#hand .card[data-card='{card}']", force=True)  # (aria-disabled: Playwright would wait)
    assert page.text_content("#reason") == pretty_action(f"{card} may not be played now: {why}.")
    key = page.get_attribute(f"#hand .card[data-card='{card}']", "aria-keyshortcuts")
    page.keyboard.press("Escape")
    page.keyboard.press(key)
    assert page.text_content("#reason") == pretty_action(f"{key.upper()} is {card}, which you may not play now: {why}.")
    assert not page.errors, page.errors


def test_a_refused_choice_key_says_the_engines_reason(browser: Any, server: Any) -> None:
    """Hearts is no trump of a plain solo: H says why, in the engine's words, as a card does."""
    state = sixbid_solo_declared()
    seat = state.current_player
    assert seat is not None
    why = state.why_not("trump H")
    assert "hearts" in why
    page = open_seat(browser, stored(server, state, (seat,)), seat)
    page.keyboard.press("h")
    assert page.text_content("#reason") == pretty_action(f"H (trump H) is not possible now: {why}.")
    assert not page.errors, page.errors


# ------------------------------------------------------------------ 12. the hint says why
def test_the_hint_gives_the_hint_players_reason(browser: Any, server: Any) -> None:
    state = must_follow()
    seat = state.current_player
    assert seat is not None
    page = open_seat(browser, stored(server, state, (seat,)), seat)
    page.click("#hint")
    page.wait_for_function("document.querySelector('#reason').textContent.startsWith('Hint:')", timeout=20000)
    said = str(page.text_content("#reason"))
    # Table.suggest: the strong player's explain(), e.g. "the solver makes this 4 points better on average ..."
    assert re.fullmatch(r"Hint: \S+ — .{10,}\. Press \. again or Enter to play it\.", said), said
    assert not page.errors, page.errors
