"""Whole games of Ginny-O (docs/RULES.md §6): the box, the racks, turns, the end and the scores.

A :class:`Game` holds the state and enforces the rules; players (see
:mod:`ginnyo.players`) see a :class:`View` and answer with an action (see
:mod:`ginnyo.actions`).  A turn is two calls::

    view = game.begin_turn()          # the player to move draws: 8 tiles at the decision
    game.apply(player.choose(view))   # play and refill, return and redraw, or pass

Every shuffle and mix of the box comes from one seeded ``random.Random``, so
``Game.deal(players, seed)`` fixes the game, given the players' choices.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Callable, NamedTuple, Sequence

from ..native.core import Core
from ..native.encoding import empty_board, encode_rack

from .actions import Action, Pass, Place, Return
from .events import ABORT, OVERTIME, RESIGN, TIMEOUT, Event
from ..errors import IllegalMoveError
from ..vocab.layout import Layout
from ..vocab.play import Play
from ..position.context import GameContext
from ..position.position import Position
from ..vocab.rules import (BOX_EMPTY_AND_ALL_PASSED, NO_PLAY_FOR_ROUNDS, NOBODY_OPENED, OPENING_GUARD_ROUNDS, RACK_SIZE,
                    RULES_VERSION, STALL_ROUNDS, check_rules, check_stall_rounds, draw_strength, quiet_end_reason,
                    quiet_turn_limit, sets_for, tile_set, unseen_tiles)
from ..vocab.tiles import JOKER, PlacedTile, rack_code, rack_penalty


def first_player(draws: Sequence[Sequence[tuple[int, int]]], players: int) -> int:
    """The player who starts, given the rounds of the first-player draw, each a
    list of ``(player, tile)``; raises ``ValueError`` when the rounds do not
    follow the rule (everyone draws, then only those tied for highest)."""
    contenders = list(range(players))
    for draw in draws:
        if [player for player, _ in draw] != contenders:
            raise ValueError(f"the draw should be by players {contenders}")
        top = max(draw_strength(tile) for _, tile in draw)
        contenders = [player for player, tile in draw if draw_strength(tile) == top]
        if len(contenders) == 1:
            return contenders[0]
    raise ValueError("the draw ends on a tie")


class Box:
    """The tiles not on a rack or the board, in a random order: draws come off the
    top, and each tile put back goes in at a random place, drawn from ``rng``.

    The box is always in a uniformly random order nobody has seen, so putting a
    tile in at a random place mixes it exactly as well as shuffling the whole box
    would, at a fraction of the cost."""

    __slots__ = ("tiles", "rng")

    def __init__(self, tiles: list[int], rng: random.Random) -> None:
        self.tiles = tiles
        self.rng = rng

    def __len__(self) -> int:
        return len(self.tiles)

    def draw(self) -> int:
        return self.tiles.pop()

    def put_back(self, tiles: Sequence[int]) -> None:
        box, place = self.tiles, self.rng.randrange
        for tile in tiles:
            box.insert(place(len(box) + 1), tile)

    def counts(self) -> Counter[int]:
        """How many of each tile the box holds."""
        return Counter(self.tiles)


class Turn(NamedTuple):
    """One turn as it happened: who, the rack before the draw (sorted), the tile
    drawn before deciding (None from an empty box), the action, its score and
    the tiles drawn after it.  (A named tuple: games make many of them.)"""

    number: int
    player: int
    rack: tuple[int, ...]
    draw: int | None
    action: Action
    score: int
    refill: tuple[int, ...]


class View:
    """What the player to move sees: the board, their own rack (8 tiles while the
    box lasts), everyone's scores and how many tiles the box holds.

    ``board`` is the game's own mapping: read it, do not change it.  ``core()``
    is the game's compiled core loaded with this position; use it for this
    decision only (for look-ahead, load your own with ``native.core_of``).
    """

    __slots__ = ("_game", "player", "turn", "rack", "box_size", "_position", "_game_context")

    def __init__(self, game: "Game", player: int) -> None:
        self._game = game
        self.player = player
        self.turn = game.turns_played + 1
        self.rack = tuple(sorted(game.racks[player]))
        self.box_size = len(game.box)
        self._position: Position | None = None
        self._game_context: GameContext | None = None

    @property
    def players(self) -> int:
        return self._game.players

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._game.scores)

    @property
    def quiet_turns(self) -> int:
        """Turns in a row without a play so far, as the game-end clock counts them
        (see :func:`quiet_turn_limit`)."""
        return self._game.turns_without_play

    @property
    def rules(self) -> int:
        """The game-end rule's version the game is played by (see :data:`RULES_VERSION`)."""
        return self._game.rules

    @property
    def stall_rounds(self) -> int:
        return self._game.stall_rounds

    @property
    def rack_sizes(self) -> tuple[int, ...]:
        """How many tiles each player holds (racks are private, their sizes are not)."""
        return tuple(len(rack) for rack in self._game.racks)

    @property
    def board(self) -> dict[int, PlacedTile]:
        return self._game.board

    @property
    def layout(self) -> Layout:
        return self._game.layout

    @property
    def history(self) -> list[Turn]:
        """The turns played so far, as everyone saw them happen (the game's own
        list: read it, do not change it; a return's tiles are the player's alone)."""
        return self._game.history

    @property
    def dealt(self) -> tuple[int, ...]:
        """This player's rack as dealt."""
        return self._game.dealt[self.player]

    @property
    def sets(self) -> int:
        return self._game.sets

    @property
    def position(self) -> Position:
        """The board and this player's rack as a static :class:`Position`."""
        if self._position is None:
            self._position = self._game.position(self.player)
        return self._position

    @property
    def game_context(self) -> GameContext:
        """The game as this player sees it (:class:`ginnyo.position.context.GameContext`),
        made once a view: the racks' sizes and the box known, the tiles not on the board or its rack
        unseen (:attr:`unseen`: nothing of where each one is)."""
        if self._game_context is None:
            game, seat = self._game, self.player
            unseen = self.unseen
            players = game.players
            racks = tuple(len(game.racks[(seat + offset) % players]) for offset in range(1, players))
            self._game_context = GameContext(players, seat, tuple(game.scores), tuple(unseen), racks, self.box_size,
                                             game.turns_without_play, game.stall_rounds, game.rules, game.sets,
                                             bool(game.board))
        return self._game_context

    @property
    def unseen(self) -> tuple[int, ...]:
        """The tiles this player cannot see, in order (the box's and the other racks' tiles as one
        multiset): :func:`ginnyo.vocab.rules.unseen_tiles` of the board and this player's rack."""
        game = self._game
        return tuple(unseen_tiles(game.sets, [*(tile.rack_tile for tile in game.board.values()),
                                              *game.racks[self.player]]))

    @property
    def to_move(self) -> bool:
        """Whether this player is to move (the game not over)."""
        return not self._game.over and self._game.to_move == self.player

    @property
    def can_return(self) -> bool:
        """Whether this player may return tiles now: to move, the box holding some (the game's own check)."""
        return self.to_move and self._game.may_return()

    @property
    def can_pass(self) -> bool:
        """Whether this player may pass now: to move, the box empty and no legal play (the game's own check)."""
        return self.to_move and self._game.may_pass()

    @property
    def record_given(self) -> bool:
        """Whether the game's record may be given to this player: once the game is over (before,
        its seed would reveal the box)."""
        return self._game.over

    def core(self) -> Core:
        """The compiled core holding this board and rack: ``best_play()``,
        ``legal_plays()`` and ``count_plays()`` answer for this decision."""
        return self._game.core_for_turn()


class Game:
    """A game in progress.  Build one with :meth:`deal` (seeded setup) or from a
    known deal (as a replay does); then alternate :meth:`begin_turn` and :meth:`apply`."""

    def __init__(self, players: int, racks: list[list[int]], box: Box, to_move: int, *,
                 layout: Layout | None = None, seed: int | None = None,
                 first_draw: Sequence[Sequence[tuple[int, int]]] = (),
                 stall_rounds: int = STALL_ROUNDS, rules: int = RULES_VERSION) -> None:
        self.sets = sets_for(players)
        self.rules = check_rules(rules)
        check_stall_rounds(stall_rounds)
        if len(racks) != players:
            raise ValueError(f"{players} players need {players} racks")
        self.players = players
        self.layout = layout or Layout.standard()
        self.seed = seed
        self.first_draw = [list(draw) for draw in first_draw]
        self.first_player = to_move
        self.stall_rounds = stall_rounds
        self.racks = racks
        self.dealt = [tuple(sorted(rack)) for rack in racks]
        self.box = box
        self.board: dict[int, PlacedTile] = {}
        self.scores = [0] * players
        self.to_move = to_move
        self.history: list[Turn] = []
        self.turns_played = 0
        self.turns_without_play = 0   # since the last play, or the first turn (see quiet_turn_limit)
        self.passes_in_a_row = 0
        self.over = False
        self.end_reason: str | None = None
        self.penalties: list[int] | None = None
        self.out: list[int] = []                 # the seats out (resigned or out of time), in the order they left
        self.overtime = [0] * players            # the points each seat's clock has cost it (RULES "Timed play")
        self.events: list[tuple[int, Event]] = []   # (turns played before it, event), in order
        self.aborted = False
        self._cards, self._jokers = empty_board(self.layout.size)
        self._core = Core(self.layout.width, self.layout.height, *self.layout.core_premiums)
        self._core_loaded = False   # holds this turn's board and rack
        self._view: View | None = None
        self._draw: int | None = None
        self._rack_before: tuple[int, ...] = ()

    @classmethod
    def deal(cls, players: int, seed: int, *, layout: Layout | None = None,
             stall_rounds: int = STALL_ROUNDS, rules: int = RULES_VERSION) -> "Game":
        """Set up a game from ``seed``: the box is mixed, everyone draws one tile
        (highest starts, ace high, joker low; the tied draw again), the tiles go
        back and everyone draws 7, player 0 first.  ``rules=1`` plays the
        game-end rule before docs/RULES.md §6's amendment (for old records)."""
        check_rules(rules)
        check_stall_rounds(stall_rounds)
        rng = random.Random(seed)
        tiles = tile_set(sets_for(players))
        rng.shuffle(tiles)
        # The draw samples the mixed box without taking tiles out, which is the
        # same as drawing, putting back and mixing again.
        draws, contenders = [], list(range(players))
        while len(contenders) > 1:
            draw = list(zip(contenders, rng.sample(tiles, len(contenders))))
            draws.append(draw)
            top = max(draw_strength(tile) for _, tile in draw)
            contenders = [player for player, tile in draw if draw_strength(tile) == top]
        racks = [[tiles.pop() for _ in range(RACK_SIZE)] for _ in range(players)]
        return cls(players, racks, Box(tiles, rng), contenders[0], layout=layout, seed=seed,
                   first_draw=draws, stall_rounds=stall_rounds, rules=rules)

    @property
    def rng(self) -> random.Random:
        """The generator behind every shuffle of this game."""
        return self.box.rng

    # -- what players see ------------------------------------------------------------
    def position(self, player: int | None = None) -> Position:
        """What ``player`` (default: the one to move) sees: the board and their rack."""
        player = self.to_move if player is None else player
        return Position(self.layout, self.sets, self.board, self.racks[player], validate=False)

    def core_for_turn(self) -> Core:
        """The compiled core loaded with the board and the rack of the player to move."""
        if self._view is None:
            raise RuntimeError("no turn in progress: call begin_turn() first")
        if not self._core_loaded:
            self._core.load(self._cards, self._jokers, encode_rack(self.racks[self.to_move]))
            self._core_loaded = True
        return self._core

    # -- a turn --------------------------------------------------------------------
    def begin_turn(self) -> View:
        """The player to move draws a tile (if the box has one) and gets the view
        to decide on.  Calling it again before :meth:`apply` returns the same view."""
        if self._view is not None:
            return self._view
        if self.over:
            raise RuntimeError("the game is over")
        rack = self.racks[self.to_move]
        self._rack_before = tuple(sorted(rack))
        self._draw = self.box.draw() if self.box.tiles else None
        if self._draw is not None:
            rack.append(self._draw)
        self._view = View(self, self.to_move)
        return self._view

    def apply(self, action: Action) -> Turn:
        """Carry out the decision of the player to move; raises
        :class:`IllegalMoveError` (the game unchanged) when the rules forbid it."""
        if self._view is None:
            self.begin_turn()
        player = self.to_move
        rack = self.racks[player]
        refill: tuple[int, ...] = ()
        score = 0
        if type(action) is Place:
            score = self._check_place(action.play)
            board, cards, jokers = self.board, self._cards, self._jokers
            for square, tile in action.play.placements:
                board[square] = tile
                cards[square] = tile[0]
                jokers[square] = tile[1]
                rack.remove(JOKER if tile[1] else tile[0])
            self.scores[player] += score
            self.turns_without_play = 0
            self.passes_in_a_row = 0
            refill = self._refill(rack)
        elif type(action) is Return:
            self._check_return(action.tiles)
            for returned in action.tiles:
                rack.remove(returned)
            self.box.put_back(action.tiles)
            refill = self._refill(rack)
            self.turns_without_play += 1
            self.passes_in_a_row = 0
        elif type(action) is Pass:
            self._check_pass()
            self.turns_without_play += 1
            self.passes_in_a_row += 1
        else:
            raise TypeError(f"not an action: {action!r}")
        self.turns_played += 1
        turn = Turn(self.turns_played, player, self._rack_before, self._draw, action, score, refill)
        self.history.append(turn)
        self._view = None
        self._core_loaded = False
        seats_in = self.players - len(self.out)   # a seat out has no turns: the clock counts the others' rounds
        if self.passes_in_a_row >= seats_in:
            self._finish(BOX_EMPTY_AND_ALL_PASSED)
        elif self.turns_without_play >= quiet_turn_limit(seats_in, self.opened, rules=self.rules,
                                                          stall_rounds=self.stall_rounds):
            self._finish(quiet_end_reason(self.opened, rules=self.rules, stall_rounds=self.stall_rounds))
        self.to_move = self._next_in(player)
        return turn

    def _next_in(self, player: int) -> int:
        """The seat after ``player`` that is not out."""
        seat = (player + 1) % self.players
        while seat in self.out:
            seat = (seat + 1) % self.players
        return seat

    # -- what happens outside a turn (ginnyo.game.events) --------------------------------
    def apply_event(self, event: Event) -> None:
        """A seat resigns (the game ends, the others ranked by score as §6's end ranks them, the seat
        last), runs out of time (2 players: the game ends, the other wins; more: the seat is out, ranked
        last, its turns skipped; one seat left: the game ends), is charged ``points`` for overtime, or
        aborts the game before its first turn (the game ends with no result).  A tile the seat to move
        drew goes back on top of the box first (a record's replay draws only in a turn); the caller
        begins the next turn.  IllegalMoveError, the game unchanged, when the event cannot happen."""
        seat = event.seat
        if self.over:
            raise IllegalMoveError("the game is over")
        if not 0 <= seat < self.players or seat in self.out:
            raise IllegalMoveError(f"player {seat} is not in the game")
        if event.kind == TIMEOUT and seat != self.to_move:
            raise IllegalMoveError(f"only the player to move runs out of time, not player {seat}")
        if event.kind == ABORT and any(turn.player == seat for turn in self.history):
            raise IllegalMoveError(f"player {seat} has moved: the game can no longer be aborted")
        if event.kind == OVERTIME and event.points <= 0:
            raise IllegalMoveError("an overtime charge is a positive number of points")
        self._undo_draw()
        self.events.append((self.turns_played, event))
        if event.kind == OVERTIME:
            self.scores[seat] -= event.points
            self.overtime[seat] += event.points
        elif event.kind == ABORT:
            self.aborted = True
            self.over, self.end_reason, self.penalties = True, ABORTED, [0] * self.players
        elif event.kind == RESIGN:
            self.out.append(seat)
            self._finish(RESIGNED.format(player=seat))
        else:
            self.out.append(seat)
            if self.players - len(self.out) < 2:
                self._finish(LOST_ON_TIME.format(player=seat))
            elif seat == self.to_move:
                self.to_move = self._next_in(seat)

    def _undo_draw(self) -> None:
        if self._view is None:
            return
        if self._draw is not None:
            self.racks[self.to_move].remove(self._draw)
            self.box.tiles.append(self._draw)   # back on top: the next draw takes it again
        self._view, self._draw, self._core_loaded = None, None, False

    def _refill(self, rack: list[int]) -> tuple[int, ...]:
        box = self.box
        count = min(RACK_SIZE - len(rack), len(box))
        if count <= 0:
            return ()
        drawn = tuple(box.draw() for _ in range(count))
        rack.extend(drawn)
        return drawn

    def _check_place(self, play: Play) -> int:
        placements = play.placements
        squares = [square for square, _ in placements]
        if squares != sorted(squares):
            raise IllegalMoveError("a play's placements must be sorted by square (use Play.of)")
        total, melds = self.core_for_turn().score_play(
            squares, [tile[0] for _, tile in placements], [tile[1] for _, tile in placements])
        if melds is None:
            from ..vocab.illegal import reason
            code, detail = self.core_for_turn().judge_play(
                squares, [tile[0] for _, tile in placements], [tile[1] for _, tile in placements])
            if not isinstance(code, int) or detail is None:   # pragma: no cover - the two calls disagree
                raise IllegalMoveError("illegal play")
            raise IllegalMoveError(reason(self.position(), play, code, detail))   # the first rule broken
        return total

    def may_return(self) -> bool:
        """Whether the player to move may return tiles: the box holds some (docs/RULES.md)."""
        return bool(self.box.tiles)

    def may_pass(self) -> bool:
        """Whether the player to move may pass: the box is empty and no play is legal (docs/RULES.md)."""
        return not self.box.tiles and self.core_for_turn().best_play() is None

    def _check_return(self, tiles: Sequence[int]) -> None:
        if not self.may_return():
            raise IllegalMoveError("the box is empty: nothing to return tiles to (pass instead)")
        if not tiles:
            raise IllegalMoveError("a return gives back at least one tile")
        held = Counter(self.racks[self.to_move])
        for tile, count in Counter(tiles).items():
            if held[tile] < count:
                raise IllegalMoveError(f"the rack does not hold {count} x {rack_code(tile)}")

    def _check_pass(self) -> None:
        if self.may_return():
            raise IllegalMoveError(
                f"the box holds {len(self.box)} tiles: a player who does not play returns tiles")
        if not self.may_pass():
            raise IllegalMoveError("a legal play exists: a player may pass only without one")

    def _finish(self, reason: str) -> None:
        self.over = True
        self.end_reason = reason
        self.penalties = [sum(rack_penalty(tile) for tile in rack) for rack in self.racks]
        for player, penalty in enumerate(self.penalties):
            self.scores[player] -= penalty

    @property
    def opened(self) -> bool:
        """Whether the first meld is on the board."""
        return bool(self.board)

    # -- results ---------------------------------------------------------------------
    @property
    def winners(self) -> list[int]:
        """The players with the highest score (more than one on a tie) of those not out; none when
        the game was aborted."""
        if self.aborted:
            return []
        seats_in = [player for player in range(self.players) if player not in self.out]
        top = max(self.scores[player] for player in seats_in)
        return [player for player in seats_in if self.scores[player] == top]

    @property
    def ranking(self) -> list[int]:
        """The seats from first to last: those not out by score (the higher first, a tie in seat
        order), then those out, the last to leave first."""
        seats_in = [player for player in range(self.players) if player not in self.out]
        return sorted(seats_in, key=lambda player: -self.scores[player]) + self.out[::-1]

    @property
    def plays(self) -> int:
        """How many turns were plays (not returns or passes)."""
        return sum(1 for turn in self.history if type(turn.action) is Place)


RESIGNED = "player {player} resigned"
LOST_ON_TIME = "player {player} lost on time"
ABORTED = "the game was aborted before it began"


def play_game(game: Game, players: Sequence[object],
              on_decision: Callable[[View], None] | None = None) -> Game:
    """Play ``game`` to its end, asking ``players[i].choose(view)`` for seat i's actions.
    ``on_decision`` sees every view before its player decides."""
    if len(players) != game.players:
        raise ValueError(f"the game has {game.players} seats, {len(players)} players were given")
    choosers = [player.choose for player in players]   # type: ignore[attr-defined]
    begin_turn, apply = game.begin_turn, game.apply
    while not game.over:
        view = begin_turn()
        if on_decision is not None:
            on_decision(view)
        apply(choosers[view.player](view))
    return game


# The rules this module plays by live in ginnyo.vocab.rules; their names stay importable
# from here for the users of ginnyo.game.
__all__ = ["Game", "View", "RESIGNED", "LOST_ON_TIME", "ABORTED", "Turn", "Box", "play_game", "first_player",
           "tile_set", "sets_for", "draw_strength", "RACK_SIZE", "STALL_ROUNDS", "RULES_VERSION",
           "OPENING_GUARD_ROUNDS", "BOX_EMPTY_AND_ALL_PASSED", "NO_PLAY_FOR_ROUNDS", "NOBODY_OPENED",
           "quiet_turn_limit", "quiet_end_reason", "check_rules"]
