"""Issue 31 §3: a player's poker deals in PokerStars hand-history text (the
format the trackers import) and PHH, in his own view only.

The text is checked by a parser no one here wrote: pokerkit's
``PokerStarsParser`` must read every exported Ramponneau deal back with the
same players, the same actions and the same final stacks; the PHH by
pokerkit's own PHH reader. And no hole card of another player that was not
shown down may appear in either (RULES.md, Ramponneau: « at the showdown
[...] a player may muck (throw away) a losing hand without showing it »).

Amounts are multiples of 2520 as in test_pokerkit_differential.py (odd
chips of split pots are shared differently by pokerkit, by design).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from types import SimpleNamespace
from typing import Any

import pytest

from tavern.cards import SeededSource
from tavern.games.base import IllegalAction
from tavern.games.poker import draw, ramponneau
from tavern.games.poker.phh import to_phh
from tavern.games.poker.stars import to_pokerstars
from tavern.services.hand_export import player_view, shown_to

pokerkit = pytest.importorskip("pokerkit")
from pokerkit.notation import HandHistory, PokerStarsParser  # noqa: E402

UNIT = 2520
WHEN = dt.datetime(2026, 11, 20, 21, 30, tzinfo=dt.UTC)
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")
PHH_CARD = re.compile(r"[2-9TJQKA][cdhs]")  # PHH writes a hand's cards together: "AhKd"


def _play(engine: Any, rng: random.Random) -> Any:
    while not engine.over:
        (player,) = engine.to_act()
        legal = engine.legal_actions(player)
        move = rng.choice(legal)
        if any(a["action"] == "muck" for a in legal) and rng.random() < 0.7:
            move = {"action": "muck"}  # a beaten hand thrown unseen: what the export must keep hidden
        if move["action"] == "draw":
            hand = move["cards"]
            engine.act(player, "draw", discard=rng.sample(hand, rng.randint(0, 3)))
        elif "min" in move:
            lo, hi = move["min"] // UNIT, move["max"] // UNIT
            engine.act(player, move["action"], amount=rng.choice([lo, hi, rng.randint(lo, hi)]) * UNIT)
        else:
            engine.act(player, move["action"])
    return engine


def _ramponneau(rng: random.Random) -> Any:
    n = rng.randint(2, 9)
    seats = [{"player": f"joueur{i}", "chips": UNIT * rng.choice([rng.randint(1, 12), rng.randint(20, 150)])}
             for i in range(n)]
    return _play(ramponneau.new_deal({"small_blind": UNIT, "big_blind": 2 * UNIT}, seats, rng.randrange(n),
                                     rng=SeededSource(rng)), rng)


def _seen(record: dict[str, Any], hero: str) -> set[str]:
    """The others whose cards the hero saw, through the export's own path."""
    players = [s["player"] for s in record["seats"]]
    return shown_to(player_view(SimpleNamespace(players=players, record=record), hero), hero)  # type: ignore[arg-type]


def _unshown(engine: Any, hero: str) -> set[str]:
    """Every hole card of another player that nobody showed."""
    out: set[str] = set()
    for i, name in enumerate(engine.players):
        if name != hero and i not in engine.shown:
            out |= set(engine.hole[i])
    return out


def _decisions(record: dict[str, Any], order: list[str]) -> list[str]:
    """The record's betting decisions, in pokerkit's words."""
    words = {"fold": "f", "check": "cc", "call": "cc"}
    out = []
    for a in record["actions"]:
        p = f"p{order.index(a['player']) + 1}"
        if a["action"] in words:
            out.append(f"{p} {words[a['action']]}")
        elif a["action"] in ("bet", "raise"):
            out.append(f"{p} cbr {a['amount']}")
    return out


def _same_decisions(ours: list[str], theirs: list[str]) -> bool:
    """The same decisions in the same order. pokerkit may add a check of its
    own: it asks for a decision where the rules ask none (the big blind's
    option when the only other player still in is all-in for the big blind:
    RULES.md, « nobody raises when no other player could answer »); such a
    check moves no chip (the stacks are compared too)."""
    k = 0
    for action in theirs:
        if k < len(ours) and action == ours[k]:
            k += 1
        elif not action.endswith(" cc"):
            return False
    return k == len(ours)


def test_every_ramponneau_deal_reads_back_in_pokerkits_pokerstars_parser() -> None:
    rng = random.Random(3131)
    showdowns = hidden_at_showdown = 0
    for deal in range(120):
        engine = _ramponneau(rng)
        record = engine.record()
        hero = rng.choice(engine.players)
        text = to_pokerstars(record, hero=hero, shown=_seen(record, hero), number=deal + 1, when=WHEN,
                             table="La Chope")
        (hh,) = list(PokerStarsParser()(text, error_status=True))
        assert list(hh.players) == engine.players, text
        ours = _decisions(record, engine.players)
        theirs = [a for a in hh.actions if not a.startswith("d ") and " sm" not in a]
        assert _same_decisions(ours, theirs), (ours, theirs, text)
        state = list(hh)[-1]
        assert not state.status, f"pokerkit did not finish\n{text}"
        assert list(state.stacks) == [engine.b.stack[i] for i in range(len(engine.players))], text
        # His own view: his cards, shown hands, never another's hidden card.
        assert set(engine.hole[engine.index[hero]]) <= set(CARD.findall(text))
        assert not set(CARD.findall(text)) & _unshown(engine, hero), text
        showdowns += "*** SHOW DOWN ***" in text
        hidden_at_showdown += "mucks hand" in text
    assert showdowns > 30 and hidden_at_showdown > 2  # the sample has both


def test_every_ramponneau_deal_reads_back_in_pokerkits_phh_reader_in_his_view() -> None:
    rng = random.Random(3132)
    for _ in range(80):
        engine = _ramponneau(rng)
        record = engine.record()
        hero = rng.choice(engine.players)
        seen = _seen(record, hero)
        text = to_phh(record, hidden=[p for p in engine.players if p != hero and p not in seen])
        state = list(HandHistory.loads(text))[-1]
        assert not state.status
        assert list(state.stacks) == [engine.b.stack[i] for i in range(len(engine.players))], text
        assert set(engine.hole[engine.index[hero]]) <= set(PHH_CARD.findall(text))
        assert not set(PHH_CARD.findall(text)) & _unshown(engine, hero), text


def test_a_draw_poker_deal_in_pokerstars_text_keeps_the_others_discards_hidden() -> None:
    rng = random.Random(3133)
    for deal in range(60):
        n = rng.randint(2, 6)
        seats = [{"player": f"j{i}", "chips": UNIT * rng.randint(5, 60)} for i in range(n)]
        engine = _play(draw.new_deal({"big_blind": 2 * UNIT, "structure": "no-limit", "draws": rng.choice([1, 2])},
                                     seats, rng.randrange(n), rng=SeededSource(rng)), rng)
        record = engine.record()
        hero = rng.choice(engine.players)
        text = to_pokerstars(record, hero=hero, shown=_seen(record, hero), number=deal + 1, when=WHEN, table="T")
        assert text.startswith("PokerStars Hand #") and "5 Card" in text
        assert f"Dealt to {hero} [" in text and "Dealt to" not in text.replace(f"Dealt to {hero} [", "")
        # Every card of the text is one the hero held, a shown hand's, or none.
        held = set()
        for step, _ in _steps(record):
            held |= set(step.hole[step.index[hero]])
        shown = {c for i in engine.shown for c in engine.shown[i]}
        assert set(CARD.findall(text)) <= held | shown, text


def _steps(record: dict[str, Any]) -> Any:
    from tavern.games import registry

    return registry.replay_steps(record)


def test_a_post_to_enter_is_refused_in_french_not_mistold() -> None:
    seats = [{"player": "ana", "chips": 1000}, {"player": "bob", "chips": 1000},
             {"player": "cid", "chips": 1000, "post": True}]
    engine = _play(ramponneau.new_deal({"small_blind": 5, "big_blind": 10}, seats, 0, rng=SeededSource(random.Random(1))),
                   random.Random(2))
    with pytest.raises(IllegalAction) as exc:
        to_pokerstars(engine.record(), hero="ana", shown=(), number=1, when=WHEN, table="T")
    assert exc.value.code == "stars_no_post" and "cid" in str(exc.value)
