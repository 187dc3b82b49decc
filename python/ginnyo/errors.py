"""Every error ginnyo raises, in one place.  Input errors are ``ValueError``
subclasses (:class:`GinnyoError`) with a one-line message; failures outside the
input (a lost cluster, an engine that ended) are ``RuntimeError`` subclasses.
The modules that raise them re-export them under their old names.  A request the web
table refuses is a :class:`WebError` carrying its HTTP status."""


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


class RecordError(GinnyoError):
    """A game record is malformed, or a move in it breaks the rules."""


class LeaveFileError(GinnyoError):
    """The leave file is missing, corrupt or of a version this ginnyo does not read."""


class MatchResultError(GinnyoError):
    """A match result given to ``ginnyo ladder`` (a ``match --json`` line) is malformed."""


class CrazyError(GinnyoError):
    """A Crazy Rummy state, hand, meld, game record or action is malformed or not legal."""


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


class StaleVersion(StoreError):
    """A game's move was stored already under the number asked for (another process applied it
    first): nothing was saved; the game is to be reloaded (the web table answers 409)."""


class EngineTerminatedError(RuntimeError):
    """The engine process ended, or stopped answering within the timeout."""


# -- the web table's refusals (ginnyo serve): an HTTP status and one line ------------------

class WebError(Exception):
    """A request refused with ``status`` (4xx) and a one-line ``message``; nothing changed."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))
        self.message = str(self)


class BadRequest(WebError):
    """Malformed JSON, a field missing or of the wrong type or value."""
    status = 400


class Unauthorized(WebError):
    """No seat token, or one that is no token of any game."""
    status = 401


class Forbidden(WebError):
    """A token of another game."""
    status = 403


class NotFound(WebError):
    """No game of that id."""
    status = 404


class Conflict(WebError):
    """Not now: out of turn, a stale version, the game over (or not yet over)."""
    status = 409


class TooLarge(WebError):
    """A request body over the limit."""
    status = 413


class UnsupportedType(WebError):
    """A body that is not sent as the type the endpoint reads (``Content-Type: application/json``)."""
    status = 415


class Illegal(WebError):
    """An action the rules refuse (or notation that does not read), in the rules' words."""
    status = 422


class Busy(WebError):
    """Refused for now, not for what was asked: ``retry_after`` seconds until it may be taken
    (answered in a ``Retry-After`` header)."""
    status = 503

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TooManyRequests(Busy):
    """One client's requests of a kind faster than the server takes them."""
    status = 429


class ServerFull(Busy):
    """The server holds as many games in play as it is allowed to."""
    status = 503
