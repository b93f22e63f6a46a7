"""The provably fair shuffle (issue 16, docs/fairness.md): the deck follows
from the committed server seed, the players' seeds and the deal's number, and
anyone holding the revealed seed can recompute it."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from tavern import cards, fair
from tavern.cli import main as cli
from tavern.games import registry

SEED = bytes(range(32))


def stream(seeds=("alice", "bruno"), *, seed: bytes = SEED, table: int = 7, deal: int = 3) -> fair.FairStream:
    return fair.FairStream(seed, table, deal, list(seeds))


def test_the_same_inputs_give_the_same_deck_and_any_change_another() -> None:
    deck = stream().shuffle(cards.deck52())
    assert deck == stream().shuffle(cards.deck52())
    assert sorted(deck) == sorted(cards.deck52()) and deck != fair.canonical(deck)
    others = [
        stream(seed=bytes([1]) + SEED[1:]),          # the server's seed
        stream(("alice", "bruna")),                  # one player's seed
        stream(("bruno", "alice")),                  # the seat order of the seeds
        stream(("alice", "bruno", "")),              # one more player dealt in
        stream(table=8), stream(deal=4),             # another table, another deal
    ]
    for other in others:
        assert other.shuffle(cards.deck52()) != deck


def test_the_order_the_server_hands_in_does_not_matter() -> None:
    """Each shuffle starts from the canonical order, so the server cannot
    arrange the cards before the shuffle to steer the deck."""
    cards_in = cards.deck52()
    assert stream().shuffle(cards_in) == stream().shuffle(list(reversed(cards_in)))
    assert stream().shuffle(cards_in) == cards.shuffle(random.sample(cards_in, 52), stream())


def test_draws_have_no_modulo_bias_and_refuse_nonsense() -> None:
    s = stream()
    assert all(0 <= s.randbelow(n) < n for n in (1, 2, 3, 52, 104, 1 << 32) for _ in range(50))
    with pytest.raises(fair.FairError):
        s.randbelow(0)
    # A value from the rejected tail is skipped: 2**32 - 1 is never kept for n = 3.
    skipped = fair.FairStream(SEED, 1, 1, [])
    skipped._buffer = (0xFFFFFFFF).to_bytes(4, "big") + (7).to_bytes(4, "big")
    assert skipped.randbelow(3) == 7 % 3


def test_commitments_never_repeat_and_the_seed_answers_its_commitment() -> None:
    seeds = [fair.new_server_seed(cards.CSPRNG) for _ in range(5000)]
    promised = {fair.commitment(s) for s in seeds}
    assert len(promised) == 5000
    d = fair.DealSeed(seeds[0])
    assert d.commitment == fair.commitment(seeds[0]) == __import__("hashlib").sha256(seeds[0]).hexdigest()


@pytest.mark.parametrize("bad", ["a|b", "x" * 65, "é", " ", 12, None])
def test_client_seeds_are_checked(bad) -> None:
    with pytest.raises(fair.FairError):
        fair.check_client_seed(bad)


def _seats(names):
    return [{"player": n, "chips": 1000} for n in names]


def _fair_deal(game: str, config: dict, names: list[str], play=None, deal: int = 1):
    """A deal of ``game`` shuffled by the fair stream, as the table deals it,
    with its record's ``fair`` block."""
    d = fair.DealSeed(fair.new_server_seed(cards.CSPRNG))
    seeds = [f"s{i}" for i in range(len(names))]
    s = d.stream(5, deal, seeds)
    engine = registry.load(game).new_deal(config, _seats(names), 0, rng=s)
    if play is not None:
        play(engine)
    return {**engine.record(), "fair": d.block(5, deal, names, seeds, s)}


@pytest.mark.parametrize("game,config,names", [
    ("ramponneau", {"small_blind": 1, "big_blind": 2}, ["a", "b", "c"]),
    ("gin", {}, ["a", "b"]),                        # two packs, each shuffled apart
    ("rams", {}, ["a", "b", "c"]),
    ("rummoli", {}, ["a", "b", "c"]),
    ("rami", {}, ["a", "b", "c"]),
])
def test_every_game_deals_a_deck_that_verifies(game, config, names) -> None:
    record = _fair_deal(game, config, names)
    said = fair.verify(record)
    assert len(said) == 1 + len(record["fair"]["shuffles"])
    assert registry.replay(record)  # the engine replays the record, fair block and all


def test_a_draw_poker_reshuffle_comes_from_the_same_stream() -> None:
    """RULES.md (Draw Poker): when the stock runs out, "the discards and the
    folded cards are shuffled to make a new stock" — that stock is verifiable
    too, drawn from the stream after the deck."""

    def everyone_draws_five(engine) -> None:
        for _ in range(200):
            if engine.over:
                return
            name = engine.to_act()[0]
            legal = {a["action"] for a in engine.legal_actions(name)}
            if "draw" in legal:
                hand = engine.view(name)["players"]
                mine = next(p for p in hand if p["player"] == name)["cards"]
                engine.act(name, "draw", discard=list(mine))
            else:
                move = next((m for m in ("check", "call") if m in legal), None) or sorted(legal)[0]
                engine.act(name, move)

    names = [f"p{i}" for i in range(7)]
    for deal in range(1, 40):  # seven players throwing five each empty the stock
        record = _fair_deal("draw", {"small_blind": 1, "big_blind": 2}, names, everyone_draws_five, deal)
        if record["reshuffles"]:
            break
    assert record["reshuffles"], "no deal needed a reshuffle"
    assert len(record["fair"]["shuffles"]) == 1 + len(record["reshuffles"])
    said = fair.verify(record)
    assert said[-1].startswith(f"mélange n° {1 + len(record['reshuffles'])} ")


def test_a_tampered_deck_or_seed_fails(tmp_path: Path, capsys) -> None:
    record = _fair_deal("ramponneau", {"small_blind": 1, "big_blind": 2}, ["a", "b", "c"])
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    assert cli(["verify", str(good)]) == 0
    assert "découle bien" in capsys.readouterr().out

    swapped = json.loads(json.dumps(record))
    swapped["deck"][0], swapped["deck"][1] = swapped["deck"][1], swapped["deck"][0]
    other_seed = json.loads(json.dumps(record))
    other_seed["fair"]["server_seed"] = "00" * 32
    other_player = json.loads(json.dumps(record))
    other_player["fair"]["client_seeds"][0]["seed"] = "autre"
    for k, bad in enumerate([swapped, other_seed, other_player]):
        path = tmp_path / f"bad{k}.json"
        path.write_text(json.dumps(bad))
        assert cli(["verify", str(path)]) == 1
        assert "ÉCHEC" in capsys.readouterr().out
    (tmp_path / "garbage.json").write_text("{not json")
    assert cli(["verify", str(tmp_path / "garbage.json")]) == 2


def test_the_documented_vector_holds() -> None:
    """docs/fairness.md gives a worked example so that anyone can check his own
    implementation; it must stay true."""
    doc = (Path(__file__).parents[1] / "docs" / "fairness.md").read_text(encoding="utf-8")
    block = re.search(r"```json vector\n(.*?)```", doc, re.S)
    assert block, "docs/fairness.md has no test vector"
    v = json.loads(block.group(1))
    s = fair.FairStream(bytes.fromhex(v["server_seed"]), v["table"], v["deal"], v["client_seeds"])
    assert fair.commitment(bytes.fromhex(v["server_seed"])) == v["commitment"]
    assert s.shuffle(cards.deck52()) == v["deck"]
