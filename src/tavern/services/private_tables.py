"""Tables among friends (issue 30 §2, docs/web.md "Private tables").

A tavern's owner opens a table as private from his admin page. It is
reached by an invitation link holding a random token; the table keeps only
the token's SHA-256, so a stolen database gives no link, and a token is
found by its hash (an index lookup: no timing to learn a prefix from).
Opening the link writes a grant (``table_grants``): the holder may sit, and
watch. A new link (revocation) replaces the hash and drops every grant: the
old link is dead, and who has not sat yet needs the new one; who is seated
keeps his seat (his money is not held hostage).

Who may do what at a private table:

* sit: the tavern's owner, or a grant holder;
* watch: the same, a player seated there, or anybody when the owner let
  spectators in;
* see it in the village: the same as sitting.

Money, daily hands and the archive are those of any table: the table runs
in the same actor; only the seating and the listing ask this module.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tavern.refusal import Refusal
from tavern.store.models import Seat, TableConfig, TableGrant, Tavern, User

#: Bytes of randomness in a token (43 characters in the link).
TOKEN_BYTES = 32
#: A token longer than this is not one of ours: refused before hashing.
MAX_TOKEN_LENGTH = 64


class InvitationError(Refusal, ValueError):
    """A refused invitation: a revoked or forged link, or not the owner."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _owner_id(session: Session, table: TableConfig) -> int | None:
    if table.tavern_id is None:
        return None
    return session.scalar(select(Tavern.owner_id).where(Tavern.id == table.tavern_id))


def new_invitation(session: Session, table_id: int, user_id: int) -> str:
    """A new invitation token for the private table ``table_id`` (its owner
    only); the previous link dies and its grants with it."""
    table = session.get(TableConfig, table_id)
    if table is None or table.status != "open" or not table.private:
        raise InvitationError("no_such_private_table")
    if _owner_id(session, table) != user_id:
        raise InvitationError("owner_only_invites")
    token = secrets.token_urlsafe(TOKEN_BYTES)
    table.invitation_hash = token_hash(token)
    session.execute(delete(TableGrant).where(TableGrant.table_id == table_id))
    session.flush()
    return token


def invited_to(session: Session, token: str) -> TableConfig:
    """The open private table an invitation link invites to, read only (the
    page the link opens: a mail scanner or a link preview opening it grants
    nothing). A revoked, forged or malformed token is refused."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        raise InvitationError("invitation_invalid")
    table = session.scalars(select(TableConfig).where(TableConfig.invitation_hash == token_hash(token))).one_or_none()
    if table is None or table.status != "open" or not table.private:
        raise InvitationError("invitation_invalid")
    return table


def accept(session: Session, token: str, user_id: int) -> TableConfig:
    """Accept an invitation (the button of the link's page, a POST): the
    table it invites to, the grant written. A revoked, forged or malformed
    token is refused and writes nothing."""
    table = invited_to(session, token)
    if not has_grant(session, table.id, user_id):
        try:
            with session.begin_nested():
                session.add(TableGrant(table_id=table.id, user_id=user_id))
        except IntegrityError:
            pass  # the same player's other tab wrote it first
    return table


def invite(session: Session, table_id: int, user_id: int, username: str) -> tuple[TableConfig, User]:
    """The owner invites a player by name (issue 30 §4): his grant written,
    as if he had opened the link (a new link drops it with the others). The
    web layer then tells him on his notice channel (web/notices.py)."""
    table = session.get(TableConfig, table_id)
    if table is None or table.status != "open" or not table.private:
        raise InvitationError("no_such_private_table")
    if _owner_id(session, table) != user_id:
        raise InvitationError("owner_only_invites")
    guest = session.scalars(select(User).where(User.username == username)).one_or_none()
    if guest is None or guest.banned:
        raise InvitationError("invite_no_such_player", name=username)
    if guest.id == user_id:
        raise InvitationError("invite_yourself")
    if not has_grant(session, table_id, guest.id):
        session.add(TableGrant(table_id=table_id, user_id=guest.id))
        session.flush()
    return table, guest


def has_grant(session: Session, table_id: int, user_id: int) -> bool:
    return session.scalar(select(TableGrant.id).where(TableGrant.table_id == table_id,
                                                      TableGrant.user_id == user_id)) is not None


def may_sit(session: Session, table: TableConfig, user_id: int) -> bool:
    if not table.private:
        return True
    return _owner_id(session, table) == user_id or has_grant(session, table.id, user_id)


def check_sit(session: Session, table: TableConfig, user_id: int) -> None:
    """Refuse sitting at a private table without its link (services/seats.py)."""
    if not may_sit(session, table, user_id):
        raise InvitationError("private_table_needs_invitation")


def watch_refusal(session: Session, table_id: int, user_id: int) -> str | None:
    """Why ``user_id`` may not open the table's page or socket (a catalogue
    code), or None: he may. A practice table is its player's alone (issue 42
    §12: its id is no secret); a private table without spectators, its
    invited players' and its seated ones'."""
    table = session.get(TableConfig, table_id)
    if table is None:
        return None
    if table.practice_user_id is not None:
        return None if table.practice_user_id == user_id else "practice_table_no_spectators"
    if not table.private or table.spectators or may_sit(session, table, user_id):
        return None
    seated = session.scalar(select(Seat.id).where(Seat.table_id == table_id, Seat.user_id == user_id)) is not None
    return None if seated else "private_table_no_spectators"


def visible_private(session: Session, user_id: int | None) -> set[int]:
    """The open private tables ``user_id`` may see listed: his tavern's and
    those whose link he opened (none for a visitor)."""
    if user_id is None:
        return set()
    owned = select(TableConfig.id).join(Tavern, Tavern.id == TableConfig.tavern_id).where(
        TableConfig.private.is_(True), TableConfig.status == "open", Tavern.owner_id == user_id)
    granted = select(TableGrant.table_id).join(TableConfig, TableConfig.id == TableGrant.table_id).where(
        TableGrant.user_id == user_id, TableConfig.status == "open")
    return set(session.scalars(owned)) | set(session.scalars(granted))


def listed(tables: Iterable[TableConfig], visible: set[int]) -> list[TableConfig]:
    """``tables`` without the private ones not in ``visible``."""
    return [t for t in tables if not t.private or t.id in visible]


def table_of_tavern(session: Session, table_id: int, tavern_id: int) -> TableConfig | None:
    table = session.get(TableConfig, table_id)
    return table if table is not None and table.tavern_id == tavern_id else None


def table_name(session: Session, table_id: int) -> str:
    return session.scalar(select(TableConfig.name).where(TableConfig.id == table_id)) or ""
