"""Taverns, the shop and opening tables. RULES.md, "Tavern, money and quotas":

    "A village lists its taverns. A tavern has an owner. To open a card table
    the owner must own a deck of cards item and store it in the tavern's
    inventory (one deck item per open table; games played with two decks need
    two). The owner configures each table …: game and variant, stakes …,
    buy-in bounds, rake, seats, action timer."
"""

from __future__ import annotations

import pytest
from tests.refusals import problem_codes, refused
from tests.services.helpers import make_tavern, make_user

from tavern.games.registry import GAMES
from tavern.services import ledger, seats, taverns
from tavern.services.ledger import House, InsufficientFunds
from tavern.services.taverns import TavernError
from tavern.settings import get_settings

pytestmark = pytest.mark.db

RAMPONNEAU = {"game": "ramponneau", "stakes": {"small_blind": 1, "big_blind": 2}, "seats": 9, "rake_percent": 5}


@pytest.fixture
def owner_tavern(session):
    owner = make_user(session, "patron")
    tavern = make_tavern(session, owner)
    ledger.issue(session, owner.id, 10_000)
    session.commit()
    return owner, tavern


def stock(session, owner, tavern, kind="deck52", n=1):
    for _ in range(n):
        inv = taverns.buy_item(session, owner.id, kind)
        taverns.store_item(session, owner.id, inv.id, tavern.id)


def test_the_shop_sells_decks_for_ecus_through_the_ledger(session):
    buyer = make_user(session, "alice")
    session.commit()
    price = get_settings().price_deck52_ecus
    with pytest.raises(InsufficientFunds):
        taverns.buy_item(session, buyer.id, "deck52")
    session.rollback()
    ledger.issue(session, buyer.id, price)
    inv = taverns.buy_item(session, buyer.id, "deck52")
    assert inv.item.kind == "deck52" and inv.owner_id == buyer.id and inv.tavern_id is None
    assert ledger.balance(session, "user", buyer.id, "ecus") == 0
    assert ledger.balance(session, "house", House.SHOP, "ecus") == price
    assert ledger.audit(session).ok


def test_opening_a_table_is_refused_without_a_deck_in_the_tavern(session, owner_tavern):
    """"To open a card table the owner must own a deck of cards item and store
    it in the tavern's inventory" — owning it is not enough."""
    owner, tavern = owner_tavern
    with refused("decks_needed", TavernError, decks=1):
        taverns.open_table(session, tavern.id, owner.id, RAMPONNEAU)
    inv = taverns.buy_item(session, owner.id, "deck52")  # owned, not stored
    with refused("decks_needed", TavernError, decks=1):
        taverns.open_table(session, tavern.id, owner.id, RAMPONNEAU)
    taverns.store_item(session, owner.id, inv.id, tavern.id)
    table = taverns.open_table(session, tavern.id, owner.id, RAMPONNEAU)
    assert table.status == "open" and [d.id for d in table.decks] == [inv.id]


def test_one_deck_item_per_open_table_and_closing_returns_it(session, owner_tavern):
    """"one deck item per open table": the deck of an open table cannot serve a
    second one; closing the (empty) table gives it back."""
    owner, tavern = owner_tavern
    stock(session, owner, tavern)
    first = taverns.open_table(session, tavern.id, owner.id, RAMPONNEAU)
    with refused("decks_needed", TavernError, free=0):
        taverns.open_table(session, tavern.id, owner.id, RAMPONNEAU)
    assert taverns.free_decks(session, tavern.id, "deck52") == []
    taverns.close_table(session, first.id, owner.id)
    assert first.status == "closed"
    assert len(taverns.free_decks(session, tavern.id, "deck52")) == 1
    second = taverns.open_table(session, tavern.id, owner.id, RAMPONNEAU)
    assert second.status == "open"


def test_a_deck_in_use_cannot_be_taken_out_of_the_tavern(session, owner_tavern):
    owner, tavern = owner_tavern
    stock(session, owner, tavern)
    table = taverns.open_table(session, tavern.id, owner.id, RAMPONNEAU)
    with refused("deck_in_use", TavernError):
        taverns.store_item(session, owner.id, table.decks[0].id, None)


@pytest.mark.parametrize("game, seats, needed", [("double_rami", 4, 2), ("gin", 2, 2), ("remigio", 8, 3), ("remigio", 10, 4)])
def test_games_played_with_several_decks_need_several_items(session, owner_tavern, game, seats, needed):
    """"games played with two decks need two" (double rami: "two 52-card decks";
    gin: "two 52-card decks"; Remigio: "6–8 players use three such decks, 9–12 four")."""
    owner, tavern = owner_tavern
    config = {"game": game, "stakes": {"unit": 1}, "seats": seats}
    stock(session, owner, tavern, n=needed - 1)
    with refused("decks_needed", TavernError, decks=needed):
        taverns.open_table(session, tavern.id, owner.id, config)
    stock(session, owner, tavern)
    table = taverns.open_table(session, tavern.id, owner.id, config)
    assert len(table.decks) == needed


def test_rams_needs_a_32_card_deck(session, owner_tavern):
    """Rams: "3–8 players, 32 cards (A K Q J T 9 8 7)"."""
    owner, tavern = owner_tavern
    config = {"game": "rams", "stakes": {"unit": 1}, "seats": 5}
    stock(session, owner, tavern, "deck52")
    with refused("decks_needed", TavernError, item="Jeu de 32 cartes"):
        taverns.open_table(session, tavern.id, owner.id, config)
    stock(session, owner, tavern, "deck32")
    assert taverns.open_table(session, tavern.id, owner.id, config).decks[0].item.kind == "deck32"


def test_only_the_owner_opens_and_closes_tables(session, owner_tavern):
    owner, tavern = owner_tavern
    stranger = make_user(session, "alice")
    stock(session, owner, tavern)
    with refused("owner_only_opens", TavernError):
        taverns.open_table(session, tavern.id, stranger.id, RAMPONNEAU)
    table = taverns.open_table(session, tavern.id, owner.id, RAMPONNEAU)
    with refused("owner_only_closes", TavernError):
        taverns.close_table(session, table.id, stranger.id)


def test_a_table_with_players_seated_cannot_be_closed(session, owner_tavern):
    owner, tavern = owner_tavern
    alice = make_user(session, "alice")
    ledger.issue(session, alice.id, 1000)
    stock(session, owner, tavern)
    table = taverns.open_table(session, tavern.id, owner.id, RAMPONNEAU)
    seats.sit(session, table.id, alice.id, 0, 100)
    with refused("players_still_seated", TavernError):
        taverns.close_table(session, table.id, owner.id)
    assert seats.leave(session, table.id, alice.id) == 100
    taverns.close_table(session, table.id, owner.id)
    assert ledger.audit(session).ok


def test_cave_bounds_default_to_10_and_100_big_blinds_and_may_only_narrow(session):
    """"Cave (buy-in): … between 10× and 100× the big blind (owner may narrow
    it; draw poker minimum is 10× the small bet)." """
    cfg = taverns.validate_table_settings(RAMPONNEAU)
    assert (cfg.buy_in_min, cfg.buy_in_max) == (20, 200)
    narrowed = taverns.validate_table_settings({**RAMPONNEAU, "buy_in_min": 50, "buy_in_max": 150})
    assert (narrowed.buy_in_min, narrowed.buy_in_max) == (50, 150)
    for bad in ({"buy_in_min": 19}, {"buy_in_max": 201}, {"buy_in_min": 150, "buy_in_max": 100}):
        with pytest.raises(TavernError) as info:
            taverns.validate_table_settings({**RAMPONNEAU, **bad})
        assert problem_codes(info.value) == [("cave_bounds", "buy_in_min")]
        assert info.value.params["problems"][0]["params"]["low_bb"] == 10
    draw = taverns.validate_table_settings({"game": "draw", "stakes": {"small_bet": 4}, "seats": 6})
    assert draw.buy_in_min == 40


@pytest.mark.parametrize(
    "change, problem, message",
    [
        ({"game": "bridge"}, ("unknown_game", None), "Jeu inconnu : « bridge »."),
        ({"seats": 11}, ("players_range", "seats"), "« Places » : Ramponneau se joue de 2 à 10 joueurs."),
        ({"seats": 1}, ("players_range", "seats"), "« Places » : Ramponneau se joue de 2 à 10 joueurs."),
        ({"rake_percent": 11}, ("rake_range", "rake_percent"), "« Rake » : le rake est compris entre 0 et 10 %."),
        ({"stakes": {"small_blind": 1}}, ("stake_positive", "stakes.big_blind"),
         "« Grosse blinde » : une mise est un nombre entier de jetons supérieur à 0."),
        ({"stakes": {"small_blind": 3, "big_blind": 2}}, ("small_blind_above_big_blind", "stakes"),
         "« Mises » : la petite blinde ne peut pas dépasser la grosse blinde."),
        ({"stakes": {"small_blind": 1, "big_blind": 2.5}}, ("stake_positive", "stakes.big_blind"),
         "« Grosse blinde » : une mise est un nombre entier de jetons supérieur à 0."),
        ({"action_timer_seconds": 1}, ("greater_than_equal", "action_timer_seconds"),
         "« Temps pour jouer » : au moins 5."),
        ({"game": "draw", "stakes": {"small_bet": 2}, "seats": 6, "variant": "spread"},
         ("variant_unknown", "variant"),
         "« Variante » : Draw Poker se joue en « fixed-limit », « pot-limit », « no-limit »."),
    ],
)
def test_table_settings_are_validated(change, problem, message, db_url):
    """Each problem of the owner's form is a code naming its field, said in
    French with the form's label (issue 10: "Pydantic validation errors of
    forms and of table options map to French messages naming the field")."""
    with pytest.raises(TavernError) as info:
        taverns.validate_table_settings({**RAMPONNEAU, **change})
    assert info.value.code == "invalid_settings"
    assert problem_codes(info.value) == [problem]
    assert info.value.params["problems"][0]["message"] == message


def test_seat_limits_follow_each_game(db_url):
    """Ramponneau 2–10, draw 2–8, rami 2–5, gin 2, Rummoli 3–8, Rams 3–8, Remigio up to 12."""
    from tavern.games.registry import specs

    assert set(specs()) == set(GAMES)
    limits = {g: spec.seats for g, spec in specs().items()}
    assert limits == {
        "ramponneau": (2, 10), "draw": (2, 8), "rami": (2, 5), "double_rami": (2, 5),
        "remigio": (2, 12), "gin": (2, 2), "rummoli": (3, 8), "rams": (3, 8),
    }


def test_villages_list_taverns_and_open_tables_with_seats_taken(session, owner_tavern):
    """"A village lists its taverns." """
    owner, tavern = owner_tavern
    players = [make_user(session, n) for n in ("alice", "bruno")]
    for p in players:
        ledger.issue(session, p.id, 1000)
    stock(session, owner, tavern, n=2)
    t1 = taverns.open_table(session, tavern.id, owner.id, RAMPONNEAU)
    t2 = taverns.open_table(session, tavern.id, owner.id, {"game": "draw", "stakes": {"small_bet": 2}, "seats": 6})
    seats.sit(session, t1.id, players[0].id, 3, 100)
    seats.sit(session, t1.id, players[1].id, 5, 100)
    session.commit()
    [village] = taverns.list_villages(session)
    assert [t.name for t in taverns.list_taverns(session, village.id)] == ["Au Lapin Agile"]
    summary = {s.table.id: (s.seats_taken, s.seats_free) for s in taverns.list_open_tables(session, tavern.id)}
    assert summary == {t1.id: (2, 7), t2.id: (0, 6)}
