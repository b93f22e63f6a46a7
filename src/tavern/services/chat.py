"""A table's chat (issue 30 §1): who may write, what a message may hold,
what a reader is shown, and the moderation (hide, report, delete, mute).

* Seated players and logged-in spectators write; the table's owner may
  narrow it to the players (``players``) or close it (``off``); a contest
  table is players only. A banned or muted account is refused.
* A message is stripped; empty, past :data:`MAX_CHARS` characters, or
  holding a control character (a NUL, a line break, a bidirectional
  override that would turn the line around) it is refused — in French, and
  nothing is stored. A message with nothing visible in it (zero-width
  spaces, fillers, marks with no letter to sit on: :func:`visible`) is
  refused as an empty one. It is kept as plain text: the pages write it with
  ``textContent``, so markup stays text.
* A reader sees the last :data:`HISTORY` messages of the last
  :data:`KEEP_DAYS` days, minus the deleted ones and those of the authors he
  hides (for himself only). :func:`purge` forgets what is older.

The rate (:data:`RATE_LIMIT` messages per :data:`RATE_WINDOW` seconds per
account) is counted in the database by the site's throttles, shared by
every worker (web/ratelimit.py, called by tables/chat.py's caller).
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from dataclasses import dataclass
from typing import Any, Protocol, cast
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, bindparam, delete, insert, or_, select, update
from sqlalchemy.orm import Session, aliased

from tavern.refusal import Refusal
from tavern.store.models import ChatHide, ChatMessage, ChatMute, ChatReport, Seat, TableConfig, Tavern, User, utcnow

MAX_CHARS = 300
RATE_LIMIT, RATE_WINDOW = 5, 10
HISTORY = 50
KEEP_DAYS = 30
CHAT_MODES = ("open", "players", "off")
#: The longest mute an admin or an owner may give at once (30 days, in minutes).
MAX_MUTE_MINUTES = 30 * 24 * 60
#: Format characters that reorder or hide text (bidirectional overrides and
#: isolates): a line could show another text than it holds.
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}
_PARIS = ZoneInfo("Europe/Paris")
#: Unicode categories whose characters draw something: letters, digits,
#: punctuation, symbols. Spaces (Z*), format characters (Cf: zero-width
#: spaces and joiners, bidi marks, the BOM, word joiner, tags), combining
#: marks (M*: variation selectors, a lone accent) and the unassigned or
#: private draw nothing by themselves.
_DRAWN = ("L", "N", "P", "S")
#: Characters of those categories that are drawn blank all the same: the
#: Hangul fillers (letters, Lo) and the blank Braille pattern (a symbol, So).
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")


class ChatError(Refusal, ValueError):
    """A refused chat message or moderation step: nothing changed."""


@dataclass(frozen=True)
class Line:
    """One message as every reader receives it."""

    id: int
    author: str
    text: str
    at: dt.datetime

    def out(self) -> dict[str, Any]:
        return {"id": self.id, "author": self.author, "text": self.text,
                "at": self.at.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}


def normalise(text: Any) -> str:
    """The message as stored, or :class:`ChatError` saying what is wrong."""
    if not isinstance(text, str):
        raise ChatError("chat_empty")
    said: str = text
    said = said.strip()
    if not said:
        raise ChatError("chat_empty")
    if len(said) > MAX_CHARS:
        raise ChatError("chat_too_long", maximum=MAX_CHARS, length=len(said))
    for ch in said:
        if unicodedata.category(ch) in ("Cc", "Cs") or ch in _BIDI:
            raise ChatError("chat_control_chars")
    if not visible(said):
        raise ChatError("chat_empty")
    return said


def visible(text: str) -> bool:
    """Whether ``text`` shows anything: one character at least of a drawn
    category (:data:`_DRAWN`) that is not drawn blank (:data:`_BLANK`). A
    line of zero-width spaces or fillers would show everyone a blank line."""
    return any(unicodedata.category(ch)[0] in _DRAWN and ch not in _BLANK for ch in text)


def paris_time(when: dt.datetime) -> str:
    """An instant as a player reads it (Paris time), e.g. ``27/11/2026 09:15``."""
    return when.astimezone(_PARIS).strftime("%d/%m/%Y %H:%M")


def muted_until(session: Session, user_id: int, tavern_id: int | None, now: dt.datetime) -> dt.datetime | None:
    """The end of the longest mute holding ``user_id`` at a table of
    ``tavern_id`` (a site mute holds everywhere); ``None``: not muted."""
    scope: ColumnElement[bool] = ChatMute.tavern_id.is_(None)
    if tavern_id is not None:
        scope = or_(scope, ChatMute.tavern_id == tavern_id)
    ends = session.scalars(select(ChatMute.until).where(ChatMute.user_id == user_id, ChatMute.until > now, scope))
    return max(ends, default=None)


class ChatTable(Protocol):
    """What the chat reads of a table (a :class:`TableConfig`, or the light
    row :func:`say` reads)."""

    @property
    def id(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def chat(self) -> str | None: ...
    @property
    def contest_id(self) -> int | None: ...
    @property
    def tavern_id(self) -> int | None: ...


def check_writer(session: Session, table: ChatTable | None, user_id: int, now: dt.datetime,
                 banned: bool | None = None) -> None:
    """Refuse (:class:`ChatError`) an account that may not write at ``table``
    (``banned``: the account's flag if the caller read it, else read here)."""
    if table is None or table.status != "open":
        raise ChatError("table_closed")
    if banned is None:
        user = session.get(User, user_id)
        banned = user is None or user.banned
    if banned:
        raise ChatError("chat_banned")
    if table.chat == "off":
        raise ChatError("chat_off")
    if table.chat == "players" or table.contest_id is not None:
        seated = session.scalar(select(Seat.id).where(Seat.table_id == table.id, Seat.user_id == user_id))
        if seated is None:
            raise ChatError("chat_contest_players_only" if table.contest_id is not None else "chat_players_only")
    until = muted_until(session, user_id, table.tavern_id, now)
    if until is not None:
        raise ChatError("chat_muted", until=paris_time(until))


_TABLE_ROW = select(TableConfig.id, TableConfig.status, TableConfig.chat, TableConfig.contest_id,
                    TableConfig.tavern_id).where(TableConfig.id == bindparam("table_id"))
_AUTHOR = select(User.username, User.banned).where(User.id == bindparam("user_id"))
_INSERT = insert(ChatMessage).returning(ChatMessage.id)


def say(session: Session, table_id: int, user_id: int, text: Any, now: dt.datetime | None = None) -> Line:
    """Write a message at a table (refused: :class:`ChatError`, nothing stored).
    Plain rows, not ORM objects: every message of every table passes here
    (the capacity bench with chat: docs/benchmarks.md)."""
    now = now or utcnow()
    clean = normalise(text)
    table = session.execute(_TABLE_ROW, {"table_id": table_id}).first()
    author = session.execute(_AUTHOR, {"user_id": user_id}).first()
    check_writer(session, cast(ChatTable | None, table), user_id, now,
                 banned=author is None or bool(author.banned))
    assert author is not None  # refused above otherwise
    message_id = session.execute(_INSERT, {"table_id": table_id, "user_id": user_id, "text": clean,
                                           "created": now}).scalar_one()
    return Line(int(message_id), str(author.username), clean, now)


def may_write(session: Session, table_id: int, user_id: int, now: dt.datetime | None = None) -> bool:
    try:
        check_writer(session, session.get(TableConfig, table_id), user_id, now or utcnow())
    except ChatError:
        return False
    return True


def hidden_authors(session: Session, viewer_id: int) -> list[str]:
    return sorted(session.scalars(select(User.username).join(ChatHide, ChatHide.author_id == User.id)
                                  .where(ChatHide.user_id == viewer_id)))


def history(session: Session, table_id: int, viewer_id: int, now: dt.datetime | None = None) -> list[Line]:
    """The last :data:`HISTORY` messages this reader is shown, oldest first."""
    since = (now or utcnow()) - dt.timedelta(days=KEEP_DAYS)
    hidden = select(ChatHide.author_id).where(ChatHide.user_id == viewer_id)
    rows = session.execute(
        select(ChatMessage.id, User.username, ChatMessage.text, ChatMessage.created)
        .join(User, User.id == ChatMessage.user_id)
        .where(ChatMessage.table_id == table_id, ChatMessage.deleted.is_(False), ChatMessage.created >= since,
               ChatMessage.user_id.not_in(hidden))
        .order_by(ChatMessage.id.desc()).limit(HISTORY)).all()
    return [Line(*row) for row in reversed(rows)]


def _user_named(session: Session, name: Any) -> User:
    user = session.scalar(select(User).where(User.username == str(name)[:40])) if isinstance(name, str) else None
    if user is None:
        raise ChatError("no_such_player")
    return user


def hide(session: Session, viewer_id: int, author: Any, hidden: bool = True) -> list[str]:
    """Hide (or show again) ``author``'s messages for ``viewer_id`` only;
    returns the names he now hides."""
    target = _user_named(session, author)
    if target.id == viewer_id:
        raise ChatError("chat_hide_self")
    existing = session.scalar(select(ChatHide).where(ChatHide.user_id == viewer_id, ChatHide.author_id == target.id))
    if hidden and existing is None:
        session.add(ChatHide(user_id=viewer_id, author_id=target.id))
    elif not hidden and existing is not None:
        session.delete(existing)
    session.flush()
    return hidden_authors(session, viewer_id)


def report(session: Session, table_id: int, reporter_id: int, message_id: int) -> None:
    """Report a message of this table to the admins (twice counts once)."""
    msg = session.get(ChatMessage, message_id)
    if msg is None or msg.table_id != table_id or msg.deleted:
        raise ChatError("chat_no_such_message")
    if msg.user_id == reporter_id:
        raise ChatError("chat_report_own")
    done = session.scalar(select(ChatReport.id).where(ChatReport.message_id == message_id,
                                                     ChatReport.reporter_id == reporter_id))
    if done is None:
        session.add(ChatReport(message_id=message_id, reporter_id=reporter_id))
        session.flush()


@dataclass(frozen=True)
class Reported:
    """A reported message as the admins' page lists it."""

    message_id: int
    table_id: int
    author_id: int
    author: str
    text: str
    at: dt.datetime
    reporters: list[str]


def open_reports(session: Session) -> list[Reported]:
    """The messages reported and not yet dealt with, newest first."""
    reporter = aliased(User)
    rows = session.execute(
        select(ChatMessage.id, ChatMessage.table_id, User.id, User.username, ChatMessage.text, ChatMessage.created,
               reporter.username)
        .join(ChatReport, ChatReport.message_id == ChatMessage.id)
        .join(User, User.id == ChatMessage.user_id).join(reporter, reporter.id == ChatReport.reporter_id)
        .where(ChatReport.handled.is_(False)).order_by(ChatMessage.id.desc(), reporter.username)).all()
    found: dict[int, Reported] = {}
    for mid, table_id, author_id, author, text, at, who in rows:
        found.setdefault(mid, Reported(mid, table_id, author_id, author, text, at, [])).reporters.append(who)
    return list(found.values())


def delete_message(session: Session, message_id: int) -> int:
    """An admin deletes a message (its reports are dealt with); returns its table."""
    msg = session.get(ChatMessage, message_id)
    if msg is None:
        raise ChatError("chat_no_such_message")
    msg.deleted = True
    dismiss(session, message_id)
    return msg.table_id


def dismiss(session: Session, message_id: int) -> None:
    session.execute(update(ChatReport).where(ChatReport.message_id == message_id).values(handled=True))


def mute(session: Session, user_id: int, minutes: int, by_id: int, tavern_id: int | None = None,
         now: dt.datetime | None = None) -> dt.datetime:
    """Mute ``user_id`` for ``minutes``: everywhere (an admin: ``tavern_id``
    None) or at the tables of ``tavern_id``, whose owner must be ``by_id``."""
    if not 1 <= minutes <= MAX_MUTE_MINUTES:
        raise ChatError("chat_mute_minutes", maximum=MAX_MUTE_MINUTES)
    if user_id == by_id:
        raise ChatError("chat_mute_self")
    if session.get(User, user_id) is None:
        raise ChatError("no_such_user")
    if tavern_id is not None:
        tavern = session.get(Tavern, tavern_id)
        if tavern is None or tavern.owner_id != by_id:
            raise ChatError("not_your_tavern")
    until = (now or utcnow()) + dt.timedelta(minutes=minutes)
    session.add(ChatMute(user_id=user_id, tavern_id=tavern_id, until=until, by_id=by_id))
    session.flush()
    return until


def open_tables(session: Session, tavern_id: int | None = None) -> list[int]:
    """The open tables a mute is pushed to (all of them, or one tavern's)."""
    stmt = select(TableConfig.id).where(TableConfig.status == "open")
    if tavern_id is not None:
        stmt = stmt.where(TableConfig.tavern_id == tavern_id)
    return list(session.scalars(stmt))


def set_mode(session: Session, table_id: int, tavern_id: int, mode: str) -> None:
    """The owner's choice of who writes at one of his tables."""
    if mode not in CHAT_MODES:
        raise ChatError("chat_mode_unknown")
    table = session.get(TableConfig, table_id)
    if table is None or table.tavern_id != tavern_id:
        raise ChatError("table_not_in_your_tavern")
    table.chat = mode
    session.flush()


def messages_of(session: Session, user_id: int) -> list[dict[str, Any]]:
    """His messages still kept, for his data export (docs/privacy.md)."""
    return [{"id": m.id, "table_id": m.table_id, "text": m.text, "created": m.created.isoformat(),
             "deleted": m.deleted}
            for m in session.scalars(select(ChatMessage).where(ChatMessage.user_id == user_id).order_by(ChatMessage.id))]


def forget_account(session: Session, user_id: int) -> None:
    """His account is deleted: his messages go (with the reports about them),
    and his reports, hides and mutes (docs/privacy.md)."""
    his = select(ChatMessage.id).where(ChatMessage.user_id == user_id)
    session.execute(delete(ChatReport).where(or_(ChatReport.message_id.in_(his), ChatReport.reporter_id == user_id)))
    session.execute(delete(ChatMessage).where(ChatMessage.user_id == user_id))
    session.execute(delete(ChatHide).where(or_(ChatHide.user_id == user_id, ChatHide.author_id == user_id)))
    session.execute(delete(ChatMute).where(ChatMute.user_id == user_id))


def purge(session: Session, now: dt.datetime | None = None) -> int:
    """Forget the messages older than :data:`KEEP_DAYS` days and the mutes
    that ended (their reports go with them); returns the messages deleted."""
    now = now or utcnow()
    old = select(ChatMessage.id).where(ChatMessage.created < now - dt.timedelta(days=KEEP_DAYS))
    # Explicitly, not by the foreign key's cascade: SQLite enforces it only when asked.
    session.execute(delete(ChatReport).where(ChatReport.message_id.in_(old)))
    gone = session.execute(delete(ChatMessage).where(ChatMessage.id.in_(old)))
    session.execute(delete(ChatMute).where(ChatMute.until <= now))
    return int(getattr(gone, "rowcount", 0) or 0)
