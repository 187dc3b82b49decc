"""The preview of a placement (docs/WEB.md): the core's verdict and score, and the identities a joker may take."""

from __future__ import annotations

import pytest

from ginnyo import Position
from ginnyo.errors import BadField
from ginnyo.position.preview import preview
from ginnyo.web.games.ginnyo import placement_preview


def rack(codes: str, board: dict[str, str] | None = None) -> Position:
    return Position.from_dict({"board": board or {}, "rack": codes})


def test_a_joker_without_identity_is_offered_only_the_cards_that_fit() -> None:
    judged = preview(rack("7C 7D * 2S KH"), {"H8": "7C", "I8": "7D", "J8": "*"})
    assert not judged["legal"] and "choose what the joker on J8 stands for" == judged["reason"]
    assert judged["joker_options"] == {"J8": ["7h", "7s"]}


def test_a_joker_given_its_identity_is_scored_as_the_core_scores_it() -> None:
    position = rack("7C 7D * 2S KH")
    judged = preview(position, {"H8": "7C", "I8": "7D", "J8": "7h"})
    scored = position.score("8H 7C7D7h")
    assert judged["legal"] and judged["score"] == scored.score and judged["notation"] == "8H 7C7D7h"
    assert judged["melds"] == [{"kind": "set", "squares": ["H8", "I8", "J8"], "tiles": ["7C", "7D", "7h"],
                                "score": scored.melds[0].score}]


def test_two_open_jokers_each_get_their_options() -> None:
    judged = preview(rack("7C * * 2S KH"), {"H8": "7C", "I8": "*", "J8": "*"})
    options = judged["joker_options"]
    assert "7d" in options["I8"] and "7h" in options["J8"]
    assert "8c" in options["I8"] and "9c" in options["J8"]   # the run 7C 8C 9C as well


def test_a_joker_not_on_the_rack_is_refused_for_that_reason() -> None:
    judged = preview(rack("7C 7D 2S KH"), {"H8": "7C", "I8": "7D", "J8": "*"})
    assert judged["reason"] == "the rack does not hold 1 x *" and judged["joker_options"] == {"J8": []}


def test_no_identity_that_fits_is_said_so() -> None:
    judged = preview(rack("7C KD * 2S"), {"H8": "7C", "I8": "KD", "J8": "*"})
    assert judged["reason"] == "no identity of the joker on J8 makes the play legal"


def test_more_open_jokers_than_searched_are_refused() -> None:
    judged = preview(Position.from_dict({"board": {}, "rack": "7C * * * 2S", "sets": 2}),
                     {"H8": "7C", "I8": "*", "J8": "*", "K8": "*"})
    assert not judged["legal"] and "at most 2 jokers" in judged["reason"]


def test_an_illegal_placement_is_answered_in_the_rules_words() -> None:
    position = rack("7C 7D 2S")
    judged = preview(position, {"H8": "7C", "I8": "7D"})
    with pytest.raises(Exception) as refused:
        position.score("8H 7C7D")
    assert not judged["legal"] and judged["reason"] == str(refused.value)
    assert judged["notation"] == "8H 7C7D" and judged["melds"] == [] and judged["score"] == 0


def test_placements_must_be_an_object_of_strings() -> None:
    for value in (["H8"], "H8 7C", {"H8": 7}, None):
        with pytest.raises(BadField, match="field 'placements'"):
            placement_preview(rack("7C 7D"), value)


def test_a_square_named_twice_is_a_malformed_field() -> None:
    with pytest.raises(BadField, match="field 'placements': square h8 given twice"):
        placement_preview(rack("7C 7D"), {"H8": "7C", "h8": "7D"})


def test_a_joker_put_down_first_is_said_to_need_more_tiles() -> None:
    judged = preview(rack("7C 7D * 2S KH"), {"H8": "*"})
    assert judged["reason"].startswith("the play needs more tiles: ") and judged["joker_options"] == {"H8": []}


def test_a_joker_no_tiles_can_help_is_not_said_to_need_more() -> None:
    judged = preview(rack("7C KD * 2S"), {"H8": "7C", "J8": "*"})
    assert not judged["reason"].startswith("the play needs more tiles")
