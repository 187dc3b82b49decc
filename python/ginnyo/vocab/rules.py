"""The rules of Ginny-O in one place (docs/RULES.md §1, §5, §6): rack size, the
game-end clocks, sets for a player count, the first-player draw, the tile to
return.

The numbers and the rule functions are those of the compiled
:mod:`ginnycore.rules`, which the C game loops (self-play, endgame) use too, so
that Python and C cannot disagree.  This module adds what only Python needs:
argument checks (``ValueError`` naming the argument), the words of the end
reasons and the rule before the 2026-12-01 amendment (``rules=1``).  Tile
values are :mod:`ginnyo.vocab.tiles`'s (the plain-Python yardstick) and the
ranking of plays :mod:`ginnyo.vocab.play`'s, beside the plays; a test checks
them against the core's.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from ginnycore import rules as _compiled
# §4 as the core checks it, read here so that the vocabulary reaches the core from this module alone:
# the codes of the rule a play breaks (illegal.py words them) and the most tiles a play places
from ginnycore import (ILLEGAL_AREAS, ILLEGAL_CARD, ILLEGAL_CENTRE, ILLEGAL_COUNT, ILLEGAL_COVERED, ILLEGAL_GAP,
                       ILLEGAL_MELD, ILLEGAL_OFF_BOARD, ILLEGAL_PLACE, ILLEGAL_RACK, ILLEGAL_REPEATED, ILLEGAL_SHAPE,
                       ILLEGAL_SHORT, MAX_PLACED)

from ..support.quoting import quote
from .tiles import JOKER, NUM_CARDS

#: §6: a rack is drawn up to this many tiles (the deal, and after every play or return).
RACK_SIZE: int = _compiled.RACK_SIZE
#: §6: once the first meld is down, full rounds without a play that end the game.
STALL_ROUNDS: int = _compiled.STALL_ROUNDS
#: §6 (rules 2): before the first meld, full rounds with an empty board that end the game.
OPENING_GUARD_ROUNDS: int = _compiled.OPENING_GUARD_ROUNDS
#: §6 as amended 2026-12-01; version 1 is the rule before it (the stall clock ran from the first turn).
RULES_VERSION: int = _compiled.RULES_VERSION
#: §1: Ginny-O is for 2 to 4 players.
MIN_PLAYERS: int = _compiled.MIN_PLAYERS
MAX_PLAYERS: int = _compiled.MAX_PLAYERS
#: A player's score in a position's ``scores`` field lies from ``-MAX_SCORE`` to ``MAX_SCORE``
#: (docs/FORMAT.md), a bound far above any game's, so that every player's arithmetic stays exact.
MAX_SCORE = 10**9
#: §1: a tile set is the 52 cards and this many jokers.
JOKERS_PER_SET: int = _compiled.JOKERS_PER_SET
#: The largest stall clock a game takes (a bound, so that the clock's arithmetic stays in C ints).
MAX_STALL_ROUNDS: int = _compiled.MAX_STALL_ROUNDS

BOX_EMPTY_AND_ALL_PASSED = "the box is empty and every player in turn had no play"
NO_PLAY_FOR_ROUNDS = "no player played for {rounds} full rounds"
NOBODY_OPENED = "nobody opened in {rounds} full rounds"


def check_rules(rules: object) -> int:
    """``rules`` if it is a version of the game-end rule this ginnyo plays (1 or 2),
    else ``ValueError`` naming it."""
    if type(rules) is not int or rules not in (1, RULES_VERSION):
        raise ValueError(f"rules: {rules!r} is not a rules version this ginnyo plays (1 or {RULES_VERSION})")
    return rules


def check_stall_rounds(stall_rounds: object) -> int:
    """``stall_rounds`` if it is a whole number from 1 to :data:`MAX_STALL_ROUNDS`,
    else ``ValueError`` naming it."""
    if type(stall_rounds) is not int or not 1 <= stall_rounds <= MAX_STALL_ROUNDS:
        raise ValueError(f"stall_rounds: {quote(stall_rounds)} is not a whole number "
                         f"from 1 to {MAX_STALL_ROUNDS}")
    return stall_rounds


def default_players(sets: int) -> int:
    """The players of a position without a ``players`` field: 2 with one set, 3 with two."""
    return 2 if sets == 1 else 3


def sets_for(players: int) -> int:
    """One set for 2 players, two for 3 or 4 (docs/RULES.md §1); ``ValueError``
    for another number of players."""
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Ginny-O is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {quote(players)}")
    return int(_compiled.sets_for(players))


def tile_set(sets: int) -> list[int]:
    """Every tile of ``sets`` sets: 52 cards and :data:`JOKERS_PER_SET` jokers each (docs/RULES.md §1)."""
    return [card for card in range(NUM_CARDS) for _ in range(sets)] + [JOKER] * (JOKERS_PER_SET * sets)


def unseen_tiles(sets: int, seen: Iterable[int]) -> list[int]:
    """What a player cannot see, in order: the tiles of ``sets`` sets but those it sees (``seen``:
    the board's tiles, as rack tiles, and its own rack) -- the box's and the other racks' tiles
    as one multiset.  The one place the unseen tiles are counted."""
    unseen = Counter(tile_set(sets))
    unseen.subtract(seen)
    return sorted(unseen.elements())


def draw_strength(tile: int) -> int:
    """A tile's rank in the first-player draw (docs/RULES.md §6): ace highest (14),
    king 13 … 2, joker lowest (0)."""
    return int(_compiled.draw_strength(_tile(tile, "tile")))


def quiet_turn_limit(players: int, opened: bool, *, rules: int = RULES_VERSION,
                     stall_rounds: int = STALL_ROUNDS) -> int:
    """How many turns in a row without a play end the game (docs/RULES.md §6).

    Rules 2: once the first meld is on the board (``opened``), ``stall_rounds``
    full rounds since the last play; before it, :data:`OPENING_GUARD_ROUNDS`
    full rounds since the first turn (every turn so far, since nobody has
    played).  Rules 1: ``stall_rounds`` full rounds whether or not anyone opened.
    The arguments are a game's own (checked when it was made)."""
    return int(_compiled.quiet_turn_limit(players, opened or rules == 1, stall_rounds))


def quiet_end_reason(opened: bool, *, rules: int = RULES_VERSION, stall_rounds: int = STALL_ROUNDS) -> str:
    """The end reason of a game ended by :func:`quiet_turn_limit`."""
    if opened or rules == 1:
        return NO_PLAY_FOR_ROUNDS.format(rounds=stall_rounds)
    return NOBODY_OPENED.format(rounds=OPENING_GUARD_ROUNDS)


def tile_to_return(rack: Iterable[int]) -> int | None:
    """The tile a player without a play returns while the box has tiles (docs/RULES.md §6,
    the built-in players): the real tile that costs most left on the rack (an ace
    before a king, ties to the lowest card), a joker from a rack of only jokers,
    None from an empty rack.  The compiled self-play loop makes the same call."""
    counts = bytearray(JOKER + 1)
    for tile in rack:
        counts[_tile(tile, "rack")] += 1
    choice = int(_compiled.tile_to_return(counts))
    return None if choice < 0 else choice


def _tile(tile: object, name: str) -> int:
    if type(tile) is not int or not 0 <= tile <= JOKER:
        raise ValueError(f"{name}: {quote(tile)} is not a tile (0 to {JOKER})")
    return tile


__all__ = ["RACK_SIZE", "STALL_ROUNDS", "OPENING_GUARD_ROUNDS", "RULES_VERSION", "MIN_PLAYERS", "MAX_PLAYERS", "MAX_SCORE",
           "JOKERS_PER_SET", "MAX_STALL_ROUNDS", "BOX_EMPTY_AND_ALL_PASSED", "NO_PLAY_FOR_ROUNDS", "NOBODY_OPENED",
           "check_rules", "check_stall_rounds", "default_players", "sets_for", "tile_set", "draw_strength", "quiet_turn_limit",
           "quiet_end_reason", "tile_to_return",
           "MAX_PLACED", "ILLEGAL_AREAS", "ILLEGAL_CARD", "ILLEGAL_CENTRE", "ILLEGAL_COUNT", "ILLEGAL_COVERED", "ILLEGAL_GAP",
           "ILLEGAL_MELD", "ILLEGAL_OFF_BOARD", "ILLEGAL_PLACE", "ILLEGAL_RACK", "ILLEGAL_REPEATED", "ILLEGAL_SHAPE",
           "ILLEGAL_SHORT"]
