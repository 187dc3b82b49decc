# cython: language_level=3
"""The Crazy Rummy hand solver in C (docs/RULES.md §7, docs/CRAZY-RUMMY.md).

A hand is a 52-bit mask of card ids (``suit * 13 + rank - 1``, suits C D H S,
ace = rank 1).  Cards of the round's wild rank are wilds; the others are
naturals.  The search takes the naturals lowest first (suit by suit, ace up) and
gives each a place: deadwood, a new set, a new run, a lay-off on one of the
player's own melds, or a swap for the table wild that stands for exactly that
card (which hands the player that wild; docs/RULES.md §7: a wild in a set or a run
names one card, and only that card may take its place).  Wilds are interchangeable, so the search only counts how many the
melds need; spare wilds fill melds with room or, three or more, make melds of
their own.  A branch stops as soon as its deadwood reaches the best found.
"""

from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset
from itertools import islice

cdef enum:
    INFINITE = 1 << 30
    CRAZY_TOO_BIG = -2          # crazy_deadwood: the hand has too many naturals or the search ran out of steps


ctypedef struct Search:
    const CrazyTable* table
    int n                                      # naturals in the hand
    int cards[CRAZY_MAX_NATURALS]              # lowest first
    int hand_wilds
    int best
    long steps_left                            # the search's budget: it gives up at 0
    int dead                                   # deadwood of the naturals placed so far
    int swaps
    int n_sets
    int set_rank[CRAZY_MAX_GROUPS]
    int set_size[CRAZY_MAX_GROUPS]             # naturals in each new set
    int n_runs
    int run_suit[CRAZY_MAX_GROUPS]
    int run_first[CRAZY_MAX_GROUPS]            # rank of the lowest and highest natural
    int run_last[CRAZY_MAX_GROUPS]
    int run_count[CRAZY_MAX_GROUPS]            # naturals in the run
    int own_low[CRAZY_MAX_OWN_MELDS]           # an own run's ends after the lay-offs so far
    int own_high[CRAZY_MAX_OWN_MELDS]
    int own_laid[CRAZY_MAX_OWN_MELDS]          # naturals laid off on it
    int own_free[CRAZY_MAX_OWN_MELDS]          # an own set's suits still free after the lay-offs so far
    int place[CRAZY_MAX_NATURALS]              # the path being searched ...
    int group[CRAZY_MAX_NATURALS]
    int best_place[CRAZY_MAX_NATURALS]         # ... and the best one found
    int best_group[CRAZY_MAX_NATURALS]
    int rank_left[CRAZY_MAX_NATURALS + 1][CRAZY_RANKS]   # naturals of each rank from index i on
    int swappable_left[CRAZY_MAX_NATURALS + 1]           # naturals from index i on that a table wild takes


cdef inline int suit_count(int suits) noexcept nogil:
    return (suits & 1) + (suits >> 1 & 1) + (suits >> 2 & 1) + (suits >> 3 & 1)


cdef inline int card_points(int card, int wild_rank) noexcept nogil:
    """Wild 25, ace 1, 2-10 face value, J Q K 10."""
    cdef int rank = card % 13 + 1
    if rank == wild_rank:
        return CRAZY_WILD_VALUE
    return 10 if rank > 10 else rank


cdef void leaf(Search* s) noexcept nogil:
    """Score a complete placement: wilds needed against wilds held, spare wilds."""
    cdef const CrazyTable* table = s.table
    cdef int need = 0, room = 0, first_meld = INFINITE, g, span, group_need, available, spare, cost
    for g in range(s.n_sets):
        group_need = 3 - s.set_size[g] if s.set_size[g] < 3 else 0
        need += group_need
        room += 4 - (s.set_size[g] if s.set_size[g] > 3 else 3)
        if group_need < first_meld:
            first_meld = group_need
    for g in range(s.n_runs):
        span = s.run_last[g] - s.run_first[g] + 1
        group_need = span - s.run_count[g] + (3 - span if span < 3 else 0)
        need += group_need
        room += 13 - (span if span > 3 else 3)
        if group_need < first_meld:
            first_meld = group_need
    for g in range(table.n_sets):
        room += suit_count(s.own_free[g])
    for g in range(table.n_runs):
        need += (s.own_high[g] - s.own_low[g]) - (table.run_high[g] - table.run_low[g]) - s.own_laid[g]
        room += 13 - (s.own_high[g] - s.own_low[g] + 1)
    available = s.hand_wilds + s.swaps
    if need > available:
        return
    spare = available - need
    # a swap needs a meld of one's own first: on the table already, or laid now from the hand alone
    if s.swaps > 0 and not table.has_melded and first_meld > s.hand_wilds \
            and not (s.hand_wilds >= 3 and spare >= 3):
        return
    cost = s.dead
    if spare < 3 and spare > room:
        cost += (spare - room) * CRAZY_WILD_VALUE
    if cost < s.best:
        s.best = cost
        memcpy(s.best_place, s.place, s.n * sizeof(int))
        memcpy(s.best_group, s.group, s.n * sizeof(int))


cdef int wilds_needed_at_least(Search* s, int i, int suit) noexcept nogil:
    """A lower bound on the wilds the new melds will need, whatever the naturals from
    ``i`` on do: the gaps inside runs, runs of finished suits that are too short,
    and sets too small even if every natural of their rank still to come joins."""
    cdef int g, need = 0, short
    for g in range(s.n_runs):
        need += s.run_last[g] - s.run_first[g] + 1 - s.run_count[g]
        if s.run_suit[g] != suit:
            short = 3 - (s.run_last[g] - s.run_first[g] + 1)
            if short > 0:
                need += short
    for g in range(s.n_sets):
        short = 3 - s.set_size[g] - s.rank_left[i][s.set_rank[g] - 1]
        if short > 0:
            need += short
    return need


cdef inline bint alike_before(const int* ranks, const int* states, int g) noexcept nogil:
    """Is there a set before ``g`` of the same rank and state (size, or free suits)?
    Then trying ``g`` as well would only repeat a branch."""
    cdef int h
    for h in range(g):
        if ranks[h] == ranks[g] and states[h] == states[g]:
            return True
    return False


cdef void search(Search* s, int i) noexcept nogil:
    cdef const CrazyTable* table = s.table
    cdef int card, rank, suit, g, saved_last, saved_low, saved_high
    if s.dead >= s.best or s.steps_left <= 0:
        return
    s.steps_left -= 1
    suit = s.cards[i] // 13 if i < s.n else 4
    if wilds_needed_at_least(s, i, suit) > s.hand_wilds + s.swaps + s.swappable_left[i]:
        return
    if i == s.n:
        leaf(s)
        return
    card = s.cards[i]
    rank = card % 13 + 1
    # a new run: join one of this suit (its naturals so far are all lower), or start one
    for g in range(s.n_runs):
        if s.run_suit[g] == suit:
            saved_last = s.run_last[g]
            s.run_last[g] = rank
            s.run_count[g] += 1
            s.place[i] = PLACE_NEW_RUN
            s.group[i] = g
            search(s, i + 1)
            s.run_count[g] -= 1
            s.run_last[g] = saved_last
    if s.n_runs < CRAZY_MAX_GROUPS:
        g = s.n_runs
        s.run_suit[g] = suit
        s.run_first[g] = rank
        s.run_last[g] = rank
        s.run_count[g] = 1
        s.n_runs += 1
        s.place[i] = PLACE_NEW_RUN
        s.group[i] = g
        search(s, i + 1)
        s.n_runs -= 1
    # a new set: join one of this rank with room (one of each size is enough), or start one
    for g in range(s.n_sets):
        if s.set_rank[g] == rank and s.set_size[g] < 4 and not alike_before(s.set_rank, s.set_size, g):
            s.set_size[g] += 1
            s.place[i] = PLACE_NEW_SET
            s.group[i] = g
            search(s, i + 1)
            s.set_size[g] -= 1
    if s.n_sets < CRAZY_MAX_GROUPS:
        g = s.n_sets
        s.set_rank[g] = rank
        s.set_size[g] = 1
        s.n_sets += 1
        s.place[i] = PLACE_NEW_SET
        s.group[i] = g
        search(s, i + 1)
        s.n_sets -= 1
    # a lay-off on an own set of this rank where no place stands for this suit yet
    # (sets alike in rank and free suits are one choice)
    for g in range(table.n_sets):
        if table.set_rank[g] != rank or not (s.own_free[g] >> suit) & 1 \
                or alike_before(table.set_rank, s.own_free, g):
            continue
        s.own_free[g] &= ~(1 << suit)
        s.place[i] = PLACE_OWN_SET
        s.group[i] = g
        search(s, i + 1)
        s.own_free[g] |= 1 << suit
    # a lay-off at either end of an own run of this suit (wilds fill any gap)
    for g in range(table.n_runs):
        if table.run_suit[g] != suit:
            continue
        if rank < table.run_low[g] or rank > s.own_high[g]:
            saved_low = s.own_low[g]
            saved_high = s.own_high[g]
            if rank < s.own_low[g]:
                s.own_low[g] = rank
            if rank > s.own_high[g]:
                s.own_high[g] = rank
            s.own_laid[g] += 1
            s.place[i] = PLACE_OWN_RUN
            s.group[i] = g
            search(s, i + 1)
            s.own_laid[g] -= 1
            s.own_low[g] = saved_low
            s.own_high[g] = saved_high
    # a swap for the wild on the table that stands for this card
    if (table.swap_cards >> card) & 1:
        s.swaps += 1
        s.place[i] = PLACE_SWAP
        s.group[i] = table.swap_slot[card]
        search(s, i + 1)
        s.swaps -= 1
    # deadwood
    s.dead += card_points(card, table.wild_rank)
    s.place[i] = PLACE_DEADWOOD
    s.group[i] = -1
    search(s, i + 1)
    s.dead -= card_points(card, table.wild_rank)


cdef int crazy_deadwood(const CrazyTable* table, uint64_t hand, int* places, int* groups) noexcept nogil:
    """The lowest deadwood of ``hand`` (all of it may be melded), or CRAZY_TOO_BIG when
    the hand has more naturals than the search holds or the search needs more than
    CRAZY_MAX_STEPS steps (no hand of a legal turn comes near).  With ``places`` and ``groups``
    (CRAZY_MAX_NATURALS each), also where each natural goes, lowest card first."""
    return deadwood_below(table, hand, INFINITE, places, groups)


cdef int deadwood_below(const CrazyTable* table, uint64_t hand, int bound, int* places,
                        int* groups) noexcept nogil:
    """crazy_deadwood when it is below ``bound``; else a number at least ``bound`` (the
    search drops every branch that cannot get under it)."""
    cdef Search s
    cdef int card, g
    memset(&s, 0, sizeof(Search))
    s.table = table
    for card in range(CRAZY_CARDS):
        if (hand >> card) & 1:
            if card % 13 + 1 == table.wild_rank:
                s.hand_wilds += 1
            else:
                if s.n == CRAZY_MAX_NATURALS:
                    return CRAZY_TOO_BIG
                s.cards[s.n] = card
                s.n += 1
    for g in range(table.n_runs):
        s.own_low[g] = table.run_low[g]
        s.own_high[g] = table.run_high[g]
    memcpy(s.own_free, table.set_free, sizeof(s.own_free))
    for g in range(s.n - 1, -1, -1):
        card = s.cards[g]
        memcpy(s.rank_left[g], s.rank_left[g + 1], sizeof(s.rank_left[g]))
        s.rank_left[g][card % 13] += 1
        s.swappable_left[g] = s.swappable_left[g + 1] + <int>((table.swap_cards >> card) & 1)
    # no arrangement is worse than everything in the hand
    s.best = 1
    for card in range(CRAZY_CARDS):
        if (hand >> card) & 1:
            s.best += card_points(card, table.wild_rank)
    if bound < s.best:
        s.best = bound
    for g in range(s.n):
        s.best_place[g] = PLACE_DEADWOOD
        s.best_group[g] = -1
    s.steps_left = CRAZY_MAX_STEPS
    search(&s, 0)
    if s.steps_left <= 0:
        return CRAZY_TOO_BIG
    if places != NULL:
        memcpy(places, s.best_place, s.n * sizeof(int))
        memcpy(groups, s.best_group, s.n * sizeof(int))
    return s.best


cdef int crazy_best_discard(const CrazyTable* table, uint64_t hand, uint64_t keep, int* discard) noexcept nogil:
    """The fewest points held after melding and discarding one card that is not in
    ``keep``; the card in ``discard`` (-1 when none may go).  Ties go to the
    highest-valued discard, then the lowest card id.  CRAZY_TOO_BIG as crazy_deadwood."""
    cdef int card, held, best = INFINITE, best_card = -1, points, best_points = -1
    for card in range(CRAZY_CARDS):
        if not (hand >> card) & 1 or (keep >> card) & 1:
            continue
        # only a held count up to the best so far matters (a tie may still win)
        held = deadwood_below(table, hand & ~((<uint64_t>1) << card), best + 1 if best < INFINITE else INFINITE,
                              NULL, NULL)
        if held < 0:
            return CRAZY_TOO_BIG
        points = card_points(card, table.wild_rank)
        if held < best or (held == best and points > best_points):
            best = held
            best_card = card
            best_points = points
    discard[0] = best_card
    return best if best_card >= 0 else -1


cdef _whole(value, str what, long low, long high):
    """``value`` as a whole number in ``low..high``, else ValueError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what}: expected a whole number, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{what}: {value} is not {low}..{high}")
    return int(value)


cdef _items(values, int limit, str what):
    """The items of an iterable, refused past ``limit`` without reading further."""
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{what}: expected a sequence, got {type(values).__name__}")
    try:
        items = list(islice(iter(values), limit + 1))
    except TypeError:
        raise ValueError(f"{what}: expected a sequence, got {type(values).__name__}") from None
    if len(items) > limit:
        raise ValueError(f"{what}: more than {limit}")
    return items


cdef _pair(item, int size, str what):
    if isinstance(item, (str, bytes)) or not hasattr(item, "__len__") or len(item) != size:
        raise ValueError(f"{what}: expected {size} whole numbers, got {item!r:.60}")
    return tuple(item)


cdef class Table:
    """What a hand is solved against: the round's wild rank, the player's own melds
    (each set by rank and free suits, each run by suit and ends) and the wilds on the
    table, each by the one card that may replace it."""

    def __init__(self, wild_rank, has_melded=False, sets=(), runs=(), swaps=()):
        cdef int index, rank, free, suit, low, high, card
        memset(&self.table, 0, sizeof(CrazyTable))
        self.table.wild_rank = _whole(wild_rank, "wild_rank", 1, 13)
        if not isinstance(has_melded, (bool, int)):
            raise ValueError(f"has_melded: expected true or false, got {type(has_melded).__name__}")
        set_list = _items(sets, CRAZY_MAX_OWN_MELDS, "sets (rank, free suits)")
        run_list = _items(runs, CRAZY_MAX_OWN_MELDS, "runs (suit, low, high)")
        swap_list = _items(swaps, CRAZY_MAX_TABLE_WILDS, "swaps (the card each table wild stands for)")
        for index, item in enumerate(set_list):
            rank_value, free_value = _pair(item, 2, f"sets[{index}]")
            rank = _whole(rank_value, f"sets[{index}] rank", 1, 13)
            free = _whole(free_value, f"sets[{index}] free suits (a 4-bit mask)", 0, 15)
            self.table.set_rank[index] = rank
            self.table.set_free[index] = free
        for index, item in enumerate(run_list):
            suit_value, low_value, high_value = _pair(item, 3, f"runs[{index}]")
            suit = _whole(suit_value, f"runs[{index}] suit", 0, 3)
            low = _whole(low_value, f"runs[{index}] low", 1, 13)
            high = _whole(high_value, f"runs[{index}] high", low, 13)
            self.table.run_suit[index] = suit
            self.table.run_low[index] = low
            self.table.run_high[index] = high
        for card in range(CRAZY_CARDS):
            self.table.swap_slot[card] = -1
        for index, value in enumerate(swap_list):
            card = _whole(value, f"swaps[{index}]", 0, CRAZY_CARDS - 1)
            if self.table.swap_slot[card] < 0:
                self.table.swap_slot[card] = index
                self.table.swap_cards |= (<uint64_t>1) << card
        self.table.n_sets = len(set_list)
        self.table.n_runs = len(run_list)
        self.table.has_melded = bool(has_melded)

    @property
    def wild_rank(self):
        return self.table.wild_rank


_TOO_BIG = (f"hand: too big to solve (more than {CRAZY_MAX_NATURALS} natural cards, or more than "
           f"{CRAZY_MAX_STEPS:,} search steps)")


cdef Table _ready(table):
    """``table`` as a set-up :class:`Table`, else ValueError."""
    if not isinstance(table, Table):
        raise ValueError(f"table: expected a ginnycore.crazy.Table, got {type(table).__name__}")
    if (<Table>table).table.wild_rank == 0:
        raise ValueError("table: not set up (Table.__init__ was not run)")
    return <Table>table


cdef uint64_t _hand_mask(hand, str what) except? 0:
    if isinstance(hand, bool) or not isinstance(hand, int):
        raise ValueError(f"{what}: expected a card mask (a whole number), got {type(hand).__name__}")
    if not 0 <= hand < (1 << 52):
        raise ValueError(f"{what}: a card mask holds 52 bits (0 <= mask < 2**52)")
    return hand


def deadwood(table, hand):
    """The lowest deadwood of ``hand`` (a card mask) when all of it may be melded."""
    cdef Table ready = _ready(table)
    cdef uint64_t mask = _hand_mask(hand, "hand")
    cdef int result
    with nogil:
        result = crazy_deadwood(&ready.table, mask, NULL, NULL)
    if result < 0:
        raise ValueError(_TOO_BIG)
    return result


def arrangement(table, hand):
    """``(deadwood, places)``: the lowest deadwood of ``hand`` and, for each natural
    card lowest first, ``(card, place, group)`` with ``place`` one of the PLACE_*
    codes (0 deadwood, 1 new set, 2 new run, 3 own set, 4 own run, 5 swap) and
    ``group`` the new meld's number, the own set's or own run's index, for a swap
    the number of the table wild it takes (its place in ``swaps``), else -1."""
    cdef Table ready = _ready(table)
    cdef uint64_t mask = _hand_mask(hand, "hand")
    cdef int places[CRAZY_MAX_NATURALS]
    cdef int groups[CRAZY_MAX_NATURALS]
    cdef int result, card, index = 0
    with nogil:
        result = crazy_deadwood(&ready.table, mask, places, groups)
    if result < 0:
        raise ValueError(_TOO_BIG)
    out = []
    for card in range(CRAZY_CARDS):
        if (mask >> card) & 1 and card % 13 + 1 != ready.table.wild_rank:
            out.append((card, places[index], groups[index]))
            index += 1
    return result, out


def best_discard(table, hand, keep=0):
    """``(held, card)``: the fewest points held after melding and discarding one
    card of ``hand`` not in ``keep`` (masks), and that card; ``(-1, -1)`` when
    every card must be kept."""
    cdef Table ready = _ready(table)
    cdef uint64_t mask = _hand_mask(hand, "hand")
    cdef uint64_t keep_mask = _hand_mask(keep, "keep")
    cdef int held, card = -1
    with nogil:
        held = crazy_best_discard(&ready.table, mask, keep_mask, &card)
    if held == CRAZY_TOO_BIG:
        raise ValueError(_TOO_BIG)
    return held, card


def draw_outcomes(table, hand, draws):
    """``[(card, held, discard), ...]``: for each card of the mask ``draws`` (not in
    ``hand``), lowest first, :func:`best_discard` of ``hand`` with that card added."""
    cdef Table ready = _ready(table)
    cdef uint64_t mask = _hand_mask(hand, "hand")
    cdef uint64_t draw_mask = _hand_mask(draws, "draws")
    cdef int helds[CRAZY_CARDS]
    cdef int discards[CRAZY_CARDS]
    cdef int card, too_big = 0
    if mask & draw_mask:
        raise ValueError("draws: a card drawn is already in the hand")
    with nogil:
        for card in range(CRAZY_CARDS):
            if (draw_mask >> card) & 1:
                helds[card] = crazy_best_discard(&ready.table, mask | ((<uint64_t>1) << card), 0,
                                                 &discards[card])
                if helds[card] == CRAZY_TOO_BIG:
                    too_big = 1
                    break
    if too_big:
        raise ValueError(_TOO_BIG)
    return [(card, helds[card], discards[card]) for card in range(CRAZY_CARDS) if (draw_mask >> card) & 1]
