"""Issue 38 §6: "an alert-rules file for Prometheus in ``ops/`` (the two
alerts of docs/operations.md and the ones items 1–2 call for: Redis
unreachable, subscriptions lost, tables not dealing, publications refused
for a lost lease), checked by ``promtool check rules`` in the tests, loaded
by the compose file."

The yardstick is Prometheus's own ``promtool`` (Debian's prometheus package,
installed by scripts/system-deps.sh): it parses the rules, and
``promtool test rules`` evaluates them over series written in
ops/alerts_test.yml — each alert fires on its fault and is quiet otherwise.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import yaml
from prometheus_client import REGISTRY

from tavern import metrics  # noqa: F401  (registers the families read below)

OPS = Path(__file__).resolve().parents[2] / "ops"
#: The alerts the issue names (and the two of docs/operations.md, and the full disk).
WANTED = {"TavernSlowActions", "TavernDealsVoided", "TavernRedisUnreachable", "TavernRedisSubscriptionLost",
          "TavernTablesNotDealing", "TavernPublicationsRefused", "TavernDiskFull", "TavernTablesUnrun"}


def _promtool(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("promtool")
    assert exe, "promtool is needed: scripts/system-deps.sh installs it (Debian's prometheus package)"
    return subprocess.run([exe, *args], cwd=OPS, capture_output=True, text=True, timeout=120)


def _rules() -> list[dict[str, str]]:
    doc = yaml.safe_load((OPS / "alerts.yml").read_text())
    return [r for g in doc["groups"] for r in g["rules"]]


def test_promtool_accepts_the_rules_and_the_config_that_loads_them() -> None:
    checked = _promtool("check", "rules", "alerts.yml")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"SUCCESS: {len(_rules())} rules found" in checked.stdout
    config = _promtool("check", "config", "--syntax-only", "prometheus.yml")
    assert config.returncode == 0, config.stdout + config.stderr
    assert "/etc/prometheus/alerts.yml" in yaml.safe_load((OPS / "prometheus.yml").read_text())["rule_files"]
    compose = (OPS.parent / "docker-compose.yml").read_text()
    assert "./ops/alerts.yml:/etc/prometheus/alerts.yml:ro" in compose


def test_each_alert_fires_on_its_fault_and_is_quiet_otherwise() -> None:
    assert {r["alert"] for r in _rules()} == WANTED
    tested = _promtool("test", "rules", "alerts_test.yml")
    assert tested.returncode == 0, tested.stdout + tested.stderr
    cases = yaml.safe_load((OPS / "alerts_test.yml").read_text())["tests"]
    assert {t["alertname"] for case in cases for t in case["alert_rule_test"]} == WANTED


def test_the_rules_name_only_metrics_the_server_exports() -> None:
    """A misspelt metric makes an alert that never fires: every name an
    expression reads is one of tavern.metrics's families (or a sample of one:
    ``_total``, ``_bucket``)."""
    families = {m.name for m in REGISTRY.collect() if m.name.startswith("tavern_")}
    samples = {s.name for m in REGISTRY.collect() if m.name.startswith("tavern_") for s in m.samples}
    # Families with labels have no sample until one is used: their names with the usual suffixes.
    known = families | samples | {f + sfx for f in families for sfx in ("_total", "_bucket", "_sum", "_count")}
    for rule in _rules():
        for name in re.findall(r"\btavern_[a-z_]+", rule["expr"]):
            assert name in known, f"{rule['alert']}: {name} is not exported by tavern.metrics"
