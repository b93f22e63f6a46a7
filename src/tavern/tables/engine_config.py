"""From a table's configuration (the owner's page) to its engine's config.

Each game's engine validates its own config; this only says where the table's
stakes, options and rake go.
"""

from __future__ import annotations

from typing import Any

from tavern.tables.bank import TableInfo


def engine_config(info: TableInfo) -> dict[str, Any]:
    config: dict[str, Any] = {**info.options, **info.stakes}
    if info.game == "ramponneau":
        config["rake"] = {"percent": info.rake_percent, "cap": info.rake_cap,
                          "no_flop_no_drop": info.no_flop_no_drop}
    elif info.game == "draw":
        # Blinds: "big blind = the small bet; small blind = half of it".
        config["big_blind"] = info.stakes.get("small_bet", info.stakes.get("big_blind"))
        config.pop("small_bet", None)
        if info.variant in ("fixed-limit", "pot-limit", "no-limit"):
            config.setdefault("structure", info.variant)
        config["rake"] = {"percent": info.rake_percent, "cap": info.rake_cap, "no_flop_no_drop": False}
    return config
