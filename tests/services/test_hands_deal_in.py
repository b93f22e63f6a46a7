"""``hands.deal_in``: a whole table's hands counted at once, by the same rules
as ``consume`` one player at a time (RULES.md "Daily hands")."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from sqlalchemy import select
from tests.services.helpers import make_tavern, make_user

from tavern.services import hands, ledger

pytestmark = [pytest.mark.db]

NOW = dt.datetime(2026, 1, 15, 12, 0, tzinfo=dt.UTC)


def _setup(session, settings, levels_used_packs):
    owner = make_user(session, "patron")
    tavern = make_tavern(session, owner)
    players = []
    for i, (level, used, packs) in enumerate(levels_used_packs):
        u = make_user(session, f"p{i}", level=level)
        for _ in range(packs):
            ledger.issue(session, u.id, 10, "tokens")
            hands.buy_pack(session, u.id, settings)
        for _ in range(used if level > 0 else 0):  # level 0 has no free hands to use up
            hands.consume(session, u.id, tavern.id, NOW, settings)
        players.append(u.id)
    session.flush()
    return owner.id, tavern.id, players


def _state(session, settings, ids):
    return {u: hands.hands_left(session, u, NOW, settings) for u in ids}


@hypothesis_settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 2), st.sampled_from([0, 5, 19, 20]), st.integers(0, 1)),
                min_size=1, max_size=4))
def test_deal_in_counts_like_consume_one_by_one(settings, fresh_db, table):
    """"free hands are used before paid ones", "Level 0 players get no free
    hands", "A tavern owner plays unlimited hands in his own tavern"."""
    from tavern.store.db import get_engine, session_factory

    results = []
    for batch in (True, False):
        with session_factory(get_engine(fresh_db()))() as s:
            owner, tavern, ids = _setup(s, settings, table)
            everyone = ids + [owner]
            try:
                if batch:
                    left = hands.deal_in(s, everyone, tavern, NOW, settings)
                else:
                    for u in everyone:
                        hands.consume(s, u, tavern, NOW, settings)
                    left = {u: (None if u == owner else hands.hands_left(s, u, NOW, settings)) for u in everyone}
                # By seat, not by id: the two runs' ids may differ (PostgreSQL).
                state = _state(s, settings, ids)
                outcome = ("dealt", [left[u] for u in everyone], [state[u] for u in ids])
            except hands.NoHandsLeft:
                s.rollback()
                outcome = ("refused", None, None)
            results.append(outcome)
    assert results[0][0] == results[1][0]
    if results[0][0] == "dealt":
        assert results[0][1] == results[1][1]  # what deal_in says is left is what is left
        assert results[0][2] == results[1][2]


def test_a_refusal_names_each_player_and_counts_nothing(settings, session):
    _owner, tavern, (rich, broke, level0) = _setup(session, settings, [(1, 3, 0), (1, 20, 0), (0, 0, 0)])
    before = _state(session, settings, [rich, broke, level0])
    with pytest.raises(hands.NoHandsLeftFor) as refused:
        hands.deal_in(session, [rich, broke, level0], tavern, NOW, settings)
    assert set(refused.value.players) == {broke, level0}
    assert "minuit" in refused.value.players[broke]
    assert "niveau 0" in refused.value.players[level0]
    assert _state(session, settings, [rich, broke, level0]) == before


def test_rows_the_session_holds_show_the_hands_counted(settings, session):
    """deal_in writes with Core statements (issue 15): a day's usage row or a
    pack the caller's session already loaded shows the new counts."""
    from tavern.store.models import DailyHandUsage, PremiumPack

    _owner, tavern, (free_player, pack_player) = _setup(session, settings, [(1, 3, 0), (0, 0, 1)])
    usage = session.scalars(select(DailyHandUsage).where(DailyHandUsage.user_id == free_player)).one()
    pack = session.scalars(select(PremiumPack).where(PremiumPack.user_id == pack_player)).one()
    before = (usage.count, pack.hands_left)
    hands.deal_in(session, [free_player, pack_player], tavern, NOW, settings)
    assert (usage.count, pack.hands_left) == (before[0] + 1, before[1] - 1)


def test_a_tables_first_deal_of_the_day_creates_one_row_a_player_and_keeps_one_already_there(settings, session):
    """"every player gets 20 free hands a day" — "A hand is counted when the
    player is dealt in": a table's first deal of the day creates the day's
    rows of its players in one statement. A row another deal created in the
    meantime (the race its ``ON CONFLICT DO NOTHING`` answers) is neither
    doubled nor reset: it counts on from where it stands."""
    from tavern.store.models import DailyHandUsage

    _owner, tavern, players = _setup(session, settings, [(1, 0, 0), (1, 0, 0), (1, 0, 0)])
    day = hands.local_day(NOW, settings)
    raced = players[2]
    hands._new_usage_rows(session.connection().dialect.name).run_many(session.connection(), [
        {"user_id": raced, "day": day, "count": 4, "disconnect_protections": 0},  # "another deal's" row
        {"user_id": raced, "day": day, "count": 0, "disconnect_protections": 0}])  # refused quietly: no error
    left = hands.deal_in(session, players, tavern, NOW, settings)
    rows = session.execute(select(DailyHandUsage.user_id, DailyHandUsage.count)
                           .where(DailyHandUsage.user_id.in_(players))).all()
    assert sorted(rows) == sorted([(players[0], 1), (players[1], 1), (raced, 5)])
    assert [left[u].free for u in players] == [settings.free_hands_per_day - 1] * 2 + [settings.free_hands_per_day - 5]
