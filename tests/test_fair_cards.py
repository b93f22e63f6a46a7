"""Per-card commitments (issue 42 §6, docs/fairness.md "Per-card
commitments"): a deal's players receive the openings of the cards they saw,
which check against the digests shown before the deal; a swapped or forged
opening is refused in French, by the server's code and by ``tavern verify``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tests.test_fair import TABLE_DECKS, _fair_deal

from tavern import fair, fair_cards
from tavern.cli import main as cli
from tavern.fair import FairError
from tavern.games import registry

CARD = re.compile(r'"([2-9TJQKA][cdhs]|X\d+)"')


def _sealed(game: str, config: dict, players: int) -> dict:
    """A dealt deal's record as the table archives it: the digests of its
    shuffles and the positions each player saw (here: before any move)."""
    record = _fair_deal(game, config, [f"p{i}" for i in range(players)])
    record["fair"]["cards"] = fair_cards.deal_cards(record).digests()
    record["fair"]["seen"] = {p: [list(at) for at in ats] for p, ats in fair_cards.seen_positions(record).items()}
    return json.loads(json.dumps(record))


def _early(record: dict, player: str) -> dict:
    """What « Mes donnes » gives him before TAVERN_FAIR_REVEAL_DAYS."""
    return json.loads(json.dumps(fair_cards.player_reveal(record, player, None, 0, None)))


@pytest.mark.parametrize("game,config,players,sizes", TABLE_DECKS)
def test_each_player_opens_his_own_cards_only_and_they_check(game, config, players, sizes) -> None:
    record = _sealed(game, config, players)
    assert fair_cards.check_digests(record)  # the digests follow from the seed and the deck
    committed = fair_cards.deal_cards(record)
    assert len(committed.digests()) == len(sizes) and [len(ls) for ls in committed.leaves] == sizes  # one per card
    for p in (s["player"] for s in record["seats"]):
        reveal = _early(record, p)
        assert "server_seed" not in reveal["fair"] and "deck" not in reveal
        assert fair_cards.verify(reveal)
        seen = {c for engine, _ in registry.replay_steps(record) for c in CARD.findall(json.dumps(engine.view(p)))}
        assert {o["card"] for o in reveal["fair"]["openings"]} <= seen


def test_a_swapped_or_forged_opening_is_refused_in_french(tmp_path: Path, capsys) -> None:
    """Bad input (issue 42): « a forged or swapped card opening — a French
    refusal, nothing changed »."""
    record = _sealed("ramponneau", {"small_blind": 1, "big_blind": 2}, 3)
    good = _early(record, "p0")
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(good))
    assert cli(["verify", str(path)]) == 0
    assert "celles engagées avant la donne" in capsys.readouterr().out
    a, b = good["fair"]["openings"][:2]
    forgeries = {}
    swapped = json.loads(json.dumps(good))
    swapped["fair"]["openings"][0]["card"], swapped["fair"]["openings"][1]["card"] = b["card"], a["card"]
    forgeries["swapped"] = swapped
    salted = json.loads(json.dumps(good))
    salted["fair"]["openings"][0]["salt"] = "ab" * 32
    forgeries["salt"] = salted
    dropped = json.loads(json.dumps(good))
    dropped["fair"]["leaves"] = []
    forgeries["no leaves"] = dropped
    far = json.loads(json.dumps(good))
    far["fair"]["openings"][0]["position"] = 52
    forgeries["position"] = far
    other_deal = json.loads(json.dumps(good))
    other_deal["fair"]["commitment"] = fair.commitment(b"\x00" * 32)
    forgeries["another deal"] = other_deal
    broken = json.loads(json.dumps(good))
    broken["fair"]["openings"][0]["shuffle"] = "premier"
    forgeries["malformed"] = broken
    said = {}
    for name, forged in forgeries.items():
        with pytest.raises(FairError) as refused:
            fair_cards.verify(forged)
        said[name] = refused.value.message
        path.write_text(json.dumps(forged))
        assert cli(["verify", str(path)]) == 1, name
        out = capsys.readouterr().out
        assert out.startswith("ÉCHEC") and said[name] in out, (name, out)
    card = fair_cards.french_line("fair_opening_mismatch", card=b["card"], index=1, position=a["position"] + 1)
    assert said["swapped"] == card and "carte échangée ou falsifiée" in card
    assert "carte échangée ou falsifiée" in said["salt"]
    assert "ne sont pas celles annoncées avant la donne" in said["no leaves"]
    assert said["position"].startswith("Aucune carte n'a été engagée en position 53")
    assert "ne sont pas celles annoncées" in said["another deal"]
    assert said["malformed"].startswith("Ouverture de cartes mal formée")
    assert json.loads(json.dumps(good)) == _early(record, "p0"), "nothing changed"


def test_a_record_whose_digests_do_not_follow_from_its_seed_fails_verify(tmp_path: Path, capsys) -> None:
    record = _sealed("gin", {}, 2)
    record["fair"]["cards"][1] = record["fair"]["cards"][0]
    with pytest.raises(FairError) as refused:
        fair_cards.verify(record)
    assert refused.value.message == ("Les empreintes des cartes publiées pour le mélange n° 2 ne découlent pas de la "
                                     "graine et du paquet du relevé.")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    assert cli(["verify", str(path)]) == 1 and "ÉCHEC" in capsys.readouterr().out


def test_the_seed_comes_after_the_operators_delay_or_never() -> None:
    """Issue 42 §6: the server seed reaches the deal's players « only after a
    delay the operator sets (TAVERN_FAIR_REVEAL_DAYS, default 30), or never (0) »."""
    import datetime as dt

    record = _sealed("rams", {}, 3)
    ended = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    day = dt.timedelta(days=1)
    before = fair_cards.player_reveal(record, "p1", ended, 30, ended + 30 * day - dt.timedelta(seconds=1))
    assert "server_seed" not in before["fair"] and "deck" not in before
    assert before["seed_after"] == (ended + 30 * day).isoformat()
    after = fair_cards.player_reveal(record, "p1", ended, 30, ended + 30 * day)
    assert after["fair"]["server_seed"] == record["fair"]["server_seed"] and after["deck"] == record["deck"]
    assert "seen" not in after["fair"] and fair_cards.verify(after)
    never = fair_cards.player_reveal(record, "p1", ended, 0, ended + 36500 * day)
    assert "server_seed" not in never["fair"] and never["seed_after"] is None and fair_cards.verify(never)
