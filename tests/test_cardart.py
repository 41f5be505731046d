"""Card art: every face draws as valid SVG, distinct, with its colour letter and name."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from hotdeath.cardart import BACK, back_svg, card_svg, card_svg_for_code
from hotdeath.cards import (
    COLOR_LETTERS,
    FACE_COLOR,
    NO_COLOR,
    NUM_FACES,
    THEMES,
    card_code,
    card_name,
    parse_card,
)
from hotdeath.errors import NotationError

SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("theme", THEMES)
def test_every_face_is_valid_svg_with_its_name(theme: str) -> None:
    for face in range(NUM_FACES):
        svg = card_svg(face, theme)
        root = ET.fromstring(svg)
        assert root.tag == f"{SVG}svg"
        assert root.get("viewBox") == "0 0 200 300"
        name = card_name(face, theme)
        assert name in _texts(svg), (card_code(face), name)
        title = root.find(f"{SVG}title")
        assert title is not None and title.text is not None and name in title.text


def test_every_face_looks_different() -> None:
    drawings = {card_svg(face) for face in range(NUM_FACES)}
    assert len(drawings) == NUM_FACES
    assert back_svg() not in drawings


def test_coloured_cards_carry_their_colour_letter_and_wilds_all_four() -> None:
    for face in range(NUM_FACES):
        texts = _texts(card_svg(face))
        color = FACE_COLOR[face]
        if color == NO_COLOR:
            for letter in COLOR_LETTERS:
                assert letter in texts, card_code(face)
        else:
            # one letter in the top corner, one upside down in the bottom corner
            assert texts.count(COLOR_LETTERS[color]) == 2, card_code(face)
            others = set(COLOR_LETTERS) - {COLOR_LETTERS[color]}
            assert not others & set(texts), card_code(face)


def test_colours_differ_by_pattern_and_shape_not_only_hue() -> None:
    patterns = set()
    badges = set()
    for code in ("R4", "Y4", "G4", "B4"):
        root = ET.fromstring(card_svg(parse_card(code)))
        pattern = root.find(f".//{SVG}pattern")
        assert pattern is not None
        drawing = "".join(ET.tostring(child, encoding="unicode") for child in pattern)
        patterns.add(re.sub(r"#[0-9a-f]{6}", "", drawing))
        # the corner badge: the shape drawn just before the colour letter
        elements = list(root.iter())
        letter = next(
            i for i, el in enumerate(elements)
            if el.tag == f"{SVG}text" and el.text == code[0]
        )
        shape = elements[letter - 1]
        badges.add((shape.tag, len((shape.get("points") or "").split())))
    assert len(patterns) == 4
    assert len(badges) == 4


def test_themes_change_only_the_names_that_differ() -> None:
    ret = parse_card("RET")
    assert "Retaliation" in card_svg(ret, "family")
    assert "Fuck You" in card_svg(ret, "original")
    assert card_svg(parse_card("R7"), "family") == card_svg(parse_card("R7"), "original")


def test_names_are_escaped() -> None:
    svg = card_svg(parse_card("LOI"))
    ET.fromstring(svg)
    assert "Luck o&#x27;" in svg or "Luck o'" in svg


def test_by_code_and_errors() -> None:
    assert card_svg_for_code("r7") == card_svg(parse_card("R7"))
    assert card_svg_for_code(BACK) == back_svg() == card_svg("back")
    assert card_svg("fy", "original") == card_svg(parse_card("RET"), "original")
    ET.fromstring(back_svg())
    with pytest.raises(NotationError) as err:
        card_svg_for_code("Z9")
    assert err.value.code == "bad_card"
    with pytest.raises(ValueError, match="theme"):
        card_svg_for_code("R7", "pirate")
    with pytest.raises(ValueError, match="no card face"):
        card_svg(NUM_FACES)
    with pytest.raises(ValueError, match="no card face"):
        card_svg(-1)
