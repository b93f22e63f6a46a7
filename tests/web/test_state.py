"""``app.state`` holds one typed object of services (issue 28, section 3).

Twelve loose attributes typed ``Any`` let a misspelt name or a wrong use
through to run time; one :class:`tavern.web.state.Services`, read through
:func:`tavern.web.state.services`, is what mypy checks.
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from fastapi import FastAPI

from tavern.settings import Settings
from tavern.web.state import Services, services

SRC = Path(__file__).resolve().parents[2] / "src" / "tavern"


def test_the_app_holds_one_services_object_and_nothing_loose(app: FastAPI, settings: Settings) -> None:
    svc = services(app)
    assert isinstance(svc, Services)
    assert svc.settings is settings
    assert svc.contests is not None and svc.tables is not None and svc.read_sessions is not None
    assert set(vars(app.state)["_state"]) == {"services"}
    assert {f.name for f in fields(Services)} >= {
        "settings", "engine", "write_sessions", "read_sessions", "codec", "socket_users", "throttles",
        "ws_limits", "visits", "broadcaster", "tables", "contests"}


def test_no_module_reads_app_state_but_the_accessor() -> None:
    """Every route, dependency, socket handler, test and bench goes through
    services(): no ``….state.<a service>`` left anywhere."""
    names = "|".join(f.name for f in fields(Services))
    loose = re.compile(rf"\.state\.({names})\b")
    root = SRC.parents[1]
    for path in [*SRC.rglob("*.py"), *(root / "tests").rglob("*.py"), *(root / "bench").rglob("*.py")]:
        if path.name in ("state.py", "test_state.py"):
            continue
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            assert not loose.search(line), f"{path.relative_to(root)}:{lineno}: {line.strip()}"
