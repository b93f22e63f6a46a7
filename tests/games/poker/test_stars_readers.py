"""Issue 42 §1–5: our PokerStars text read by two readers no one here wrote,
the ``poker`` package's PokerStars parser (``poker.room.pokerstars``) and
pokerkit's ``PokerStarsParser``, over random deals — heads-up, 6-max and
full tables, short stacks (all-ins, side pots), walks, rake, showdowns won
and lost — must tell what the ledger (the engine's result) tells: the same
players, seats, button, blinds, actions, board, pots, winners and each
player's result.

Each player's result is also read from the text with the arithmetic every
tracker applies (what he posted, called, bet or raised to; an uncalled bet
returned; what he collected): it must be the ledger's ``delta`` to the
chip, rake or not (issue 42 §1 « calls -29 », §2 « each big-blind walk
reads +0 instead of +1 »).

Draw poker: neither reader reads it (the ``poker`` package knows Hold'em,
Omaha, Razz and Stud; pokerkit's parser Hold'em No Limit only), so its text
is held to the tracker's arithmetic and the sample shapes only.

The PHH of a raked deal is held to pokerkit's replay (§5, last test).

Amounts are multiples of 2520 for pokerkit, as in test_stars.py (it splits
odd chips of side pots its own way, by design).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import defaultdict
from typing import Any

import pytest
from poker.card import Card
from poker.room.pokerstars import PokerStarsHandHistory
from pokerkit import HandHistory
from pokerkit.notation import PokerStarsParser
from tests.games.poker.test_stars import _decisions, _same_decisions, _seen

from tavern.cards import SeededSource
from tavern.games.poker import draw, ramponneau
from tavern.games.poker.phh import to_phh
from tavern.games.poker.stars import to_pokerstars

UNIT = 2520
_RAKE = re.compile(r"^Total pot (\d+)(?P<split>.*) \| Rake (\d+)$", re.M)
_UNCALLED = re.compile(r"^Uncalled bet \((\d+)\) returned to (.+)$", re.M)
_WON_AT_SHOWDOWN = re.compile(r"^Seat \d+: (.+?) showed \[[^]]+\] and won \((\d+)\)", re.M)


def _play(engine: Any, rng: random.Random, style: str) -> Any:
    """Plays the deal out: ``random`` (any legal move), ``calling`` (checks
    and calls mostly: showdowns), ``walk`` (everyone folds to the big blind
    when he may)."""
    while not engine.over:
        (player,) = engine.to_act()
        legal = engine.legal_actions(player)
        kinds = {a["action"]: a for a in legal}
        if style == "walk" and "fold" in kinds:
            move = kinds["fold"]
        elif style == "calling" and rng.random() < 0.85 and ({"check", "call", "show"} & kinds.keys()):
            move = kinds.get("check") or kinds.get("call") or kinds["show"]
        else:
            move = rng.choice(legal)
            if "muck" in kinds and rng.random() < 0.6:
                move = kinds["muck"]
        if move["action"] == "draw":
            engine.act(player, "draw", discard=rng.sample(move["cards"], rng.randint(0, 3)))
        elif "min" in move:
            lo, hi = move["min"] // UNIT, move["max"] // UNIT
            engine.act(player, move["action"], amount=rng.choice([lo, hi, rng.randint(lo, hi)]) * UNIT)
        else:
            engine.act(player, move["action"])
    return engine


def _config(rng: random.Random, **more: Any) -> dict[str, Any]:
    cfg: dict[str, Any] = {"small_blind": UNIT, "big_blind": 2 * UNIT, **more}
    if rng.random() < 0.5:  # RULES.md: « taken from every pot [...] rounded down, optionally capped per pot »
        cfg["rake"] = {"percent": rng.choice([5, 10]), "cap": rng.choice([None, 3 * UNIT]),
                       "no_flop_no_drop": rng.random() < 0.5}
    return cfg


def _seats(rng: random.Random, n: int) -> list[dict[str, Any]]:
    # Short and deep stacks together: all-ins and side pots in many deals.
    return [{"player": f"joueur{i}", "chips": UNIT * rng.choice([rng.randint(1, 12), rng.randint(20, 150)])}
            for i in range(n)]


def _when(rng: random.Random) -> dt.datetime:
    """Any moment of 2026, summer and winter time alike."""
    return dt.datetime(2026, 1, 1, tzinfo=dt.UTC) + dt.timedelta(seconds=rng.randrange(365 * 86400))


def _ramponneau(rng: random.Random) -> Any:
    n = rng.choice([2, 2, 3, 6, 6, 9])
    style = rng.choice(["random", "random", "calling", "calling", "walk"])
    return _play(ramponneau.new_deal(_config(rng), _seats(rng, n), rng.randrange(n), rng=SeededSource(rng)),
                 rng, style)


def tracker_results(text: str) -> dict[str, int]:
    """Each player's result as a tracker reads it from PokerStars text: minus
    what he put in (posts and antes; calls and bets add, « raises X to Y »
    makes his bet of the street Y), plus an uncalled bet returned, plus what
    he collected from the pots."""
    result: dict[str, int] = defaultdict(int)
    street: dict[str, int] = defaultdict(int)
    for line in text.splitlines():
        if line.startswith("*** ") and "HOLE CARDS" not in line and "DEALING" not in line:
            street.clear()  # a new betting round; the blinds count in the first
        elif m := re.match(r"^(.+?): posts (?:the ante|small blind|big blind) (\d+)", line):
            if "ante" in line:
                result[m[1]] -= int(m[2])
            else:
                street[m[1]] += int(m[2])
                result[m[1]] -= int(m[2])
        elif m := re.match(r"^(.+?): (?:calls|bets) (\d+)", line):
            street[m[1]] += int(m[2])
            result[m[1]] -= int(m[2])
        elif m := re.match(r"^(.+?): raises \d+ to (\d+)", line):
            result[m[1]] -= int(m[2]) - street[m[1]]
            street[m[1]] = int(m[2])
        elif m := _UNCALLED.match(line):
            result[m[2]] += int(m[1])
        elif m := re.match(r"^(.+?) collected (\d+) from ", line):
            result[m[1]] += int(m[2])
        elif line == "*** SUMMARY ***":
            break
    return dict(result)


def _awards(engine: Any) -> dict[str, int]:
    won: dict[str, int] = defaultdict(int)
    for pot in engine.result()["pots"]:
        for name, chips in pot["shares"].items():
            won[name] += chips
    return won


def _check_with_the_poker_package(text: str, engine: Any, record: dict[str, Any], hero: str,
                                  when: dt.datetime) -> PokerStarsHandHistory:
    """What ``poker.room.pokerstars`` reads: header, seats, button, blinds,
    hero, board, total pot, winners."""
    h = PokerStarsHandHistory(text)
    h.parse()
    assert h.date == when.replace(microsecond=0), text  # the bracketed ET time is the moment
    assert (h.sb, h.bb) == (engine.small_blind, engine.big_blind)
    seated = [(p.seat, p.name, p.stack) for p in h.players if not p.name.startswith("Empty Seat")]
    assert seated == [(k + 1, s["player"], s["chips"]) for k, s in enumerate(record["seats"])], text
    assert h.button.name == record["seats"][record["button"]]["player"]
    assert h.hero.name == hero
    assert {h.hero.combo.first, h.hero.combo.second} == {Card(c) for c in engine.hole[engine.index[hero]]}
    assert list(h.board or ()) == [Card(c) for c in engine.board], text
    ledger = engine.result()
    assert h.total_pot == sum(p["amount"] for p in ledger["pots"]), text
    return h


def _check_one_holdem_deal(engine: Any, rng: random.Random, number: int) -> dict[str, int]:
    record = engine.record()
    hero = rng.choice(engine.players)
    when = _when(rng)
    text = to_pokerstars(record, hero=hero, shown=_seen(record, hero), number=number, when=when, table="La Chope")
    ledger = engine.result()
    names = engine.players
    h = _check_with_the_poker_package(text, engine, record, hero, when)
    # Pots and rake: the summary's split and the rake the ledger took.
    m = _RAKE.search(text)
    assert m and int(m[3]) == ledger["rake"], text
    pots = [p for p in ledger["pots"] if p["amount"]]
    assert (m["split"].count(" pot") or 1) == len(pots), text
    # Winners: each player's chips won, as the text says it and as the ledger paid it.
    won = _awards(engine)
    winners = {n for n, chips in won.items() if chips}
    (hh,) = list(PokerStarsParser()(text, error_status=True))
    collected = dict(zip(hh.players, hh.winnings or [0] * len(names), strict=True))
    for name, chips in _WON_AT_SHOWDOWN.findall(text):
        collected[name] += int(chips)
    assert {n for n, c in collected.items() if c} == winners, text
    assert collected == {n: won.get(n, 0) for n in names}, text
    # The poker package reads the summary from its fourth line on, past a
    # « Board » line only deals with a flop have (poker 0.30's
    # ``_parse_winners``): without a board it skips the first seat.
    seat_lines = re.findall(r"^Seat \d+: (\S+) .*$", text.split("*** SUMMARY ***")[1], re.M)
    unread = set() if engine.board else set(seat_lines[:1])
    assert set(h.winners) == winners - unread, text
    # pokerkit: players, seats, stacks, actions replayed to the end.
    assert list(hh.players) == names
    assert list(hh.seats) == [engine.pos[i] + 1 for i in range(len(names))]
    assert list(hh.starting_stacks) == [engine.seats[k]["chips"] for k in engine.pos]
    assert sorted(b for b in hh.blinds_or_straddles if b) == sorted(
        b for b in (min(engine.small_blind, hh.starting_stacks[0 if len(names) > 2 else 1]),
                    min(engine.big_blind, hh.starting_stacks[1 if len(names) > 2 else 0])) if b)
    theirs = [a for a in hh.actions if not a.startswith("d ") and " sm" not in a]
    assert _same_decisions(_decisions(record, names), theirs), text
    state = list(hh)[-1]
    assert not state.status, text
    # pokerkit pays the pots whole: with rake, the winners hold what the tavern took.
    over = [state.stacks[i] - engine.b.stack[i] for i in range(len(names))]
    assert sum(over) == ledger["rake"] and min(over) >= 0, (over, text)
    assert all(not chips or names[i] in winners for i, chips in enumerate(over)), text
    # Each player's result as a tracker reads it: the ledger's, to the chip.
    results = tracker_results(text)
    assert {n: results.get(n, 0) for n in names} == ledger["delta"], (results, ledger["delta"], text)
    return {"showdown": "*** SHOW DOWN ***" in text, "lost": "and lost with" in text,
            "walk": text.count(" folds") == len(names) - 1 and "FLOP" not in text and "raises" not in text,
            "side": "side pot" in text, "rake": ledger["rake"] > 0, "uncalled": "Uncalled bet" in text,
            "heads_up": len(names) == 2}


def _holdem(deals: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    seen: dict[str, int] = defaultdict(int)
    for deal in range(deals):
        for kind, present in _check_one_holdem_deal(_ramponneau(rng), rng, deal + 1).items():
            seen[kind] += present
    return seen


def test_ramponneau_text_reads_back_in_both_readers_as_the_ledger() -> None:
    seen = _holdem(40, 4201)
    assert all(seen[k] for k in ("showdown", "lost", "walk", "side", "rake", "uncalled", "heads_up")), seen


@pytest.mark.slow
def test_hundreds_of_ramponneau_deals_read_back_in_both_readers_as_the_ledger() -> None:
    seen = _holdem(400, 4202)
    assert all(seen[k] >= 10 for k in ("showdown", "lost", "walk", "side", "rake", "uncalled", "heads_up")), seen


def _draw_deals(deals: int, seed: int) -> int:
    rng = random.Random(seed)
    uncalled = 0
    for deal in range(deals):
        n = rng.choice([2, 3, 6])
        engine = draw.new_deal(_config(rng, structure=rng.choice(["no-limit", "pot-limit", "fixed-limit"]),
                                       draws=rng.choice([1, 2])),
                               _seats(rng, n), rng.randrange(n), rng=SeededSource(rng))
        _play(engine, rng, rng.choice(["random", "calling", "walk"]))
        record = engine.record()
        hero = rng.choice(engine.players)
        text = to_pokerstars(record, hero=hero, shown=_seen(record, hero), number=deal + 1, when=_when(rng), table="T")
        ledger = engine.result()
        results = tracker_results(text)
        assert {p: results.get(p, 0) for p in engine.players} == ledger["delta"], (results, ledger["delta"], text)
        m = _RAKE.search(text)
        assert m and int(m[1]) == sum(p["amount"] for p in ledger["pots"]) and int(m[3]) == ledger["rake"], text
        uncalled += "Uncalled bet" in text
    return uncalled


def test_draw_poker_text_gives_each_player_the_ledgers_result() -> None:
    assert _draw_deals(30, 4203) > 3


@pytest.mark.slow
def test_hundreds_of_draw_poker_deals_give_each_player_the_ledgers_result() -> None:
    assert _draw_deals(200, 4204) > 20


def test_phh_with_rake_is_self_consistent_in_pokerkit() -> None:
    """Issue 42 §5: PHH has no rake field (pokerkit takes the rake as a
    function its reader supplies), so pokerkit's replay of the actions pays
    the pots whole. The file says what the tavern took (``_rake``, a field
    of its own as the format asks: an underscore) and what each took from
    the pots (``winnings``): the replay, less ``_rake`` taken from the
    winners, is ``finishing_stacks``, which is the ledger."""
    rng = random.Random(4206)
    raked = 0
    for _ in range(40):
        n = rng.choice([2, 3, 6, 9])
        engine = _play(ramponneau.new_deal(_config(rng), _seats(rng, n), rng.randrange(n), rng=SeededSource(rng)),
                       rng, rng.choice(["random", "calling", "walk"]))
        ledger = engine.result()
        hh = HandHistory.loads(to_phh(engine.record()))
        names = list(hh.players)
        assert hh.finishing_stacks == [ledger["chips"][p] for p in names]
        won = _awards(engine)
        assert hh.winnings == [won.get(p, 0) for p in names]
        assert hh.user_defined_fields.get("_rake", 0) == ledger["rake"]
        state = list(hh)[-1]
        over = [state.stacks[i] - hh.finishing_stacks[i] for i in range(n)]
        assert sum(over) == ledger["rake"] and min(over) >= 0, over
        assert all(not chips or hh.winnings[i] for i, chips in enumerate(over))
        raked += ledger["rake"] > 0
    assert raked > 5


def test_antes_are_posted_and_counted_in_each_players_result() -> None:
    """A contest's later levels have antes (docs/games/poker.md): « posts the
    ante A », dead money in the pot. pokerkit's parser reads no ante line, so
    these deals are read by the poker package and the tracker's arithmetic."""
    rng = random.Random(4207)
    for deal in range(20):
        n = rng.choice([2, 3, 6])
        engine = _play(ramponneau.new_deal(_config(rng, ante=UNIT), _seats(rng, n), rng.randrange(n),
                                           rng=SeededSource(rng)), rng, rng.choice(["random", "calling", "walk"]))
        record = engine.record()
        hero = rng.choice(engine.players)
        when = _when(rng)
        text = to_pokerstars(record, hero=hero, shown=_seen(record, hero), number=deal + 1, when=when, table="T")
        assert text.count(": posts the ante ") == n
        _check_with_the_poker_package(text, engine, record, hero, when)
        results = tracker_results(text)
        assert {p: results.get(p, 0) for p in engine.players} == engine.result()["delta"], text
