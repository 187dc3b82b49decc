"""Type stubs for the compiled :mod:`ginnycore.rules` (hand-written from rules.pyx)."""

RACK_SIZE: int
STALL_ROUNDS: int
OPENING_GUARD_ROUNDS: int
RULES_VERSION: int
MIN_PLAYERS: int
MAX_PLAYERS: int
JOKERS_PER_SET: int
MAX_STALL_ROUNDS: int

def sets_for(players: int) -> int: ...
def rack_penalty(tile: int) -> int: ...
def draw_strength(tile: int) -> int: ...
def quiet_turn_limit(players: int, opened: bool, stall_rounds: int) -> int: ...
def tile_to_return(counts: bytes | bytearray) -> int:
    """The tile a player without a play returns from rack counts (52 = joker), -1 for an empty rack."""
