"""Clobby saves from before both players were asked at the dix: set aside, never a crash.

The two records below were written by the engine as it was before the change (only the holder
of the 7 of trumps was asked): the dealer exchanging 7S, and no dix at all with 7S undealt.
Under today's rules elder is asked first, so each record stops replaying at its second action.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

import parlour
from helpers.clobby import DIX_DECK, DIX_NOBODY
from parlour.saves import open_game
from parlour.store import Store, open_store

OPTIONS = {"game_point": 500, "no_tie": False, "clubs_preferred": False, "tout_atout": False}
OLD_RECORDS = {
    "the dealer exchanged, alone asked": {"deck": DIX_DECK, "actions": ["take", "exchange", "7C", "QS"]},
    "nobody asked, the 7 undealt": {"deck": DIX_NOBODY, "actions": ["take", "JS"]},
}


def old_record(case: str) -> str:
    rec = OLD_RECORDS[case]
    return json.dumps({"version": 1, "game": "clobby", "options": OPTIONS, "seed": 7, "deck": rec["deck"],
                       "dealer": 1, "actions": rec["actions"]})


@pytest.mark.parametrize("case", OLD_RECORDS)
def test_an_old_record_is_a_value_error_naming_the_action(case: str) -> None:
    with pytest.raises(ValueError, match="record action 2"):
        parlour.from_json(old_record(case))


@pytest.mark.parametrize("case", OLD_RECORDS)
def test_an_old_save_is_set_aside_and_a_new_game_starts(tmp_path, case: str) -> None:
    path = tmp_path / "saves.db"
    store = open_store(path)
    store.save_game("clobby", old_record(case), {"level": "easy"})
    opening = open_game(store, "clobby", {}, fresh=False, seed=3)
    try:
        assert not opening.resumed and opening.state.actions == []
        assert any("could not be restored" in n and "set aside" in n for n in opening.notices), opening.notices
        assert store.load_game("clobby") is None
        # a second start finds nothing to restore: the broken save no longer stands in the way
        assert not any("could not be restored" in n for n in open_game_notices(store))
    finally:
        opening.release()
        store.close()
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT game, record, error FROM broken_saves").fetchall()
    assert [(g, r) for g, r, _ in rows] == [("clobby", old_record(case))]  # kept byte for byte
    assert "record action 2" in rows[0][2]


def open_game_notices(store: Store) -> list[str]:
    opening = open_game(store, "clobby", {}, fresh=False, seed=4)
    opening.release()
    return opening.notices
