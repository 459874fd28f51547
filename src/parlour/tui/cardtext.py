"""How cards and action strings look on the terminal.

Why a module of its own: the hand, the trick, the opponents, the buttons and the deal
summary all draw cards, and they must agree on the colours (red/black, or the four-colour
pack: clubs green and diamonds blue, the usual four-colour deck, so the two black and the
two red suits can never be confused at a glance) and on the symbols.  Cards are drawn as
small white "chips" so that a black spade stays readable on a dark terminal.
"""

from __future__ import annotations

from rich.text import Text

from ..cards import CARD_WORD, face, suit_symbols

#: Colours of the suits, on the white face of a chip.
TWO_COLOUR = {"C": "black", "S": "black", "H": "red3", "D": "red3"}
FOUR_COLOUR = {"C": "green4", "S": "black", "H": "red3", "D": "blue3"}
#: Colours of the suits in running text (the log, the info panel) on the dark screen.
INLINE_TWO = {"C": "bold", "S": "bold", "H": "bold red1", "D": "bold red1"}
INLINE_FOUR = {"C": "bold green3", "S": "bold", "H": "bold red1", "D": "bold dodger_blue1"}
FACE_BG = "grey93"
BACK_STYLE = "bright_white on dark_blue"
#: A card back: the same width as a face so a row of backs lines up with a row of faces.
BACK = "▒▒▒"
CHIP_WIDTH = 4  # " A♠ " or "10♥ "


def suit_colour(suit: str, four_colour: bool = False) -> str:
    return (FOUR_COLOUR if four_colour else TWO_COLOUR)[suit]


def card_chip(card: str, four_colour: bool = False, *, selected: bool = False, dim: bool = False) -> Text:
    """A card as a 4-cell chip: white face, coloured rank and suit."""
    label = face(card).rjust(3) + " "
    if selected:
        style = f"bold {suit_colour(card[1], four_colour)} on gold1"
    elif dim:
        style = "grey50 on grey30"
    else:
        style = f"bold {suit_colour(card[1], four_colour)} on {FACE_BG}"
    return Text(label, style=style)


def card_back() -> Text:
    return Text(BACK + " ", style=BACK_STYLE)


def cards_row(cards: list[str], four_colour: bool = False, gap: str = " ") -> Text:
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(gap)
        out.append_text(card_chip(card, four_colour))
    return out


def backs_row(count: int, gap: str = " ") -> Text:
    out = Text()
    for i in range(count):
        if i:
            out.append(gap)
        out.append_text(card_back())
    return out


def pretty_line(line: str, four_colour: bool = False) -> Text:
    """A line of engine text with every card code coloured, for the info panel and the log."""
    out = Text()
    pos = 0
    line = suit_symbols(line)
    for m in CARD_WORD.finditer(line):
        out.append(line[pos:m.start()])
        code = m.group(1)
        out.append(face(code), style=(INLINE_FOUR if four_colour else INLINE_TWO)[code[1]])
        pos = m.end()
    out.append(line[pos:])
    return out
