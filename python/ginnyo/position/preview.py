"""A placement judged as the player makes it (the web table's placement preview): legal or the
rule it breaks, its score meld by meld, and for each joker placed without an identity the
identities that make the whole placement legal.

The judging is the core's (``Position.score``, the rules' own reasons in words); this module
reads the placements (square name -> tile code, ``*`` a joker without an identity) and lays out
the answer.
"""

from __future__ import annotations

import re
from itertools import product
from typing import TYPE_CHECKING, Any

from ..errors import GinnyoError, IllegalMoveError, Reason, RepeatedSquare
from ..vocab.play import Play
from ..vocab.tiles import JOKER_CODE, PlacedTile, parse_card

if TYPE_CHECKING:
    from .position import Position

NUM_CARDS = 52
#: Jokers without an identity in one preview at most: each more multiplies the identities tried by 52.
MAX_OPEN_JOKERS = 2
NEEDS_MORE_TILES = "the play needs more tiles"   # the reason's opening when tiles added to a placement can make it legal
#: the refusal codes of the preview's own reasons (the rules' are ginnyo.vocab.illegal's)
PREVIEW_CODES = ("no-such-square", "no-such-tile", "no-tiles", "too-many-open-jokers", "choose-joker",
                 "no-joker-identity", "needs-more-tiles", "illegal")


def preview(position: Position, placements: dict[str, str]) -> dict[str, Any]:
    """The preview of ``placements`` (square name -> tile code) on ``position`` (the seat's board
    and rack): ``legal``, ``reason``, ``notation``, ``score``, ``melds`` and ``joker_options``.
    :class:`RepeatedSquare` when a square is named twice."""
    known: dict[int, PlacedTile] = {}
    open_jokers: list[int] = []
    layout = position.layout
    try:
        for name, code in placements.items():
            what = Reason("", "no-such-square", square=name)
            square = layout.parse_square(name)
            if square in known or square in open_jokers:
                raise RepeatedSquare(f"square {name} given twice")
            what = Reason("", "no-such-tile", tile=code)
            if code.strip() == JOKER_CODE:
                open_jokers.append(square)
            else:
                known[square] = PlacedTile(*parse_card(code.strip(), lower_is_joker=True))
    except GinnyoError as error:   # the square or the tile ``what`` names does not read
        return _illegal(Reason(str(error), what.code, **what.arguments))
    if not known and not open_jokers:
        return _illegal(Reason("a play places at least one tile", "no-tiles"))
    if not open_jokers:
        return _judged(position, Play.of(known))
    if len(open_jokers) > MAX_OPEN_JOKERS:
        return _illegal(Reason(f"at most {MAX_OPEN_JOKERS} jokers without an identity at a time: "
                               "choose what the others stand for", "too-many-open-jokers", most=MAX_OPEN_JOKERS))
    names = [layout.square_name(square) for square in open_jokers]
    broken = _reason_whatever_the_jokers(position, known, open_jokers)   # then no identity can help
    options = {square: [] for square in open_jokers} if broken else _joker_options(position, known, open_jokers)
    if any(options.values()):
        answer = _illegal(Reason(f"choose what the joker on {names[0]} stands for", "choose-joker", square=names[0]))
    else:
        reason = broken or Reason(f"no identity of the joker{'s' if len(names) > 1 else ''} on "
                                  f"{' and '.join(names)} makes the play legal", "no-joker-identity",
                                  squares=" ".join(names))
        # a joker put down first is not wrong: say so when tiles of the rack added to it make a legal play
        answer = _illegal(Reason(f"{NEEDS_MORE_TILES}: {reason}", "needs-more-tiles", reason=str(reason),
                                 reason_code=reason.code, reason_args=reason.arguments)
                          if _extendable(position, known, open_jokers) else reason)
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
                                open_jokers: list[int]) -> Reason | None:
    """The rule the placement breaks whatever the open jokers stand for (the rack, the shape, a
    covered square...), or None when the rule broken names a joker's line (an identity's fault)."""
    placed = dict(known)
    placed.update((square, PlacedTile(0, True)) for square in open_jokers)
    stand_in = card_code_lower(0)
    try:
        position.score(Play.of(placed))
    except GinnyoError as error:
        return None if re.search(rf"\b{stand_in}\b", str(error)) else _reason_of(error)
    return None   # legal as it stands


def _judged(position: Position, play: Play) -> dict[str, Any]:
    """The answer for a play whose every tile is known."""
    try:
        scored = position.score(play)
    except GinnyoError as error:
        answer = _illegal(_reason_of(error))
        answer["notation"] = _notation(position, play)
        return answer
    board = dict(position.board)
    board.update(play.placements)
    name = position.layout.square_name
    return {"legal": True, "reason": None, "reason_code": None, "reason_args": {}, "notation": _notation(position, play), "score": scored.score,
            "melds": [{"kind": meld.kind, "squares": [name(square) for square in meld.squares],
                       "tiles": [board[square].code for square in meld.squares], "score": meld.score}
                      for meld in scored.melds],
            "joker_options": {}}


def _notation(position: Position, play: Play) -> str | None:
    try:
        return position.notation(play)
    except GinnyoError:
        return None


def _reason_of(error: GinnyoError) -> Reason:
    """The rule an error of the judging names, with its code (``illegal`` when it has none)."""
    found = error.reason if isinstance(error, IllegalMoveError) else None
    return found if found is not None else Reason(str(error), "illegal")


def _illegal(reason: Reason) -> dict[str, Any]:
    return {"legal": False, "reason": str(reason), "reason_code": reason.code, "reason_args": reason.arguments,
            "notation": None, "score": 0, "melds": [], "joker_options": {}}


__all__ = ["preview", "RepeatedSquare", "card_code_lower", "MAX_OPEN_JOKERS", "NEEDS_MORE_TILES", "PREVIEW_CODES"]
