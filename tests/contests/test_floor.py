"""The floor's rulings — seating, balancing, breaking, places — each test
quoting the ruling (issue 13, docs/contests.md), and a Hypothesis test of the
director's model over random elimination orders."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tavern.cards import SeededSource
from tavern.contest_floor import Floor, FloorTable, big_blind_order, next_positions, table_counts, worst_seat
from tavern.contest_rules import default_payouts, place_prizes, share_prizes


def rng(seed: int = 1) -> SeededSource:
    return SeededSource(random.Random(seed))


def test_initial_seating_fewest_tables_balanced() -> None:
    """"players are seated at random across the fewest tables that hold them,
    balanced; the first button drawn at random"."""
    assert table_counts(30, 6) == [6, 6, 6, 6, 6]
    assert table_counts(31, 6) == [6, 5, 5, 5, 5, 5]
    assert table_counts(7, 6) == [4, 3]
    floor = Floor(6, rng())
    names = [f"p{i}" for i in range(31)]
    buttons = floor.seat_field(names, 1000, list(range(1, 10)))
    assert sorted(len(t.seats) for t in floor.tables.values()) == [5, 5, 5, 5, 5, 6]
    assert sorted(p for t in floor.tables.values() for p in t.seats.values()) == sorted(names)
    for tid, t in floor.tables.items():
        # the next deal's button is the drawn one
        assert next_positions(list(t.seats), t.button)[0] == buttons[tid]
    # drawn at random: other draws give other seatings
    other = Floor(6, rng(2))
    other.seat_field(names, 1000, list(range(1, 10)))
    assert {tid: t.seats for tid, t in other.tables.items()} != {tid: t.seats for tid, t in floor.tables.items()}


def test_positions_heads_up_button_is_small_blind() -> None:
    """RULES.md: "Heads-up: the button posts the small blind"."""
    assert next_positions([1, 4], 1) == (4, 4, 1)
    assert next_positions([0, 2, 5], 0) == (2, 5, 0)


def test_mover_is_due_big_blind_next() -> None:
    """"the player who moves is the one due to be big blind next at the fullest table"."""
    t = FloorTable(1, {0: "a", 1: "b", 2: "c", 3: "d", 4: "e"}, button=1)
    # next deal: button c (2), small blind d (3), big blind e (4)
    assert big_blind_order(t)[0] == "e"
    floor = Floor(6, rng())
    floor.tables = {1: t, 2: FloorTable(2, {0: "x", 1: "y", 3: "z"}, button=0)}
    floor.stacks = {p: 100 for p in "abcdexyz"}
    floor.stacks["z"] = 100
    floor.tables[2].seats[5] = "w"
    floor.stacks["w"] = 100
    # a deal at table 2 knocks w out: 5 against 3 — table 1 (between deals? no, it deals) reserves e.
    floor.busy = {1}
    out = floor.deal_ended(2, [("x", 100), ("y", 100), ("z", 100), ("w", 100)],
                           {"x": 150, "y": 50, "z": 100, "w": 0})
    assert out.moves == [] and floor.pending == {"e": 2}
    assert floor.counts() == {1: 4, 2: 4}
    # "A player in a deal moves only when his deal ends": table 1's deal ends, e was not knocked out.
    out = floor.deal_ended(1, [(p, 100) for p in "cdeab"], {p: 100 for p in "abcde"})
    assert [(m.player, m.from_table, m.to_table) for m in out.moves] == [("e", 1, 2)]
    assert {len(t.seats) for t in floor.tables.values()} == {4}


def test_worst_position_never_the_small_blind() -> None:
    """"to the worst position at the short table (never the small blind)": the
    free seat the big blind reaches first."""
    # seats 0, 2, 4 taken; last button 0: next button 2, small blind 4, big blind 0.
    t = FloorTable(1, {0: "a", 2: "b", 4: "c"}, button=0)
    # seat 5 lies between the small blind (4) and the big blind (0): the next big blind.
    assert worst_seat(t, 6) == 5
    # seat 3 would make the newcomer the small blind (button 2, then 3): never.
    t2 = FloorTable(1, {0: "a", 2: "b", 4: "c", 5: "d"}, button=0)
    # free seats 1 and 3; with 3 taken the order is button 2, SB 3 — refused; seat 1 it is.
    assert worst_seat(t2, 6) == 1


def test_break_as_soon_as_they_fit_at_one_table_fewer() -> None:
    """"break a table as soon as the remaining players fit at one table fewer
    (its players seated at random in the free seats)"."""
    floor = Floor(6, rng())
    floor.seat_field([f"p{i}" for i in range(12)], 100, [1, 2])
    t1 = floor.tables[1]
    dealt = [(p, 100) for p in t1.seats.values()]
    floor.before_deal(1)
    # Table 1 loses one player: 11 players do not fit at one table of 6.
    loser = dealt[0][0]
    chips = {p: 100 for p, _ in dealt}
    chips[loser] = 0
    chips[dealt[1][0]] = 200
    out = floor.deal_ended(1, dealt, chips)
    assert out.closed == [] and len(floor.tables) == 2
    assert out.finishes[0].place == 12
    # Then down to 6 players: they fit at one table; the table whose deal ended breaks.
    floor2 = Floor(6, rng())
    floor2.seat_field([f"p{i}" for i in range(8)], 100, [1, 2])
    t = floor2.tables[1]
    dealt = [(p, 100) for p in t.seats.values()]
    floor2.before_deal(1)
    chips = {p: 0 for p, _ in dealt}
    chips[dealt[0][0]] = 100 * len(dealt) - 100
    chips[dealt[1][0]] = 100
    out = floor2.deal_ended(1, dealt, chips)
    assert out.closed == [1]
    assert list(floor2.tables) == [2] and len(floor2.tables[2].seats) == 8 - (len(dealt) - 2)
    assert {m.reason for m in out.moves} == {"break"} and len(out.moves) == 2


def test_late_registrant_takes_a_seat_at_the_shortest_table() -> None:
    floor = Floor(3, rng())
    floor.seat_field(["a", "b", "c", "d", "e"], 100, [1, 2])
    move = floor.arrive("f", 100)
    assert move is not None and len(floor.tables[move.to_table].seats) == 3
    assert floor.arrive("g", 100, new_table=3) is not None
    assert [len(t.seats) for t in floor.tables.values()] == [3, 3, 1]


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 40), seats=st.integers(2, 10), seed=st.integers(0, 2**32 - 1))
def test_director_over_random_elimination_orders(n: int, seats: int, seed: int) -> None:
    """The director's model over random deals at random tables, interleaved,
    until one player is left: tables within one after each balancing step
    (counting reserved seats), nobody in a deal moves, stacks always sum to
    players × starting chips, every player gets exactly one place, prizes sum
    to the pool."""
    r = random.Random(seed)
    floor = Floor(seats, SeededSource(r))
    names = [f"p{i}" for i in range(n)]
    floor.seat_field(names, 100, list(range(1, 200)))
    dealing: dict[int, list[tuple[str, int]]] = {}
    for _ in range(10_000):
        if floor.left == 1 and not dealing:
            break
        free = [tid for tid, t in floor.tables.items() if tid not in dealing and len(t.seats) >= 2]
        if free and (not dealing or r.random() < 0.5):
            tid = r.choice(free)
            out = floor.before_deal(tid)
            assert all(m.from_table == tid for m in out.moves)
            t = floor.tables[tid]
            if len(t.seats) < 2:
                continue
            dealt = [(p, floor.stacks[p]) for p in big_blind_order(t)]
            dealing[tid] = dealt
            continue
        assert dealing, f"the contest stalled: {[len(t.seats) for t in floor.tables.values()]}"
        tid = r.choice(sorted(dealing))
        dealt = dealing.pop(tid)
        total = sum(c for _, c in dealt)
        # A random deal: some players lose everything, chips are conserved.
        cut = sorted(r.randint(0, total) for _ in range(len(dealt) - 1))
        shares = [b - a for a, b in zip([0, *cut], [*cut, total], strict=False)]
        if r.random() < 0.3:  # equal stacks busting together happen too
            shares = [0] * len(dealt)
            shares[r.randrange(len(dealt))] = total
        chips = {p: s for (p, _), s in zip(dealt, shares, strict=False)}
        in_deals = {p for d in dealing.values() for p, _ in d}
        where = {p: floor.table_of(p)[0] for p in in_deals}
        out = floor.deal_ended(tid, dealt, chips)
        assert all(m.from_table == tid for m in out.moves), "only the table between deals moves players now"
        assert all(floor.table_of(p)[0] == where[p] for p in in_deals if floor.stacks.get(p))
        for closed in out.closed:
            dealing.pop(closed, None)
        assert sum(floor.stacks[p] for t in floor.tables.values() for p in t.seats.values()) == n * 100
        assert all(len(t.seats) <= seats for t in floor.tables.values())
        active = [t for t in floor.tables.values() if t.seats]
        # "break a table as soon as the remaining players fit at one table fewer"
        assert len(active) <= 1 or floor.left > seats * (len(active) - 1)
        counts = floor.counts()
        if out.winner is None and counts:
            assert max(counts.values()) - min(counts.values()) <= 1, counts
    assert floor.left == 1
    # every player exactly one place, the places 1..n covered once
    assert sorted(floor.places) == sorted(names)
    covered = sorted(p for f in floor.finishes for p in range(f.place, f.place + len(f.players)))
    assert covered == list(range(1, n + 1))
    pool = 1000 + n
    shares = share_prizes(floor.finishes, place_prizes(pool, default_payouts(n)))
    assert sum(shares.values()) == pool
