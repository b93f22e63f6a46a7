"""Issue 32 §1: ``/metrics`` in the Prometheus text format, "reachable only
from an address or with a token the operator sets (a setting; refused
otherwise)", with the families the issue lists; the actor counts its deals
and its action → publication latency."""

from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from tests.tables.conftest import Harness, build_world, passive

from tavern import metrics
from tavern.web.app import create_app
from tavern.web.state import services

pytestmark = [pytest.mark.db]

#: The issue's list, family by family (counters without their _total).
FAMILIES = {
    "tavern_players_connected",                 # players connected
    "tavern_tables_running",                    # tables running by game
    "tavern_deals",                             # deals started/settled/voided by game
    "tavern_action_publication_seconds",        # action → publication latency (histogram)
    "tavern_websockets_open", "tavern_websocket_send_queue_messages", "tavern_websocket_send_queue_longest",
    "tavern_db_pool_wait_seconds", "tavern_db_pool_in_use", "tavern_db_transaction_seconds",  # pool waits, transactions
    "tavern_gc_pause_seconds",                  # garbage-collection pauses
    "tavern_lease_renewals", "tavern_table_moves", "tavern_worker_tables",  # leases, moves, the spread
    "tavern_refusals",                          # refusals by code
    "tavern_http_responses",                    # HTTP answers by route and status
}


def test_a_scrape_without_token_or_address_is_refused(settings) -> None:
    app = create_app(settings.model_copy(update={"metrics_token": "s3cret-token", "metrics_allow": ["10.0.0.0/8"]}))
    try:
        with TestClient(app, client=("192.168.1.9", 4242)) as c:
            for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic s3cret-token"}):
                r = c.get("/metrics", headers={"Accept": "application/json", **headers})
                assert r.status_code == 403 and r.json()["code"] == "metrics_forbidden", r.text
                assert "TAVERN_METRICS_TOKEN" in r.json()["message"]
                assert "tavern_" not in r.text
    finally:
        services(app).engine.dispose()


def test_nothing_set_refuses_everybody_even_loopback(settings) -> None:
    app = create_app(settings)
    try:
        with TestClient(app, client=("127.0.0.1", 4242)) as c:
            assert c.get("/metrics").status_code == 403
    finally:
        services(app).engine.dispose()


@pytest.mark.parametrize("how", ["token", "address"])
def test_the_operator_scrapes_every_family_of_the_issue(settings, how: str) -> None:
    update = {"metrics_token": "s3cret-token"} if how == "token" else {"metrics_allow": ["10.1.0.0/16", "::1"]}
    app = create_app(settings.model_copy(update=update))
    try:
        with TestClient(app, client=("10.1.2.3", 4242)) as c:
            c.get("/healthz")
            c.get("/api/auth/session")
            c.post("/api/auth/login", json={"username": "x", "password": "y"})  # refused: no CSRF token
            headers = {"Authorization": "Bearer s3cret-token"} if how == "token" else {}
            r = c.get("/metrics", headers=headers)
    finally:
        services(app).engine.dispose()
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    found = {f.name: f for f in text_string_to_metric_families(r.text)}
    assert FAMILIES <= set(found), FAMILIES - set(found)
    http = {(s.labels["route"], s.labels["status"]) for s in found["tavern_http_responses"].samples}
    assert ("/healthz", "200") in http and ("/api/auth/session", "200") in http
    refusals = {s.labels["code"] for s in found["tavern_refusals"].samples if s.value > 0}
    assert refusals, "the refused login is counted by its code"
    assert found["tavern_db_pool_size"].samples[0].value > 0


def _value(name: str, **labels: str) -> float:
    for family in metrics.registry().collect():
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return s.value
    return 0.0


def test_the_actor_counts_its_deals_and_its_latency(session_factory) -> None:
    world = build_world(session_factory)
    started = _value("tavern_deals_total", game="ramponneau", outcome="started")
    settled = _value("tavern_deals_total", game="ramponneau", outcome="settled")
    observed = _value("tavern_action_publication_seconds_count")

    async def scenario() -> int:
        h = Harness(world)
        actor = await h.start(seated=("ana", "bob", "cid"))
        await h.settle()
        await h.play_deal(passive)
        await actor.stop()
        return actor.deals

    deals = asyncio.run(scenario())
    assert deals >= 1
    assert _value("tavern_deals_total", game="ramponneau", outcome="started") - started == deals
    assert _value("tavern_deals_total", game="ramponneau", outcome="settled") - settled >= 1
    assert _value("tavern_action_publication_seconds_count") - observed >= 3  # one per action at least (3 players)


def test_quantiles_from_buckets() -> None:
    buckets = [(0.001, 0.0), (0.01, 50.0), (0.1, 100.0), (float("inf"), 100.0)]
    assert metrics.quantile(buckets, 0.5) == pytest.approx(0.01)
    assert metrics.quantile(buckets, 0.75) == pytest.approx(0.055)
    assert metrics.quantile([(1.0, 0.0), (float("inf"), 0.0)], 0.5) is None


def test_deals_voided_at_a_restart_are_counted_once(session_factory) -> None:
    world = build_world(session_factory)
    voided = _value("tavern_deals_total", game="ramponneau", outcome="voided")

    async def interrupted() -> Harness:
        h = Harness(world)
        actor = await h.start(seated=("ana", "bob", "cid"))
        await h.settle()
        assert actor.dealing
        await actor.stop()  # the process "dies" mid-deal: the deal stays archived as in progress
        return h

    h = asyncio.run(interrupted())
    assert len(h.bank.void_interrupted()) == 1  # what a restart does first
    assert _value("tavern_deals_total", game="ramponneau", outcome="voided") - voided == 1
    assert h.bank.void_interrupted() == []
    assert _value("tavern_deals_total", game="ramponneau", outcome="voided") - voided == 1
