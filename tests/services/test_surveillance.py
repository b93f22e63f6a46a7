"""The collusion report (issue 16, docs/surveillance.md) on seeded
simulations of real Ramponneau deals: a pair that dumps chips, a pair that
soft-plays, and honest players who must raise no flag."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tavern.cards import SeededSource
from tavern.games import registry
from tavern.services import surveillance

RAMPONNEAU = registry.load("ramponneau")
Policy = Callable[[str, list[dict[str, Any]], dict[str, Any]], dict[str, Any]]


def honest(rng: random.Random) -> Policy:
    """Random but sensible: facing a bet, fold 30 %, raise 20 %, else call;
    with nothing to call, bet 25 %, else check."""

    def play(name: str, legal: list[dict[str, Any]], ctx: dict[str, Any]) -> dict[str, Any]:
        by = {a["action"]: a for a in legal}
        if "call" in by:
            r = rng.random()
            if r < 0.3 and "fold" in by:
                return {"action": "fold"}
            if r < 0.5 and "raise" in by:
                return {"action": "raise", "amount": by["raise"]["min"]}
            return {"action": "call"}
        if "bet" in by and rng.random() < 0.25:
            return {"action": "bet", "amount": by["bet"]["min"]}
        for a in ("check", "show"):
            if a in by:
                return {"action": a}
        return {"action": legal[0]["action"]}

    return play


def dumper(rng: random.Random, partner: str) -> Policy:
    """With the partner in the deal, bets big, then folds to his raise: the
    chips put in are left to him. Honest otherwise."""
    base = honest(rng)

    def play(name, legal, ctx):
        by = {a["action"]: a for a in legal}
        if ctx["aggressor"] == partner and "fold" in by:
            return {"action": "fold"}
        if partner in ctx["in_deal"]:
            for a in ("raise", "bet"):
                if a in by:
                    return {"action": a, "amount": min(by[a]["max"], 3 * by[a]["min"])}
        return base(name, legal, ctx)

    return play


def receiver(rng: random.Random, partner: str) -> Policy:
    """Raises the partner's bets (so that he can fold to them); honest otherwise."""
    base = honest(rng)

    def play(name, legal, ctx):
        by = {a["action"]: a for a in legal}
        if ctx["aggressor"] == partner and "raise" in by:
            return {"action": "raise", "amount": by["raise"]["min"]}
        return base(name, legal, ctx)

    return play


def soft(rng: random.Random, partner: str) -> Policy:
    """Never raises the partner and folds to his bets; honest otherwise."""
    base = honest(rng)

    def play(name, legal, ctx):
        by = {a["action"]: a for a in legal}
        if ctx["aggressor"] == partner and "fold" in by:
            return {"action": "fold"} if rng.random() < 0.85 else {"action": "call"}
        return base(name, legal, ctx)

    return play


def simulate(policies: dict[str, Policy], deals: int, seed: int, *, per_table: int = 6,
             start_id: int = 1) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    """``deals`` real Ramponneau deals; each deal seats ``per_table`` players
    drawn from ``policies`` (so that pairs meet often but not always)."""
    rng = random.Random(seed)
    names = list(policies)
    out = []
    for k in range(deals):
        seated = rng.sample(names, min(per_table, len(names)))
        engine = RAMPONNEAU.new_deal({"small_blind": 1, "big_blind": 2},
                                     [{"player": n, "chips": 200} for n in seated], 0,
                                     rng=SeededSource(rng))
        aggressor: str | None = None
        for _ in range(500):
            if engine.over:
                break
            name = engine.to_act()[0]
            view = engine.view(name)
            ctx = {"aggressor": aggressor, "board": len(view.get("board") or []),
                   "in_deal": {p["player"] for p in view["players"] if not p["folded"]}}
            move = dict(policies[name](name, engine.legal_actions(name), ctx))
            action = move.pop("action")
            engine.act(name, action, **move)
            if action in ("bet", "raise"):
                aggressor = name
            elif action == "check":
                aggressor = None
        assert engine.over
        out.append((start_id + k, engine.record(), engine.result()))
    return out


def names_of(pair: surveillance.Pair) -> set[str]:
    return {pair.a, pair.b}


@pytest.mark.slow
def test_chip_dumpers_come_first() -> None:
    rng = random.Random(1)
    players = {f"honnete{i}": honest(rng) for i in range(6)}
    players["ana"] = dumper(rng, "bruno")
    players["bruno"] = receiver(rng, "ana")
    report = surveillance.analyse(simulate(players, 3000, seed=2))
    top = report.pairs[0]
    assert names_of(top) == {"ana", "bruno"}, [(p.a, p.b, p.score) for p in report.pairs[:3]]
    assert any(f.kind == "dumping" for f in top.flags), [f.text for f in top.flags]
    dumping = next(f for f in top.flags if f.kind == "dumping")
    assert "ana a cédé" in dumping.text and "jetons à bruno" in dumping.text
    assert top.flow[("ana", "bruno")] > 3 * top.flow[("bruno", "ana")]
    # nobody else is flagged above the threshold
    assert [names_of(p) for p in report.suspicious()] == [{"ana", "bruno"}]


@pytest.mark.slow
def test_soft_players_come_first() -> None:
    rng = random.Random(3)
    players = {f"honnete{i}": honest(rng) for i in range(6)}
    players["chloe"] = soft(rng, "denis")
    players["denis"] = soft(rng, "chloe")
    report = surveillance.analyse(simulate(players, 3000, seed=4))
    top = report.pairs[0]
    assert names_of(top) == {"chloe", "denis"}, [(p.a, p.b, p.score) for p in report.pairs[:3]]
    kinds = [f.kind for f in top.flags]
    assert kinds.count("soft_play") >= 2, [f.text for f in top.flags]  # both directions
    assert any("se couche" in f.text and "face aux mises de" in f.text for f in top.flags)
    assert [names_of(p) for p in report.suspicious()] == [{"chloe", "denis"}]


@pytest.mark.slow
def test_honest_players_raise_no_flag() -> None:
    rng = random.Random(5)
    players = {f"honnete{i}": honest(rng) for i in range(8)}
    report = surveillance.analyse(simulate(players, 4000, seed=6))
    assert report.deals == 4000 and len(report.pairs) == 28
    assert report.suspicious() == [], [(p.a, p.b, [f.text for f in p.flags]) for p in report.suspicious()]
    assert max(p.score for p in report.pairs) < report.thresholds.score


def test_the_flows_follow_the_chips() -> None:
    """A deal where ana loses 30 and bruno wins 20, chloé 10: ana's chips went
    two thirds to bruno, one third to chloé."""
    record = {"seats": [{"player": "ana", "chips": 100}, {"player": "bruno", "chips": 100},
                        {"player": "chloe", "chips": 100}],
              "actions": [{"player": "ana", "action": "bet", "amount": 10},
                          {"player": "bruno", "action": "fold"},
                          {"player": "chloe", "action": "raise", "amount": 20},
                          {"player": "ana", "action": "call"}]}
    result = {"chips": {"ana": 70, "bruno": 120, "chloe": 110}}
    report = surveillance.analyse([(9, record, result)])
    ab = next(p for p in report.pairs if names_of(p) == {"ana", "bruno"})
    assert ab.flow[("ana", "bruno")] == pytest.approx(20)
    ac = next(p for p in report.pairs if names_of(p) == {"ana", "chloe"})
    assert ac.flow[("ana", "chloe")] == pytest.approx(10)
    assert ab.facing["bruno"].folded == 1 and ab.facing["bruno"].faced == 1
    assert ac.facing["chloe"].raised == 1 and ac.facing["ana"].faced == 1
    assert ab.deal_ids() == [9]


def test_the_same_browser_at_one_table_is_flagged() -> None:
    visits = [(3, "ana", "10.0.0.1", "h1"), (3, "bruno", "10.0.0.2", "h1"), (4, "chloe", "10.0.0.1", "h9"),
              (4, "ana", "10.0.0.1", "h2")]
    report = surveillance.analyse([], visits)
    ab = next(p for p in report.pairs if names_of(p) == {"ana", "bruno"})
    assert [f.kind for f in ab.flags] == ["same_browser"]
    assert "même navigateur à la table 3" in ab.flags[0].text
    ac = next(p for p in report.pairs if names_of(p) == {"ana", "chloe"})
    assert [f.kind for f in ac.flags] == ["same_address"]
    assert report.suspicious() == [ab]  # a shared address alone (a café, a family) stays below the threshold


def test_clients_without_a_browser_cookie_share_no_browser() -> None:
    """Issue 33: every pair of clients sending no browser cookie (bots, the
    API, a fresh private window) was flagged ``same_browser`` — the missing
    cookie was noted "-" and grouped — and with ``same_address`` scored 1.5,
    listed as suspicious. An absent cookie (None; "-" in the rows written
    before migration 0007) is no shared browser; a real shared cookie still is."""
    visits = [(3, "bot1", "10.0.0.9", None), (3, "bot2", "10.0.0.9", None),    # no cookie, one address
              (3, "bot3", "10.0.0.9", "-"), (3, "bot4", "10.0.0.7", "-"),      # the old rows' "-"
              (3, "ana", "10.0.0.1", "h1"), (3, "bruno", "10.0.0.2", "h1")]    # one real cookie, two places
    report = surveillance.analyse([], visits)
    pairs = {frozenset(names_of(p)): p for p in report.pairs}
    for a, b in (("bot1", "bot2"), ("bot1", "bot3"), ("bot2", "bot3")):
        assert [f.kind for f in pairs[frozenset((a, b))].flags] == ["same_address"], (a, b)
    assert frozenset(("bot3", "bot4")) not in pairs  # nothing shared at all
    assert [f.kind for f in pairs[frozenset(("ana", "bruno"))].flags] == ["same_browser"]
    assert report.suspicious() == [pairs[frozenset(("ana", "bruno"))]]


@pytest.mark.db
def test_a_visit_without_cookie_is_stored_absent_once(session) -> None:
    """The visit of a client without a cookie is stored with no browser
    (NULL), and its next visit finds that row again instead of adding one."""
    import datetime as dt

    from sqlalchemy import select
    from tests.services.helpers import make_table, make_user

    from tavern.store.models import TableVisit

    owner, bot = make_user(session, "patron"), make_user(session, "bot")
    t1 = make_table(session, owner).id
    day = dt.datetime(2026, 1, 15, 12, 0, tzinfo=dt.UTC)
    surveillance.record_visits(session, {(t1, bot.id, "1.2.3.4", None): day})
    later = day + dt.timedelta(hours=1)
    surveillance.record_visits(session, {(t1, bot.id, "1.2.3.4", None): later})
    session.expire_all()
    rows = [(v.browser, v.first_seen, v.last_seen) for v in session.scalars(select(TableVisit))]
    assert rows == [(None, day, later)]


@pytest.mark.db
def test_visits_are_recorded_in_batches_one_row_per_table_player_address_and_browser(session) -> None:
    """web/visits.py writes what the table sockets noted in one batch: a new
    (table, player, address, browser) gets a row, a known one only a later
    ``last_seen``; other rows are left alone."""
    import datetime as dt

    from sqlalchemy import select
    from tests.services.helpers import make_table, make_user

    from tavern.store.models import TableConfig, TableVisit

    owner, ana, bob = make_user(session, "patron"), make_user(session, "ana"), make_user(session, "bob")
    t1 = make_table(session, owner).id
    t2 = make_table(session, owner, session.get_one(TableConfig, t1).tavern).id
    day = dt.datetime(2026, 1, 15, 12, 0, tzinfo=dt.UTC)
    surveillance.record_visits(session, {(t1, ana.id, "1.2.3.4", "b1"): day, (t1, bob.id, "1.2.3.4", "b2"): day,
                                         (t2, ana.id, "1.2.3.4", "b1"): day})
    later = day + dt.timedelta(hours=1)
    surveillance.record_visits(session, {(t1, ana.id, "1.2.3.4", "b1"): later,  # known: moved on
                                         (t1, ana.id, "5.6.7.8", "b1"): later,  # another address: new
                                         (t2, bob.id, "1.2.3.4", "b2"): later})  # another table: new
    surveillance.record_visits(session, {})
    session.expire_all()
    rows = {(v.table_id, v.user_id, v.address, v.browser): (v.first_seen, v.last_seen)
            for v in session.scalars(select(TableVisit))}
    assert rows == {
        (t1, ana.id, "1.2.3.4", "b1"): (day, later),
        (t1, bob.id, "1.2.3.4", "b2"): (day, day),
        (t2, ana.id, "1.2.3.4", "b1"): (day, day),
        (t1, ana.id, "5.6.7.8", "b1"): (later, later),
        (t2, bob.id, "1.2.3.4", "b2"): (later, later),
    }
