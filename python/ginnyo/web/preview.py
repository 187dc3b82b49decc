"""A placement judged as the player makes it: legal or the rule it breaks, its score meld by meld,
and for each joker placed without an identity the identities that make the whole placement legal.

The judging is the core's (``Position.score``, the rules' own reasons in words);
this module only reads the placements and lays out the answer.
"""

from __future__ import annotations

import re
from itertools import product
from typing import Any

from ginnyo import GinnyoError, PlacedTile, Play, Position
from ginnyo.tiles import JOKER_CODE, parse_card

from .http.errors import BadRequest

NUM_CARDS = 52
#: Jokers without an identity in one preview at most: each more multiplies the identities tried by 52.
MAX_OPEN_JOKERS = 2
NEEDS_MORE_TILES = "the play needs more tiles"   # the reason's opening when tiles added to a placement can make it legal


def read_placements(value: object) -> dict[str, str]:
    """The ``placements`` field: an object of square name -> tile code, else 400."""
    if not isinstance(value, dict):
        raise BadRequest("field 'placements': must be an object of square -> tile code, e.g. {\"H8\": \"7C\"}")
    for name, code in value.items():
        if not isinstance(code, str):
            raise BadRequest(f"field 'placements': square {name}: the tile must be a string")
    return value


def preview(position: Position, placements: dict[str, str]) -> dict[str, Any]:
    """The answer to a preview of ``placements`` on ``position`` (the seat's board and rack)."""
    known: dict[int, PlacedTile] = {}
    open_jokers: list[int] = []
    layout = position.layout
    try:
        for name, code in placements.items():
            square = layout.parse_square(name)
            if square in known or square in open_jokers:
                raise BadRequest(f"field 'placements': square {name} given twice")
            if code.strip() == JOKER_CODE:
                open_jokers.append(square)
            else:
                known[square] = PlacedTile(*parse_card(code.strip(), lower_is_joker=True))
    except GinnyoError as error:
        return _illegal(str(error))
    if not known and not open_jokers:
        return _illegal("a play places at least one tile")
    if not open_jokers:
        return _judged(position, Play.of(known))
    if len(open_jokers) > MAX_OPEN_JOKERS:
        return _illegal(f"at most {MAX_OPEN_JOKERS} jokers without an identity at a time: "
                        "choose what the others stand for")
    names = [layout.square_name(square) for square in open_jokers]
    broken = _reason_whatever_the_jokers(position, known, open_jokers)   # then no identity can help
    options = {square: [] for square in open_jokers} if broken else _joker_options(position, known, open_jokers)
    if any(options.values()):
        answer = _illegal(f"choose what the joker on {names[0]} stands for")
    else:
        reason = broken or (f"no identity of the joker{'s' if len(names) > 1 else ''} on "
                            f"{' and '.join(names)} makes the play legal")
        # a joker put down first is not wrong: say so when tiles of the rack added to it make a legal play
        answer = _illegal(f"{NEEDS_MORE_TILES}: {reason}" if _extendable(position, known, open_jokers) else reason)
    answer["joker_options"] = {layout.square_name(square): [card_code_lower(card) for card in cards]
                               for square, cards in options.items()}
    return answer


def card_code_lower(card: int) -> str:
    """A joker standing for ``card``, as the board writes it."""
    return PlacedTile(card, True).code


def _joker_options(position: Position, known: dict[int, PlacedTile], open_jokers: list[int]) -> dict[int, list[int]]:
    """For each open joker, the cards it may stand for with which some identities of the others make the play legal."""
    options: dict[int, set[int]] = {square: set() for square in open_jokers}
    first, rest = open_jokers[0], open_jokers[1:]
    for card in range(NUM_CARDS):
        for others in product(range(NUM_CARDS), repeat=len(rest)):
            if all(identity in options[square] for square, identity in zip(rest, others)) \
                    and card in options[first]:
                continue   # nothing new to learn from this assignment
            placed = dict(known)
            placed[first] = PlacedTile(card, True)
            placed.update((square, PlacedTile(identity, True)) for square, identity in zip(rest, others))
            if position.is_legal(Play.of(placed)):
                options[first].add(card)
                for square, identity in zip(rest, others):
                    options[square].add(identity)
    return {square: sorted(cards) for square, cards in options.items()}


def _extendable(position: Position, known: dict[int, PlacedTile], open_jokers: list[int]) -> bool:
    """Whether some legal play holds these placements (the open jokers as jokers) and more tiles."""
    for scored in position.legal_plays:
        placed = dict(scored.play.placements)
        if len(placed) > len(known) + len(open_jokers) \
                and all(placed.get(square) == tile for square, tile in known.items()) \
                and all(square in placed and placed[square].joker for square in open_jokers):
            return True
    return False


def _reason_whatever_the_jokers(position: Position, known: dict[int, PlacedTile],
                                open_jokers: list[int]) -> str | None:
    """The rule the placement breaks whatever the open jokers stand for (the rack, the shape, a
    covered square...), or None when the rule broken names a joker's line (an identity's fault)."""
    placed = dict(known)
    placed.update((square, PlacedTile(0, True)) for square in open_jokers)
    stand_in = card_code_lower(0)
    try:
        position.score(Play.of(placed))
    except GinnyoError as error:
        return None if re.search(rf"\b{stand_in}\b", str(error)) else str(error)
    return None   # legal as it stands


def _judged(position: Position, play: Play) -> dict[str, Any]:
    """The answer for a play whose every tile is known."""
    try:
        scored = position.score(play)
    except GinnyoError as error:
        answer = _illegal(str(error))
        answer["notation"] = _notation(position, play)
        return answer
    board = dict(position.board)
    board.update(play.placements)
    name = position.layout.square_name
    return {"legal": True, "reason": None, "notation": _notation(position, play), "score": scored.score,
            "melds": [{"kind": meld.kind, "squares": [name(square) for square in meld.squares],
                       "tiles": [board[square].code for square in meld.squares], "score": meld.score}
                      for meld in scored.melds],
            "joker_options": {}}


def _notation(position: Position, play: Play) -> str | None:
    try:
        return position.notation(play)
    except GinnyoError:
        return None


def _illegal(reason: str) -> dict[str, Any]:
    return {"legal": False, "reason": reason, "notation": None, "score": 0, "melds": [], "joker_options": {}}


__all__ = ["preview", "read_placements", "MAX_OPEN_JOKERS"]
