"""Two-factor sign-in (issue 39 §4): TOTP codes of RFC 6238 (pyotp) and
ten recovery codes.

* Enrolment: a secret is drawn (``users.totp_pending``) and shown as a QR
  code (segno draws it) and as text; the first code read from the app
  proves the app has it, and only then is it the account's
  (``users.totp_secret``). Ten recovery codes are drawn then, shown once,
  kept salted and hashed.
* A code is accepted for its 30-second step, the one before or the one
  after (clocks drift), and only if its step is later than the last one
  accepted: a code seen over a shoulder or replayed is refused — the
  compare-and-set on ``totp_last_step`` holds between two requests racing.
* Required for the admins and the tavern owners when the setting
  ``totp_required`` is on (the default): they enrol at their next sign-in.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from typing import Any

import pyotp
import segno
from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from tavern.refusal import Refusal
from tavern.store.models import RecoveryCode, Tavern, User

STEP = 30
#: Steps accepted either side of now (RFC 6238 §5.2: a delay of one step).
DRIFT = 1
RECOVERY_CODES = 10
#: Unambiguous letters and digits (no 0/o, 1/l/i): a code copied from paper.
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


class TwoFactorError(Refusal, ValueError):
    """A refused code or enrolment: nothing changed."""


def new_secret() -> str:
    return pyotp.random_base32()  # 160 bits, RFC 4226's recommended length


def provisioning_uri(secret: str, username: str, site: str) -> str:
    """The ``otpauth://`` address an authenticator app reads from the QR code."""
    return pyotp.TOTP(secret, interval=STEP).provisioning_uri(name=username, issuer_name=site)


def qr_svg(uri: str) -> str:
    """The QR code of ``uri`` as an inline SVG (drawn by segno)."""
    return str(segno.make(uri, error="m").svg_inline(scale=5, dark="#000", light="#fff", border=4))


def code_for(secret: str, when: dt.datetime) -> str:
    """The code an app shows at ``when`` (the demo's printed secret, the tests)."""
    return str(pyotp.TOTP(secret, interval=STEP).at(when))


def matching_step(secret: str, code: str, now: dt.datetime) -> int | None:
    """The time step ``code`` belongs to, within the drift; None if none."""
    code = "".join(code.split())
    if len(code) != 6 or not code.isdigit():
        return None
    totp = pyotp.TOTP(secret, interval=STEP)
    here = int(now.timestamp()) // STEP
    found = None
    for step in range(here - DRIFT, here + DRIFT + 1):  # every step compared: the same time either way
        if hmac.compare_digest(totp.at(step * STEP), code):
            found = step
    return found


def required_for(session: Session, user: User, setting: bool) -> bool:
    """Whether ``user`` must have 2FA: an admin or a tavern owner, the setting on."""
    if not setting or user.house:
        return False
    if user.role == "admin":
        return True
    return session.scalar(select(func.count(Tavern.id)).where(Tavern.owner_id == user.id)) != 0


def start_enrolment(session: Session, user: User) -> str:
    """A fresh secret to show (QR code and text) until its first code comes."""
    if user.totp_secret:
        raise TwoFactorError("totp_already_on")
    user.totp_pending = new_secret()
    return user.totp_pending


def _take_step(session: Session, user_id: int, step: int) -> bool:
    """Record ``step`` as the last one used, if it is later than the last: a
    compare-and-set, so that two requests cannot both use one code."""
    done: Any = session.execute(update(User).where(
        User.id == user_id, or_(User.totp_last_step.is_(None), User.totp_last_step < step))
        .values(totp_last_step=step))
    return bool(done.rowcount)


def finish_enrolment(session: Session, user: User, code: str, now: dt.datetime) -> list[str]:
    """The first code from the app turns the pending secret on; the ten new
    recovery codes, to show once."""
    if user.totp_secret:
        raise TwoFactorError("totp_already_on")
    if not user.totp_pending:
        raise TwoFactorError("totp_not_started")
    step = matching_step(user.totp_pending, code, now)
    if step is None:
        raise TwoFactorError("totp_wrong")
    user.totp_secret, user.totp_pending = user.totp_pending, None
    session.flush()
    _take_step(session, user.id, step)
    return new_recovery_codes(session, user.id)


def _hash(salt: str, code: str) -> str:
    return hashlib.sha256(f"{salt}:{code}".encode()).hexdigest()


def _normal_code(code: str) -> str:
    return "".join(c for c in code.lower() if c.isalnum())


def new_recovery_codes(session: Session, user_id: int) -> list[str]:
    """Ten new codes (``xxxx-xxxx-xxxx``, 60 bits each); the old ones die."""
    session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user_id))
    codes = []
    for _ in range(RECOVERY_CODES):
        raw = "".join(secrets.choice(_ALPHABET) for _ in range(12))
        salt = secrets.token_hex(8)
        session.add(RecoveryCode(user_id=user_id, salt=salt, code_hash=_hash(salt, raw)))
        codes.append(f"{raw[:4]}-{raw[4:8]}-{raw[8:]}")
    return codes


def recovery_left(session: Session, user_id: int) -> int:
    return int(session.scalar(select(func.count(RecoveryCode.id)).where(RecoveryCode.user_id == user_id)) or 0)


def _use_recovery(session: Session, user_id: int, code: str) -> bool:
    wanted = _normal_code(code)
    if len(wanted) != 12:
        return False
    for row in session.scalars(select(RecoveryCode).where(RecoveryCode.user_id == user_id)).all():
        if hmac.compare_digest(row.code_hash, _hash(row.salt, wanted)):
            done: Any = session.execute(delete(RecoveryCode).where(RecoveryCode.id == row.id))
            return bool(done.rowcount)  # a racing request used it first: not twice
    return False


def check_code(session: Session, user_id: int, code: str, now: dt.datetime) -> str:
    """Accept a TOTP code (not used before) or a recovery code (used up):
    ``totp`` or ``recovery``. Refused: ``totp_wrong`` or ``totp_replayed``."""
    user = session.get(User, user_id)
    if user is None or not user.totp_secret:
        raise TwoFactorError("totp_wrong")
    step = matching_step(user.totp_secret, code, now)
    if step is not None:
        if not _take_step(session, user_id, step):
            raise TwoFactorError("totp_replayed")
        return "totp"
    if _use_recovery(session, user_id, code):
        return "recovery"
    raise TwoFactorError("totp_wrong")


def turn_off(session: Session, user_id: int) -> bool:
    """2FA off (by its owner, or lifted by an admin): whether it was on."""
    user = session.get(User, user_id)
    if user is None:
        return False
    was = bool(user.totp_secret)
    user.totp_secret = user.totp_pending = None
    user.totp_last_step = None
    session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user_id))
    return was


def enrol_with(user: User, secret: str) -> None:
    """Enrol ``user`` with a known secret (the demo accounts, whose secret
    ``tavern seed`` prints): no recovery codes."""
    user.totp_secret, user.totp_pending, user.totp_last_step = secret, None, None


def second_factor(session: Session, user_id: int, setting: bool) -> str:
    """What comes after a right password: ``none`` (logged in), ``code``
    (enrolled: his code) or ``enrol`` (required of him and not enrolled yet)."""
    user = session.get(User, user_id)
    if user is None:
        return "none"
    if user.totp_secret:
        return "code"
    return "enrol" if required_for(session, user, setting) else "none"
