"""The real application whose tables draw their deals' server seeds from a
seeded source (``tavern.cards.SeededSource``) instead of the system's
CSPRNG — for browser scenarios that need a known deck (a joker to move at
Double rami). Everything else is the product as it runs: the deck is still
the provably fair stream of that seed and the players' own seeds
(docs/fairness.md), so a test finds a seed giving the deal it wants by
running the same derivation (``fair.DealSeed``) and the game's engine.

Started by ``LiveServer(app="tests.browser.rigged_app:create_app")`` with
``RIGGED_TABLE_SEED`` in its environment. Never for real deals."""

from __future__ import annotations

import os
import random

from fastapi import FastAPI

from tavern.cards import SeededSource
from tavern.web.app import create_app as create_real_app
from tavern.web.state import services


def create_app() -> FastAPI:
    app = create_real_app()
    seed = int(os.environ["RIGGED_TABLE_SEED"])
    services(app).tables.actor_options["rng"] = SeededSource(random.Random(seed))
    return app
