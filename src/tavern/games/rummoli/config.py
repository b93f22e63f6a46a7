"""Rummoli table options: the board's pay sections, the ante, the poker method.

The board has the Rummoli pot (centre), the poker pot and the pay sections
("cartes payantes"). The standard board (RULES.md "Rummoli") is::

    10♠, J♦, Q♣, K♥, A♠, K♦+A♦ (both played by one player),
    7-8-9 of one suit (all played by one player)

and the tavern owner may edit that list.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from tavern.cards import RANKS, CardError, check_card, is_joker
from tavern.games.base import no_bool
from tavern.refusal import Invalid

#: Board keys of the two pots that are not pay sections.
RUMMOLI_POT = "rummoli"
POKER_POT = "poker"


class PaySection(BaseModel):
    """One pay section ("carte payante").

    Exactly one of ``cards`` and ``ranks``:

    * ``cards``: these exact cards, all played by the same player in the deal
      (``["Ts"]`` is the 10♠ section, ``["Kd", "Ad"]`` the K♦+A♦ one);
    * ``ranks``: these ranks all in one suit, any suit, all played by the same
      player (``"789"`` is the 7-8-9 section).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: str = Field(min_length=1, max_length=16)
    label: str = ""
    cards: tuple[str, ...] = Field(default=(), strict=False)  # a JSON list
    ranks: str = ""

    @field_validator("cards")
    @classmethod
    def _real_cards(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for c in v:
            try:
                check_card(c)
            except CardError as exc:
                raise Invalid(exc.code, **exc.params) from None
            if is_joker(c):
                raise Invalid("rummoli_no_jokers")
        if len(set(v)) != len(v):
            raise Invalid("rummoli_section_cards_once")
        return v

    @field_validator("ranks")
    @classmethod
    def _real_ranks(cls, v: str) -> str:
        if any(r not in RANKS for r in v) or len(set(v)) != len(v):
            raise Invalid("rummoli_section_ranks")
        return v

    @model_validator(mode="after")
    def _one_kind(self) -> PaySection:
        if bool(self.cards) == bool(self.ranks):
            raise Invalid("rummoli_section_cards_or_ranks", section=self.id)
        if self.id in (RUMMOLI_POT, POKER_POT):
            raise Invalid("rummoli_section_is_pot", section=self.id)
        return self


STANDARD_PAY_SECTIONS: tuple[PaySection, ...] = (
    PaySection(id="Ts", label="10♠", cards=("Ts",)),
    PaySection(id="Jd", label="J♦", cards=("Jd",)),
    PaySection(id="Qc", label="Q♣", cards=("Qc",)),
    PaySection(id="Kh", label="K♥", cards=("Kh",)),
    PaySection(id="As", label="A♠", cards=("As",)),
    PaySection(id="KdAd", label="K♦+A♦", cards=("Kd", "Ad")),
    PaySection(id="789", label="7-8-9", ranks="789"),
)


class BettingOptions(BaseModel):
    """Method 2: the one betting round into the poker pot.

    No blinds: the poker pot already holds the antes. ``structure`` is that of
    the shared betting engine; ``bet`` is the minimum bet (fixed limit: the bet
    size).
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    structure: Literal["no-limit", "pot-limit", "fixed-limit"] = "no-limit"
    bet: int = Field(default=1, ge=1)


class RummoliConfig(BaseModel):
    """The validated options of a Rummoli table."""

    model_config = ConfigDict(extra="forbid", strict=True)

    #: table chips per source "jeton": the ante on each section at every
    #: deal, and the price of one card held when a player goes out or at a
    #: deadlock (the source: one chip).
    unit: int = Field(default=1, ge=1, le=1000)
    pay_sections: tuple[PaySection, ...] = Field(STANDARD_PAY_SECTIONS, strict=False)  # a JSON list
    #: 1: hands shown, best wins the poker pot (default); 2: one betting round.
    poker_method: Literal[1, 2] = 1

    _no_bool_method = field_validator("poker_method", mode="before")(no_bool)
    betting: BettingOptions = BettingOptions()
    #: who gets the chips left on the board when the table closes.
    leftover: Literal["cut", "poker"] = "cut"

    @field_validator("pay_sections")
    @classmethod
    def _distinct(cls, v: tuple[PaySection, ...]) -> tuple[PaySection, ...]:
        ids = [s.id for s in v]
        if len(set(ids)) != len(ids):
            raise Invalid("rummoli_section_ids")
        if not 1 <= len(v) <= 13:
            raise Invalid("rummoli_board_size")
        return v

    def section_ids(self) -> list[str]:
        """Board order: Rummoli pot, poker pot, then the pay sections."""
        return [RUMMOLI_POT, POKER_POT] + [s.id for s in self.pay_sections]


