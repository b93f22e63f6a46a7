"""The table chat's rules (issue 30 §1, services/chat.py): who writes, what a
message may hold, what a reader sees, the moderation. Every refusal is a
catalogue code and stores nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, func, select
from tests.services.helpers import make_table, make_tavern, make_user

from tavern.catalogue import french
from tavern.services import chat
from tavern.services.chat import ChatError
from tavern.store.models import ChatMessage, ChatMute, ChatReport, Contest, Seat, User, utcnow

pytestmark = pytest.mark.db

NOW = dt.datetime(2026, 11, 27, 8, 0, tzinfo=dt.UTC)


@pytest.fixture
def world(session):
    owner = make_user(session, "patron")
    ana, bob, cid = (make_user(session, n) for n in ("ana", "bob", "cid"))
    tavern = make_tavern(session, owner)
    table = make_table(session, owner, tavern)
    session.add(Seat(table_id=table.id, seat_no=0, user_id=ana.id))
    session.add(Seat(table_id=table.id, seat_no=1, user_id=bob.id))
    session.flush()
    return type("W", (), {"owner": owner, "ana": ana, "bob": bob, "cid": cid, "tavern": tavern, "table": table})


def stored(session) -> int:
    return session.scalar(select(func.count()).select_from(ChatMessage))


def refused(session, code, fn, *args, **kwargs):
    before = stored(session)
    with pytest.raises(ChatError) as exc:
        fn(*args, **kwargs)
    assert exc.value.code == code
    assert french(code, exc.value.params) != french("refused")  # worded in the catalogue
    assert stored(session) == before
    return exc.value


@pytest.mark.parametrize("text,code", [
    ("", "chat_empty"),
    ("   \t ", "chat_empty"),
    (None, "chat_empty"),
    (12, "chat_empty"),
    ("x" * 301, "chat_too_long"),
    ("bon\x00jour", "chat_control_chars"),
    ("deux\nlignes", "chat_control_chars"),
    ("\x1b[31mrouge", "chat_control_chars"),
    ("abc\u202edcba", "chat_control_chars"),  # a right-to-left override would show another text
    # Issue 42 §9: nothing visible is an empty message (a blank line shown to everyone).
    ("\u200b\u200b", "chat_empty"),  # zero-width spaces
    ("\u2800", "chat_empty"),  # the blank Braille pattern
    ("\u3164 \u115f\u1160\uffa0", "chat_empty"),  # the Hangul fillers
    ("\u2060\ufeff\u200d\u200e\u200f", "chat_empty"),  # word joiner, BOM, joiner, bidi marks
    ("\ufe0f\U000e0100", "chat_empty"),  # variation selectors
    ("\u0301\u0308", "chat_empty"),  # combining marks with no letter to sit on
    ("\u3000\u00a0\u2003", "chat_empty"),  # ideographic, no-break, em spaces
])
def test_bad_messages_are_refused_and_nothing_is_stored(session, world, text, code):
    """Issue 30: "Bad input: an empty, oversized or binary chat message … a French refusal, nothing changed"."""
    refused(session, code, chat.say, session, world.table.id, world.ana.id, text, NOW)


#: Characters that draw nothing (issue 42 §9), as a player would paste them.
INVISIBLE = ("\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u061c\u180e"
             "\u2800\u3164\u115f\u1160\uffa0\u034f\u0301\u0327\u20dd\ufe00\ufe0f\U000e0100\U000e0001"
             "\u3000\u00a0\u2002\u2003\u2009\u202f\u205f ")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(INVISIBLE), min_size=1, max_size=40))
def test_a_message_of_invisible_characters_is_refused_as_empty(text):
    """Issue 42 §9: "refuse a message with nothing visible in it, as an empty one"."""
    with pytest.raises(ChatError) as exc:
        chat.normalise(text)
    assert exc.value.code == "chat_empty"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(INVISIBLE), max_size=20),
       st.text(alphabet=st.characters(categories=("L", "N", "P", "S"), exclude_characters="\u115f\u1160\u3164\uffa0\u2800"),
               min_size=1, max_size=5),
       st.text(alphabet=st.sampled_from(INVISIBLE), max_size=20))
def test_one_drawn_character_among_invisible_ones_is_a_message(before, drawn, after):
    """A letter, digit, sign or emoji amid the invisible ones is a message, kept as written (stripped)."""
    text = before + drawn + after
    assert chat.normalise(text) == text.strip()


def test_an_invisible_message_at_the_table_is_refused_and_nothing_is_stored(session, world):
    """Issue 42, bad input: "a chat message of invisible characters — a French refusal, nothing changed"."""
    err = refused(session, "chat_empty", chat.say, session, world.table.id, world.ana.id, "\u200b\u3164\u2800", NOW)
    assert french(err.code, err.params) == "Message vide : écrivez quelque chose."


def test_300_characters_pass_and_markup_is_kept_as_plain_text(session, world):
    """Issue 30: "300 characters … escaped everywhere (no markup reaches a page)": the text is
    stored as typed; the pages write it as text (tables/chat.py, static/chat.js)."""
    line = chat.say(session, world.table.id, world.ana.id, "  " + "é" * 300 + "  ", NOW)
    assert line.text == "é" * 300
    markup = chat.say(session, world.table.id, world.ana.id, "<script>alert(1)</script><b>gras</b>", NOW)
    assert markup.text == "<script>alert(1)</script><b>gras</b>"
    assert [m.text for m in chat.history(session, world.table.id, world.bob.id, NOW)][-1] == markup.text


def test_seated_players_and_spectators_write_at_an_open_table(session, world):
    """Issue 30: "Seated players and logged-in spectators write"."""
    assert chat.say(session, world.table.id, world.ana.id, "Bonne chance", NOW).author == "ana"
    assert chat.say(session, world.table.id, world.cid.id, "Allez !", NOW).author == "cid"  # a spectator


def test_players_only_and_off_and_contest_tables(session, world):
    """Issue 30: "The owner chooses per table: chat open, players only, or off. Contest tables: players only"."""
    chat.set_mode(session, world.table.id, world.tavern.id, "players")
    refused(session, "chat_players_only", chat.say, session, world.table.id, world.cid.id, "moi aussi", NOW)
    chat.say(session, world.table.id, world.ana.id, "Merci", NOW)
    chat.set_mode(session, world.table.id, world.tavern.id, "off")
    refused(session, "chat_off", chat.say, session, world.table.id, world.ana.id, "Merci", NOW)
    chat.set_mode(session, world.table.id, world.tavern.id, "open")
    # A contest table (its mode left open) is players only all the same.
    contest = Contest(name="c", status="running", starts_at=NOW, fee=0, house_prize=0, starting_chips=1000,
                      seats=9, min_players=2, max_players=9, structure=[], payouts=[], late_levels=0,
                      action_timer_seconds=30, created_by=world.owner.id)
    session.add(contest)
    session.flush()
    world.table.contest_id = contest.id
    session.flush()
    refused(session, "chat_contest_players_only", chat.say, session, world.table.id, world.cid.id, "hop", NOW)
    chat.say(session, world.table.id, world.bob.id, "Bien joué", NOW)


def test_a_mode_the_owner_cannot_pick_is_refused(session, world):
    refused(session, "chat_mode_unknown", chat.set_mode, session, world.table.id, world.tavern.id, "<b>")
    assert world.table.chat == "open"


def test_muted_and_banned_accounts_are_refused_in_french(session, world):
    """Issue 30: "Muted and banned accounts are refused in French"."""
    until = chat.mute(session, world.ana.id, 60, by_id=world.owner.id, now=NOW)  # a site mute (an admin's)
    err = refused(session, "chat_muted", chat.say, session, world.table.id, world.ana.id, "hé", NOW)
    assert err.params == {"until": "27/11/2026 10:00"} and until == NOW + dt.timedelta(hours=1)
    assert "jusqu'au 27/11/2026 10:00" in err.message
    chat.say(session, world.table.id, world.ana.id, "de retour", NOW + dt.timedelta(minutes=61))
    session.get(User, world.bob.id).banned = True
    refused(session, "chat_banned", chat.say, session, world.table.id, world.bob.id, "hé", NOW)


def test_an_owners_mute_holds_at_his_taverns_tables_only(session, world):
    """Issue 30: "the owner can mute at his own tables"."""
    other_owner = make_user(session, "autre")
    other = make_table(session, other_owner, make_tavern(session, other_owner, "Le Chat Noir"))
    chat.mute(session, world.cid.id, 30, by_id=world.owner.id, tavern_id=world.tavern.id, now=NOW)
    refused(session, "chat_muted", chat.say, session, world.table.id, world.cid.id, "hé", NOW)
    chat.say(session, other.id, world.cid.id, "ici je parle", NOW)
    # Not his tavern: refused, no mute written.
    refused(session, "not_your_tavern", chat.mute, session, world.ana.id, 30, by_id=world.owner.id,
            tavern_id=other.tavern_id, now=NOW)
    refused(session, "chat_mute_minutes", chat.mute, session, world.ana.id, 0, by_id=world.owner.id, now=NOW)
    refused(session, "chat_mute_self", chat.mute, session, world.owner.id, 5, by_id=world.owner.id, now=NOW)
    assert session.scalar(select(func.count()).select_from(ChatMute)) == 1


def test_history_is_the_last_50_minus_deleted_and_hidden_and_old(session, world):
    """Issue 30: "The last 50 messages arrive with the snapshot"; "any player hides another's
    messages for himself"; deleted messages are gone for everybody; "kept 30 days"."""
    chat.say(session, world.table.id, world.bob.id, "ancien", NOW - dt.timedelta(days=31))
    for i in range(60):
        chat.say(session, world.table.id, world.ana.id if i % 2 else world.bob.id, f"m{i}", NOW)
    log = chat.history(session, world.table.id, world.cid.id, NOW)
    assert [m.text for m in log] == [f"m{i}" for i in range(10, 60)]
    assert chat.hide(session, world.cid.id, "bob") == ["bob"]
    assert {m.author for m in chat.history(session, world.table.id, world.cid.id, NOW)} == {"ana"}
    assert {m.author for m in chat.history(session, world.table.id, world.ana.id, NOW)} == {"ana", "bob"}
    last = log[-1]
    assert chat.delete_message(session, last.id) == world.table.id
    assert last.id not in [m.id for m in chat.history(session, world.table.id, world.ana.id, NOW)]
    assert chat.hide(session, world.cid.id, "bob", hidden=False) == []
    refused(session, "chat_hide_self", chat.hide, session, world.cid.id, "cid")
    refused(session, "no_such_player", chat.hide, session, world.cid.id, "personne")
    assert chat.purge(session, NOW) == 1  # the 31-day-old one


def test_reports_reach_the_admins_and_deleting_deals_with_them(session, world):
    """Issue 30: "a player reports a message; a site admin sees reports … and can delete a message"."""
    line = chat.say(session, world.table.id, world.bob.id, "insulte", NOW)
    chat.report(session, world.table.id, world.ana.id, line.id)
    chat.report(session, world.table.id, world.ana.id, line.id)  # twice counts once
    chat.report(session, world.table.id, world.cid.id, line.id)
    [rep] = chat.open_reports(session)
    assert (rep.message_id, rep.author, rep.text, rep.reporters) == (line.id, "bob", "insulte", ["ana", "cid"])
    before = session.scalar(select(func.count()).select_from(ChatReport))
    refused(session, "chat_report_own", chat.report, session, world.table.id, world.bob.id, line.id)
    refused(session, "chat_no_such_message", chat.report, session, world.table.id + 1, world.ana.id, line.id)
    assert session.scalar(select(func.count()).select_from(ChatReport)) == before
    chat.delete_message(session, line.id)
    assert chat.open_reports(session) == []
    refused(session, "chat_no_such_message", chat.report, session, world.table.id, world.cid.id, line.id)


def test_tavern_chat_purge_forgets_what_is_older_than_30_days(session_factory, db_url, monkeypatch, capsys):
    """Issue 30: "stored with the table and kept 30 days" — `tavern chat-purge` (docs/operations.md)."""
    from tavern.cli import main
    from tavern.settings import get_settings

    with session_factory() as s, s.begin():
        ana, bob = make_user(s, "ana"), make_user(s, "bob")
        table = make_table(s, make_user(s, "patron"))
        old = chat.say(s, table.id, ana.id, "vieux", utcnow() - dt.timedelta(days=30, minutes=1))
        chat.report(s, table.id, bob.id, old.id)
        chat.say(s, table.id, ana.id, "récent", utcnow() - dt.timedelta(days=29))
    monkeypatch.setenv("TAVERN_DATABASE_URL", db_url)
    get_settings.cache_clear()
    try:
        assert main(["chat-purge"]) == 0
    finally:
        get_settings.cache_clear()
    assert "1 messages de plus de 30 jours oubliés" in capsys.readouterr().out
    with session_factory() as s:
        assert list(s.scalars(select(ChatMessage.text))) == ["récent"]
        assert s.scalar(select(func.count()).select_from(ChatReport)) == 0


def test_his_chat_comes_out_with_his_data_and_goes_with_his_account(session, world):
    """docs/privacy.md: his messages are in « Exporter mes données » and erased with his account
    (with the reports about them, his own reports, hides and mutes)."""
    from tavern.services import rgpd

    mine = chat.say(session, world.table.id, world.bob.id, "à moi", NOW)
    theirs = chat.say(session, world.table.id, world.ana.id, "à ana", NOW)
    chat.report(session, world.table.id, world.ana.id, mine.id)
    chat.report(session, world.table.id, world.bob.id, theirs.id)
    chat.hide(session, world.cid.id, "bob")
    chat.mute(session, world.bob.id, 10, by_id=world.owner.id, now=NOW)
    exported = rgpd.export_data(session, world.bob)["chat_messages"]
    assert [(m["text"], m["table_id"], m["deleted"]) for m in exported] == [("à moi", world.table.id, False)]
    session.execute(delete(Seat).where(Seat.user_id == world.bob.id))  # he left the table first
    rgpd.delete_account(session, world.bob.id)
    assert [m.text for m in chat.history(session, world.table.id, world.cid.id, NOW)] == ["à ana"]
    assert session.scalar(select(func.count()).select_from(ChatReport)) == 0
    assert chat.hidden_authors(session, world.cid.id) == []
    assert session.scalar(select(func.count()).select_from(ChatMute)) == 0
