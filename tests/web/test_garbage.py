"""Bad input never ends in a 500: every route answers garbage with a clean 4xx."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webtools import World, api_csrf, login

from tavern.web.routers import ROUTERS

pytestmark = pytest.mark.db

PARAM = re.compile(r"\{(\w+)\}")

path_values = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters=""), min_size=1, max_size=12),
    st.sampled_from(["1", "2", "0", "-1", "1e3", "nan", "..", "%00"]),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=12,
)
field_names = st.sampled_from(["game", "seats", "small_blind", "big_blind", "unit", "small_bet", "kind",
                               "inventory_id", "amount", "currency", "level", "role", "username", "password",
                               "password2", "next", "buy_in_min", "buy_in_max", "rake_percent", "rake_cap",
                               "action_timer_seconds", "x"])
forms = st.dictionaries(field_names, st.text(max_size=15) | st.integers().map(str), max_size=8)
json_objects = st.dictionaries(field_names, json_values, max_size=8)


def routes() -> list[tuple[str, str]]:
    """Every (method, path) the app serves: pages and API alike."""
    out = []
    for router in ROUTERS:
        for r in router.routes:
            if isinstance(r, APIRoute):
                out.extend((m, r.path) for m in sorted(r.methods) if m != "HEAD")
    return sorted(out)


@pytest.mark.parametrize("who", ["owner", "admin", None])
def test_no_route_answers_500_to_garbage(app, world: World, who: str | None) -> None:
    client = TestClient(app, raise_server_exceptions=False)
    if who:
        login(client, who)
    token = api_csrf(client)
    every = routes()
    assert len(every) > 25

    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
    @given(route=st.sampled_from(every), params=st.lists(path_values, min_size=3, max_size=3),
           body=st.one_of(json_objects.map(lambda j: ("json", j)), json_values.map(lambda j: ("json", j)),
                          forms.map(lambda f: ("form", f)), st.binary(max_size=64).map(lambda b: ("raw", b))),
           query=st.dictionaries(field_names, st.text(max_size=10), max_size=3))
    def check(route: tuple[str, str], params: list[str], body: tuple[str, object], query: dict[str, str]) -> None:
        method, path = route
        it = iter(params)
        url = PARAM.sub(lambda m: quote(next(it), safe=""), path)
        if path.startswith("/api") or method != "POST":
            kwargs: dict = {"headers": {"X-CSRF-Token": token}}
        else:
            kwargs = {"headers": {}}
        kind, payload = body
        if kind == "json":
            kwargs["json"] = payload
        elif kind == "form":
            kwargs["data"] = {**payload, "csrf_token": token}  # type: ignore[dict-item]
        else:
            kwargs["content"] = payload
            kwargs["headers"]["content-type"] = "application/x-www-form-urlencoded"
        r = client.request(method, url, params=query, follow_redirects=False, **kwargs)
        assert r.status_code < 500, (method, url, kind, payload, r.status_code, r.text[:300])
        if r.status_code >= 400 and url.startswith("/api"):
            assert isinstance(r.json()["detail"], str) and r.json()["detail"]

    check()
    client.close()


def test_a_real_bug_gets_a_clean_page_not_a_traceback(app) -> None:
    """The last net: an unexpected exception is logged and answered with a plain page."""
    def boom() -> None:
        raise RuntimeError("secret internals")

    app.add_api_route("/boom", boom)
    app.add_api_route("/api/boom", boom)
    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/boom")
        assert r.status_code == 500 and "Erreur du serveur" in r.text
        assert "secret internals" not in r.text and "Traceback" not in r.text
        assert r.headers["X-Frame-Options"] == "DENY"
        r = client.get("/api/boom")
        assert r.status_code == 500 and "inattendue" in r.json()["detail"]
