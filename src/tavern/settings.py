"""The one settings object. Every knob of the site is here, read from
environment variables prefixed ``TAVERN_`` (``TAVERN_DATABASE_URL``, …).

Nothing else in the project reads ``os.environ`` (prometheus-client reads
its own ``PROMETHEUS_MULTIPROC_DIR``, which must be set before the workers
start: tavern/metrics.py). Only the places that start
the program read the settings from it, with :func:`get_settings`: the app
factory (``tavern.web.app.create_app``), the command line (``tavern.cli``) and
Alembic's ``migrations/env.py``. Everything else receives them: routes
through ``Depends(site_settings)`` (``tavern.web.state.Services.settings``), the tables' bank
and the services as a parameter; tests build their own and hand them in.
"""

from __future__ import annotations

import ipaddress
import secrets
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

#: The longest turn at a table of the default action timer (30 s, the
#: table form's default) for a player who also spends his whole time bank
#: (at most 60 s: tables/actor.py TIME_BANK_MAX; a bank is spent once a deal).
LONGEST_TURN_SECONDS = 30.0 + 60.0
#: How many such turns the drain waits for: a slow player's deal of
#: Ramponneau — his whole timer at each of the four betting rounds and his
#: whole bank once, 4 × 30 + 60 s — is exactly two of them.
DRAIN_TURNS = 2
DRAIN_DEFAULT_SECONDS = DRAIN_TURNS * LONGEST_TURN_SECONDS  # 180 s


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TAVERN_", extra="ignore")

    #: Where the SQLite file and the development secret key live.
    data_dir: Path = Path("data")
    #: ``sqlite:///…`` (default: ``<data_dir>/tavern.db``) or
    #: ``postgresql+psycopg://user:pass@host/db`` for the scaled setup.
    database_url: str = ""
    #: Optional Redis for pub/sub fan-out between worker processes.
    redis_url: str | None = None
    #: Worker processes the server is started with (the Docker image passes
    #: it to uvicorn). Above 1 needs ``redis_url``: the workers share the
    #: tables through leases in Redis (tables/cluster.py, web/single.py).
    workers: int = Field(default=1, ge=1)
    #: Seconds a worker's lease on a table lasts unrenewed: how soon the
    #: tables of a worker that died are taken over by another.
    lease_seconds: float = Field(default=5.0, gt=0.5)
    #: A worker stopping gracefully (SIGTERM) deals no new hand and lets
    #: each table go as soon as its running deal ends; a deal still running
    #: after this long is voided by the table's next owner (refunded). Also
    #: the longest a table handed over for balance waits for its deal.
    #: The default (DRAIN_DEFAULT_SECONDS) outlasts a deal with one slow
    #: player at a table of the default timer (docs/operations.md "Drain").
    drain_seconds: float = Field(default_factory=lambda: DRAIN_DEFAULT_SECONDS, ge=0)
    #: Signs session cookies. When unset, one is generated once and kept in
    #: ``<data_dir>/secret_key`` so restarts keep everybody logged in.
    secret_key: str = ""
    allowed_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: ["http://127.0.0.1:8000", "http://localhost:8000"]
    )

    # --- operations (docs/operations.md)
    #: The level of the server's own log lines (DEBUG, INFO, WARNING, ERROR).
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    #: ``text`` for a person (``make run``), ``json`` for a log collector: one
    #: object a line with the request id, account, table and deal (tavern/logs.py).
    log_format: Literal["text", "json"] = "text"
    #: ``/metrics`` answers a scrape carrying ``Authorization: Bearer <token>``…
    metrics_token: str = ""
    #: … or coming from one of these addresses or networks (``10.0.0.0/8,127.0.0.1``).
    #: Neither set: ``/metrics`` is refused to everybody.
    metrics_allow: Annotated[list[str], NoDecode] = Field(default_factory=list)

    # --- quotas (RULES.md "Daily hands": "Counts and prices are site settings")
    free_hands_per_day: int = 20
    #: Écus the house gives every new account, so that a newcomer can sit
    #: down at once: 500 is a few caves at the demo's smallest stakes
    #: (Ramponneau 1/2: a cave of 20 to 200). 0 turns the grant off.
    welcome_ecus: int = Field(default=500, ge=0)
    #: Accounts one client address may open an hour (a load test raises it).
    signups_per_hour: int = Field(default=5, ge=1)
    pack_hands: int = 200
    pack_price_tokens: int = 10
    timezone: str = "Europe/Paris"
    #: A player who loses the connection is all-in for the rest of the hand,
    #: this many times a day (RULES.md, ramponneau).
    disconnect_protections_per_day: int = 3

    # --- tables
    #: The highest rake percentage an owner may set.
    max_rake_percent: int = 10
    #: Cave bounds as multiples of the big blind (RULES.md "Cave").
    buy_in_min_bb: int = 10
    buy_in_max_bb: int = 100
    #: Seconds between the end of a deal and the next (time to see the result).
    deal_pause_seconds: float = 3.0
    #: Seconds a disconnected player has to come back before the table acts for him.
    reconnect_grace_seconds: float = 15.0

    # --- capacity (docs/web.md "Capacity"). A request holds at most one
    # database connection at a time, and only while a request thread runs
    # it: the pool has a connection for every request thread plus every
    # table thread, so nobody waits for one in normal use. If the pool is
    # empty all the same, a request waits ``db_pool_timeout`` seconds and is
    # answered 503 (never a 500 after 30 s).
    #: Threads running the synchronous routes (anyio's limiter).
    web_threads: int = 16
    #: Threads running the live tables' database work (asyncio.to_thread).
    table_threads: int = 8
    db_pool_timeout: float = 3.0
    #: How long a thread holding the GIL runs before another may take it
    #: (Python's default: 5 ms). The event loop gives the GIL up at every
    #: socket write; with the database threads busy it may wait this long to
    #: get it back, write after write — on a busy machine, where the holder
    #: itself waits for a core, much longer (docs/benchmarks.md "Capacity").
    gil_switch_ms: float = Field(default=1.0, gt=0, le=100)
    #: Seconds between the server's full garbage collections, which it runs
    #: itself instead of letting Python start one at any moment (a pause of
    #: every table, web/collector.py); 0 leaves Python's own schedule.
    gc_full_seconds: float = Field(default=600.0, ge=0)
    #: Seconds between the server's young collections (web/collector.py: each
    #: walks only what the last moment allocated); 0 leaves Python's own young
    #: and middle collections. Only with ``gc_full_seconds`` above 0.
    gc_young_seconds: float = Field(default=0.05, ge=0, le=10)
    #: Table WebSockets open at once per account and per client address
    #: (docs/web.md; behind a proxy or a NAT many players share an address:
    #: raise it there — the benchmarks' bots all come from 127.0.0.1).
    ws_per_account: int = Field(default=16, ge=1)
    ws_per_address: int = Field(default=64, ge=1)
    #: The same caps for the sockets the server only pushes on — the live
    #: village's and a player's notices (web/push.py), counted apart from the
    #: table sockets': a village visitor needs no account, so his address
    #: alone bounds him (one address held 300 village sockets, issue 41 §3).
    push_per_account: int = Field(default=16, ge=1)
    push_per_address: int = Field(default=64, ge=1)

    # --- accounts and mail (issue 39; docs/web.md "Accounts")
    #: The site's name in its mails.
    site_name: str = "La taverne"
    #: The site's address as players reach it, for the links in its mails
    #: (never the request's Host header: a forged one would send a reset
    #: link to another site). Empty: the first of ``allowed_origins``.
    public_url: str = ""
    #: ``smtps://user:password@host:465`` (TLS) or ``smtp://…@host:587``
    #: (STARTTLS, required but towards a loopback address). Empty: each mail
    #: is written to the log and to the admins' page « Courriers » instead.
    smtp_url: str = ""
    #: The sender's address of the site's mails.
    mail_from: str = "taverne@localhost"
    #: Seconds before a failed mail is tried again, doubled at each failure
    #: (at most an hour), and how many tries before it is given up.
    mail_retry_seconds: float = Field(default=30.0, gt=0)
    mail_max_attempts: int = Field(default=12, ge=1)
    #: « Mot de passe oublié » asks an hour for one address or name, and from
    #: one client address.
    resets_per_hour: int = Field(default=3, ge=1)
    resets_per_hour_per_ip: int = Field(default=20, ge=1)
    #: Two-factor sign-in required of the admins and the tavern owners
    #: (``tavern seed`` enrols the demo ones and prints their secret).
    totp_required: bool = True
    #: « Mes sessions »: a session not seen for this long ends (ASVS 3.3.2).
    session_idle_hours: float = Field(default=72.0, gt=0)

    # --- password hashing (Argon2id; argon2-cffi's defaults, RFC 9106 low
    # memory). Test runs lower them: hashing is deliberately slow.
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65536
    argon2_parallelism: int = 4

    # --- the shop: price in écus of each deck item kind
    price_deck52_ecus: int = 100
    price_deck32_ecus: int = 80

    # --- fair play (docs/fairness.md)
    #: Days after a deal before its players receive its server seed (and so
    #: its whole deck, every folded hand); 0: never. Meanwhile they have the
    #: openings of the cards they saw; the admins have the seed at once.
    fair_reveal_days: int = Field(default=30, ge=0)

    # --- the collusion report (docs/surveillance.md): its thresholds
    surveillance_min_deals: int = Field(default=30, ge=1)
    surveillance_min_faced: int = Field(default=20, ge=1)
    surveillance_one_way: float = Field(default=3.0, ge=1)
    surveillance_one_way_excess: float = Field(default=2.0, ge=1)
    surveillance_fold_gap: float = Field(default=0.3, gt=0, le=1)
    surveillance_raise_gap: float = Field(default=0.15, gt=0, le=1)
    surveillance_score: float = Field(default=1.0, gt=0)

    @field_validator("metrics_allow", mode="before")
    @classmethod
    def _split_networks(cls, value: object) -> object:
        if isinstance(value, str):
            value = [n.strip() for n in value.split(",") if n.strip()]
        for net in value if isinstance(value, list) else []:
            ipaddress.ip_network(net, strict=False)  # a typo stops the start, not a scrape
        return value

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            return [o.strip() for o in value.split(",") if o.strip()]
        return value

    @model_validator(mode="after")
    def _defaults_from_data_dir(self) -> Settings:
        if not self.database_url:
            self.database_url = f"sqlite:///{(self.data_dir / 'tavern.db').resolve()}"
        if self.database_url.startswith("postgresql://"):
            # Name the driver we ship (psycopg 3) so a plain URL works too.
            self.database_url = "postgresql+psycopg://" + self.database_url[len("postgresql://") :]
        return self

    @property
    def site_url(self) -> str:
        """Where the links of the site's mails point (no trailing slash)."""
        return (self.public_url or (self.allowed_origins or ["http://127.0.0.1:8000"])[0]).rstrip("/")

    @property
    def db_pool_size(self) -> int:
        """One pooled connection per thread that may use one."""
        return self.web_threads + self.table_threads

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    def deck_price(self, kind: str) -> int:
        """Price in écus of a deck item of ``kind`` ('deck52' or 'deck32')."""
        return {"deck52": self.price_deck52_ecus, "deck32": self.price_deck32_ecus}[kind]

    def get_secret_key(self) -> str:
        """The configured key, or the development key kept in the data dir."""
        if self.secret_key:
            return self.secret_key
        path = self.data_dir / "secret_key"
        if path.exists():
            key = path.read_text(encoding="utf-8").strip()
            if key:
                self.secret_key = key
                return key
        path.parent.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        path.write_text(key + "\n", encoding="utf-8")
        path.chmod(0o600)
        self.secret_key = key
        return key


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The site's settings, read from the environment once (for the app factory,
    the CLI and the migrations)."""
    settings = Settings()
    settings.get_secret_key()
    return settings
