# cython: language_level=3
"""The Crazy Rummy hand solver in C (docs/RULES.md §7, docs/CRAZY-RUMMY.md).

A hand is a 52-bit mask of card ids (``suit * 13 + rank - 1``, suits C D H S,
ace = rank 1).  Cards of the round's wild rank are wilds; the others are
naturals.  The search takes the naturals lowest first (suit by suit, ace up) and
gives each a place: deadwood, a new set, a new run, a lay-off on one of the
player's own melds, or a swap for a wild on the table (which hands the player
that wild).  Wilds are interchangeable, so the search only counts how many the
melds need; spare wilds fill melds with room or, three or more, make melds of
their own.  A branch stops as soon as its deadwood reaches the best found.
"""

from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

cdef enum:
    INFINITE = 1 << 30


ctypedef struct Search:
    const CrazyTable* table
    int n                                      # naturals in the hand
    int cards[CRAZY_MAX_NATURALS]              # lowest first
    int hand_wilds
    int best
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
    int own_low[CRAZY_MAX_OWN_RUNS]            # an own run's ends after the lay-offs so far
    int own_high[CRAZY_MAX_OWN_RUNS]
    int own_laid[CRAZY_MAX_OWN_RUNS]           # naturals laid off on it
    int set_room[CRAZY_RANKS]                  # room left in the own sets of each rank
    int set_swaps[CRAZY_RANKS]                 # set wilds of each rank not yet swapped
    int place[CRAZY_MAX_NATURALS]              # the path being searched ...
    int group[CRAZY_MAX_NATURALS]
    int best_place[CRAZY_MAX_NATURALS]         # ... and the best one found
    int best_group[CRAZY_MAX_NATURALS]
    int rank_left[CRAZY_MAX_NATURALS + 1][CRAZY_RANKS]   # naturals of each rank from index i on
    int swappable_left[CRAZY_MAX_NATURALS + 1]           # naturals from index i on that a table wild takes


cdef inline int card_points(int card, int wild_rank) noexcept nogil:
    """Wild 25, ace 1, 2-10 face value, J Q K 10."""
    cdef int rank = card % 13 + 1
    if rank == wild_rank:
        return CRAZY_WILD_VALUE
    return 10 if rank > 10 else rank


cdef void leaf(Search* s) noexcept nogil:
    """Score a complete placement: wilds needed against wilds held, spare wilds."""
    cdef const CrazyTable* table = s.table
    cdef int need = 0, room = 0, first_meld = INFINITE, g, r, span, group_need, available, spare, cost
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
    for r in range(CRAZY_RANKS):
        room += s.set_room[r]
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


cdef void search(Search* s, int i) noexcept nogil:
    cdef const CrazyTable* table = s.table
    cdef int card, rank, suit, g, h, saved_first, saved_last, saved_low, saved_high, duplicate
    if s.dead >= s.best:
        return
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
        if s.set_rank[g] == rank and s.set_size[g] < 4:
            duplicate = 0
            for h in range(g):
                if s.set_rank[h] == rank and s.set_size[h] == s.set_size[g]:
                    duplicate = 1
                    break
            if duplicate:
                continue
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
    # a lay-off on an own set of this rank
    if s.set_room[rank - 1] > 0:
        s.set_room[rank - 1] -= 1
        s.place[i] = PLACE_OWN_SET
        s.group[i] = rank - 1
        search(s, i + 1)
        s.set_room[rank - 1] += 1
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
    # a swap for a wild on the table that stands for this card
    if (table.swap_cards >> card) & 1:
        s.swaps += 1
        s.place[i] = PLACE_SWAP
        s.group[i] = -1
        search(s, i + 1)
        s.swaps -= 1
    elif s.set_swaps[rank - 1] > 0:
        s.set_swaps[rank - 1] -= 1
        s.swaps += 1
        s.place[i] = PLACE_SWAP
        s.group[i] = rank - 1
        search(s, i + 1)
        s.swaps -= 1
        s.set_swaps[rank - 1] += 1
    # deadwood
    s.dead += card_points(card, table.wild_rank)
    s.place[i] = PLACE_DEADWOOD
    s.group[i] = -1
    search(s, i + 1)
    s.dead -= card_points(card, table.wild_rank)


cdef int crazy_deadwood(const CrazyTable* table, uint64_t hand, int* places, int* groups) noexcept nogil:
    """The lowest deadwood of ``hand`` (all of it may be melded), or -1 when the
    hand has more naturals than the search holds.  With ``places`` and ``groups``
    (CRAZY_MAX_NATURALS each), also where each natural goes, lowest card first."""
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
                    return -1
                s.cards[s.n] = card
                s.n += 1
    for g in range(table.n_runs):
        s.own_low[g] = table.run_low[g]
        s.own_high[g] = table.run_high[g]
    memcpy(s.set_room, table.set_room, sizeof(s.set_room))
    memcpy(s.set_swaps, table.swap_sets, sizeof(s.set_swaps))
    for g in range(s.n - 1, -1, -1):
        card = s.cards[g]
        memcpy(s.rank_left[g], s.rank_left[g + 1], sizeof(s.rank_left[g]))
        s.rank_left[g][card % 13] += 1
        s.swappable_left[g] = s.swappable_left[g + 1] + (
            1 if (table.swap_cards >> card) & 1 or table.swap_sets[card % 13] > 0 else 0)
    # no arrangement is worse than everything in the hand
    s.best = 1
    for card in range(CRAZY_CARDS):
        if (hand >> card) & 1:
            s.best += card_points(card, table.wild_rank)
    for g in range(s.n):
        s.best_place[g] = PLACE_DEADWOOD
        s.best_group[g] = -1
    search(&s, 0)
    if places != NULL:
        memcpy(places, s.best_place, s.n * sizeof(int))
        memcpy(groups, s.best_group, s.n * sizeof(int))
    return s.best


cdef int crazy_best_discard(const CrazyTable* table, uint64_t hand, uint64_t keep, int* discard) noexcept nogil:
    """The fewest points held after melding and discarding one card that is not in
    ``keep``; the card in ``discard`` (-1 when none may go).  Ties go to the
    highest-valued discard, then the lowest card id.  -2 when the hand is too big."""
    cdef int card, held, best = INFINITE, best_card = -1, points, best_points = -1
    for card in range(CRAZY_CARDS):
        if not (hand >> card) & 1 or (keep >> card) & 1:
            continue
        held = crazy_deadwood(table, hand & ~((<uint64_t>1) << card), NULL, NULL)
        if held < 0:
            return -2
        points = card_points(card, table.wild_rank)
        if held < best or (held == best and points > best_points):
            best = held
            best_card = card
            best_points = points
    discard[0] = best_card
    return best if best_card >= 0 else -1


cdef class Table:
    """What a hand is solved against: the round's wild rank, the player's own melds
    (room in sets by rank, runs by suit and ends) and the wilds on the table that a
    real card could replace."""

    def __init__(self, int wild_rank, bint has_melded=False, set_room=(), runs=(),
                 swap_cards=0, swap_sets=()):
        cdef int r, index
        if not 1 <= wild_rank <= 13:
            raise ValueError(f"wild rank {wild_rank} is not 1..13")
        memset(&self.table, 0, sizeof(CrazyTable))
        self.table.wild_rank = wild_rank
        self.table.has_melded = has_melded
        rooms = list(set_room) or [0] * 13
        sets = list(swap_sets) or [0] * 13
        if len(rooms) != 13 or len(sets) != 13:
            raise ValueError("set_room and swap_sets hold 13 counts, one a rank")
        for r in range(13):
            if not 0 <= rooms[r] <= 16 or not 0 <= sets[r] <= 16:
                raise ValueError(f"rank {r + 1}: set room or swap count out of range")
            self.table.set_room[r] = rooms[r]
            self.table.swap_sets[r] = sets[r]
        run_list = list(runs)
        if len(run_list) > CRAZY_MAX_OWN_RUNS:
            raise ValueError(f"more than {CRAZY_MAX_OWN_RUNS} own runs")
        for index, (suit, low, high) in enumerate(run_list):
            if not (0 <= suit <= 3 and 1 <= low <= high <= 13):
                raise ValueError(f"run {(suit, low, high)!r} is not (suit 0..3, low, high) with 1 <= low <= high <= 13")
            self.table.run_suit[index] = suit
            self.table.run_low[index] = low
            self.table.run_high[index] = high
        self.table.n_runs = len(run_list)
        if not 0 <= swap_cards < (1 << 52):
            raise ValueError("swap_cards is not a 52-bit card mask")
        self.table.swap_cards = swap_cards

    @property
    def wild_rank(self):
        return self.table.wild_rank


def _hand_mask(hand):
    if not 0 <= hand < (1 << 52):
        raise ValueError("a hand is a 52-bit card mask")
    return hand


def deadwood(Table table, hand):
    """The lowest deadwood of ``hand`` (a card mask) when all of it may be melded."""
    cdef uint64_t mask = _hand_mask(hand)
    cdef int result
    with nogil:
        result = crazy_deadwood(&table.table, mask, NULL, NULL)
    if result < 0:
        raise ValueError(f"more than {CRAZY_MAX_NATURALS} natural cards in a hand")
    return result


def arrangement(Table table, hand):
    """``(deadwood, places)``: the lowest deadwood of ``hand`` and, for each natural
    card lowest first, ``(card, place, group)`` with ``place`` one of the PLACE_*
    codes (0 deadwood, 1 new set, 2 new run, 3 own set, 4 own run, 5 swap) and
    ``group`` the new meld's number, the own set's rank - 1, the own run's index,
    or for a swap -1 (a run wild) or the rank - 1 of a set wild."""
    cdef uint64_t mask = _hand_mask(hand)
    cdef int places[CRAZY_MAX_NATURALS]
    cdef int groups[CRAZY_MAX_NATURALS]
    cdef int result, card, index = 0
    with nogil:
        result = crazy_deadwood(&table.table, mask, places, groups)
    if result < 0:
        raise ValueError(f"more than {CRAZY_MAX_NATURALS} natural cards in a hand")
    out = []
    for card in range(CRAZY_CARDS):
        if (mask >> card) & 1 and card % 13 + 1 != table.table.wild_rank:
            out.append((card, places[index], groups[index]))
            index += 1
    return result, out


def best_discard(Table table, hand, keep=0):
    """``(held, card)``: the fewest points held after melding and discarding one
    card of ``hand`` not in ``keep`` (masks), and that card; ``(-1, -1)`` when
    every card must be kept."""
    cdef uint64_t mask = _hand_mask(hand)
    cdef uint64_t keep_mask = _hand_mask(keep)
    cdef int held, card = -1
    with nogil:
        held = crazy_best_discard(&table.table, mask, keep_mask, &card)
    if held == -2:
        raise ValueError(f"more than {CRAZY_MAX_NATURALS} natural cards in a hand")
    return held, card
