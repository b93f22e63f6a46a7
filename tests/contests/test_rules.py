"""The pure rules of a contest: structure, payouts, places and prizes, the
settings an admin may give. Each test quotes the ruling it checks (issue 13,
docs/contests.md)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools

import pytest

from tavern.contest_rules import (
    ContestRuleError,
    Finish,
    Level,
    Settings,
    check_settings,
    default_payouts,
    default_structure,
    knockout_places,
    level_at,
    parse_payouts,
    parse_structure,
    place_prizes,
    share_prizes,
    structure_text,
)

NOW = dt.datetime(2026, 11, 24, 12, 0, tzinfo=dt.UTC)


def good(**kw: object) -> Settings:
    base = Settings(name="Concours du jeudi", starts_at=NOW + dt.timedelta(hours=1), fee=10, house_prize=0,
                    starting_chips=3000, seats=6, min_players=2, max_players=30,
                    structure=tuple(default_structure()), late_levels=2, action_timer=20, payouts=None)
    return dataclasses.replace(base, **kw)


def test_default_structure_increases_and_is_accepted() -> None:
    """"a blind structure (levels of small blind / big blind / ante / minutes;
    a sensible default structure offered)"."""
    s = default_structure()
    assert all(b.big_blind > a.big_blind for a, b in itertools.pairwise(s))
    assert all(lv.small_blind * 2 == lv.big_blind for lv in s)
    check_settings(good(), NOW)


@pytest.mark.parametrize(("field", "places"), [(2, 1), (5, 1), (6, 2), (9, 2), (10, 3), (19, 3), (30, 4),
                                               (100, 15), (300, 45), (1000, 50)])
def test_default_payouts_by_field_size(field: int, places: int) -> None:
    """"a default that depends on the field size, e.g. winner-take-all under 6
    players, top 3 from 10, about 15 % of the field paid for large fields"."""
    table = default_payouts(field)
    assert len(table) == places
    assert sum(table) == 100
    assert all(b <= a for a, b in itertools.pairwise(table))
    assert all(p > 0 for p in table)


def test_place_prizes_sum_to_the_pool_odd_ecus_to_earlier_places() -> None:
    """Prizes sum exactly to the prize pool; rounding's odd écus go to the earlier places."""
    assert place_prizes(100, [50, 30, 20]) == [50, 30, 20]
    assert place_prizes(101, [50, 30, 20]) == [51, 30, 20]
    assert place_prizes(7, [50, 30, 20]) == [4, 2, 1]  # 3+2+1 = 6, the odd écu to 1st
    for pool in range(0, 300):
        assert sum(place_prizes(pool, default_payouts(40))) == pool


def test_bigger_start_stack_finishes_higher() -> None:
    """"Players knocked out in the same deal: the one who started the deal with
    more chips finishes higher"."""
    finishes = knockout_places(10, [("ana", 300), ("bob", 500)])
    assert finishes == [Finish(9, ("bob",)), Finish(10, ("ana",))]


def test_equal_stacks_tie_and_share_the_places_prizes() -> None:
    """"equal stacks tie and share the prizes of the places they cover equally
    (odd écus to the earlier place)"."""
    # 3 players left, two knocked out with equal stacks: they cover places 2 and 3.
    finishes = knockout_places(3, [("ana", 400), ("bob", 400)])
    assert finishes == [Finish(2, ("ana", "bob"))]
    prizes = place_prizes(101, [50, 30, 20])  # [51, 30, 20]
    shares = share_prizes([Finish(1, ("cid",)), *finishes], prizes)
    assert shares == {"cid": 51, "ana": 25, "bob": 25}
    prizes = place_prizes(100, [50, 31, 19])
    # 31 + 19 = 50: 25 each; with 31 + 20 = 51 the odd écu goes to the earlier one.
    assert share_prizes(finishes, [50, 31, 20]) == {"ana": 26, "bob": 25}
    assert sum(share_prizes([Finish(1, ("cid",)), *finishes], prizes).values()) == 100


def test_tie_across_the_paid_places_shares_what_they_cover() -> None:
    """A tie for places 3 and 4 with 3 places paid: the third prize is shared, the fourth is worth nothing."""
    finishes = knockout_places(4, [("ana", 100), ("bob", 100)])
    assert finishes == [Finish(3, ("ana", "bob"))]
    assert share_prizes(finishes, [50, 30, 21]) == {"ana": 11, "bob": 10}


def test_level_clock() -> None:
    """"The blind level changes on the clock"; past the last level the last one stays."""
    s = [Level(10, 20, 0, 60), Level(20, 40, 0, 60)]
    assert level_at(s, 0) == (0, 60)
    assert level_at(s, 59.5) == (0, 0.5)
    assert level_at(s, 60) == (1, 60)
    assert level_at(s, 1000)[0] == 1


@pytest.mark.parametrize(("change", "message"), [
    ({"payouts": (50, 30)}, "80 %, pas 100 %"),
    ({"payouts": (30, 70)}, "plus que la place avant"),
    ({"payouts": (50, 30, 20), "min_players": 2}, "au moins autant"),
    ({"structure": (Level(10, 20, 0, 600), Level(10, 20, 0, 600))}, "doivent augmenter"),
    ({"structure": (Level(20, 40, 0, 600), Level(10, 20, 0, 600))}, "doivent augmenter"),
    ({"structure": (Level(30, 20, 0, 600),)}, "petite blinde dépasse"),
    ({"structure": ()}, "au moins un niveau"),
    ({"starts_at": NOW - dt.timedelta(minutes=1)}, "déjà passée"),
    ({"seats": 11}, "de 2 à 10 places"),
    ({"min_players": 1}, "au moins 2 joueurs"),
    ({"max_players": 1, "min_players": 2}, "inférieur au minimum"),
    ({"fee": -1}, "négatif"),
    ({"late_levels": 99}, "inscription tardive"),
    ({"name": "  "}, "nom"),
    ({"starting_chips": 10}, "dépasse les jetons de départ"),
])
def test_settings_refused_with_a_clear_message(change: dict, message: str) -> None:
    """"Refuse what cannot work with a clear message (payouts not summing to
    100 %, levels not increasing, start in the past, …)"."""
    with pytest.raises(ContestRuleError, match=message):
        check_settings(good(**change), NOW)


def test_form_fields_parse_and_round_trip() -> None:
    levels = parse_structure("10/20 10\n15/30/5 0.5\n")
    assert levels == (Level(10, 20, 0, 600), Level(15, 30, 5, 30))
    assert parse_structure(structure_text(levels)) == levels
    assert parse_payouts("50, 30, 20") == (50, 30, 20)
    assert parse_payouts("défaut") is None
    with pytest.raises(ContestRuleError, match="Ligne 2"):
        parse_structure("10/20 10\nbeaucoup")
    with pytest.raises(ContestRuleError, match="pourcentages"):
        parse_payouts("moitié")
