"""Line mode's menu (rules, level, a new game), the demo's order of moves and new hands, the history's
scores (issue 12; more of each in test_play.py)."""

from __future__ import annotations

from parlour import registry
from parlour.bots import make
from parlour.linemode.play import watch
from parlour.table import Table


def test_the_line_menu_offers_rules_level_and_a_new_game(tmp_path, monkeypatch, capsys) -> None:
    from parlour import cli

    gops = str(registry.names().index("gops") + 1)
    answers = iter(["r " + gops, "l", "random", "n " + gops, "q", "q"])

    def fake_input(prompt: str = "") -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    real = cli.play_human
    monkeypatch.setattr(cli, "play_human", lambda table, human, **kw: real(table, human, inp=fake_input, **kw))
    assert cli.cmd_menu(str(tmp_path / "m.db")) == 0
    out = capsys.readouterr().out
    assert registry.rules_text("gops").strip().splitlines()[0] in out
    assert "against the random computer" in out
    assert "opponents' level (random)" in out


def test_the_demo_tells_the_move_before_the_new_hands_it_causes() -> None:
    from parlour.records import from_json as load_record

    for seed in range(30):
        state = registry.load("schafkopf").new_state(seed=seed)
        bots = [make("schafkopf", "easy") for _ in range(3)]
        out: list[str] = []
        watch(Table(state, bots, open_hands=True), out=out.append, max_deals=1)
        if "New cards:" in out:
            at = out.index("New cards:")
            assert "pick-up" in out[at - 1], out[at - 3:at + 1]  # the pick-up is told first
            assert load_record(state.to_json()).actions == state.actions
            return
    raise AssertionError("no deal with a pick-up in 30 seeds")


def test_history_shows_scores_as_numbers() -> None:
    from parlour import cli
    from parlour.store import FinishedGame

    line = cli._history_line(FinishedGame(1, "gops", "easy", 0, 0, [37, 54], 0.0, None, []))
    assert line.endswith("scores 37 54")
