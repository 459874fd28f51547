"""The review of a finished deal (``parlour.review``): right answers, honesty, the verdict.

Hand-built deals (``deck=``) where the right choice is known, one per game: the review names it
and its cost to the exact figure, which the test also finds by playing both choices out in the
engine (the rest of each deal is forced).  Small sample budgets: these check what the review
says, ``bench/bench_review.py`` how well it judges at the default budget.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import parlour
from parlour.bots import make
from parlour.engine import bot_rng
from parlour.knowledge import CardFinder
from parlour.review import NoReview, NotOver, dumps, game_dict, judge, review_deal
from parlour.review.judge import HIDDEN_VIEW, TOO_DEEP
from parlour.review.report import from_dict
from parlour.review.say import lines
from parlour.review.verdict import costliest, verdict
from parlour.store import open_store

TRUC_PACK = list(parlour.load("truc").PACK)
#: game -> (options, deck, dealer, North's actions and the others' before the choice, the costly choice, the
#: right one, its exact cost in the game's unit, the actions after the choice before the rest is forced)
HAND_BUILT: dict[str, tuple[dict[str, Any], list[str], int | None, list[str], str, str, float, list[str]]] = {
    # the last trick but one: North's K♠ is the second of his bella pair: announcing it is worth 20 more
    "clobby": ({}, ["QS", "9H", "8D", "QD", "AC", "QC", "KH", "JS", "8S", "JH", "KD", "JC", "KS", "TS", "7C", "KC",
                    "QH", "7S", "TH", "7D", "TD", "JD", "TC", "9S", "7H", "9C", "AH", "AD", "8C", "8H", "AS", "9D"], 1,
               ["take", "exchange", "keep", "JS", "7C", "8S", "JC", "9H", "TH", "AC", "KC", "QH", "KH", "8D", "KD",
                "JH", "TS", "QS", "QC"], "KS", "KS+bella", 20.0, []),
    # East's solo in spades, two tricks left: North's K♥ keeps East to fewer pips than his Q♥ (2 chips a pip)
    "sixbid": ({}, ["AS", "QS", "AH", "9H", "AC", "9S", "6C", "8S", "QC", "KH", "TH", "QD", "8D", "AD", "7C", "TC",
                    "TS", "KC", "9C", "JS", "QH", "TD", "KD", "8H", "KS", "7S", "6S", "JC", "9D", "6H", "JD", "JH",
                    "8C", "7D", "7H", "6D"], 0,
               ["solo", "pass", "pass", "trump S", "AS", "8S", "JS", "AH", "6H", "7H", "AD", "9D", "6D", "6S", "TS",
                "TH", "AC", "QC", "7C", "TC", "8C", "JC", "KC", "9C", "7S", "KS", "9S", "7D", "8D", "JD", "QD"],
               "QH", "KH", 2.0, []),
    # a Ramsch, three tricks left: North's Q♦ rather than K♠ (a margin of -1 rather than -2)
    "schafkopf": ({}, ["7D", "AS", "8C", "7S", "AH", "JH", "TD", "7C", "AD", "TH", "AC", "7H", "9C", "QS", "KH",
                       "9D", "8H", "JD", "KS", "JS", "8S", "9S", "JC", "QC", "9H", "QH", "KD", "TC", "QD", "8D", "KC",
                       "TS"], 1,
                  ["pass", "pass", "pass", "7D", "9D", "8D", "KD", "TD", "QC", "7H", "8H", "TS", "JD", "AD", "QS", "8C",
                   "TC", "KC", "7S", "8S", "AS", "9H", "AH", "9S", "JH", "JS", "QH", "9C"], "KS", "QD", 1.0, []),
    # North has won the first trick and leads his 7, the top rank (ties go to him): a double offered against a
    # sure win is accepted (+2) and never declined (-1)
    "truc": ({}, ["8C", "KC", "7C", "QC", "9C", "JC", *[c for c in TRUC_PACK if c not in "8C KC 7C QC 9C JC".split()]],
             1, ["play", "8C", "KC", "7C", "double"], "decline", "accept", 3.0, []),
    # three cards, the 3♦ tied and carried: with 5 at stake and A 2 each left, the A♣ loses 4 to the 2♣
    "gops": ({"cards": 3}, ["3D", "2D", "AD"], None, ["3C", "3S"], "AC", "2C", 4.0, ["2S"]),
}


#: the games whose hand-built choice costs the same whatever the hidden cards (the bella, a sure trick, GOPS)
SURE = ("clobby", "truc", "gops")


def played(game: str, options: dict[str, Any], deck: list[str], dealer: int | None, actions: list[str]) -> Any:
    state = parlour.load(game, **options).new_state(seed=7, deck=deck, dealer=dealer)
    for action in actions:
        state.apply(action)
    return state


def forced_to_the_end(state: Any) -> Any:
    while not state.deals:
        legal = state.legal_actions()
        assert len(legal) == 1, f"the rest of the deal is forced: {legal}"
        state.apply(legal[0])
    return state


def margin(game: str, scores: list[int], seat: int) -> float:
    """The seat's deal result as its game's review values it."""
    if game == "sixbid":
        return float(scores[seat])
    if game == "schafkopf":
        return scores[seat] - (sum(scores) - scores[seat]) / 2
    return float(scores[seat] - scores[1 - seat])


@pytest.mark.parametrize("game", list(HAND_BUILT))
def test_a_hand_built_deal_names_the_right_choice_and_its_exact_cost(game: str) -> None:
    options, deck, dealer, before, wrong, right, cost, after = HAND_BUILT[game]
    state = played(game, options, deck, dealer, before)
    assert state.current_player == 0 and {wrong, right} <= set(state.legal_actions())
    if game not in ("truc", "gops"):  # the engine's own scores of both choices give the figure
        outcomes = {}
        for choice in (wrong, right):
            branch = state.clone()
            branch.apply(choice)
            outcomes[choice] = margin(game, forced_to_the_end(branch).deals[0]["scores"], 0)
        assert outcomes[right] - outcomes[wrong] == cost
    state.apply(wrong)
    for action in after:
        state.apply(action)
    review = review_deal(forced_to_the_end(state).record(), 1, 0, samples=8)
    judged = next(j for j in review.judged if j.chosen == wrong)
    assert judged.best == right, "by what North knew, too"
    if game in SURE:  # the cost is the same in every deal North could think he was in
        assert judged.cost == pytest.approx(cost, abs=1e-6)
        assert f"cost {cost:.1f} {review.unit} by what you knew (best {right}" in "\n".join(lines(review))
    if review.perfect:  # every card was shown by the deal's end: the values as the cards lay are exact
        assert judged.perfect_best == right and judged.perfect_cost == pytest.approx(cost, abs=1e-9)
        assert f"As the cards lay: {right} " in "\n".join(lines(review))


def test_no_review_before_the_deal_has_ended() -> None:
    state = parlour.load("truc").new_state(seed=3)
    state.apply(state.legal_actions()[0])
    with pytest.raises(NotOver, match="deal 1 has not ended"):
        review_deal(state.record(), 1, 0)
    with pytest.raises(NotOver, match="numbered from 1"):
        review_deal(state.record(), 0, 0)


def deals_by(game: str, level: str, deals: int, seed: int, **options: Any) -> Any:
    state = parlour.load(game, **options).new_state(seed=seed)
    bots = [make(game, level) for _ in range(state.game.num_players)]
    while len(state.deals) < deals and not state.is_over:
        seat = state.current_player
        state.apply(bots[seat].act(state.view(seat), bot_rng(state.seed, len(state.actions))))
    return state


def test_strong_reviewed_by_its_own_search_loses_next_to_nothing() -> None:
    """A Schafkopf deal strong plays against itself (eight samples a decision, so it is reproducible): its
    losses are never negative and small (``bench/bench_review.py``: about 0.3 points a deal at the default budget,
    where easy loses about 2); GOPS's equilibrium player loses nothing at all."""
    from parlour.games.schafkopf.strong import StrongBot

    state = parlour.load("schafkopf").new_state(seed=5)
    bot = StrongBot.counted(8, 4)
    while not state.deals:
        seat = state.current_player
        state.apply(bot.act(state.view(seat), bot_rng(state.seed, len(state.actions))))
    review = review_deal(state.record(), 1, 0, samples=8)
    assert all(j.cost is None or j.cost >= 0 for j in review.judged)
    assert review.verdict.decisions >= 5 and review.verdict.loss <= 1.5
    gops = review_deal(deals_by("gops", "strong", 1, 2, cards=6).record(), 1, 0)
    assert gops.verdict.decisions == 5 and gops.verdict.loss == pytest.approx(0, abs=1e-9)


def test_the_cards_as_they_lay_value_the_opening_lead_within_the_node_budget_and_say_so_past_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Six-Bid deal (easy's, seed 2) whose opening lead North makes is valued as the cards lay, the first
    of its eleven tricks included; with a budget of one node no card decision that needs a search is,
    and each of those says why, in words and in the JSON (``search.solver.budget``)."""
    record = deals_by("sixbid", "easy", 1, 2).record()
    opening = [j for j in review_deal(record, 1, 0, samples=2).judged if j.phase == "play" and j.trick == 1]
    assert len(opening) == 1 and len(opening[0].legal) == 11 and opening[0].perfect
    assert set(opening[0].perfect) == set(opening[0].legal) and opening[0].perfect_note is None
    monkeypatch.setattr(judge, "PERFECT_NODES", 1)
    cut = review_deal(record, 1, 0, samples=2)
    plays = [j for j in cut.judged if j.phase == "play"]
    assert plays[0].trick == 1 and plays[0].perfect is None and plays[0].perfect_note == TOO_DEEP
    assert all(j.perfect or j.perfect_note == TOO_DEEP for j in plays)
    assert f"As the cards lay: {TOO_DEEP}." in "\n".join(lines(cut))
    assert dumps(from_dict(json.loads(dumps(cut.to_dict()))).to_dict()) == dumps(cut.to_dict())


def test_the_same_record_gives_the_same_review_and_it_survives_json() -> None:
    record = deals_by("clobby", "easy", 2, 11).record()
    first, again = review_deal(record, 2, 0, samples=4), review_deal(record, 2, 0, samples=4)
    assert dumps(first.to_dict()) == dumps(again.to_dict())
    assert dumps(from_dict(json.loads(dumps(first.to_dict()))).to_dict()) == dumps(first.to_dict())
    game = game_dict([review_deal(record, d, 0, samples=4) for d in (1, 2)])
    assert [d["deal"] for d in game["deals"]] == [1, 2]
    assert game["loss"] == pytest.approx(sum(d["loss"] for d in game["deals"]), abs=0.01)


def test_a_defender_never_sees_the_schafkopf_discard() -> None:
    for seed in range(40):
        state = deals_by("schafkopf", "easy", 1, seed)
        summary = state.deals[0]
        if summary["soloist"] not in (None, 0):
            break
    soloist = summary["soloist"]
    discard = set(parlour.load("schafkopf").PACK) - {c for t in _tricks(state) for c in t}
    assert len(discard) == 2
    text = json.dumps(review_deal(state.record(), 1, 0, samples=2).to_dict())
    assert not discard & CardFinder(state.game.PACK).in_text(text), "the discard stays face down"
    own = json.dumps(review_deal(state.record(), 1, soloist, samples=2).to_dict())
    assert discard <= CardFinder(state.game.PACK).in_text(own), "the soloist's own review shows his discard"
    theirs = json.dumps(review_deal(state.record(), 1, soloist, viewer=0, samples=2).to_dict())
    assert not discard & CardFinder(state.game.PACK).in_text(theirs), "nor does his review for North"


def _tricks(state: Any) -> list[list[str]]:
    fresh = state.fresh_copy()
    out = []
    for action in state.actions:
        before = fresh.view(0)["trick_seq"] if not fresh.deals else None
        fresh.apply(action)
        if not fresh.deals and fresh.view(0)["trick_seq"] != before:
            out.append([c for _, c in fresh.view(0)["last_trick"]["cards"]])
    out.append([c for _, c in fresh.deals[0]["final_trick"]["cards"]])
    return out


def truc_declined(deck: list[str]) -> Any:
    """A Le Truc deal North declines after one trick: South's two other cards are never played."""
    state = parlour.load("truc").new_state(seed=9, deck=deck, dealer=1)
    for action in ["play", "8C", "KC", "9C", "double", "decline"]:
        state.apply(action)
    assert state.deals and state.deals[0]["hands"] is None
    return state


def test_le_truc_s_unplayed_cards_never_show_not_even_as_a_number() -> None:
    """South's unplayed cards dealt otherwise: North's review is the same bytes (no value is drawn from them)."""
    rest = [c for c in TRUC_PACK if c not in "8C KC 7C QC 9C JC 7S AH".split()]
    one = truc_declined(["8C", "KC", "7C", "QC", "9C", "JC", *rest, "7S", "AH"])
    other = truc_declined(["8C", "KC", "7C", "7S", "9C", "AH", *rest, "QC", "JC"])
    a, b = (dumps(review_deal(s.record(), 1, 0, samples=4).to_dict()) for s in (one, other))
    assert a == b
    assert not {"QC", "JC"} & CardFinder(TRUC_PACK).in_text(a)


def test_a_computer_seat_is_reviewed_only_where_its_cards_were_shown_and_never_another_person_s() -> None:
    one = truc_declined(["8C", "KC", "7C", "QC", "9C", "JC", *[c for c in TRUC_PACK if c not in
                                                               "8C KC 7C QC 9C JC".split()]])
    south = review_deal(one.record(), 1, 1, viewer=0, samples=2)  # South was a computer: North asks about it
    notes = [j.note for j in south.judged]
    assert notes and all(n == HIDDEN_VIEW for n in notes), "every view of South's held cards North never saw"
    assert not {"QC", "JC"} & CardFinder(TRUC_PACK).in_text(json.dumps(south.to_dict()))
    with pytest.raises(NoReview, match="their own seat"):
        review_deal(one.record(), 1, 1, viewer=0, people=(1,))


def test_the_verdict_and_the_accuracy_are_one_definition() -> None:
    v = verdict([({"a": 3.0, "b": 1.0, "c": 0.0}, "b"), ({"a": 2.0, "b": 2.0}, "a"), ({"x": 5.0, "y": 1.0}, "x")])
    assert (v.loss, v.decisions) == (2.0, 3)
    assert v.accuracy == pytest.approx(100 * (1 + 0 + 4) / (3 + 0 + 4))
    assert verdict([({"a": 1.0, "b": 1.0}, "a")]).accuracy is None  # no choice mattered
    assert costliest([(0.01, 0), (2.0, 1), (2.0, 2), (1.0, 3), (0.5, 4)]) == [1, 2, 3]


def test_the_store_keeps_reviews_and_tells_the_average_loss_over_time(tmp_path) -> None:
    store = open_store(tmp_path / "r.db")
    for i in range(30):
        verdict_ = {"game": "schafkopf", "unit": "points", "loss": 1.0 if i < 10 else 3.0, "decisions": 9,
                    "accuracy": 90.0}
        store.save_review(f"k{i}", 1, 0, 32, verdict_, "{}", counted=True)
    store.save_review("demo", 1, 0, 32, {"game": "clobby", "unit": "points", "loss": 9.0, "decisions": 1,
                                          "accuracy": None}, "{}", counted=False)
    (trend,) = store.loss_trends()
    assert trend.game == "schafkopf" and (trend.recent_deals, trend.earlier_deals) == (20, 10)
    assert (trend.recent, trend.earlier) == (3.0, 1.0)
    assert store.load_review("k3", 1, 0, 32) == "{}" and store.load_review("k3", 1, 0, 8) is None
    from parlour.text import format_stats

    assert ("Your average loss per Schafkopf deal: 3.0 points over your last 20 deals, 1.0 over the 10 deals "
            "before.") in format_stats(store.stats(), store.loss_trends())
    store.close()
