"""A player's data under the RGPD (issue 31 §4, docs/privacy.md): all of it
out as one JSON archive, and his account deleted.

Deletion replaces his name by a stable pseudonym everywhere it appears (his
account, the deals he played: their players, records and results), ends his
sessions and removes his login; the ledger, the archives and the other
players' records stay whole (only his name changes in them), so the money
audit still balances. It is refused while he still has chips at a table
(he leaves the table first: his chips are then cashed out), while he is
registered in a contest not finished, and for an admin's last account.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import delete, func, or_, select
from sqlalchemy.orm import Session

from tavern.refusal import Refusal
from tavern.services import accounts as account_links
from tavern.services import adminlog, chat, twofactor
from tavern.services.hand_export import mentions, player_view
from tavern.store.models import (
    ArchivedHand,
    Contest,
    ContestEntry,
    LedgerAccount,
    LedgerEntry,
    Seat,
    TableConfig,
    TableVisit,
    User,
    WaitingPlace,
    WebSession,
)

#: The character no username may hold (users.USERNAME): a pseudonym never
#: collides with an account registered later.
PSEUDONYM = "anonyme#{id}"
#: Keys whose values (or list items) name players in records, results and stories.
_PLAYER_KEYS = {"player", "players", "winners", "eligible", "announcer", "winner", "closer", "taken_by", "to_act"}
#: Subtrees that never hold a player's name (a table option could be spelt like a username).
#: The fair block's client seeds are renamed with the seats (``tavern verify`` matches them).
_NO_NAMES = {"config", "deck", "reshuffles"}


class PrivacyError(Refusal, ValueError):
    """A refused deletion: nothing changed."""


def pseudonym(user_id: int) -> str:
    return PSEUDONYM.format(id=user_id)


def _iso(when: dt.datetime | None) -> str | None:
    return when.isoformat() if when else None


def export_data(session: Session, user: User) -> dict[str, Any]:
    """Everything the tavern holds about him, in one JSON document."""
    accounts = {a.id: a for a in session.scalars(select(LedgerAccount).where(
        LedgerAccount.owner_kind == "user", LedgerAccount.owner_id == user.id))}
    lines = []
    if accounts:
        for e in session.scalars(select(LedgerEntry).where(or_(LedgerEntry.debit_id.in_(list(accounts)),
                                                                LedgerEntry.credit_id.in_(list(accounts))))
                                 .order_by(LedgerEntry.id)):
            mine = accounts.get(e.credit_id) or accounts[e.debit_id]
            lines.append({"id": e.id, "time": _iso(e.time), "currency": e.currency, "reason": e.reason,
                          "reference": e.reference, "table_id": mine.table_id,
                          "amount": e.amount if e.credit_id in accounts else -e.amount})
    deals = []
    for hand in session.scalars(select(ArchivedHand).where(mentions(user.username)).order_by(ArchivedHand.id)
                                .execution_options(yield_per=200)):
        if user.username not in (hand.players or []):
            continue
        entry: dict[str, Any] = {"id": hand.id, "table_id": hand.table_id, "game": hand.game,
                                 "started": _iso(hand.started), "ended": _iso(hand.ended), "voided": hand.voided,
                                 "players": list(hand.players or []),
                                 "delta": ((hand.result or {}).get("delta") or {}).get(user.username)}
        if not hand.voided and not (hand.record or {}).get("closing"):
            try:
                entry["steps"] = player_view(hand, user.username)  # his view only
            except Exception:
                entry["steps"] = None
        deals.append(entry)
    visits = [{"table_id": v.table_id, "address": v.address, "browser": v.browser, "first_seen": _iso(v.first_seen),
               "last_seen": _iso(v.last_seen)}
              for v in session.scalars(select(TableVisit).where(TableVisit.user_id == user.id).order_by(TableVisit.id))]
    contests = [{"contest": name, "registered": _iso(reg), "place": place, "prize": prize}
                for name, reg, place, prize in session.execute(
                    select(Contest.name, ContestEntry.registered, ContestEntry.place, ContestEntry.prize)
                    .join(Contest).where(ContestEntry.user_id == user.id).order_by(ContestEntry.id))]
    return {
        "format": "tavern-rgpd-1",
        "exported": dt.datetime.now(dt.UTC).isoformat(),
        "account": {"id": user.id, "username": user.username, "created": _iso(user.created), "level": user.level,
                    "role": user.role, "banned": user.banned,
                    "email": user.email, "email_pending": account_links.pending_email(session, user.id)},
        "balances": [{"currency": a.currency, "table_id": a.table_id, "balance": a.balance}
                     for a in accounts.values()],
        "ledger": lines,
        "deals": deals,
        "contests": contests,
        "table_visits": visits,
        "chat_messages": chat.messages_of(session, user.id),  # the last 30 days (services/chat.py)
        "two_factor": bool(user.totp_secret),  # whether it is on; never the secret
        "sessions": [{"started": _iso(w.created), "last_seen": _iso(w.last_seen), "browser": w.user_agent,
                      "network": w.network} for w in session.scalars(
                          select(WebSession).where(WebSession.user_id == user.id).order_by(WebSession.created))],
        "admin_log": adminlog.about(session, user.id),  # what admins did to his account, who and why
    }


def _rename(value: Any, old: str, new: str, key: str | None = None, depth: int = 0) -> Any:
    """``value`` with the player ``old`` named ``new``: values of the player
    keys, and mapping keys below the top level (``delta: {name: …}``)."""
    if isinstance(value, dict):
        return {(new if k == old and depth > 0 else k): (v if k in _NO_NAMES else _rename(v, old, new, k, depth + 1))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_rename(v, old, new, key, depth + 1) for v in value]
    if value == old and key in _PLAYER_KEYS:
        return new
    return value


def delete_account(session: Session, user_id: int) -> str:
    """Delete his account as docs/privacy.md says; returns his pseudonym.
    Raises :class:`PrivacyError` (nothing changed) when it must wait."""
    user = session.get(User, user_id)
    if user is None:
        raise PrivacyError("delete_no_account")
    if user.role == "admin":
        admins = session.scalar(select(func.count(User.id)).where(User.role == "admin", User.banned.is_(False)))
        if (admins or 0) <= 1:
            raise PrivacyError("delete_last_admin")
    entered = session.scalar(select(Contest.name).join(ContestEntry).where(
        ContestEntry.user_id == user_id, Contest.status.in_(("registering", "running"))).limit(1))
    if entered is not None:
        raise PrivacyError("delete_in_contest", contest=entered)
    tables = session.scalars(select(TableConfig.name).join(Seat, Seat.table_id == TableConfig.id)
                             .where(Seat.user_id == user_id)).all()
    at_table = session.scalar(select(func.count(LedgerAccount.id)).where(
        LedgerAccount.owner_kind == "user", LedgerAccount.owner_id == user_id, LedgerAccount.currency == "chips",
        LedgerAccount.balance != 0))
    if tables or at_table:
        raise PrivacyError("delete_at_table", tables=", ".join(t or "?" for t in tables) or "—")
    old, new = user.username, pseudonym(user.id)
    for hand in session.scalars(select(ArchivedHand).where(mentions(old)).execution_options(yield_per=200)):
        if old in (hand.players or []):
            hand.players = [new if p == old else p for p in hand.players]
            hand.record = _rename(hand.record, old, new)
            hand.result = _rename(hand.result, old, new)
    user.username = new
    user.password_hash = "!"  # no password hashes to this: the login is gone
    user.banned = True
    session.execute(delete(WebSession).where(WebSession.user_id == user_id))
    session.execute(delete(WaitingPlace).where(WaitingPlace.user_id == user_id))  # out of every waiting list
    chat.forget_account(session, user_id)
    account_links.forget_account(session, user_id)  # his address, his links, his mails
    twofactor.turn_off(session, user_id)  # his TOTP secret and recovery codes
    session.flush()
    return new

