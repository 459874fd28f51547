"""Two people in Chromium at one table, each page served by a different server process (``--bus``),
on each store backend: what one plays reaches the other through Redis and the database.

The servers run in this process (``ServerThread``), each with its own tables and its own Redis
connection, as in ``test_bus``; the invite link is opened on the second server's port, as a proxy
spreading the people over the processes would send it.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from helpers.web import LOOSE
from interfaces.web.test_browser import CHROMIUM, create_table, deal_over, new_page, play_until
from parlour.web.run import ServerThread

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")


def test_two_people_served_by_two_processes_play_a_deal_of_le_truc(browser: Any, database: str,
                                                                    redis_server: Any) -> None:
    with ServerThread(database, limits=LOOSE, bus=redis_server.url) as a, \
            ServerThread(database, limits=LOOSE, bus=redis_server.url) as b:
        ann = new_page(browser)
        create_table(ann, a, "truc", ["me", "invite"])
        invite = ann.get_attribute("#invites a.seat-link-1", "href")
        assert invite is not None and invite.startswith(a.url)
        bob = new_page(browser, name="Bob")
        bob.goto(b.url + invite[len(a.url):])
        bob.wait_for_selector("#hand .card")
        ann.wait_for_function("document.querySelector('#others').textContent.includes('Bob')")
        play_until([ann, bob], lambda: deal_over(ann) and deal_over(bob))
        assert "South (you)" in (bob.text_content("#log") or "") and "North (you)" in (ann.text_content("#log") or "")
        assert not ann.errors and not bob.errors
