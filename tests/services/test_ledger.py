"""The ledger: double entry, conservation, no overdraft, concurrency.

ARCHITECTURE.md, "Money": "Money never appears or disappears. Every movement
of écus, tokens or chips is a ledger entry between two accounts … inside one
database transaction. At any moment the sum over all accounts is what the
house issued; a check that recomputes this belongs in the test suite."
"""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import func, select
from tests.refusals import refused
from tests.services.helpers import make_table, make_user

from tavern.services import ledger
from tavern.services.ledger import House, InsufficientFunds, LedgerError
from tavern.store.db import run_transaction
from tavern.store.models import LedgerEntry

pytestmark = pytest.mark.db


def test_issue_is_itself_a_ledger_entry_and_the_house_goes_negative(session):
    u = make_user(session, "alice")
    ledger.issue(session, u.id, 500)
    session.commit()
    assert ledger.balance(session, "user", u.id, "ecus") == 500
    assert ledger.balance(session, "house", House.ISSUANCE, "ecus") == -500
    entry = session.scalars(select(LedgerEntry)).one()
    assert (entry.amount, entry.currency, entry.reason) == (500, "ecus", "issue")
    report = ledger.audit(session)
    assert report.ok and report.issued["ecus"] == 500


def test_a_player_account_never_goes_negative(session):
    a, b = make_user(session, "alice"), make_user(session, "bruno")
    ledger.issue(session, a.id, 100)
    session.commit()
    src, dst = ledger.account(session, "user", a.id, "ecus"), ledger.account(session, "user", b.id, "ecus")
    with refused("insufficient_funds", InsufficientFunds, needed=101, available=100, currency="ecus") as info:
        ledger.transfer(session, src, dst, 101, "ecus", "gift")
    # Issue 11: French, and no internal account key ("user:6:ecus:-") in what the player reads.
    assert info.value.message == "Fonds insuffisants : il faut 101 écus, vous n'en avez que 100. Rien n'a été débité."
    session.rollback()
    assert ledger.balance(session, "user", a.id, "ecus") == 100
    assert ledger.balance(session, "user", b.id, "ecus") == 0
    src, dst = ledger.account(session, "user", a.id, "ecus"), ledger.account(session, "user", b.id, "ecus")
    ledger.transfer(session, src, dst, 100, "ecus", "gift")
    session.commit()
    assert ledger.balance(session, "user", a.id, "ecus") == 0
    assert ledger.balance(session, "user", b.id, "ecus") == 100
    assert ledger.audit(session).ok


@pytest.mark.parametrize("amount", [0, -5, 2.5, True])
def test_amounts_are_positive_whole_numbers(session, amount):
    """RULES.md: "All money and chip amounts are integers. Nothing is ever a float." """
    a = make_user(session, "alice")
    ledger.issue(session, a.id, 100)
    with pytest.raises(LedgerError):
        ledger.transfer(
            session, ledger.account(session, "user", a.id, "ecus"),
            ledger.house(session, House.SHOP, "ecus"), amount, "ecus", "x",
        )


def test_currencies_do_not_mix(session):
    a = make_user(session, "alice")
    ledger.issue(session, a.id, 100, "tokens")
    with refused("currency_mismatch", LedgerError):
        ledger.transfer(
            session, ledger.account(session, "user", a.id, "tokens"),
            ledger.house(session, House.SHOP, "ecus"), 10, "tokens", "x",
        )


def test_cave_cash_out_and_settle_deal_keep_chips_backed(session):
    """RULES.md: "Cave (buy-in): exchanging écus for table chips" … ""Ramasser
    ses gains" converts all the player's chips back to écus" … rake "credited
    to the tavern owner"."""
    owner, a, b = make_user(session, "patron"), make_user(session, "alice"), make_user(session, "bruno")
    table = make_table(session, owner)
    for u in (a, b):
        ledger.issue(session, u.id, 1000)
        ledger.cave(session, u.id, table.id, 200)
    assert ledger.chips(session, a.id, table.id) == 200
    assert ledger.balance(session, "user", a.id, "ecus") == 800
    # Alice wins a 100-chip pot from Bruno, 5 raked.
    ledger.settle_deal(session, table.id, {a.id: 95, b.id: -100}, 5, owner.id, "hand:1")
    assert ledger.chips(session, a.id, table.id) == 295
    assert ledger.chips(session, b.id, table.id) == 100
    assert ledger.balance(session, "user", owner.id, "ecus") == 5
    assert ledger.cash_out(session, a.id, table.id) == 295
    assert ledger.balance(session, "user", a.id, "ecus") == 1095
    report = ledger.audit(session)
    assert report.ok, report
    assert report.totals == {"ecus": 0, "tokens": 0, "chips": 0}
    session.commit()


def test_settle_deal_must_balance_and_cannot_overdraw_chips(session):
    owner, a, b = make_user(session, "patron"), make_user(session, "alice"), make_user(session, "bruno")
    table = make_table(session, owner)
    for u in (a, b):
        ledger.issue(session, u.id, 1000)
        ledger.cave(session, u.id, table.id, 100)
    session.commit()
    with refused("deal_unbalanced", LedgerError):
        ledger.settle_deal(session, table.id, {a.id: 50, b.id: -40}, 0, owner.id, "hand:x")
    with pytest.raises(InsufficientFunds):
        ledger.settle_deal(session, table.id, {a.id: 150, b.id: -150}, 0, owner.id, "hand:y")
    session.rollback()
    assert ledger.chips(session, b.id, table.id) == 100
    assert ledger.audit(session).ok


def _withdraw_race(session_factory, user_id: int, amount: int, n_threads: int) -> list[str]:
    """n threads released at once, each trying to pay ``amount`` to the shop."""
    barrier = threading.Barrier(n_threads)
    outcomes: list[str] = []
    lock = threading.Lock()

    def withdraw(session) -> None:
        ledger.transfer(
            session, ledger.account(session, "user", user_id, "ecus"),
            ledger.house(session, House.SHOP, "ecus"), amount, "ecus", "shop",
        )

    def worker() -> None:
        barrier.wait()
        try:
            run_transaction(session_factory, withdraw)
            result = "ok"
        except InsufficientFunds:
            result = "refused"
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=worker) for _ in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return outcomes


def test_two_concurrent_withdrawals_cannot_both_succeed(session_factory):
    """Two withdrawals of 70 from 100 écus, released at the same instant:
    exactly one succeeds, the balance is 30, never -40."""
    for round_ in range(5):
        with session_factory() as s, s.begin():
            u = make_user(s, f"player{round_}")
            ledger.issue(s, u.id, 100)
            uid = u.id
        outcomes = _withdraw_race(session_factory, uid, 70, 2)
        assert sorted(outcomes) == ["ok", "refused"]
        with session_factory() as s:
            assert ledger.balance(s, "user", uid, "ecus") == 30
            assert ledger.audit(s).ok


def test_many_concurrent_withdrawals_spend_exactly_the_balance(session_factory):
    with session_factory() as s, s.begin():
        u = make_user(s, "alice")
        ledger.issue(s, u.id, 100)
        uid = u.id
    outcomes = _withdraw_race(session_factory, uid, 30, 6)
    assert outcomes.count("ok") == 3 and outcomes.count("refused") == 3
    with session_factory() as s:
        assert ledger.balance(s, "user", uid, "ecus") == 10
        assert s.scalar(select(func.count(LedgerEntry.id)).where(LedgerEntry.reason == "shop")) == 3
        assert ledger.audit(s).ok


def test_history_is_a_signed_statement_newest_first(session):
    a, b = make_user(session, "alice"), make_user(session, "bruno")
    ledger.issue(session, a.id, 100)
    ledger.transfer(session, ledger.account(session, "user", a.id, "ecus"),
                    ledger.account(session, "user", b.id, "ecus"), 30, "ecus", "gift", "birthday")
    rows = [(e.reason, signed) for e, signed in ledger.history(session, "user", a.id, "ecus")]
    assert rows == [("gift", -30), ("issue", 100)]
    assert sum(signed for _, signed in rows) == ledger.balance(session, "user", a.id, "ecus")
    assert [(e.reference, s) for e, s in ledger.history(session, "user", b.id, "ecus")] == [("birthday", 30)]
    assert ledger.history(session, "user", b.id, "tokens") == []


def test_refusals_are_value_errors_carrying_the_figures(session):
    """The layers above show service refusals (ValueError) to the player."""
    a = make_user(session, "alice")
    ledger.issue(session, a.id, 5, "tokens")
    with pytest.raises(ValueError) as caught:
        ledger.transfer(session, ledger.account(session, "user", a.id, "tokens"),
                        ledger.house(session, House.PREMIUM, "tokens"), 8, "tokens", "pack")
    exc = caught.value
    assert isinstance(exc, InsufficientFunds)
    assert (exc.currency, exc.amount, exc.balance) == ("tokens", 8, 5)


def test_a_settlement_is_seen_by_the_accounts_the_session_already_holds(session):
    """settle_deal writes with Core statements (issue 15): an account object
    the caller loaded before must not keep showing the old balance."""
    owner, a, b = make_user(session, "patron"), make_user(session, "alice"), make_user(session, "bruno")
    table = make_table(session, owner)
    for u in (a, b):
        ledger.issue(session, u.id, 1000)
        ledger.cave(session, u.id, table.id, 200)
    held = ledger.account(session, "user", a.id, "chips", table.id)
    assert held.balance == 200
    ledger.settle_deal(session, table.id, {a.id: 57, b.id: -60}, 3, owner.id, "hand:1")
    assert held.balance == 257
    # The carried pot (Rams, Rummoli) is created on its first use.
    ledger.settle_deal(session, table.id, {a.id: -10, b.id: -10}, 0, owner.id, "hand:2", carried=20)
    assert ledger.carried_pot(session, table.id).balance == 20
    assert held.balance == 247
    assert ledger.audit(session).ok


def test_settlements_racing_cash_outs_never_deadlock_nor_lose_a_chip(session_factory):
    """A deal's settlement and a player's "Ramasser ses gains" at the same
    table touch the same accounts; both lock them in id order, so whatever
    the interleaving each commits or is cleanly refused (a player who just
    cashed out has nothing to lose), and the books balance."""
    with session_factory() as s, s.begin():
        owner, a, b = make_user(s, "patron"), make_user(s, "alice"), make_user(s, "bruno")
        table = make_table(s, owner)
        for u in (a, b):
            ledger.issue(s, u.id, 10_000)
            ledger.cave(s, u.id, table.id, 200)
        ids = (owner.id, a.id, b.id, table.id)
    owner_id, a_id, b_id, table_id = ids
    barrier = threading.Barrier(4)
    settling_done = threading.Event()
    errors: list[BaseException] = []
    settled: list[str] = []
    per_thread = 10

    def settle(thread: int) -> None:
        barrier.wait()
        mine, deadline = 0, time.monotonic() + 60
        while mine < per_thread and time.monotonic() < deadline:
            try:
                reference = f"hand:{thread}:{mine}"
                settled.append(run_transaction(session_factory, lambda s, ref=reference: ledger.settle_deal(
                    s, table_id, {a_id: 9, b_id: -10}, 1, owner_id, ref)))
                mine += 1
            except InsufficientFunds:
                time.sleep(0.002)  # bruno is between his cash-out and his next cave
            except BaseException as exc:
                errors.append(exc)
                return

    def cash_out_and_back(user_id: int) -> None:
        barrier.wait()
        cycles = 0
        while (cycles < 5 or not settling_done.is_set()) and cycles < 10_000:
            try:
                run_transaction(session_factory, lambda s: ledger.cash_out(s, user_id, table_id))
                run_transaction(session_factory, lambda s: ledger.cave(s, user_id, table_id, 100))
            except BaseException as exc:
                errors.append(exc)
                return
            cycles += 1

    settlers = [threading.Thread(target=settle, args=(n,)) for n in range(2)]
    cashiers = [threading.Thread(target=cash_out_and_back, args=(uid,)) for uid in (a_id, b_id)]
    for t in settlers + cashiers:
        t.start()
    for t in settlers:
        t.join(90)
    settling_done.set()
    for t in cashiers:
        t.join(90)
    assert not errors, errors
    assert len(settled) == 2 * per_thread  # every settler got its deals through
    with session_factory() as s:
        report = ledger.audit(s)
        assert report.ok, report
        deals = s.scalar(select(func.count(func.distinct(LedgerEntry.transfer_id))).where(LedgerEntry.reason == "deal"))
        assert deals == 2 * per_thread
        # Every settlement paid the owner its 1-chip rake, as écus.
        assert ledger.balance(s, "user", owner_id, "ecus") == deals
