"""Daily hands, rule by rule. RULES.md, "Tavern, money and quotas":

    "Daily hands: every player gets 20 free hands a day (reset at midnight,
    Europe/Paris). Packs of 200 extra hands are bought with tokens in the
    premium page; they never expire; free hands are used before paid ones. A
    hand is counted when the player is dealt in. Level 0 players get no free
    hands. A tavern owner plays unlimited hands in his own tavern. A player
    with no hands left is not dealt in and is told why."
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from tests.services.helpers import make_tavern, make_user

from tavern.services import hands, ledger
from tavern.services.hands import NoHandsLeft
from tavern.services.ledger import House, InsufficientFunds

pytestmark = pytest.mark.db

UTC = dt.UTC
# A winter day: Paris is UTC+1, so Paris midnight is 23:00 UTC.
WINTER = dt.datetime(2026, 1, 15, 12, 0, tzinfo=UTC)


def use(session, settings, user, tavern_id, now, n):
    return [hands.consume(session, user.id, tavern_id, now, settings) for _ in range(n)]


@pytest.fixture
def world(session):
    owner = make_user(session, "patron")
    tavern = make_tavern(session, owner)
    other_owner = make_user(session, "voisin")
    other = make_tavern(session, other_owner, "Le Chat Noir")
    session.commit()
    return owner, tavern, other


def test_every_player_gets_20_free_hands_a_day(settings, session, world):
    """"every player gets 20 free hands a day" … "A player with no hands left
    is not dealt in and is told why." """
    _, tavern, _ = world
    alice = make_user(session, "alice")
    assert hands.hands_left(session, alice.id, WINTER, settings).free == 20
    assert use(session, settings, alice, tavern.id, WINTER, 20) == ["free"] * 20
    assert hands.hands_left(session, alice.id, WINTER, settings) == hands.HandsLeft(0, 0)
    ok, why = hands.can_deal(session, alice.id, tavern.id, WINTER, settings)
    assert not ok and "minuit" in why
    with pytest.raises(NoHandsLeft, match="Plus de donnes"):
        hands.consume(session, alice.id, tavern.id, WINTER, settings)


def test_free_hands_reset_at_midnight_paris_time_not_utc(settings, session, world):
    """"reset at midnight, Europe/Paris": in winter that is 23:00 UTC."""
    _, tavern, _ = world
    alice = make_user(session, "alice")
    before = dt.datetime(2026, 1, 15, 22, 59, 59, tzinfo=UTC)  # 23:59:59 in Paris
    midnight = dt.datetime(2026, 1, 15, 23, 0, 0, tzinfo=UTC)  # 00:00 on the 16th in Paris
    use(session, settings, alice, tavern.id, before, 20)
    assert not hands.can_deal(session, alice.id, tavern.id, before, settings)[0]
    assert hands.can_deal(session, alice.id, tavern.id, midnight, settings)[0]
    assert hands.hands_left(session, alice.id, midnight, settings).free == 20
    # and 00:30 UTC on the 16th is still that same Paris day
    use(session, settings, alice, tavern.id, midnight, 5)
    assert hands.hands_left(session, alice.id, dt.datetime(2026, 1, 16, 0, 30, tzinfo=UTC), settings).free == 15


def test_reset_follows_summer_time_and_the_dst_change(settings, session, world):
    """Midnight Paris in summer is 22:00 UTC; on 29 March 2026 (clocks go
    forward at 02:00) the day still starts at 23:00 UTC the evening before."""
    _, tavern, _ = world
    alice = make_user(session, "alice")
    summer_before = dt.datetime(2026, 7, 1, 21, 59, tzinfo=UTC)
    summer_midnight = dt.datetime(2026, 7, 1, 22, 0, tzinfo=UTC)
    use(session, settings, alice, tavern.id, summer_before, 20)
    assert hands.hands_left(session, alice.id, summer_before, settings).free == 0
    assert hands.hands_left(session, alice.id, summer_midnight, settings).free == 20

    bruno = make_user(session, "bruno")
    eve = dt.datetime(2026, 3, 28, 22, 59, tzinfo=UTC)  # 23:59 CET on the 28th
    dst_day = dt.datetime(2026, 3, 29, 1, 30, tzinfo=UTC)  # 03:30 CEST on the 29th
    use(session, settings, bruno, tavern.id, eve, 20)
    assert hands.hands_left(session, bruno.id, dt.datetime(2026, 3, 28, 23, 0, tzinfo=UTC), settings).free == 20
    use(session, settings, bruno, tavern.id, dst_day, 20)
    # 21:59 UTC on the 29th is 23:59 CEST: still the 29th, nothing left
    assert hands.hands_left(session, bruno.id, dt.datetime(2026, 3, 29, 21, 59, tzinfo=UTC), settings).free == 0
    assert hands.hands_left(session, bruno.id, dt.datetime(2026, 3, 29, 22, 0, tzinfo=UTC), settings).free == 20


def test_packs_of_200_are_bought_with_tokens(settings, session, world):
    """"Packs of 200 extra hands are bought with tokens in the premium page";
    "Counts and prices are site settings"."""
    alice = make_user(session, "alice")
    session.commit()
    price = settings.pack_price_tokens
    with pytest.raises(InsufficientFunds):
        hands.buy_pack(session, alice.id, settings)
    session.rollback()
    ledger.issue(session, alice.id, price, "tokens")
    pack = hands.buy_pack(session, alice.id, settings)
    session.commit()
    assert (pack.hands_bought, pack.hands_left) == (200, 200)
    assert ledger.balance(session, "user", alice.id, "tokens") == 0
    assert ledger.balance(session, "house", House.PREMIUM, "tokens") == price
    assert hands.hands_left(session, alice.id, WINTER, settings) == hands.HandsLeft(20, 200)
    assert ledger.audit(session).ok


def test_free_hands_are_used_before_paid_ones(settings, session, world):
    """"free hands are used before paid ones" """
    _, tavern, _ = world
    alice = make_user(session, "alice")
    ledger.issue(session, alice.id, 100, "tokens")
    hands.buy_pack(session, alice.id, settings)
    assert use(session, settings, alice, tavern.id, WINTER, 20) == ["free"] * 20
    assert hands.hands_left(session, alice.id, WINTER, settings) == hands.HandsLeft(0, 200)
    assert hands.consume(session, alice.id, tavern.id, WINTER, settings) == "pack"
    assert hands.hands_left(session, alice.id, WINTER, settings) == hands.HandsLeft(0, 199)


def test_packs_never_expire(settings, session, world):
    """"they never expire": paid hands left on one day are there months later,
    and the new day's free hands are used first again."""
    _, tavern, _ = world
    alice = make_user(session, "alice")
    ledger.issue(session, alice.id, 100, "tokens")
    hands.buy_pack(session, alice.id, settings)
    use(session, settings, alice, tavern.id, WINTER, 25)  # 20 free + 5 paid
    later = WINTER + dt.timedelta(days=200)
    assert hands.hands_left(session, alice.id, later, settings) == hands.HandsLeft(20, 195)
    assert use(session, settings, alice, tavern.id, later, 21)[-2:] == ["free", "pack"]
    assert hands.hands_left(session, alice.id, later, settings) == hands.HandsLeft(0, 194)


def test_two_packs_are_used_oldest_first_and_add_up(settings, session, world):
    _, tavern, _ = world
    alice = make_user(session, "alice", level=0)
    ledger.issue(session, alice.id, 100, "tokens")
    first, second = hands.buy_pack(session, alice.id, settings), hands.buy_pack(session, alice.id, settings)
    use(session, settings, alice, tavern.id, WINTER, 3)
    assert (first.hands_left, second.hands_left) == (197, 200)
    assert hands.hands_left(session, alice.id, WINTER, settings).paid == 397


def test_level_0_players_get_no_free_hands(settings, session, world):
    """"Level 0 players get no free hands." — they can still play paid ones."""
    _, tavern, _ = world
    newbie = make_user(session, "newbie", level=0)
    assert hands.hands_left(session, newbie.id, WINTER, settings) == hands.HandsLeft(0, 0)
    ok, why = hands.can_deal(session, newbie.id, tavern.id, WINTER, settings)
    assert not ok and "niveau 0" in why
    with pytest.raises(NoHandsLeft, match="niveau 0"):
        hands.consume(session, newbie.id, tavern.id, WINTER, settings)
    ledger.issue(session, newbie.id, 100, "tokens")
    hands.buy_pack(session, newbie.id, settings)
    assert hands.consume(session, newbie.id, tavern.id, WINTER, settings) == "pack"
    assert hands.hands_left(session, newbie.id, WINTER, settings) == hands.HandsLeft(0, 199)


def test_an_owner_plays_unlimited_hands_in_his_own_tavern_but_not_elsewhere(settings, session, world):
    """"A tavern owner plays unlimited hands in his own tavern." — and only there."""
    owner, tavern, other = world
    assert hands.plays_unlimited(session, owner.id, tavern.id)
    assert not hands.plays_unlimited(session, owner.id, other.id)
    assert hands.can_deal(session, owner.id, tavern.id, WINTER, settings)[1] == "Donnes illimitées dans votre propre taverne."
    assert hands.plays_unlimited(session, owner.id, tavern.id)
    assert use(session, settings, owner, tavern.id, WINTER, 50) == ["owner"] * 50
    assert hands.hands_left(session, owner.id, WINTER, settings).free == 20  # nothing counted
    assert hands.can_deal(session, owner.id, tavern.id, WINTER, settings)[0]
    assert use(session, settings, owner, other.id, WINTER, 20) == ["free"] * 20
    assert not hands.can_deal(session, owner.id, other.id, WINTER, settings)[0]
    assert hands.can_deal(session, owner.id, tavern.id, WINTER, settings)[0]


def test_counts_are_site_settings(settings, session, world):
    """"Counts and prices are site settings." """
    _, _tavern, _ = world
    settings = settings.model_copy(update={"free_hands_per_day": 3, "pack_hands": 7})
    alice = make_user(session, "alice")
    ledger.issue(session, alice.id, 100, "tokens")
    hands.buy_pack(session, alice.id, settings)
    assert hands.hands_left(session, alice.id, WINTER, settings) == hands.HandsLeft(3, 7)


def test_disconnect_protection_is_limited_per_day(settings, session):
    """RULES.md, Ramponneau: a lost connection makes the player all-in "— a
    protection allowed a limited number of times a day (site setting, default
    3); beyond that a time-out folds." """
    alice = make_user(session, "alice")
    assert [hands.use_disconnect_protection(session, alice.id, WINTER, settings) for _ in range(4)] == [True] * 3 + [False]
    assert hands.use_disconnect_protection(session, alice.id, WINTER + dt.timedelta(days=1), settings)


def test_concurrent_deals_never_give_more_than_the_free_hands(settings, session_factory):
    """Twenty-five tables dealing Alice in at the same instant: exactly 20
    free hands are counted, the other five are refused (no pack)."""
    import threading

    from tavern.store.db import run_transaction

    with session_factory() as s, s.begin():
        alice = make_user(s, "alice").id
    barrier = threading.Barrier(25)
    outcomes: list[str] = []

    def deal() -> None:
        barrier.wait()
        try:
            outcomes.append(run_transaction(session_factory, lambda s: hands.consume(s, alice, None, WINTER, settings)))
        except NoHandsLeft:
            outcomes.append("refused")

    threads = [threading.Thread(target=deal) for _ in range(25)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes) == ["free"] * 20 + ["refused"] * 5
    with session_factory() as s:
        assert hands.hands_left(s, alice, WINTER, settings).free == 0


@hypothesis_settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    level=st.integers(0, 2),
    packs=st.integers(0, 1),
    offsets=st.lists(st.integers(0, 4 * 24 * 60), min_size=1, max_size=70),
)
def test_quota_accounting_over_random_instants(settings, fresh_db, level, packs, offsets):
    """Over random deal instants across a few days (a DST change included):
    at most 20 free hands per Paris day (none at level 0), free before paid,
    every paid hand taken from a pack, refusals only when nothing is left."""
    from collections import Counter
    from zoneinfo import ZoneInfo

    from tavern.store.db import get_engine
    from tavern.store.db import session_factory as make_factory

    factory = make_factory(get_engine(fresh_db()))
    start = dt.datetime(2026, 10, 23, 12, 0, tzinfo=UTC)  # clocks go back on the 25th
    with factory() as s, s.begin():
        alice = make_user(s, "alice", level=level)
        ledger.issue(s, alice.id, 100, "tokens")
        for _ in range(packs):
            hands.buy_pack(s, alice.id, settings)
        uid = alice.id
    free_per_day: Counter = Counter()
    paid = 0
    with factory() as s:
        for minute in sorted(offsets):
            now = start + dt.timedelta(minutes=minute)
            day = now.astimezone(ZoneInfo("Europe/Paris")).date()
            before = hands.hands_left(s, uid, now, settings)
            try:
                got = hands.consume(s, uid, None, now, settings)
            except NoHandsLeft:
                assert before.total == 0
                continue
            if got == "free":
                free_per_day[day] += 1
            else:
                assert got == "pack" and before.free == 0 and before.paid > 0
                paid += 1
            s.commit()
        assert all(n <= (20 if level else 0) for n in free_per_day.values())
        assert hands.hands_left(s, uid, start, settings).paid == 200 * packs - paid


def test_deal_status_of_a_whole_table_says_what_the_three_questions_say_one_by_one(settings, session, world):
    """The batched read a table makes of its seats' hands when it starts
    (:func:`hands.deal_status`: four statements for the table) answers for
    each player exactly what :func:`hands.hands_left`, :func:`hands.plays_unlimited`
    and :func:`hands.can_deal` answer for him alone: with free hands left,
    none left, paid hands only, an emptied pack, at level 0, the owner in his
    tavern and elsewhere, an unknown id; in the morning and after midnight."""
    owner, tavern, other = world
    fresh = make_user(session, "fresh")
    some = make_user(session, "some")
    use(session, settings, some, tavern.id, WINTER, 7)
    spent = make_user(session, "spent")
    use(session, settings, spent, tavern.id, WINTER, 20)
    payer = make_user(session, "payer")
    ledger.issue(session, payer.id, 300, "tokens")
    hands.buy_pack(session, payer.id, settings)
    hands.buy_pack(session, payer.id, settings)
    use(session, settings, payer, tavern.id, WINTER, 23)
    emptied = make_user(session, "emptied", level=0)
    ledger.issue(session, emptied.id, 100, "tokens")
    pack = hands.buy_pack(session, emptied.id, settings)
    pack.hands_left = 0
    newbie = make_user(session, "newbie", level=0)
    newbie_paid = make_user(session, "newbie_paid", level=0)
    ledger.issue(session, newbie_paid.id, 100, "tokens")
    hands.buy_pack(session, newbie_paid.id, settings)
    session.flush()
    ids = [owner.id, fresh.id, some.id, spent.id, payer.id, emptied.id, newbie.id, newbie_paid.id, 10**6]
    for tavern_id in (tavern.id, other.id, None):
        for now in (WINTER, WINTER + dt.timedelta(hours=12)):  # the next day in Paris
            got = hands.deal_status(session, ids, tavern_id, now, settings)
            assert set(got) == set(ids)
            for uid in ids:
                ok, why = hands.can_deal(session, uid, tavern_id, now, settings)
                one = hands.DealStatus(hands.hands_left(session, uid, now, settings),
                                       hands.plays_unlimited(session, uid, tavern_id), ok, why)
                assert got[uid] == one, (uid, tavern_id, now)
    assert hands.deal_status(session, [], tavern.id, WINTER, settings) == {}
