"""Gin rummy's score sheet (rami.fr.txt, "LE GIN RUMMY"): the three-column
match carried from deal to deal, and its final count.

"on compte les points de chaque colonne et 25 points par cocotte ; on ajoute
ensuite les bonus" — the columns, the cocottes and the bonuses live here; the
deal itself is :mod:`tavern.games.rami.gin`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tavern.games.base import RecordError, record_error


class SheetShape(Protocol):
    """What the sheet needs of a Gin table's config (gin.GinConfig)."""

    @property
    def column_target(self) -> int: ...

    @property
    def columns(self) -> int: ...

COCOTTE = 25  # "25 points par cocotte" in the final count
BONUS = 100


class _CarriedSheet(BaseModel):
    """A running match's sheet as the previous deal hands it on."""

    model_config = ConfigDict(extra="forbid", strict=True)

    players: list[str] = Field(min_length=2, max_length=2)
    target: int = Field(ge=1)
    ncols: int = Field(ge=1, le=9)
    column: int = Field(ge=0)
    points: dict[str, list[Annotated[int, Field(ge=0)]]]
    cocottes: dict[str, Annotated[int, Field(ge=0)]]
    first: list[str | None]
    lines: list[dict[str, Any]] = []
    deals: int = Field(0, ge=0)


@dataclass
class MatchSheet:
    """The score sheet: each player's points per column, his cocottes, who
    reached the target first in each column; ``lines`` is the sheet as the
    source writes it (running totals, deal by deal)."""

    players: list[str]
    target: int
    ncols: int
    column: int
    points: dict[str, list[int]]
    cocottes: dict[str, int]
    first: list[str | None]
    lines: list[dict[str, Any]]
    deals: int = 0

    @classmethod
    def new(cls, players: list[str], target: int = 250, ncols: int = 3) -> MatchSheet:
        return cls(
            list(players), target, ncols, 0, {p: [0] * ncols for p in players},
            {p: 0 for p in players}, [None] * ncols, [],
        )

    @classmethod
    def from_carry(cls, carry: Any, players: list[str], cfg: SheetShape) -> MatchSheet:
        """The carried sheet, or a new one when there is none or it belongs to
        another pair of players (ruling: a match is between the same two).
        A malformed sheet is refused naming the field (``carry.column``…)."""
        if carry is None:
            return cls.new(players, cfg.column_target, cfg.columns)
        try:
            c = _CarriedSheet.model_validate(carry)
        except ValidationError as exc:
            raise record_error(exc, "carry") from None
        if sorted(c.players) != sorted(players):
            return cls.new(players, cfg.column_target, cfg.columns)
        if c.ncols != cfg.columns or c.target != cfg.column_target:
            raise RecordError("carry.ncols", "gin_sheet_shape", ncols=c.ncols, target=c.target,
                              columns=cfg.columns, column_target=cfg.column_target)
        if not 0 <= c.column < c.ncols:
            raise RecordError("carry.column", "gin_sheet_column", last=c.ncols - 1, column=c.column)
        for p in players:
            if len(c.points.get(p, [])) != c.ncols or p not in c.cocottes:
                raise RecordError(f"carry.points.{p}", "gin_sheet_points", ncols=c.ncols)
        if len(c.first) != c.ncols or any(f is not None and f not in players for f in c.first):
            raise RecordError("carry.first", "gin_sheet_first", target=c.target)
        return cls(players=list(players), target=c.target, ncols=c.ncols, column=c.column,
                   points={p: list(c.points[p]) for p in players}, cocottes={p: c.cocottes[p] for p in players},
                   first=list(c.first), lines=[dict(x) for x in c.lines], deals=c.deals)

    @property
    def over(self) -> bool:
        return self.column >= self.ncols

    def add(self, player: str, points: int, cocottes: int) -> None:
        """A won deal goes in the current column; reaching the target closes it."""
        col = self.column
        self.points[player][col] += points
        self.cocottes[player] += cocottes
        self.deals += 1
        self.lines.append({
            "column": col, "player": player, "points": points, "cocottes": cocottes,
            "total": self.points[player][col],
        })
        if self.points[player][col] >= self.target:
            self.first[col] = player
            self.column += 1

    def final_count(self) -> dict[str, dict[str, int]]:
        """"on compte les points de chaque colonne et 25 points par cocotte ; on
        ajoute ensuite les bonus : 100 points à chaque colonne où le joueur a
        atteint 250 points avant son adversaire, 100 points par colonne où ...
        l'adversaire n'a marqué aucun point, et 100 points pour le joueur qui a
        gagné la troisième manche"."""
        out = {}
        played = min(self.column, self.ncols)
        for p in self.players:
            others = [q for q in self.players if q != p]
            columns = sum(self.points[p])
            bonus = BONUS * sum(1 for c in range(played) if self.first[c] == p)
            bonus += BONUS * sum(
                1 for c in range(played) if all(self.points[q][c] == 0 for q in others)
            )
            if self.over and self.first[self.ncols - 1] == p:
                bonus += BONUS
            cp = COCOTTE * self.cocottes[p]
            out[p] = {"columns": columns, "cocottes": self.cocottes[p], "cocotte_points": cp,
                      "bonus": bonus, "total": columns + cp + bonus}
        return out

    def margin(self, a: str, b: str) -> int:
        """How far ``a`` leads ``b`` in the final count, the sheet as it stands."""
        count = self.final_count()
        return count[a]["total"] - count[b]["total"]

    def as_data(self) -> dict[str, Any]:
        return {
            "players": list(self.players), "target": self.target, "ncols": self.ncols,
            "column": self.column, "points": {p: list(v) for p, v in self.points.items()},
            "cocottes": dict(self.cocottes), "first": list(self.first),
            "lines": [dict(x) for x in self.lines], "deals": self.deals,
        }
