"""The store's part for the club's games (revision 0005): seeks made, joined, withdrawn and started;
the accounts seated in the games they made; which games are rated; each player's rating in each
game kind and each rated game's changes.

A join and a rating are each one write transaction that reads what it changes, so two joins at once
never seat more than the seek takes, and a game is rated once (its ``rating_changes`` rows are the
mark) however often its end is heard of, by however many processes at once (on PostgreSQL the ratings'
writes take one advisory lock, so that each reads the last one's ratings and mark); a rated game stored
finished but not rated yet (its process stopped in between) is found by :meth:`ClubTables.unrated_games`."""

from __future__ import annotations

import json
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from sqlalchemy import Connection, exists, select, text, update

from ...errors import NotYourSeek, SeekClosed, UnknownSeek
from ...game.events import ABORT
from ...ratings.games import Standing, rate_game
from ...ratings.skill import Skill
from .schema import accounts, actions, game_accounts, games, rated_games, rating_changes, ratings, seeks

OPEN, STARTED, CANCELLED = "open", "started", "cancelled"
RATINGS_LOCK = 0x67696E6E796F   # PostgreSQL's advisory lock of the ratings' writes ("ginnyo")


@dataclass(frozen=True)
class SeekRow:
    """A seek as stored: ``seated`` the accounts' ids in their seats' order (the maker first),
    ``names`` theirs (read with the row)."""

    id: str
    maker: int
    game_kind: str
    players: int
    clock: tuple[float, float]        # (initial, increment) seconds
    rated: bool
    bots: tuple[str, ...]
    seated: tuple[int, ...]
    status: str
    game: str | None
    created: float
    names: tuple[str, ...] = ()

    @property
    def full(self) -> bool:
        return len(self.seated) + len(self.bots) >= self.players


@dataclass(frozen=True)
class RatedGame:
    """A rated game in a player's history: its rank and the rating before and after."""

    game: str
    game_kind: str
    rank: int
    players: int
    before: int
    after: int
    created: float
    firsts: int = 1   # the players ranked first (more than one: a shared first place)

    @property
    def result(self) -> str:
        """"won", "drew" (first, shared) or "lost"."""
        return "lost" if self.rank > 1 else "won" if self.firsts == 1 else "drew"


SEEK_COLUMNS = (seeks.c.id, seeks.c.maker, seeks.c.game_kind, seeks.c.players, seeks.c.clock_initial,
                seeks.c.clock_increment, seeks.c.rated, seeks.c.bots, seeks.c.seated, seeks.c.status, seeks.c.game,
                seeks.c.created)


class ClubTables:
    """The seeks' and ratings' methods of :class:`~ginnyo.web.store.Store`."""

    _writing: Callable[[str], AbstractContextManager[Connection]]
    _reading: Callable[[], AbstractContextManager[Connection]]
    _insert: Callable[[], Any]

    # -- seeks ------------------------------------------------------------------------------------
    def create_seek(self, seek: SeekRow) -> SeekRow:
        """Store a new seek (its maker seated); the seek as read back, with its names."""
        with self._writing("the seek") as connection:
            connection.execute(seeks.insert().values(
                id=seek.id, maker=seek.maker, game_kind=seek.game_kind, players=seek.players,
                clock_initial=seek.clock[0], clock_increment=seek.clock[1], rated=int(seek.rated),
                bots=json.dumps(seek.bots), seated=json.dumps(seek.seated), status=seek.status, game=seek.game,
                created=seek.created))
            return _named(connection, seek)

    def seek(self, seek_id: str) -> SeekRow | None:
        with self._reading() as connection:
            row = connection.execute(select(*SEEK_COLUMNS).where(seeks.c.id == seek_id)).first()
            return None if row is None else _named(connection, _seek_row(row))

    def open_seeks(self, limit: int) -> list[SeekRow]:
        """The open seeks, the oldest first (at most ``limit``)."""
        query = select(*SEEK_COLUMNS).where(seeks.c.status == OPEN).order_by(seeks.c.created).limit(limit)
        with self._reading() as connection:
            return [_named(connection, _seek_row(row)) for row in connection.execute(query).all()]

    def started_seeks(self, limit: int) -> list[SeekRow]:
        """The seeks whose games were made, the latest first (at most ``limit``)."""
        query = (select(*SEEK_COLUMNS).where(seeks.c.status == STARTED).order_by(seeks.c.created.desc())
                 .limit(limit))
        with self._reading() as connection:
            return [_named(connection, _seek_row(row)) for row in connection.execute(query).all()]

    def playing_seeks(self, limit: int) -> list[SeekRow]:
        """The seeks whose games are being played (stored in play, whichever process serves them), the
        latest first (at most ``limit``)."""
        query = (select(*SEEK_COLUMNS).select_from(seeks.join(games, games.c.id == seeks.c.game))
                 .where(seeks.c.status == STARTED, games.c.status == "playing")
                 .order_by(seeks.c.created.desc()).limit(limit))
        with self._reading() as connection:
            return [_named(connection, _seek_row(row)) for row in connection.execute(query).all()]

    def join_seek(self, seek_id: str, account: int) -> SeekRow:
        """Seat ``account`` in the open seek ``seek_id``: the seek after (full when it takes no more);
        UnknownSeek, or SeekClosed when it is not open or the account sits in it already."""
        with self._writing("the join") as connection:
            seek = _locked_seek(connection, seek_id)
            if seek.status != OPEN or seek.full:
                raise SeekClosed(f"seek {seek_id} takes no one: it is {'full' if seek.status == OPEN else seek.status}")
            if account in seek.seated:
                raise SeekClosed(f"you sit in seek {seek_id} already")
            seated = seek.seated + (account,)
            connection.execute(update(seeks).where(seeks.c.id == seek_id).values(seated=json.dumps(seated)))
            return _named(connection, replace(seek, seated=seated))

    def cancel_seek(self, seek_id: str, account: int) -> None:
        """Withdraw the open seek ``seek_id`` of ``account``: NotYourSeek for another's, SeekClosed once started."""
        with self._writing("the seek") as connection:
            seek = _locked_seek(connection, seek_id)
            if seek.maker != account:
                raise NotYourSeek(f"seek {seek_id} is another player's: only its maker withdraws it")
            if seek.status != OPEN:
                raise SeekClosed(f"seek {seek_id} is {seek.status}")
            connection.execute(update(seeks).where(seeks.c.id == seek_id).values(status=CANCELLED))

    def start_seek(self, seek: SeekRow, game: str, rated_kind: str | None) -> None:
        """Mark the full ``seek`` started as ``game`` (already stored), its accounts seated there in
        their order (seats 0, 1, ...), the game rated in ``rated_kind`` when given."""
        with self._writing("the seek's game") as connection:
            connection.execute(update(seeks).where(seeks.c.id == seek.id).values(status=STARTED, game=game))
            connection.execute(game_accounts.insert(), [{"game": game, "seat": seat, "account": account}
                                                        for seat, account in enumerate(seek.seated)])
            if rated_kind is not None:
                connection.execute(rated_games.insert().values(game=game, game_kind=rated_kind))

    def account_seat(self, game: str, account: int) -> int | None:
        """The seat ``account`` holds in ``game`` (a game of a seek), None if it holds none."""
        query = select(game_accounts.c.seat).where(game_accounts.c.game == game, game_accounts.c.account == account)
        with self._reading() as connection:
            seat = connection.execute(query).scalar()
        return None if seat is None else int(seat)

    def seated_names(self, game: str) -> dict[int, str]:
        """The accounts' names seated in ``game``, by seat (none for a game of no seek)."""
        query = (select(game_accounts.c.seat, accounts.c.name).select_from(game_accounts.join(accounts))
                 .where(game_accounts.c.game == game))
        with self._reading() as connection:
            return {int(seat): str(name) for seat, name in connection.execute(query).all()}

    def rated_kind(self, game: str) -> str | None:
        """The game kind ``game`` is rated in, None if it is not rated."""
        with self._reading() as connection:
            found = connection.execute(select(rated_games.c.game_kind).where(rated_games.c.game == game)).scalar()
        return None if found is None else str(found)

    # -- ratings ----------------------------------------------------------------------------------
    def unrated_games(self, limit: int) -> list[str]:
        """The rated games stored finished and not rated (their process stopped before it rated them), the
        first ``limit`` by id; an aborted game (no result, never rated) is none of them."""
        aborted = exists().where(actions.c.game == rated_games.c.game, actions.c.text.startswith(f"{ABORT} "))
        query = (select(rated_games.c.game).select_from(rated_games.join(games, games.c.id == rated_games.c.game))
                 .where(games.c.status == "finished",
                        ~exists().where(rating_changes.c.game == rated_games.c.game), ~aborted)
                 .order_by(rated_games.c.game).limit(limit))
        with self._reading() as connection:
            return [str(game) for game in connection.execute(query).scalars().all()]

    def rate_finished_game(self, game: str, kind: str, players: Sequence[str], ranks: Sequence[int]) -> bool:
        """Rate the finished ``game`` of ``players`` (seat order) ranked ``ranks`` in ``kind``, once: False
        (nothing changed) when it was rated already."""
        with self._writing("the ratings") as connection:
            if connection.dialect.name == "postgresql":   # SQLite's write transactions are one at a time already
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": RATINGS_LOCK})
            if connection.execute(select(rating_changes.c.player).where(rating_changes.c.game == game)).first():
                return False
            query = select(ratings.c.player, ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
                ratings.c.game_kind == kind, ratings.c.player.in_(list(players)))
            current = {player: Standing(Skill(float(mu), float(sigma)), int(games))
                       for player, mu, sigma, games in connection.execute(query).all()}
            after = rate_game(players, ranks, current)
            insert, now = self._insert(), time.time()
            for player, rank in zip(players, ranks):
                new, was = after[player], current.get(player, Standing())
                connection.execute(insert(ratings).values(
                    player=player, game_kind=kind, mu=new.skill.mu, sigma=new.skill.sigma, games=new.games)
                    .on_conflict_do_update(index_elements=["player", "game_kind"], set_={
                        "mu": new.skill.mu, "sigma": new.skill.sigma, "games": new.games}))
                connection.execute(rating_changes.insert().values(
                    game=game, player=player, game_kind=kind, rank=rank, before=was.rating, after=new.rating,
                    created=now))
        return True

    def standings(self, player: str) -> dict[str, Standing]:
        """``player``'s standing in each game kind rated so far."""
        query = select(ratings.c.game_kind, ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
            ratings.c.player == player)
        with self._reading() as connection:
            return {str(kind): Standing(Skill(float(mu), float(sigma)), int(games))
                    for kind, mu, sigma, games in connection.execute(query).all()}

    def rated_games_of(self, player: str, limit: int) -> list[RatedGame]:
        """``player``'s last ``limit`` rated games, the latest first."""
        query = (select(rating_changes.c.game, rating_changes.c.game_kind, rating_changes.c.rank,
                        rating_changes.c.before, rating_changes.c.after, rating_changes.c.created)
                 .where(rating_changes.c.player == player).order_by(rating_changes.c.created.desc(),
                                                                     rating_changes.c.game).limit(limit))
        with self._reading() as connection:
            rows = connection.execute(query).all()
            result = []
            for game, kind, rank, before, after, created in rows:
                ranks = connection.execute(select(rating_changes.c.rank)
                                           .where(rating_changes.c.game == game)).scalars().all()
                result.append(RatedGame(str(game), str(kind), int(rank), len(ranks), int(before), int(after),
                                        float(created), sum(1 for each in ranks if each == 1)))
        return result

    def leaderboard(self, kind: str, limit: int) -> list[tuple[str, Standing]]:
        """The players rated in ``kind``, the best rating first (at most ``limit``)."""
        query = select(ratings.c.player, ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
            ratings.c.game_kind == kind).order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), ratings.c.player)
        with self._reading() as connection:
            return [(str(player), Standing(Skill(float(mu), float(sigma)), int(games)))
                    for player, mu, sigma, games in connection.execute(query.limit(limit)).all()]


def _seek_row(row: Sequence[Any]) -> SeekRow:
    (id, maker, kind, players, initial, increment, rated, bots, seated, status, game, created) = row
    return SeekRow(str(id), int(maker), str(kind), int(players), (float(initial), float(increment)), bool(rated),
                   tuple(json.loads(bots)), tuple(int(account) for account in json.loads(seated)), str(status),
                   game, float(created))


def _locked_seek(connection: Connection, seek_id: str) -> SeekRow:
    query = select(*SEEK_COLUMNS).where(seeks.c.id == seek_id)
    if connection.dialect.name == "postgresql":
        query = query.with_for_update()   # two joins at once: the second waits and reads the first's seat
    row = connection.execute(query).first()
    if row is None:
        raise UnknownSeek("no such seek" if len(seek_id) > 40 else f"no seek {seek_id!r}")
    return _seek_row(row)


def _named(connection: Connection, seek: SeekRow) -> SeekRow:
    found = dict(connection.execute(select(accounts.c.id, accounts.c.name)
                                    .where(accounts.c.id.in_(list(seek.seated)))).all())
    return replace(seek, names=tuple(str(found.get(account, "?")) for account in seek.seated))


__all__ = ["ClubTables", "SeekRow", "RatedGame", "OPEN", "STARTED", "CANCELLED"]
