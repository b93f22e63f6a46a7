"""Issue 10 §5: the settings reach the code through parameters and
dependencies. Only the places where the program starts read them from the
environment (``get_settings``): the app factory, the command line and the
migrations; every other module of the package receives them."""

from __future__ import annotations

import ast
from pathlib import Path

import tavern

PACKAGE = Path(tavern.__file__).parent
#: Where the program starts: the only callers of ``get_settings`` (defined in
#: settings.py, whose model reads the ``TAVERN_*`` variables).
READERS = {"cli.py", "web/app.py"}


def test_only_the_starting_points_read_the_settings_from_the_environment() -> None:
    readers = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        if "get_settings" in names or "environ" in names or "getenv" in names:
            readers.add(path.relative_to(PACKAGE).as_posix())
    assert readers == READERS


def test_a_service_takes_the_settings_it_is_handed(settings, session) -> None:
    """A test overrides a setting by handing in its own copy — nothing is patched."""
    from tavern.services import taverns

    cheap = settings.model_copy(update={"price_deck52_ecus": 7, "price_deck32_ecus": 3})
    assert taverns.shop_prices(cheap) == {"deck52": 7, "deck32": 3}
    assert taverns.shop_prices(settings)["deck52"] == settings.price_deck52_ecus
