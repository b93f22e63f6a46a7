"""From a table's configuration (the owner's page) to its engine's config.

Each game's spec says where the table's stakes, options and rake go
(``GameSpec.engine_config``); each engine validates its own config.
"""

from __future__ import annotations

from typing import Any

from tavern.games import registry
from tavern.games.spec import TableTerms
from tavern.tables.bank import TableInfo


def terms(info: TableInfo) -> TableTerms:
    return TableTerms(stakes=info.stakes, options=info.options, variant=info.variant,
                      rake_percent=info.rake_percent, rake_cap=info.rake_cap,
                      no_flop_no_drop=info.no_flop_no_drop)


def engine_config(info: TableInfo) -> dict[str, Any]:
    return registry.spec(info.game).engine_config(terms(info))
