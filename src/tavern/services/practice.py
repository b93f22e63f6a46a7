"""Practice tables (issue 29, « S'entraîner »): a player alone against the
house players, with practice chips.

A practice table is a table row marked with its player
(``TableConfig.practice_user_id``), in no tavern, so the village never lists
it. Its seats are set when it opens — the player at seat 0, one house player
(an account of the house: ``User.house``, no password anyone can give) at each
other seat — and never change. Its chips are practice chips: no ledger entry,
no cave from the account, no rake, no daily hand (tables/practice.py, its
bank). A player has one practice table at most: opening another closes the
first (:func:`open_practice` returns the ids closed, for the live tables to stop).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from tavern import catalogue
from tavern.bots.levels import LEVELS
from tavern.games import registry
from tavern.refusal import Refusal
from tavern.store.models import Seat, TableConfig, User, utcnow

#: Practice stakes: the smallest of each game's stakes.
_STAKE = {"small_blind": 1, "big_blind": 2, "small_bet": 2, "unit": 1}
#: A seat's practice stack, in caves' reference stakes (refilled when short of one).
STACK_UNITS = 100


class PracticeError(Refusal, ValueError):
    """A practice table refused: a code the catalogue says in French."""


@dataclass(frozen=True)
class PracticeChoice:
    """What the « S'entraîner » form asks: the game, the house players' number and level, fast play."""

    game: str
    opponents: int
    level: str
    fast: bool = False


def stakes_of(game: str) -> dict[str, int]:
    return {name: _STAKE.get(name, 1) for name in registry.spec(game).stakes}


def stack_of(game: str, stakes: dict[str, Any]) -> int:
    """A seat's practice stack (and the refill of a busted one)."""
    return STACK_UNITS * registry.spec(game).cave_unit(stakes)


def opponents_refused(low: int, high: int) -> PracticeError:
    """The refusal of a number of opponents for a game of ``low``–``high``
    seats: « entre 2 et 7 », or « 1 adversaire, pas plus ni moins » at Gin
    (never « entre 1 et 1 »)."""
    if max(1, low - 1) == high - 1:
        return PracticeError("practice_opponents_only", count=high - 1)
    return PracticeError("practice_opponents", low=max(1, low - 1), high=high - 1)


def check(choice: PracticeChoice) -> None:
    """Refuse a game, number of opponents or level the table cannot have."""
    if choice.game not in registry.GAMES:
        raise PracticeError("unknown_game", game=choice.game)
    low, high = registry.spec(choice.game).seats
    if not low - 1 <= choice.opponents <= high - 1 or choice.opponents < 1:
        raise opponents_refused(low, high)
    if choice.level not in LEVELS:
        raise PracticeError("practice_no_level", choices=list(LEVELS))


def house_players(s: Session, n: int) -> list[User]:
    """The first ``n`` house players, created the first time they are needed
    (a name a player took for himself is skipped: never his account at the table)."""
    wanted = [*catalogue.HOUSE_NAMES, *(f"{name} {i}" for i in (2, 3) for name in catalogue.HOUSE_NAMES)]
    found = {u.username: u for u in s.scalars(select(User).where(User.username.in_(wanted)))}
    names = [name for name in wanted if name not in found or found[name].house][:n]
    for name in names:
        if name not in found:
            # "!" is no Argon2 hash: no password logs in as the house (users.verify_password).
            found[name] = User(username=name, password_hash="!", house=True, level=0)
            s.add(found[name])
    s.flush()
    return [found[name] for name in names]


def open_practice(s: Session, user_id: int, choice: PracticeChoice) -> tuple[int, list[int]]:
    """Open a practice table for ``user_id``: its id, and the ids of his
    practice tables closed by this one (a player has one at a time)."""
    check(choice)
    closed = close_practice_of(s, user_id)
    spec = registry.spec(choice.game)
    stakes = stakes_of(choice.game)
    stack = stack_of(choice.game, stakes)
    table = TableConfig(
        tavern_id=None, practice_user_id=user_id, name=catalogue.PRACTICE_NAME.format(game=spec.label),
        game=choice.game, variant=spec.variants[0], stakes=stakes,
        options={"practice": {"level": choice.level, "fast": choice.fast}},
        buy_in_min=stack, buy_in_max=stack, rake_percent=0, rake_cap=None, no_flop_no_drop=True,
        seats=choice.opponents + 1, action_timer_seconds=60, chat="off")
    s.add(table)
    s.flush()
    s.add(Seat(table_id=table.id, seat_no=0, user_id=user_id, owes_big_blind=False))
    for seat_no, house in enumerate(house_players(s, choice.opponents), start=1):
        s.add(Seat(table_id=table.id, seat_no=seat_no, user_id=house.id, owes_big_blind=False))
    s.flush()
    return table.id, closed


def close_practice_of(s: Session, user_id: int) -> list[int]:
    """Close the player's open practice tables (seats freed: no money is at one)."""
    ids = list(s.scalars(select(TableConfig.id).where(TableConfig.practice_user_id == user_id,
                                                     TableConfig.status == "open")))
    for table_id in ids:
        close(s, table_id)
    return ids


def close(s: Session, table_id: int) -> None:
    table = s.get_one(TableConfig, table_id)
    for seat in list(s.scalars(select(Seat).where(Seat.table_id == table_id))):
        s.delete(seat)
    table.status = "closed"
    table.closed = utcnow()
    s.flush()
