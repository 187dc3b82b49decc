"""The store's puzzle side: each puzzle's current rating, each player's puzzle rating and their
attempts (revision 0002), as methods :class:`~ginnyo.web.store.Store` takes from :class:`PuzzleRatings`.

An attempt is rated in one write transaction that reads both skills, rates the match and writes
them back with the attempt, so two attempts at once never lose one another's change.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from typing import Any, Callable

from sqlalchemy import Connection, select

from ...ratings.skill import NEWCOMER, Skill, rate_match
from .schema import player_ratings, puzzle_attempts, puzzle_ratings


class PuzzleRatings:
    """The puzzle methods of the store (its transactions are the store's own)."""

    _writing: Callable[[str], AbstractContextManager[Connection]]
    _reading: Callable[[], AbstractContextManager[Connection]]
    _insert: Callable[[], Any]

    def puzzle_skills(self) -> dict[str, Skill]:
        """Every puzzle rated so far: its current skill, by id (the others still at their file's rating)."""
        query = select(puzzle_ratings.c.puzzle, puzzle_ratings.c.mu, puzzle_ratings.c.sigma)
        with self._reading() as connection:
            return {puzzle: Skill(float(mu), float(sigma)) for puzzle, mu, sigma in connection.execute(query)}

    def player_skill(self, player: str) -> Skill:
        """``player``'s puzzle skill (a newcomer's before a first attempt)."""
        query = select(player_ratings.c.mu, player_ratings.c.sigma).where(player_ratings.c.player == player)
        with self._reading() as connection:
            row = connection.execute(query).first()
        return NEWCOMER if row is None else Skill(float(row[0]), float(row[1]))

    def recent_puzzles(self, player: str, limit: int) -> list[str]:
        """The puzzles of ``player``'s last ``limit`` attempts, the latest first."""
        query = (select(puzzle_attempts.c.puzzle).where(puzzle_attempts.c.player == player)
                 .order_by(puzzle_attempts.c.id.desc()).limit(limit))
        with self._reading() as connection:
            return [str(puzzle) for puzzle in connection.execute(query).scalars()]

    def rate_puzzle_attempt(self, player: str, puzzle: str, start: Skill, action: str,
                            correct: bool) -> tuple[Skill, Skill]:
        """Store an attempt and rate it as a match of ``player`` against ``puzzle`` (its skill
        ``start`` when not yet rated), won by the player when ``correct``: (the player's new skill,
        the puzzle's)."""
        with self._writing("the attempt") as connection:
            was_player = _skill(connection, player_ratings, player_ratings.c.player, player) or NEWCOMER
            was_puzzle = _skill(connection, puzzle_ratings, puzzle_ratings.c.puzzle, puzzle) or start
            if correct:
                now_player, now_puzzle = rate_match(was_player, was_puzzle)
            else:
                now_puzzle, now_player = rate_match(was_puzzle, was_player)
            insert = self._insert()
            for table, key, value, skill in ((player_ratings, "player", player, now_player),
                                             (puzzle_ratings, "puzzle", puzzle, now_puzzle)):
                row = {key: value, "mu": skill.mu, "sigma": skill.sigma, "attempts": 1}
                connection.execute(insert(table).values(**row).on_conflict_do_update(
                    index_elements=[key], set_={"mu": skill.mu, "sigma": skill.sigma,
                                                "attempts": table.c.attempts + 1}))
            connection.execute(puzzle_attempts.insert().values(player=player, puzzle=puzzle, action=action,
                                                               correct=int(correct), created=time.time()))
        return now_player, now_puzzle


def _skill(connection: Connection, table: Any, key: Any, value: str) -> Skill | None:
    row = connection.execute(select(table.c.mu, table.c.sigma).where(key == value)).first()
    return None if row is None else Skill(float(row[0]), float(row[1]))


__all__ = ["PuzzleRatings"]
