"""Whole games of Ginny-O (RULES.md §6): the box, racks, turns and scores."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from .layout import Layout
from .play import Play, ScoredPlay
from .position import Position
from .tiles import JOKER, NUM_CARDS, PlacedTile, rack_penalty

RACK_SIZE = 7


def tile_set(sets: int) -> list[int]:
    """Every tile of ``sets`` sets: 52 cards and 2 jokers each."""
    return [card for card in range(NUM_CARDS) for _ in range(sets)] + [JOKER] * (2 * sets)


@dataclass
class Game:
    """A game in progress.  ``rng`` drives every shuffle, so a seed fixes the game."""

    players: int
    seed: int
    layout: Layout = field(default_factory=Layout.standard)
    sets: int = 0
    board: dict[int, PlacedTile] = field(default_factory=dict)
    racks: list[list[int]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    box: list[int] = field(default_factory=list)
    to_move: int = 0
    turns_without_play: int = 0
    passes_on_empty_box: int = 0
    stall_rounds: int = 3   # the game ends after this many full rounds without a play
    over: bool = False

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise ValueError("Ginny-O is for 2 to 4 players")
        self.sets = self.sets or (1 if self.players == 2 else 2)
        self.rng = random.Random(self.seed)
        self.box = tile_set(self.sets)
        self.rng.shuffle(self.box)
        self.to_move = self._first_player()
        self.racks = [[self.box.pop() for _ in range(RACK_SIZE)] for _ in range(self.players)]
        self.scores = [0] * self.players

    def _first_player(self) -> int:
        """Each player draws a tile; the highest rank starts (ace high, a joker lowest)."""
        contenders = list(range(self.players))
        while True:
            draws = self.rng.sample(self.box, len(contenders))
            strength = [0 if tile == JOKER else (14 if tile % 13 == 0 else tile % 13 + 1)
                        for tile in draws]
            top = max(strength)
            contenders = [p for p, s in zip(contenders, strength) if s == top]
            if len(contenders) == 1:
                return contenders[0]

    def draw(self, player: int, count: int = 1) -> list[int]:
        drawn = [self.box.pop() for _ in range(min(count, len(self.box)))]
        self.racks[player].extend(drawn)
        return drawn

    def position(self, player: int | None = None) -> Position:
        """What ``player`` (default: the one to move) sees: board and own rack."""
        player = self.to_move if player is None else player
        return Position(self.layout, self.sets, self.board, self.racks[player],
                        validate=False)

    def play(self, scored: ScoredPlay) -> list[int]:
        """Put a scored play down for the player to move, refill to 7; returns the draw."""
        player = self.to_move
        for square, tile in scored.play.placements:
            self.board[square] = tile
            self.racks[player].remove(tile.rack_tile)
        self.scores[player] += scored.score
        self.turns_without_play = 0
        self.passes_on_empty_box = 0
        drawn = self.draw(player, RACK_SIZE - len(self.racks[player]))
        self._next()
        return drawn

    def return_tiles(self, tiles: list[int]) -> list[int]:
        """Return tiles to the box, mix it, draw back up to 7 (or pass with ``[]``)."""
        player = self.to_move
        for tile in tiles:
            self.racks[player].remove(tile)
            self.box.append(tile)
        self.rng.shuffle(self.box)
        drawn = self.draw(player, RACK_SIZE - len(self.racks[player])) if tiles else []
        self.turns_without_play += 1
        self.passes_on_empty_box = self.passes_on_empty_box + 1 if not self.box else 0
        self._next()
        return drawn

    def _next(self) -> None:
        if self.passes_on_empty_box >= self.players or self.turns_without_play >= self.stall_rounds * self.players:
            self._finish()
        self.to_move = (self.to_move + 1) % self.players

    def _finish(self) -> None:
        self.over = True
        for player, rack in enumerate(self.racks):
            self.scores[player] -= sum(rack_penalty(tile) for tile in rack)


Chooser = Callable[[Position, list[ScoredPlay], random.Random], "ScoredPlay | None"]


def random_or_best(position: Position, plays: list[ScoredPlay], rng: random.Random) -> ScoredPlay | None:
    """Half the time a uniformly random legal play, otherwise the best one."""
    if not plays:
        return None
    if rng.random() < 0.5:
        return rng.choice(plays)
    return min(plays, key=ScoredPlay.sort_key)


def play_game(game: Game, choose: Chooser = random_or_best,
              on_decision: Callable[[Game, Position], None] | None = None,
              max_turns: int = 1000) -> Game:
    """Play ``game`` to its end: draw, then play what ``choose`` picks or return a tile."""
    from . import native
    from .solver import tiles_to_return
    for _ in range(max_turns):
        if game.over:
            break
        game.draw(game.to_move)
        position = game.position()
        if on_decision is not None:
            on_decision(game, position)
        choice = choose(position, native.legal_plays(position), game.rng)
        if choice is not None:
            game.play(choice)
        else:
            tiles, _ = tiles_to_return(position)
            game.return_tiles(tiles if game.box else [])
    return game


__all__ = ["Game", "play_game", "random_or_best", "tile_set", "Play"]
