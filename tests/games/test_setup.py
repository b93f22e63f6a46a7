"""Issue 28 §1: every game checks its config and its seats with the one
shared set-up module (games/setup.py), so a malformed deal is refused alike,
with the same code, whichever game reads it — and each game's range of
players is the one its spec states."""

from __future__ import annotations

from typing import Any

import pytest

from tavern.games import registry
from tavern.games.base import IllegalAction


def _seats(n: int, chips: int = 100) -> list[dict[str, Any]]:
    return [{"player": f"P{k}", "chips": chips} for k in range(n)]


#: The games whose deals need stakes in their config (the others play on defaults).
STAKES = {"ramponneau": {"small_blind": 1, "big_blind": 2}, "draw": {"big_blind": 2}}


def _refusal(game: str, seats: Any, button: Any = 0, config: Any = None) -> IllegalAction:
    spec = registry.spec(game)
    with pytest.raises(IllegalAction) as caught:
        spec.new_deal(config or STAKES.get(game, {}), seats, button)
    return caught.value


@pytest.mark.parametrize("game", list(registry.GAMES))
def test_every_game_refuses_a_player_seated_twice_alike(game: str) -> None:
    lo = max(registry.spec(game).seats[0], 3) if game != "gin" else 2
    seats = _seats(lo)
    seats[1]["player"] = seats[0]["player"]
    exc = _refusal(game, seats)
    assert (exc.code, exc.params) == ("seated_twice", {"name": "P0"})


@pytest.mark.parametrize("game", list(registry.GAMES))
def test_every_game_refuses_a_seat_without_a_player_or_whole_chips_alike(game: str) -> None:
    n = 2 if game == "gin" else 3
    nameless = _seats(n)
    nameless[1]["player"] = ""
    assert (_refusal(game, nameless).code, _refusal(game, nameless).params) == ("seat_needs_player", {"seat": 1})
    broke = _seats(n)
    broke[2 if n == 3 else 1]["chips"] = -5
    assert _refusal(game, broke).code == "seat_chips"
    assert _refusal(game, "ana").code == "seats_list"


@pytest.mark.parametrize("game", list(registry.GAMES))
def test_a_deal_of_too_many_players_names_the_range_of_the_spec(game: str) -> None:
    spec = registry.spec(game)
    exc = _refusal(game, _seats(spec.seats[1] + 1))
    lo, hi = spec.seats
    if game == "rams":  # a deal of two ends a partie (rams/layout.py); the table seats three
        lo = 3
    assert (exc.code, exc.params["game"], exc.params["lo"], exc.params["hi"]) == ("players_range", game, lo, hi)


def test_a_bad_option_is_refused_naming_it() -> None:
    # "Le joker est une option de table" (RULES.md "Rami français"): a yes or no.
    exc = _refusal("rami", _seats(3), config={"joker": "souvent"})
    assert exc.code and exc.params.get("field", "").startswith("config.joker")
