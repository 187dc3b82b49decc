"""Every error ginnyo raises, in one place.  Input errors are ``ValueError``
subclasses (:class:`GinnyoError`) with a one-line message; failures outside the
input (a lost cluster, an engine that ended) are ``RuntimeError`` subclasses.
The modules that raise them re-export them under their old names.  A request the web
table refuses is a :class:`TableRefusal`, which knows no HTTP status (the web's HTTP layer
gives each its status, ``ginnyo.web.http.errors``)."""

from __future__ import annotations

from typing import Any


class Reason(str):
    """A rule's refusal in words (the text, English) with a stable ``code`` and its ``arguments``, so
    that a page can put it in its reader's language (the web table's refusals carry both)."""

    code: str
    arguments: dict[str, Any]

    def __new__(cls, text: str, code: str, **arguments: Any) -> Reason:
        made = super().__new__(cls, text)
        made.code, made.arguments = code, arguments
        return made


class GinnyoError(ValueError):
    """Base of every input error; ``str(error)`` is the one line shown to users."""


class PositionError(GinnyoError):
    """A position (JSON, dict, layout, board or rack) is malformed or not legal."""


class TileError(PositionError):
    """A tile code is not one docs/FORMAT.md knows."""


class InvalidMoveError(GinnyoError):
    """Move notation that cannot be parsed (bad syntax)."""


class IllegalMoveError(GinnyoError):
    """A well-formed play that the rules do not allow in this position."""

    @property
    def reason(self) -> Reason | None:
        """The rule broken with its code and arguments, when it was raised with one."""
        first = self.args[0] if self.args else None
        return first if isinstance(first, Reason) else None


class RecordError(GinnyoError):
    """A game record is malformed, or a move in it breaks the rules."""


class LeaveFileError(GinnyoError):
    """The leave file is missing, corrupt or of a version this ginnyo does not read."""


class MatchResultError(GinnyoError):
    """A match result given to ``ginnyo ladder`` (a ``match --json`` line) is malformed."""


class CrazyError(GinnyoError):
    """A Crazy Rummy state, hand, meld, game record or action is malformed or not legal."""

    @property
    def reason(self) -> Reason | None:
        """The rule broken with its code and arguments, when it was raised with one."""
        first = self.args[0] if self.args else None
        return first if isinstance(first, Reason) else None


class ProtocolError(GinnyoError):
    """A request the engine cannot serve; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class LineTooLong(ProtocolError):
    """A line longer than the engine reads (``limit`` bytes); ``head`` holds its
    first bytes, enough to tell which command it was."""

    def __init__(self, head: bytes, limit: int) -> None:
        super().__init__("line-too-long", f"a line longer than {limit} bytes was skipped")
        self.head = head


class EngineError(GinnyoError):
    """The engine answered ``info string error <code> <message>``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class StoreRefused(GinnyoError):
    """The games' database (``ginnyo serve --data``) is not ginnyo's, is damaged, or another
    server holds it; nothing was written to it."""


class AccountRefused(GinnyoError):
    """A name or a password that breaks the accounts' rules (ginnyo.accounts.rules): one line naming the rule."""


class NameTaken(GinnyoError):
    """An account of that name (without regard to case) exists already."""


class SignInFailed(GinnyoError):
    """A sign-in whose name or password is wrong (one line for both, so names cannot be tried out)."""


class SignInThrottled(GinnyoError):
    """Too many failed sign-ins of a name or from an address of late: ``retry_after`` seconds to wait."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RepeatedSquare(ValueError):
    """A placement that names one square twice: a malformed request, not a play the rules refuse."""


class MeldNotOnTable(ValueError):
    """Crazy Rummy: ``onto`` names no meld on the table (a malformed request, not a step the rules refuse)."""


class DecisionOutOfTime(Exception):
    """Inside a search (the pre-endgame ranking): the decision's budget ran out
    in the middle of a candidate; caught there, never seen by a user."""


class RunError(RuntimeError):
    """A long run failed for a reason outside its input (a lost cluster): exit 1, one line."""


class ClusterError(RunError):
    """The Dask cluster went away or stopped working in the middle of a run."""


class StoreError(RuntimeError):
    """The games' store could not read or write what was asked (a damaged page, a full disk)."""


class StoreUnavailable(StoreError):
    """A write the store could not make for want of space: nothing was saved, and a later
    try may succeed (the web table answers 503)."""


class MoveAlreadyStored(StoreError):
    """A game's move was stored already under the number asked for (another process applied it
    first): nothing was saved; the game is to be reloaded (the web table answers 409)."""


class EngineTerminatedError(RuntimeError):
    """The engine process ended, or stopped answering within the timeout."""


# -- the web table's refusals (ginnyo serve), in the tables' words: the HTTP layer alone
# (ginnyo.web.http.errors) gives each its status -----------------------------------------

class TableRefusal(Exception):
    """A request the live tables refuse; nothing changed; ``str(error)`` is one line.  ``arguments`` are
    what a page needs to say it in its own words (by the code the HTTP layer derives from the class);
    a :class:`Reason` given as the message brings its own code (``code``) and arguments."""

    def __init__(self, message: str, **arguments: Any) -> None:
        super().__init__(" ".join(str(message).split()))
        self.message = str(self)
        self.code: str | None = message.code if isinstance(message, Reason) else None
        self.arguments: dict[str, Any] = {**message.arguments, **arguments} if isinstance(message, Reason) else arguments


class BadField(TableRefusal):
    """A field of the request (an action, a preview's choice) that is malformed."""


class NoCredential(TableRefusal):
    """No seat token, a malformed one, or one that is no token of any game here."""


class BadCredential(TableRefusal):
    """A seat token of another game."""


class UnknownGame(TableRefusal):
    """No game of that id."""


class NotForWatchers(TableRefusal):
    """What a watcher (or someone with no seat) may not do: watch a game not open to watchers, write to
    the players' chat."""


class NotNow(TableRefusal):
    """A request that the game's state refuses now (it may be right at another time)."""


class GameOver(NotNow):
    """The game is over: no more moves."""


class GameNotOver(NotNow):
    """The game is still played: its record (or what follows its end) waits for the end."""


class NotYourTurn(NotNow):
    """Another seat is to move."""


class StaleVersion(NotNow):
    """The request names a version of the game that is no longer its version."""


class UnknownSeek(UnknownGame):
    """No seek of that id (the club's lobby, docs/CLUB.md)."""


class SeekClosed(NotNow):
    """A seek that takes no one now: full, started, withdrawn, or joined already by this account."""


class NotYourSeek(BadCredential):
    """A seek only its maker may withdraw."""


class AnalysisInPlay(TableRefusal):
    """Fair play: no engine analysis of a game in play that two or more people sit at (it opens once the game is over)."""


class RuleRefusal(TableRefusal):
    """An action the rules refuse (or notation that does not read), in the rules' words."""


class TablesBusy(TableRefusal):
    """Refused for now: ``retry_after`` seconds until it may be asked again."""

    def __init__(self, message: str, retry_after: int, **arguments: Any) -> None:
        super().__init__(message, retry_after=retry_after, **arguments)
        self.retry_after = retry_after


class TablesFull(TablesBusy):
    """The server holds as many games in play as it is allowed to."""


class TooManySockets(TablesBusy):
    """A game has as many event sockets open as it takes."""


class ChatTooFast(TablesBusy):
    """A sender's chat messages faster than a table takes them."""
