"""What a table tells: the views, snapshots and messages of one table.

The actor changes the table; :class:`Publisher` says it — one message per
recipient (each seated player's own view, one spectators' view), the parts
alike for every recipient encoded once, the deal's story sent by its new
events, the last result and revealed seed only when they changed
(docs/protocol.md, docs/architecture.md "The live table"). It reads the
table through :class:`Published` and writes nothing of it: the sequence
number, the story, what each player was last shown belong to it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import orjson

from tavern import fair, fair_cards, metrics
from tavern.catalogue import french
from tavern.games.base import Engine, Own, public_and_own, views
from tavern.games.spec import GameSpec
from tavern.tables.bank import LostTable, TableInfo
from tavern.tables.broadcast import SPECTATORS, Broadcaster
from tavern.tables.seating import SeatState, at_table_seats
from tavern.tables.store_fault import TickFailures


class Dresser(Protocol):
    def dress(self, table: dict[str, Any]) -> None: ...


class Waiting(Protocol):
    """The table's waiting list as it is told (tables/waiting.py)."""

    @property
    def line(self) -> list[tuple[str, int]]: ...

    def public(self) -> dict[str, Any]: ...

    def own(self, name: str, now: float) -> dict[str, Any] | None: ...

    def names(self) -> list[str]: ...


def _dumps(value: Any) -> bytes:
    """JSON bytes, on the table's hottest path: every recipient's state at
    every action (orjson: several times the standard library)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def encode(message: dict[str, Any]) -> str:
    """A message as its JSON text (a connection's snapshot)."""
    return _dumps(message).decode()


def encoded(value: Any) -> orjson.Fragment:
    """A part shared by every recipient of a publication (the public table,
    the last result, the story's new events), encoded once: each recipient's
    message embeds the same bytes instead of encoding them again."""
    return orjson.Fragment(_dumps(value))


#: The public table's keys that change at most once a deal: its settings,
#: the fair commitments, the policy's own (``house``). A publication carries
#: them only when they changed (a snapshot always), as ``last_result``; each
#: state names the publication that last carried them (``table_at``), and
#: the page keeps them (table/frames.js, the same list). Resent at every
#: action they were a seventh of a Ramponneau state's raw bytes
#: (bench/bench_frame_bytes.py).
HELD = ("id", "name", "game", "variant", "label", "view", "stakes", "buy_in", "seats", "timer", "fair", "house")
#: Likewise in ``you``: the player's daily hands and the seed he sent, held
#: by the page from the publication his ``you_at`` names.
HELD_YOU = ("hands", "client_seed")


def _joined(alike: bytes, recipients: bytes) -> str:
    """One JSON object's text from two objects with no key in common
    (``{"a":1}`` and ``{"b":2}``: ``{"a":1,"b":2}``): a publication's part
    alike for every recipient is encoded once, each recipient's part alone."""
    return (alike[:-1] + b"," + recipients[1:]).decode()


class Published(Protocol):
    """What the publisher reads of its table (the actor), and nothing it writes."""

    info: TableInfo
    #: The owner's lease fence: each state carries it as its ``epoch``.
    fence: int
    game: GameSpec
    seats: dict[int, SeatState]
    engine: Engine | None
    dealt: dict[str, SeatState]
    closed: bool
    settling: bool
    button_seat: int | None
    deals: int
    next_seed: fair.DealSeed
    deal_seed: fair.DealSeed | None
    deal_cards: fair_cards.DealCards | None
    last_result: dict[str, Any] | None
    revealed: dict[str, Any] | None
    client_seeds: dict[str, str]
    clock: Callable[[], float]
    #: Driven seats whose account has no page (a house player's): no message is built for them.
    socketless: set[str]
    #: Its failing ticks, and the store's fault among them (told as ``store_fault``).
    tick_failures: TickFailures

    @property
    def waiting(self) -> Waiting: ...

    @property
    def policy(self) -> Dresser: ...

    @property
    def deadlines(self) -> dict[str, float]: ...


class Publisher:
    """The publications of one table (see the module's docstring)."""

    def __init__(self, table: Published, broadcaster: Broadcaster) -> None:
        self.table = table
        self.broadcaster = broadcaster
        self.seq = 0
        #: The running (or last) deal's public events, in order (docs/protocol.md "story").
        self.story: list[dict[str, Any]] = []
        self.story_sent = 0  #: events of the story already published
        #: ``last_result`` and the revealed seed change once a deal: a
        #: publication carries them only when they changed since the last one
        #: (told by identity: both are replaced, never edited), and every
        #: message names the publication that last carried them (``result_at``,
        #: docs/protocol.md) so that a client who missed it asks for a snapshot.
        self.result_sent: tuple[Any, Any] = (None, None)
        self.result_at = 0
        #: The table's keys that change at most once a deal (:data:`HELD`),
        #: as the last publication carrying them had them, and its ``seq``.
        self.held_sent: dict[str, Any] | None = None
        self.table_at = 0
        #: Each player's ``you`` keys that change at most once a deal
        #: (:data:`HELD_YOU`) as last carried to him, and that publication's ``seq``.
        self.you_sent: dict[str, dict[str, Any]] = {}
        self.you_at: dict[str, int] = {}
        #: Each player's legal actions as last shown to him, and the first
        #: publication that showed them: an action chosen on an older view
        #: is stale (the actor's ``act``).
        self.legal_shown: dict[str, tuple[list[dict[str, Any]], int]] = {}
        #: When a change of presence is to be published (actor.PRESENCE_DELAY).
        self.presence_due: float | None = None
        #: When the oldest action not yet published reached the table (metrics' latency).
        self.pending_act: float | None = None
        #: Whether this worker still holds the table's lease (tables/manager.py
        #: guard): nothing is published without it (issue 38).
        self.guard: Callable[[], Awaitable[bool]] | None = None

    async def _proven(self) -> None:
        """Raise :class:`LostTable` when the lease cannot be proven: a worker
        paused past its lease must not show a deal its successor voided."""
        if self.guard is not None and not await self.guard():
            metrics.UNPROVEN.inc()
            raise LostTable(self.table.info.id)

    def new_story(self, first: dict[str, Any]) -> None:
        """A deal starts: its story begins, to be sent whole."""
        self.story = [first]
        self.story_sent = 0

    def tell(self, events: list[dict[str, Any]] | None, by: str | None) -> None:
        """A move's public events join the deal's story (``by``: who played
        it when not the player himself: ``timeout``, ``auto``)."""
        for ev in events or []:
            self.story.append({**ev, "by": by} if by else dict(ev))

    # --- views ----------------------------------------------------------------

    def public_table(self) -> dict[str, Any]:
        t = self.table
        info = t.info
        now = t.clock()
        table = {
            "id": info.id, "name": info.name, "game": info.game, "variant": info.variant,
            "label": t.game.label, "view": t.game.view,
            "stakes": info.stakes, "buy_in": [info.buy_in_min, info.buy_in_max],
            "seats": info.seats, "timer": info.action_timer_seconds,
            "button_seat": t.button_seat, "deal_no": t.deals, "closed": t.closed,
            # The deal is over and its settlement not yet committed: its result follows.
            "settling": t.settling,
            "players": [
                {"seat": s.seat_no, "name": s.name, "chips": s.chips, "sitting_out": s.sitting_out,
                 "waiting": s.owes_big_blind and t.game.blinds and s.name not in t.dealt,
                 "connected": s.connections > 0, "in_deal": s.name in t.dealt and t.engine is not None}
                for s in sorted(t.seats.values(), key=lambda s: s.seat_no)
            ],
            "clock": {name: round(max(0.0, d - now), 1) for name, d in t.deadlines.items()},
            # The commitments: the running deal's (if any) and the next one's.
            "fair": {"scheme": fair.SCHEME, "next": t.next_seed.commitment,
                     "deal": t.deal_seed.commitment if t.engine is not None and t.deal_seed else None,
                     # the running deal's per-card digests, one per shuffle (fair_cards.py)
                     "cards": t.deal_cards.digests() if t.engine is not None and t.deal_cards else None},
        }
        if t.waiting.line:  # how many wait, the seats held: never who (absent: nobody waits)
            table["waiting"] = t.waiting.public()
        if t.tick_failures.fault:  # the store failing under the table: the deal waits on it, not on a player
            table["store_fault"] = t.tick_failures.fault
        t.policy.dress(table)
        return table

    def message_for(self, username: str | None, table: dict[str, Any] | None = None,
                    story_at: int = 0, shared: dict[str, Any] | None = None,
                    view: dict[str, Any] | None = None, own: Own | None = None) -> dict[str, Any]:
        """The message one recipient receives: his own view, never more.
        The deal's story goes from event ``story_at`` (0: all of it, as a
        (re)connection's snapshot needs; a publication sends what is new).
        ``shared``: the parts alike for every recipient, already encoded
        (:meth:`publish`); they replace ``table``, ``last_result`` and the
        story, and ``shared["result"]`` says whether ``last_result`` and the
        revealed seed go (a snapshot always carries them). ``view``: the
        dealt player's deal view, when the publication built them together;
        ``own``: what only he sees, sent beside the shared public view
        (``shared["deal"]``) instead of a view of his own."""
        if shared is None:
            shared = {"table": table or self.public_table(), "last_result": self.table.last_result,
                      "result": True, "story": self.story[story_at:], "deal": None, "snapshot": True}
        return {**self._alike(story_at, shared), **self._recipients(username, shared, view, own)}

    def _alike(self, story_at: int, shared: dict[str, Any]) -> dict[str, Any]:
        """The part of a state message every recipient of a publication holds alike."""
        # The epoch (the owner's fence) before the sequence: a new owner's
        # frames start again from 1 and must not look stale (docs/protocol.md).
        msg: dict[str, Any] = {"type": "state", "epoch": self.table.fence, "seq": self.seq, "table": shared["table"],
                               "table_at": self.table_at}
        if shared["result"]:
            msg["last_result"] = shared["last_result"]
        msg.update(result_at=self.result_at, story_at=story_at, story=shared["story"])
        return msg

    def _recipients(self, username: str | None, shared: dict[str, Any],
                    view: dict[str, Any] | None, own: Own | None) -> dict[str, Any]:
        """The part of a state message that is this recipient's own: the deal
        as he sees it, his own cards and legal actions, his seat, the revealed
        seed of a deal he played. Never a key of :meth:`_alike`'s."""
        t = self.table
        dealt = username in t.dealt
        deal = None
        if t.engine is not None:
            # Anyone not dealt in (a spectator, a seat waiting for the next
            # deal) sees the public view, encoded once per publication.
            if dealt and own is None:
                deal = view if view is not None else self.seated(t.engine.view(username))
            else:
                deal = shared["deal"] or self.seated(t.engine.view(None))
        msg: dict[str, Any] = {"deal": deal}
        if dealt and own is not None:
            msg["own"] = own
        if username is not None:
            seat = next((s for s in t.seats.values() if s.name == username), None)
            if seat is not None:
                msg["you"] = {"seat": seat.seat_no, "chips": seat.chips, "auto": seat.auto,
                              "sitting_out": seat.sitting_out, "owes_big_blind": seat.owes_big_blind,
                              "post_now": seat.post_now, "notice": seat.notice,
                              "leaving": seat.leave_after_deal, "time_bank": round(seat.time_bank, 1),
                              "hands": seat.extra.get("hands"),
                              "legal": self._legal_for(username, dealt),
                              "client_seed": t.client_seeds.get(username, "")}
                self._hold_you(username, msg, "snapshot" in shared)
            if shared["result"] and t.revealed is not None and username in t.revealed["players"]:
                # his own openings beside the deal's common block (issue 42 §6)
                msg["fair"] = {**t.revealed["fair"], **t.revealed["own"].get(username, {})}
            waits = t.waiting.own(username, t.clock()) if t.waiting.line else None
            if waits is not None:  # his place in line and his offer, to him only
                msg["waiting"] = waits
        return msg

    def _hold_you(self, username: str, msg: dict[str, Any], snapshot: bool) -> None:
        """``you``'s :data:`HELD_YOU` keys go when they changed since the
        last publication that carried them to ``username`` (a snapshot:
        always, and it notes nothing: the player's other pages did not get
        it); ``you_at`` names that publication."""
        you = msg["you"]
        held = {k: you[k] for k in HELD_YOU}
        if not snapshot and held != self.you_sent.get(username):
            self.you_sent[username], self.you_at[username] = held, self.seq
        elif not snapshot:
            for k in HELD_YOU:
                del you[k]
        msg["you_at"] = self.you_at.get(username, 0)

    def seated(self, view: dict[str, Any]) -> dict[str, Any]:
        """The deal view with the table's seat numbers, as ``table`` and ``you`` give them."""
        return at_table_seats(view, {s.name: s.seat_no for s in self.table.seats.values()})

    def _legal_for(self, username: str, dealt: bool) -> list[dict[str, Any]]:
        """The player's legal actions, noting the publication that first showed them."""
        engine = self.table.engine
        legal = engine.legal_actions(username) if engine is not None and dealt and not engine.over else []
        if self.legal_shown.get(username, (None, 0))[0] != legal:
            self.legal_shown[username] = (legal, self.seq)
        return legal

    # --- publications -----------------------------------------------------------

    def _table_part(self) -> dict[str, Any]:
        """The public table as this publication carries it: whole when its
        :data:`HELD` keys changed since the last publication that carried
        them (noted as ``table_at``), without them otherwise."""
        table = self.public_table()
        held = {k: table[k] for k in HELD if k in table}
        if held != self.held_sent:
            self.held_sent, self.table_at = held, self.seq
            return table
        return {k: v for k, v in table.items() if k not in held}

    def _deal_parts(self, names: list[str], watched: bool) -> tuple[Any, dict[str | None, dict[str, Any]],
                                                                    dict[str, Own]]:
        """The deal's parts of a publication: the public view encoded once and
        each dealt player's own part beside it, when the engine gives them
        apart (poker); otherwise the views built together (their public part
        once), each encoded for its recipient, and the public one for the
        watchers and the seats not dealt in."""
        engine = self.table.engine
        public_deal = None
        deals: dict[str | None, dict[str, Any]] = {}
        owns: dict[str, Own] = {}
        if engine is not None:
            dealt: list[str] = [n for n in names if n in self.table.dealt]
            split = public_and_own(engine, dealt)
            if split is not None:
                public, owns = split
                public_deal = encoded(self.seated(public))
            else:
                wanted: list[str | None] = [*dealt]
                if watched or len(wanted) < len(names):
                    wanted.append(None)
                deals = {k: self.seated(v) for k, v in views(engine, wanted).items()}
                if None in deals:
                    public_deal = encoded(deals[None])
        return public_deal, deals, owns

    async def publish(self, also: list[str] | None = None) -> None:
        """One message per seated player (and per name in ``also``) and one for spectators."""
        t = self.table
        await self._proven()
        self.seq += 1
        self.presence_due = None  # this publication says who is connected
        # The story's new events only: every client holds the rest (a
        # (re)connection gets it all in its snapshot; a gap asks for one).
        at = self.story_sent if self.story_sent <= len(self.story) else 0
        self.story_sent = len(self.story)
        # The last result and the revealed seed: only when they changed (a
        # quarter of a player's frame otherwise, resent at every action).
        result = self.result_sent[0] is not t.last_result or self.result_sent[1] is not t.revealed
        if result:
            self.result_sent, self.result_at = (t.last_result, t.revealed), self.seq
        names = [*(s.name for s in t.seats.values() if s.name not in t.socketless), *(also or [])]
        for gone in self.you_sent.keys() - {s.name for s in t.seats.values()}:
            del self.you_sent[gone]  # seated again, his next ``you`` carries them whole
        for name in t.socketless:
            # No page shows this seat (a house player's): no message, but its
            # legal actions are noted as shown, as a socket's would be (a move
            # is checked against the publication that showed them).
            self._legal_for(name, name in t.dealt)
        if t.waiting.line:  # the players in line get their own message too (their place in it)
            names = list(dict.fromkeys([*names, *t.waiting.names()]))
        # The spectators' view goes to anyone watching who is not seated (a
        # page open on the table): most tables have nobody so, and then it
        # is neither built nor encoded.
        watched = self.broadcaster.watched(t.info.id, names)
        # What every recipient's message holds alike is encoded once, and
        # joined to each recipient's own part (his seat, his part of the
        # deal), encoded alone.
        public_deal, deals, owns = self._deal_parts(names, watched)
        shared = {"table": encoded(self._table_part()), "result": result,
                  "last_result": encoded(t.last_result) if result else None,
                  "story": encoded(self.story[at:]),
                  "deal": public_deal}  # the reveal: each player's own (_recipients)
        alike = _dumps(self._alike(at, shared))
        recipients: list[str | None] = [None, *names] if watched else [*names]
        messages = {SPECTATORS if name is None else name:
                    _joined(alike, _dumps(self._recipients(name, shared, deals.get(name),
                                                           owns.get(name) if name is not None else None)))
                    for name in recipients}
        await self.broadcaster.publish(t.info.id, messages)
        metrics.published(self.pending_act)
        self.pending_act = None

    async def publish_closed(self, summary: dict[str, Any], players: list[str]) -> None:
        """The last messages: a ``state`` whose table is closed, then ``closed``."""
        await self.publish(players)
        text = json.dumps({"type": "closed", "seq": self.seq, "table_id": self.table.info.id, **summary},
                          separators=(",", ":"))
        await self.broadcaster.publish(self.table.info.id, {SPECTATORS: text, **{p: text for p in players}})

    async def notify(self, name: str, kind: str, notice: dict[str, Any]) -> None:
        """A message of its own to one player (a contest's ``contest`` notice)."""
        await self._proven()
        text = json.dumps({"type": kind, "seq": self.seq, "table_id": self.table.info.id, **notice},
                          separators=(",", ":"))
        await self.broadcaster.publish(self.table.info.id, {name: text})


def public_result(result: dict[str, Any], game: GameSpec) -> dict[str, Any]:
    """What everybody may see of a finished deal: the keys its game's spec
    names (:meth:`GameSpec.public_result`) — never the record's deck or the
    mucked cards."""
    out = game.public_result(result)
    if result.get("said"):
        # The engine says how the deal ended with catalogue codes (e.g. a
        # Rummoli deadlock): the page shows the French sentence as it is.
        out["said"] = [{**line, "text": french(line["code"], line.get("params"))} for line in result["said"]]
    if isinstance(out.get("account"), dict):
        # The deal's account (Rams, Rummoli: games/*/account.py): each line
        # of chips moved, with its French sentence for the result panel.
        acc = out["account"]
        out["account"] = {**acc, "lines": [{**line, "text": french(line["code"], line.get("params"))}
                                           for line in acc.get("lines", [])]}
    return out
