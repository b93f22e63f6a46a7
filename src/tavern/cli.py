"""The ``tavern`` console script."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from alembic.config import Config

from tavern.catalogue import JSON_KINDS, PROCESS, STDIN, VERIFY_OK_LINE, french


def _lower_first(text: str) -> str:
    """A catalogue sentence said after a colon (« Sauvegarde refusée : la base… »)."""
    return text[:1].lower() + text[1:]


def _load_json(path: str) -> object:
    """The file's JSON value (``-``: standard input), or a :class:`Refusal`
    naming what is wrong in French: a missing or unreadable file, bytes that
    are not UTF-8, an empty file, text that is not JSON."""
    from tavern.refusal import Refusal

    where = STDIN if path == "-" else path
    try:
        raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except FileNotFoundError:
        raise Refusal("record_file_missing", path=where) from None
    except IsADirectoryError:
        raise Refusal("record_file_directory", path=where) from None
    except PermissionError:
        raise Refusal("record_file_denied", path=where) from None
    except OSError as exc:
        raise Refusal("record_file_unreadable", path=where, errno=exc.errno or 0) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:  # random bytes, a Latin-1 file
        raise Refusal("record_not_utf8", path=where, position=exc.start) from None
    if not text.strip():
        raise Refusal("record_empty", path=where)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise Refusal("record_not_json", path=where, line=exc.lineno, column=exc.colno) from None
    except RecursionError:  # thousands of nested brackets
        raise Refusal("record_not_json", path=where, line=1, column=1) from None


def _read_record(path: str) -> dict[str, Any]:
    """A hand record read from ``path``: a JSON object, or a :class:`Refusal`."""
    from tavern.refusal import Refusal

    value = _load_json(path)
    if not isinstance(value, dict):
        raise Refusal("record_json_not_object", path=STDIN if path == "-" else path,
                      kind=JSON_KINDS.get(type(value).__name__, JSON_KINDS["other"]))
    return value


def _replay(args: argparse.Namespace) -> int:
    """0: replayed; 1: a move the rules refuse (an inconsistent record);
    2: not a well-formed record (a field of the wrong type, an unknown key,
    an unreadable file) — never a traceback."""
    from tavern.cards import CardError
    from tavern.catalogue import french
    from tavern.games.base import IllegalAction, RecordError
    from tavern.games.registry import replay
    from tavern.refusal import Refusal

    try:
        record = _load_json(args.record)  # not an object: check_record says so, with its field
        out = replay(record)
    except RecordError as exc:
        print(json.dumps({"error": exc.message, "field": exc.field, "code": exc.code, "params": exc.params},
                         ensure_ascii=False, default=str))
        return 2
    except (IllegalAction, CardError) as exc:
        print(json.dumps({"error": exc.message, "code": exc.code, "params": exc.params},
                         ensure_ascii=False, default=str))
        return 1
    except Refusal as exc:  # the file itself: missing, not UTF-8, not JSON
        print(json.dumps({"error": exc.message, "code": exc.code, "params": exc.params}, ensure_ascii=False))
        return 2
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        # A shape no check above foresaw: still a clear refusal, not a traceback.
        params = {"kind": type(exc).__name__, "detail": str(exc)}
        print(json.dumps({"error": french("record_malformed", params), "code": "record_malformed", "params": params},
                         ensure_ascii=False))
        return 2
    print(json.dumps(out, ensure_ascii=False, indent=2))
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Recompute a deal's deck from its revealed seeds (docs/fairness.md):
    0 when it matches, 1 when it does not, 2 when the file is not a record
    (missing, unreadable, not UTF-8, empty, not JSON, not an object) — one
    French line on standard error, never a traceback."""
    from tavern.fair import FairError
    from tavern.fair_cards import verify  # a whole record, or a player's openings (docs/fairness.md)
    from tavern.refusal import Refusal

    try:
        record = _read_record(args.record)
    except Refusal as exc:
        print(french("cli_unreadable", {"why": exc.message}), file=sys.stderr)
        return 2
    try:
        said = verify(record)
    except FairError as exc:
        print(french("cli_verify_failed", {"why": exc.message}))
        return 1
    for line in said:
        print(VERIFY_OK_LINE.format(what=_lower_first(line)))
    early = "server_seed" not in record.get("fair", {})  # a player's openings, before the seed (fair_cards.verify)
    print(french("cli_verify_openings_ok" if early else "cli_verify_ok"))
    return 0


def _export_phh(args: argparse.Namespace) -> int:
    from tavern.games.base import IllegalAction
    from tavern.games.poker.phh import to_phh

    try:
        print(to_phh(_read_record(args.record)), end="")
    except IllegalAction as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def _alembic_config() -> Config:
    """alembic.ini from the working directory, else from the source checkout."""
    from alembic.config import Config

    for root in (Path.cwd(), Path(__file__).resolve().parents[2]):
        if (root / "alembic.ini").exists() and (root / "migrations").is_dir():
            return Config(str(root / "alembic.ini"))
    raise SystemExit("cannot find alembic.ini and migrations/ (run from the project's directory)")


def _migrate(args: argparse.Namespace) -> int:
    from alembic import command

    command.upgrade(_alembic_config(), args.revision)
    return 0


def _seed(args: argparse.Namespace) -> int:
    from tavern import logs
    from tavern.services.seed import seed
    from tavern.settings import get_settings
    from tavern.store.db import make_engine, run_transaction, session_factory

    # The command line is where the environment is read (as the app factory).
    settings = get_settings()
    logs.configure(settings.log_level, settings.log_format)
    engine = make_engine(settings.database_url)
    try:
        logins = run_transaction(session_factory(engine), lambda s: seed(s, settings))
    finally:
        engine.dispose()
    print("Demo logins (username / password):")
    for login in logins:
        print(f"  {login.username:<8} / {login.password:<12} {login.role:<7} {login.note}")
    enrolled = [login for login in logins if login.totp]
    if enrolled:
        print("Two-factor sign-in (TOTP secrets, for an authenticator app):")
        for login in enrolled:
            print(f"  {login.username:<8}   {login.totp}")
    return 0


PG_BACKUP = french("cli_pg_backup")


def _backup(args: argparse.Namespace) -> int:
    """0: copied; 2: refused (PostgreSQL, an existing file, no store)."""
    from tavern import logs
    from tavern.settings import get_settings
    from tavern.store.backup import BackupError, backup, sqlite_path

    settings = get_settings()
    logs.configure(settings.log_level, settings.log_format)
    try:
        if sqlite_path(settings.database_url) is None:
            print(PG_BACKUP, file=sys.stderr)
            return 2
        copied = backup(settings.database_url, Path(args.path))
    except BackupError as exc:
        print(french("cli_backup_refused", {"why": _lower_first(exc.message)}), file=sys.stderr)
        return 2
    print(french("cli_backup_written", {"path": str(copied.path), "size": copied.size,
                                        "in_progress": copied.deals_in_progress}))
    return 0


def _restore(args: argparse.Namespace) -> int:
    """Put a backup in place of the store (SQLite), or finish a pg_restore
    (``--after-pg``), then do what a restart does: the schema brought up to
    date, the deals of the backup's moment voided and their hands given
    back, and the ledger audited. 0: restored and balanced; 1: refused
    while a server uses the store, or the audit does not balance; 2: refused
    (not a backup, PostgreSQL without --after-pg)."""
    from alembic import command

    from tavern import logs
    from tavern.services import ledger
    from tavern.settings import get_settings
    from tavern.store.backup import BackupError, restore, sqlite_path
    from tavern.store.db import make_engine, read_session, session_factory
    from tavern.tables.bank import SqlBank
    from tavern.web.single import live_holders

    settings = get_settings()
    logs.configure(settings.log_level, settings.log_format)
    running = live_holders(settings.data_dir)
    if running:
        who = ", ".join(PROCESS.format(pid=h.get("pid"), host=h.get("host")) for h in running)
        print(french("cli_restore_server_running", {"who": who}), file=sys.stderr)
        return 1
    try:
        if sqlite_path(settings.database_url) is None:
            if not args.after_pg:
                print(PG_BACKUP, file=sys.stderr)
                return 2
            kept = None
        else:
            if args.path is None:
                print(french("cli_restore_needs_file"), file=sys.stderr)
                return 2
            kept = restore(Path(args.path), settings.database_url)
    except BackupError as exc:
        print(french("cli_restore_refused", {"why": _lower_first(exc.message)}), file=sys.stderr)
        return 2
    cfg = _alembic_config()
    cfg.attributes["url"] = settings.database_url
    command.upgrade(cfg, "head")  # a backup older than the code: its schema brought up to date
    engine = make_engine(settings.database_url)
    try:
        voided = SqlBank(session_factory(engine), settings).void_interrupted()
        with read_session(engine) as s:
            audit = ledger.audit(s)
    finally:
        engine.dispose()
    if kept is not None:
        print(french("cli_old_store_kept", {"path": str(kept)}))
    print(french("cli_restored", {"voided": len(voided)}))
    if not audit.ok:
        print(french("cli_ledger_unbalanced", {"audit": audit}), file=sys.stderr)
        return 1
    print(french("cli_ledger_balanced"))
    return 0


def _in_one_transaction(work: Any) -> Any:
    """``work(session)`` in one transaction on the site's store, servers running or not."""
    from tavern.settings import get_settings
    from tavern.store.db import make_engine, run_transaction, session_factory

    engine = make_engine(get_settings().database_url)
    try:
        return run_transaction(session_factory(engine), work)
    finally:
        engine.dispose()


def _stats_rebuild(args: argparse.Namespace) -> int:
    from tavern.services import stats

    print(french("cli_stats_rebuilt", {"counted": _in_one_transaction(stats.rebuild)}))
    return 0


def _chat_purge(args: argparse.Namespace) -> int:
    """The chat keeps 30 days (issue 30 §1): run daily (docs/operations.md), servers running or not."""
    from tavern.services import chat

    print(french("chat_purged", {"deleted": _in_one_transaction(chat.purge)}))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tavern", description="tavern card-game server tools")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="replay a hand record and print its result as JSON")
    p.add_argument("record", help="path to a hand record JSON file, or - for stdin")
    p.set_defaults(func=_replay)
    p = sub.add_parser("verify", help="check that a hand record's deck comes from its revealed seeds")
    p.add_argument("record", help="path to a hand record JSON file, or - for stdin")
    p.set_defaults(func=_verify)
    p = sub.add_parser("export-phh", help="write a Ramponneau hand record as PHH")
    p.add_argument("record")
    p.set_defaults(func=_export_phh)
    p = sub.add_parser("stats-rebuild", help="count every settled deal of the archive again into the players' "
                       "statistics and weekly leaderboards (server stopped)")
    p.set_defaults(func=_stats_rebuild)
    p = sub.add_parser("chat-purge", help="forget the table chat's messages older than 30 days and the ended mutes")
    p.set_defaults(func=_chat_purge)
    p = sub.add_parser("migrate", help="bring the database schema up to date (alembic upgrade)")
    p.add_argument("revision", nargs="?", default="head")
    p.set_defaults(func=_migrate)
    p = sub.add_parser("seed", help="create the demo village, tavern, tables and players (idempotent)")
    p.set_defaults(func=_seed)
    p = sub.add_parser("backup", help="copy the SQLite store into PATH while the server runs (PostgreSQL: says how)")
    p.add_argument("path")
    p.set_defaults(func=_backup)
    p = sub.add_parser("restore", help="put a backup in place of the store (servers stopped), void its deals in progress, audit")
    p.add_argument("path", nargs="?")
    p.add_argument("--after-pg", action="store_true", help="PostgreSQL: after pg_restore, void and audit only")
    p.set_defaults(func=_restore)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
