"""What the commands' parsers share: the parser class, the help formatter that
shows every default, the argparse types with their limits, and the shared help texts."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, Callable, NoReturn

from ..errors import GinnyoError

EXIT_OK, EXIT_FAILURE, EXIT_BAD_INPUT = 0, 1, 2
EXIT_INTERRUPTED = 130   # 128 + SIGINT; SIGTERM gives 143

POSITION_HELP = "position file (JSON or a position string), or - for stdin"
FORCE_HELP = "overwrite the files of {} that exist (never a symbolic link)"
COLOR_CHOICES = ("auto", "always", "never")
COLOR_HELP = "colour the {}: auto (when stdout is a terminal), always or never"


class DefaultsFormatter(argparse.HelpFormatter):
    """Ends an option's help with ``(default: X)`` when it has a default (neither
    None nor False) that its help does not show already with ``%(default)s``."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "%(default)" not in text and has_default(action):
            text += " (default: " + default_text(action.default).replace("%", "%%") + ")"
        return text

    def _split_lines(self, text: str, width: int) -> list[str]:
        """Lines of at most ``width``, never broken inside a hyphenated word (``sim-infer``)."""
        import textwrap
        return textwrap.wrap(self._whitespace_matcher.sub(" ", text).strip(), width, break_on_hyphens=False)


def default_text(default: Any) -> str:
    """A default as it would be typed: ``2,3,4`` for a tuple, not ``(2, 3, 4)``."""
    return ",".join(map(str, default)) if isinstance(default, (tuple, list)) else str(default)


def has_default(action: argparse.Action) -> bool:
    """Whether ``action`` has a default worth showing: one that is set, not None or False."""
    default = action.default
    return default is not None and default is not False and default is not argparse.SUPPRESS


class CommandParser(argparse.ArgumentParser):
    """A parser whose errors are one line and exit 2, and whose help shows the defaults."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", DefaultsFormatter)
        super().__init__(*args, **kwargs)

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        """As argparse's, but words left over are the error of the command they were given to."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self._chosen(parsed).error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed

    def _chosen(self, parsed: argparse.Namespace) -> CommandParser:
        """The innermost command parser that ``parsed`` went through."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = action.choices.get(getattr(parsed, action.dest, None) or "")
                if isinstance(chosen, CommandParser):
                    return chosen._chosen(parsed)
        return self

    def error(self, message: str) -> NoReturn:  # one line, exit 2, naming this command's help
        self.exit(EXIT_BAD_INPUT, f"ginnyo: error: {message} (see '{self.prog} --help')\n")


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` (to ``high``)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            allowed = f"from {low}" + (f" to {high}" if high is not None else " up")
            raise argparse.ArgumentTypeError(f"{value} is out of range ({allowed})")
        return value
    return parse


# The largest numbers the command line takes: beyond them a run could only
# exhaust the memory, overflow the C core's numbers or never end.
MAX_WORKERS = 256           # processes, or threads of the C game loop
MAX_GAMES = 10**9
MAX_POSITIONS = 10**6
MAX_ROLLOUTS = 10**6        # --sim and --rollouts
MAX_PLIES = 1000
MAX_SEED = 2**63 - 1        # seed + game index stays within the C generator's 64 bits

worker_count = whole_number(0, MAX_WORKERS)
game_count = whole_number(0, MAX_GAMES)
seed_number = whole_number(0, MAX_SEED)
rollout_count = whole_number(1, MAX_ROLLOUTS)
ply_count = whole_number(0, MAX_PLIES)


def color_wanted(choice: str) -> bool:
    """``--color``: always, never, or auto (when standard output is a terminal)."""
    return choice == "always" or (choice == "auto" and sys.stdout.isatty())


def positive_seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def file_name(text: str) -> str:
    """An argparse type: the name of a file or folder to read or write.  An empty
    one is refused: the system would read it as ``.``, the current folder."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path names no file or folder")
    return text


def named(empty: str, check: Callable[[str], object] | None = None) -> Callable[[str], str]:
    """An argparse type: an address, URL or name, refused when empty or blank (``empty``
    says why: given '', an option must not read as not given, nor as every address) or
    when ``check`` raises ValueError, whose message is then the error line's."""
    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(empty)
        if check is not None:
            try:
                check(text)
            except ValueError as error:
                raise argparse.ArgumentTypeError(str(error)) from None
        return text
    return parse


def _dask_address(text: str) -> None:
    """ValueError for an address Dask cannot reach; none when Dask is missing (the run says it is)."""
    try:
        from ..support.cluster import address_problem
        problem = address_problem(text)
    except ImportError:
        return
    if problem is not None:
        raise ValueError(problem)


scheduler_address = named("an empty address names no scheduler", _dask_address)


def add_deal_options(parser: argparse.ArgumentParser, sim_player: str) -> None:
    """The options ``match`` and ``plot-sim`` share: the seed of the deals, the
    sim player's search (``sim_player`` names it) and where the games are played."""
    parser.add_argument("--seed", type=seed_number, default=0, metavar="S", help="deal i is dealt from seed S+i")
    parser.add_argument("--candidates", type=whole_number(1), default=5, metavar="K",
                        help=f"{sim_player} candidates")
    parser.add_argument("--plies", type=ply_count, default=2, metavar="P",
                        help=f"{sim_player} turns after its own in a rollout")
    parser.add_argument("--workers", type=worker_count, metavar="W", help="local processes (default: one a core)")
    parser.add_argument("--scheduler", type=scheduler_address, metavar="ADDRESS", help="play on this Dask cluster")


def parse_bots(text: str, option: str = "--bots") -> tuple[str, str]:
    """``--bots A,B``: two known kinds of player; ``option`` names the option in the error line."""
    from ..players.kinds import PLAYER_KINDS
    kinds = [kind.strip() for kind in text.split(",")]
    if len(kinds) != 2:
        raise GinnyoError(f"{option}: give two players, A,B (not {text!r})")
    for kind in kinds:
        if kind not in PLAYER_KINDS:
            raise GinnyoError(f"{option}: unknown player {kind!r} (known: {', '.join(PLAYER_KINDS)})")
    return kinds[0], kinds[1]


__all__ = ["positive_seconds", "CommandParser", "DefaultsFormatter", "default_text", "has_default", "whole_number", "worker_count", "game_count",
           "seed_number", "rollout_count", "ply_count", "color_wanted", "add_deal_options", "parse_bots", "POSITION_HELP", "FORCE_HELP", "COLOR_CHOICES", "COLOR_HELP",
           "EXIT_OK", "EXIT_FAILURE", "EXIT_BAD_INPUT", "EXIT_INTERRUPTED", "MAX_WORKERS", "MAX_GAMES",
           "MAX_POSITIONS", "MAX_ROLLOUTS", "MAX_PLIES", "MAX_SEED", "file_name", "named", "scheduler_address"]
