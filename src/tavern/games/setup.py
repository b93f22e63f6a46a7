"""What every game checks before a deal starts: its config and its seats.

One parser for the table options and one seat checker shared by every
game, so a malformed config or seat list is refused alike, with the same
codes (catalogue.py), whichever game reads it: ``new_deal`` is also reached
by replays of records from outside (docs/hand-records.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from tavern.cards import RandomSource
from tavern.games.base import IllegalAction, record_error

Config = TypeVar("Config", bound=BaseModel)

# ``new_deal``'s arguments (games/base.py), typed once for every game:
#: The table's options (JSON from a record, or the game's model already checked).
Options = Mapping[str, Any] | BaseModel | None
#: ``[{"player": "A", "chips": 1000}, ...]`` in seat order going left.
Seats = list[dict[str, Any]]
#: An explicit deck order, top card first (replays, tests); None: shuffled.
Deck = list[str] | None
#: The decks rebuilt during the deal, in order (replays); None: shuffled anew.
Reshuffles = list[list[str]] | None
#: What the previous deal hands on (its ``result()["carry"]``).
Carry = dict[str, Any] | None
#: The shuffle's source (the table's seeded stream); None: the house's CSPRNG.
Rng = RandomSource | None


def parse_config(model: type[Config], config: Options) -> Config:
    """The validated table options as ``model``, or a refusal naming the bad
    one (``config.<option>``). An already validated model is taken as it is."""
    if isinstance(config, model):
        return config
    if isinstance(config, BaseModel):  # another game's options
        config = config.model_dump()
    try:
        return model.model_validate(config or {})
    except ValidationError as exc:
        raise record_error(exc, "config") from None


def check_count(n_players: int, game: str, seats: tuple[int, int]) -> None:
    """The number of players is within the game's range (its spec's ``seats``)."""
    lo, hi = seats
    if not lo <= n_players <= hi:
        raise IllegalAction("players_range", game=game, lo=lo, hi=hi)


def seat_list(seats: Any) -> tuple[list[str], dict[str, int]]:
    """The seats' players in seat order and their chips: each seat a named
    player with a whole number of chips, none seated twice."""
    if not isinstance(seats, list) or not seats:
        raise IllegalAction("seats_list")
    players: list[str] = []
    chips: dict[str, int] = {}
    for k, s in enumerate(seats):
        if not isinstance(s, dict) or not isinstance(s.get("player"), str) or not s["player"]:
            raise IllegalAction("seat_needs_player", seat=k)
        name, held = s["player"], s.get("chips")
        if not isinstance(held, int) or isinstance(held, bool) or held < 0:
            raise IllegalAction("seat_chips", seat=k)
        if name in chips:
            raise IllegalAction("seated_twice", name=name)
        players.append(name)
        chips[name] = held
    return players, chips


def check_button(button: Any, n_seats: int) -> None:
    """The dealer is one of the seats."""
    if not isinstance(button, int) or isinstance(button, bool) or not 0 <= button < n_seats:
        raise IllegalAction("dealer_one_of_seats")


def check_seats(seats: Any, button: Any, game: str, bounds: tuple[int, int]) -> tuple[list[str], dict[str, int]]:
    """A deal's seats and dealer checked (:func:`seat_list`, the game's range
    of players, :func:`check_button`): its players and their chips."""
    players, chips = seat_list(seats)
    check_count(len(players), game, bounds)
    check_button(button, len(players))
    return players, chips
