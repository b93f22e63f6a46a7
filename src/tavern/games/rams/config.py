"""Rams table settings (RULES.md "Rams": stakes and the table options)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class RamsConfig(BaseModel):
    """One table's Rams settings; every field is a table option.

    ``stakes``: ``"coup"`` (default, "au coup": a pot shared by tricks, rams pay
    into the next pot) or ``"partie"`` (the chip-elimination game "à la partie").
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    stakes: Literal["coup", "partie"] = "coup"
    #: chips per unit ("l'unité de levée").
    unit: int = Field(default=1, ge=1)
    #: the dealer's stake in units; ``None``: one unit per trick (5 with 5-card hands).
    dealer_stake: int | None = Field(default=None, ge=1)
    #: with 6 or 7 players, deal a widow ("la fille") or not; 3–5 always have
    #: one and 8 never can (the 32 cards are gone).
    widow: bool = True
    #: "la fille forcée": on optional deals nobody may pass until the widow is taken.
    forced_widow: bool = False
    #: "l'atout obligatoire": on a forced deal the first lead must be a trump,
    #: led face down "en disant atout" by a player who has none.
    forced_trump_lead: bool = False
    #: "on constitue l'atout à la première carte jouée": no turned card, no exchange.
    trump_by_first_card: bool = False
    #: the player after a widow taker may swap his hand for the thrown one.
    exchange_thrown: bool = False
    #: "à la partie": tokens each player starts with (one off per trick, five more when rams).
    partie_tokens: int = Field(default=5, ge=1)
    #: "à la partie": "le trente et un": reaching exactly 31 tokens is a way out.
    trente_et_un: bool = False
    #: "à la partie": chips the loser pays each other player when the partie ends.
    partie_stake: int = Field(default=10, ge=0)

    def stake_units(self, tricks: int) -> int:
        return self.dealer_stake if self.dealer_stake is not None else tricks


