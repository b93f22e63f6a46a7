"""The Grafana dashboard (ops/grafana/dashboards/tavern.json) and the alerts
of docs/operations.md name only metrics the server exports: a renamed
metric would leave a panel empty and an alert silent, with no error."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tavern import metrics

ROOT = Path(__file__).resolve().parents[2]
NAME = re.compile(r"\btavern_[a-z_]+")
SUFFIXES = ("_total", "_bucket", "_count", "_sum")


def _family(name: str) -> str:
    for suffix in SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _exported() -> set[str]:
    return {m.name for m in metrics.registry().collect() if m.name.startswith("tavern_")}


def test_every_panel_of_the_dashboard_reads_an_exported_metric() -> None:
    dashboard = json.loads((ROOT / "ops/grafana/dashboards/tavern.json").read_text(encoding="utf-8"))
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    assert len(exprs) >= 12
    named = {_family(n) for e in exprs for n in NAME.findall(e)}
    assert named and named <= _exported(), named - _exported()
    # The main figures each have a panel.
    for wanted in ("tavern_players_connected", "tavern_tables_running", "tavern_deals",
                   "tavern_action_publication_seconds", "tavern_worker_tables"):
        assert wanted in named


def test_the_operations_guide_names_only_exported_metrics() -> None:
    text = (ROOT / "docs/operations.md").read_text(encoding="utf-8")
    named = {_family(n.rstrip("_")) for n in NAME.findall(text)}
    assert len(named) >= 10
    assert named <= _exported(), named - _exported()
