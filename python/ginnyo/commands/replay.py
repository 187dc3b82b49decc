"""``ginnyo replay``: re-check a game record move by move and show each turn."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from .arguments import COLOR_CHOICES, COLOR_HELP, color_wanted

if TYPE_CHECKING:
    from ..game.game import Game, Turn
    from ..vocab.tiles import PlacedTile


def register(commands: Any) -> None:
    """Add ``replay`` to the main parser's commands."""
    replay = commands.add_parser("replay", help="re-check a game record move by move and show it")
    replay.add_argument("record", metavar="RECORD", help="a game record (JSON lines)")
    replay.add_argument("--quiet", action="store_true", help="print only the verdict")
    replay.add_argument("--color", choices=COLOR_CHOICES, default="auto", help=COLOR_HELP.format("boards"))
    replay.set_defaults(run=cmd_replay)


def cmd_replay(args: argparse.Namespace) -> int:
    """``ginnyo replay RECORD``: re-check a record move by move, printing each turn
    and the board after each play (``--quiet``: only the verdict)."""
    from ..game.actions import Place, action_notation
    from ..position.position import Position
    from ..game.records import _codes, read_record, record_names, replay
    from ..position.render import board_text
    from ..vocab.tiles import rack_code
    color = color_wanted(args.color)
    lines = read_record(args.record)
    names = record_names(lines)

    def who(player: int) -> str:
        return f"player {player}" + (f" ({names[player]})" if names else "")

    def show(game: Game, turn: Turn) -> None:
        if args.quiet:
            return
        if turn.number == 1:
            print(f"{game.players} players, {game.sets} set{'s' if game.sets > 1 else ''}, "
                  f"seed {game.seed}; {who(game.first_player)} starts")
        draw = "nothing" if turn.draw is None else rack_code(turn.draw)
        before = Position(game.layout, game.sets, _board_before(game, turn), (), validate=False)
        print(f"\nturn {turn.number}  {who(turn.player)}  rack {_codes(turn.rack)}  draws {draw}")
        refill = f"; draws {_codes(turn.refill)}" if turn.refill else ""
        print(f"  {action_notation(before, turn.action)}  {turn.score:+d}{refill};  "
              f"scores {' '.join(str(score) for score in _running(game))}")
        if isinstance(turn.action, Place):
            print(board_text(game.position(turn.player), color=color))

    game = replay(lines, on_turn=show, name=args.record)
    if not args.quiet:
        print(f"\nend: {game.end_reason}")
        print(f"penalties {' '.join(f'-{p}' for p in game.penalties or [])}; final scores "
              f"{' '.join(str(score) for score in game.scores)}; "
              f"{' and '.join(who(p) for p in game.winners)} "
              f"{'win' if len(game.winners) > 1 else 'wins'}")
    print(f"record verified: {game.turns_played} turns, every move legal, scores as recorded")
    return 0


def _board_before(game: Game, turn: Turn) -> dict[int, PlacedTile]:
    from ..game.actions import Place
    board = dict(game.board)
    if isinstance(turn.action, Place):
        for square, _ in turn.action.play.placements:
            del board[square]
    return board


def _running(game: Game) -> list[int]:
    scores = [0] * game.players
    for turn in game.history:
        scores[turn.player] += turn.score
    return scores
