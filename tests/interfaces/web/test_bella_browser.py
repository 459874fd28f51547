"""The browser page's bella keys: b, then the card's own key (as at the terminal table)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from helpers.clobby import BELLA_DECK, new, play
from helpers.web import LOOSE
from parlour.store import open_store
from parlour.web.run import ServerThread
from parlour.web.tables import token_hash

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")
sync_api = pytest.importorskip("playwright.sync_api")


def test_bella_by_b_and_the_card_key_in_the_page(tmp_path: Path) -> None:
    state = new(BELLA_DECK)
    play(state, "take KH 8H")
    db = tmp_path / "web.db"
    store = open_store(db)
    seats = [{"kind": "human", "level": None, "name": "Ann", "token": token_hash("tok"), "claimed": True},
             {"kind": "bot", "level": "easy", "name": "computer (easy)"}]
    store.create_web_table("bellatable", "clobby", state.to_json(), seats, {"open": False, "delay": 0.0},
                           len(state.actions))
    store.close()
    with ServerThread(db, limits=LOOSE) as server, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page: Any = browser.new_context(bypass_csp=True).new_page()  # for wait_for_function
        page.add_init_script("localStorage.setItem('parlour-name', 'Ann')")
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/t/bellatable#seat=0&k=tok")
        page.wait_for_selector("#choices .choice")
        keys = page.eval_on_selector_all(
            "#hand .card", "els => els.map(e => [e.dataset.card, e.getAttribute('aria-keyshortcuts')])")
        queen = dict(keys)["QH"]
        club = dict(keys)["7C"]
        choice = page.eval_on_selector("#choices .choice", "e => e.dataset.keys")
        assert choice == "b" + queen.lower(), choice
        def says(text: str) -> None:  # the server decodes the keys (parlour.keyseq): its answer comes back
            page.wait_for_function("t => document.querySelector('#reason').textContent.includes(t)", arg=text,
                                   timeout=5000)

        page.keyboard.press("b")
        says("Bella with which card?")
        page.keyboard.press("Escape")
        says("Cancelled")
        page.keyboard.press("b")
        page.keyboard.press(club.lower())  # pressed before the answer to b came: it waits its turn
        says("not possible now")
        page.keyboard.press("b")
        page.keyboard.press(queen.lower())
        page.wait_for_function("document.querySelector('#log').textContent.includes('announces bella')",
                               timeout=5000)
        assert not errors, errors
        browser.close()
