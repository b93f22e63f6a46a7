"""The rami family's shared pieces (common.py): the deal, the deck order, and
the draw/discard turn every engine of the family plays."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest
from pydantic import BaseModel
from tests.refusals import refused

from tavern.cards import SeededSource, deck52
from tavern.games.base import Event, IllegalAction, LegalAction
from tavern.games.rami.common import DrawDiscardDeal, deal_from_left, deck_order_for, json_args


def test_deal_from_left_gives_one_card_at_a_time_from_the_dealers_left():
    order = [f"{r}s" for r in "A23456789"]
    hands = deal_from_left(order, ["A", "B", "C"], 1, 3)
    assert hands == {"C": ["As", "4s", "7s"], "A": ["2s", "5s", "8s"], "B": ["3s", "6s", "9s"]}


def test_deck_order_for_shuffles_or_checks_the_given_order():
    comp = deck52()
    shuffled = deck_order_for(comp, None, SeededSource(random.Random(7)))
    assert sorted(shuffled) == sorted(comp) and shuffled != comp
    assert deck_order_for(comp, list(reversed(comp)), None) == list(reversed(comp))
    with pytest.raises(IllegalAction):
        deck_order_for(comp, comp[:-1], None)


def test_json_args_copies_lists():
    cards = ["As", "2s"]
    args = json_args({"cards": cards, "meld": 0})
    cards.append("3s")
    assert args == {"cards": ["As", "2s"], "meld": 0}


class _Config(BaseModel):
    pass


class _Toy(DrawDiscardDeal):
    """Two players, three cards each, draw then discard; the deal ends with the stock."""

    game = "toy"
    ACTIONS: ClassVar[dict[str, tuple[str, ...]]] = {"draw": ("source",), "discard": ("card",)}

    def __init__(self, order: list[str]) -> None:
        self._sit(_Config(), [{"player": "A", "chips": 10}, {"player": "B", "chips": 10}], 1, order)
        self.hands = deal_from_left(self.deck, self.players, 1, 3)
        self.stock = list(reversed(self.deck[6:]))

    def legal_plays(self, player: str) -> list[LegalAction]:
        return [{"action": "discard", "cards": self.discardable(player)}]

    def timeout_play(self, player: str) -> dict[str, Any]:
        return {"action": "discard", "card": self.discardable(player)[0]}

    def turn_ended(self) -> list[Event]:
        if not self.stock:
            self.phase = "over"
            return [{"event": "end"}]
        return []


def _toy() -> _Toy:
    return _Toy(["As", "2s", "3s", "4s", "5s", "6s", "7s", "8s"])


def test_the_turn_draw_then_discard():
    t = _toy()
    assert t.to_act() == ["A"] and t.hands["A"] == ["As", "3s", "5s"]
    assert t.legal_actions("A") == [{"action": "draw", "sources": ["stock"]}]
    assert t.timeout_action("A") == {"action": "draw", "source": "stock"}
    with refused("not_your_turn", IllegalAction):
        t.timeout_action("B")
    with refused("draw_first", IllegalAction):
        t.act("A", "discard", card="As")
    with refused("not_your_turn", IllegalAction):
        t.act("B", "draw", source="stock")
    with refused("discard_empty", IllegalAction):
        t.act("A", "draw", source="discard")
    assert t.act("A", "draw", source="stock") == [{"event": "draw", "player": "A", "source": "stock"}]
    with refused("already_drawn", IllegalAction):
        t.act("A", "draw", source="stock")
    assert t.act("A", "discard", card="7s") == [
        {"event": "discard", "player": "A", "card": "7s"},
        {"event": "turn", "player": "B"},
    ]
    assert t.act("B", "draw", source="discard") == [
        {"event": "draw", "player": "B", "source": "discard", "card": "7s"}
    ]
    assert t.view("B")["drawn_from_discard"] == "7s"
    assert t.legal_actions("B") == [{"action": "discard", "cards": ["2s", "4s", "6s"]}]
    assert t.legal_actions("A") == []
    assert t.timeout_action("B") == {"action": "discard", "card": "2s"}
    with refused("discard_another", IllegalAction):
        t.act("B", "discard", card="7s")
    t.act("B", "discard", card="2s")
    t.act("A", "draw", source="stock")
    assert t.act("A", "discard", card="8s") == [
        {"event": "discard", "player": "A", "card": "8s"},
        {"event": "end"},
    ]
    assert t.over and t.to_act() == []
    rec: dict[str, Any] = t.record()
    assert rec["game"] == "toy" and rec["reshuffles"] == [] and "carry" not in rec
    assert [a["action"] for a in rec["actions"]] == ["draw", "discard", "draw", "discard", "draw", "discard"]


def test_act_refuses_unknown_actions_and_wrong_arguments():
    t = _toy()
    with refused("unknown_action_of", IllegalAction):
        t.act("A", "pass")
    with refused("takes_arguments", IllegalAction):
        t.act("A", "draw")
    with refused("not_dealt_in", IllegalAction):
        t.act("Z", "draw", source="stock")
    assert t.actions == []


def test_view_frame_keeps_the_hand_private():
    t = _toy()
    v = t.view(None)
    assert list(v) == ["game", "phase", "dealer", "to_act", "players", "discard", "stock"]
    assert v["stock"] == 2 and v["dealer"] == "B"
    assert t.view("A")["hand"] == ["As", "3s", "5s"]
