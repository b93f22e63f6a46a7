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
    assert said[-1].startswith(f"Mélange n° {1 + len(record['reshuffles'])} ")


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


# --- issue 33 (item 2): verify starts from the game's own deck -----------------

#: Every deck kind a table deals (RULES.md): the game, its config, its players.
TABLE_DECKS = [
    # "Ramponneau = no-limit Texas hold'em" and Rummoli: "52 cards"
    pytest.param("ramponneau", {"small_blind": 1, "big_blind": 2}, 3, [52], id="ramponneau-52"),
    pytest.param("draw", {"small_blind": 1, "big_blind": 2}, 3, [52], id="draw-52"),
    pytest.param("rummoli", {}, 3, [52], id="rummoli-52"),
    # Rams: "3–8 players, 32 cards (A K Q J T 9 8 7, ace high)"
    pytest.param("rams", {}, 3, [32], id="rams-32"),
    # Gin: "two 52-card decks. The second deck lies aside" (each shuffled apart)
    pytest.param("gin", {}, 2, [52, 52], id="gin-2x52"),
    # Rami français: "52 cards"; "Options: one joker (wild, 20 points)"
    pytest.param("rami", {}, 3, [52], id="rami-52"),
    pytest.param("rami", {"joker": True}, 3, [53], id="rami-joker-53"),
    # Double rami: "two 52-card decks + 2 jokers"
    pytest.param("double_rami", {}, 3, [106], id="double-106"),
    # Remigio: "54 cards (two jokers…); 6–8 players use three such decks, 9–12
    # four; 2–5 may choose two"
    pytest.param("remigio", {}, 3, [54], id="remigio-54"),
    pytest.param("remigio", {"two_decks": True}, 4, [108], id="remigio-2x54"),
    pytest.param("remigio", {}, 6, [162], id="remigio-3x54"),
]


def _shuffles_of_seeds(record: dict, packs: list[list[str]]) -> dict:
    """``record`` with its deck rebuilt from ``packs`` by its own seeds, as an
    auditor's forger does: each pack run through the stream, so that the old
    check — sort the record's own cards, shuffle them again — accepts it."""
    f = record["fair"]
    s = fair.FairStream(bytes.fromhex(f["server_seed"]), f["table"], f["deal"], [c["seed"] for c in f["client_seeds"]])
    out = json.loads(json.dumps(record))
    out["deck"] = [c for p in packs for c in s.shuffle(p)]
    out["fair"]["shuffles"] = [len(p) for p in packs]
    return out


def _packs(record: dict) -> list[list[str]]:
    at, packs = 0, []
    for size in record["fair"]["shuffles"]:
        packs.append(record["deck"][at:at + size])
        at += size
    return packs


def _sorts_own_cards_and_agrees(record: dict) -> bool:
    """The check `tavern verify` made before issue 33: each part of the deck,
    sorted and shuffled again by the seeds, gives itself."""
    f = record["fair"]
    s = fair.FairStream(bytes.fromhex(f["server_seed"]), f["table"], f["deal"], [c["seed"] for c in f["client_seeds"]])
    return all(s.shuffle(p) == p for p in _packs(record))


def _forgeries(packs: list[list[str]]) -> dict[str, tuple[list[list[str]], str]]:
    """Forged first packs, each with the refusal's code: a card twice (its
    neighbour gone), a joker added, a card the game has not in place of one,
    one card too few."""
    first = fair.canonical(packs[0])
    natural = list(dict.fromkeys(c for c in first if not cards.is_joker(c)))  # 2♣, 3♣, … once each
    jokers = sum(cards.is_joker(c) for c in first)
    twice = list(first)
    twice[twice.index(natural[1])] = natural[0]            # 3♣ becomes a second 2♣
    stranger = "2c" if "2c" not in first else f"X{jokers + 1}"  # no 2 at Rams, one joker too many elsewhere
    replaced = list(first)
    replaced[replaced.index(natural[-1])] = stranger
    return {
        "duplicate": ([twice, *packs[1:]], "fair_not_the_pack"),
        "joker_added": ([[*first, f"X{jokers + 1}"], *packs[1:]], "fair_packs"),
        "replaced": ([replaced, *packs[1:]], "fair_not_the_pack"),
        "wrong_count": ([first[1:], *packs[1:]], "fair_packs"),
    }


@pytest.mark.parametrize("game,config,players,sizes", TABLE_DECKS)
def test_verify_starts_from_the_games_own_deck(game, config, players, sizes) -> None:
    """Issue 33: a record whose deck holds two 2♣ (3♣ gone), or a joker, still
    verified — `tavern verify` sorted the record's own cards instead of
    starting from the game's deck. A true record of every deck kind verifies;
    each forgery, though a true shuffle of the seeds, is refused in French."""
    record = _fair_deal(game, config, [f"p{i}" for i in range(players)])
    assert record["fair"]["shuffles"] == sizes
    assert fair.verify(record)
    for name, (packs, code) in _forgeries(_packs(record)).items():
        forged = _shuffles_of_seeds(record, packs)
        assert _sorts_own_cards_and_agrees(forged), name  # what the old check accepted
        with pytest.raises(fair.FairError) as refused:
            fair.verify(forged)
        assert refused.value.code == code, (name, refused.value.code)
        message = refused.value.message
        assert registry.spec(game).label in message, message
        assert code != "fair_not_the_pack" or "en trop" in message, message
    assert [len(p) for p in fair.table_packs(game, config, players)] == sizes


def test_a_forged_deck_is_refused_by_the_command_naming_the_cards(tmp_path: Path, capsys) -> None:
    """The auditor's record: Ramponneau, two 2♣ and no 3♣, or a joker in place of the A♠."""
    record = _fair_deal("ramponneau", {"small_blind": 1, "big_blind": 2}, ["a", "b", "c"])
    deck = cards.deck52()
    twice = [c if c != "3c" else "2c" for c in deck]
    joker = [c if c != "As" else "X1" for c in deck]
    for forged, said in ((twice, "manquent : 3♣ ; en trop : 2♣"), (joker, "manquent : A♠ ; en trop : Joker")):
        path = tmp_path / "forged.json"
        path.write_text(json.dumps(_shuffles_of_seeds(record, [forged])))
        assert cli(["verify", str(path)]) == 1
        out = capsys.readouterr().out
        assert out.startswith("ÉCHEC : Le paquet du mélange n° 1 n'est pas celui d'une table de Ramponneau"), out
        assert said in out and "découle bien" not in out


def test_gin_shuffles_its_two_packs_apart() -> None:
    """Gin: "The second deck lies aside" — two packs of 52, each shuffled on
    its own; one shuffle of 104 cards is not how a table deals."""
    record = _fair_deal("gin", {}, ["a", "b"])
    forged = _shuffles_of_seeds(record, [record["deck"]])
    assert _sorts_own_cards_and_agrees(forged)
    with pytest.raises(fair.FairError) as refused:
        fair.verify(forged)
    assert refused.value.code == "fair_packs"


def test_a_rebuilt_stock_holds_only_cards_of_the_deal() -> None:
    """A reshuffle is cards of the deal's packs (which ones exactly, the
    replay checks): a joker in a Ramponneau stock is refused."""
    record = _fair_deal("ramponneau", {"small_blind": 1, "big_blind": 2}, ["a", "b", "c"])
    forged = json.loads(json.dumps(record))
    forged["reshuffles"] = [["X1"]]
    forged["fair"]["shuffles"] = [52, 1]
    with pytest.raises(fair.FairError) as refused:
        fair.verify(forged)
    assert refused.value.code == "fair_foreign_reshuffle"
    assert "Joker" in refused.value.message


@pytest.mark.parametrize("change,code", [
    (lambda r: r.update(game="tarot"), "fair_unknown_game"),
    (lambda r: r.update(config={"joker": "oui"}), "fair_table_refused"),   # a config the game refuses
    (lambda r: r["seats"].pop(), "fair_seats"),                            # a player fewer than seeds
    (lambda r: r.update(deck=[1, 2]), "fair_no_deck"),
])
def test_a_record_that_does_not_say_its_table_is_refused(change, code) -> None:
    record = _fair_deal("rami", {}, ["a", "b", "c"])
    change(record)
    with pytest.raises(fair.FairError) as refused:
        fair.verify(record)
    assert refused.value.code == code
    assert refused.value.message[0].isupper()


# --- issue 33 (item 3): a file that is not a record -----------------------------


@pytest.mark.parametrize("content,said", [
    pytest.param(bytes(range(256)) * 4, "n'est pas un texte UTF-8 (octet illisible à la position 128)", id="random-bytes"),
    pytest.param('{"game": "rami", "note": "donnée"}'.encode("latin-1"), "n'est pas un texte UTF-8", id="latin-1"),
    pytest.param(b"{not json", "n'est pas du JSON (erreur ligne 1, colonne 2)", id="not-json"),
    pytest.param(b"[1, 2, 3]", "contient une liste, pas un objet JSON", id="json-list"),
    pytest.param(b'"deck"', "contient un texte, pas un objet JSON", id="json-string"),
    pytest.param(b"null", "contient null, pas un objet JSON", id="json-null"),
    pytest.param(b"", "est vide", id="empty"),
    pytest.param(b"  \n", "est vide", id="blank"),
    pytest.param(b"[" * 100_000, "n'est pas du JSON", id="deeply-nested"),
    pytest.param(None, "n'existe pas", id="missing-file"),
])
def test_verify_says_in_one_french_line_why_a_file_is_no_record(tmp_path: Path, capsys, content, said) -> None:
    """Issue 33: `tavern verify` on a file that is not UTF-8 ended in a
    traceback and exit 1; every file that is not a record exits 2 with one
    French line naming the problem (docs/fairness.md "tavern verify")."""
    path = tmp_path / "relevé.json"
    if content is not None:
        path.write_bytes(content)
    assert cli(["verify", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"ILLISIBLE : Le fichier « {path} » "), err
    assert said in err, err
    assert "Traceback" not in err and "Error" not in err


def test_verify_refuses_a_directory_and_reads_standard_input(tmp_path: Path, capsys, monkeypatch) -> None:
    assert cli(["verify", str(tmp_path)]) == 2
    assert "est un dossier" in capsys.readouterr().err
    record = _fair_deal("rams", {}, ["a", "b", "c"])
    import io
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(record).encode())))
    assert cli(["verify", "-"]) == 0
    assert "découle bien" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe")))
    assert cli(["verify", "-"]) == 2
    assert capsys.readouterr().err == (
        "ILLISIBLE : Le fichier « l'entrée standard » n'est pas un texte UTF-8 (octet illisible à la position 0) : "
        "un relevé de donne est du JSON en UTF-8.\n")
