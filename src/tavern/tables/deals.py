"""A table's deals from start to settlement, and the table's end.

The actor's loop calls these on its own task (tables/actor.py): who is dealt
in and the deck (provably fair, docs/fairness.md), the archive before the
first card, the settlement in one transaction, the players leaving at the
deal's end, and the owner's close. They change the table through
:class:`Dealing`, what they need of the actor.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

from tavern import fair, fair_cards, logs, metrics
from tavern.cards import RandomSource
from tavern.catalogue import french
from tavern.games import registry
from tavern.games.base import Engine
from tavern.games.spec import GameSpec
from tavern.refusal import Refusal
from tavern.tables.bank import SETTLEMENTS, SqlBank, TableInfo
from tavern.tables.closing import share_carry
from tavern.tables.commands import CommandError
from tavern.tables.engine_config import engine_config
from tavern.tables.publication import Publisher, public_result
from tavern.tables.seat_commands import free_seat
from tavern.tables.seating import SeatState, choose_lineup
from tavern.tables.turns import Turns

log = logging.getLogger("tavern.tables.actor")  # the table's lines, under one name


class _Policy(Protocol):
    async def before_deal(self, actor: Any) -> None: ...

    async def deal_ended(self, actor: Any, started: list[tuple[str, int]]) -> None: ...


class Dealing(Protocol):
    """What the deals read and change of their table (the actor)."""

    info: TableInfo
    bank: SqlBank
    game: GameSpec
    rng: RandomSource
    clock: Callable[[], float]
    deal_pause: float
    time_bank: float
    min_players: int
    seats: dict[int, SeatState]
    engine: Engine | None
    dealt: dict[str, SeatState]
    archive_id: int | None
    button_seat: int | None
    carry: dict[str, Any] | None
    last_result: dict[str, Any] | None
    deals: int
    next_deal_at: float | None
    next_settle_at: float | None
    closing_owner: int | None
    settling: bool
    next_seed: fair.DealSeed
    client_seeds: dict[str, str]
    deal_seed: fair.DealSeed | None
    fair_block: dict[str, Any] | None
    fair_stream: fair.FairStream | None
    deal_cards: fair_cards.DealCards | None
    revealed: dict[str, Any] | None
    publisher: Publisher
    turns: Turns

    @property
    def policy(self) -> _Policy: ...

    def _ready(self) -> list[SeatState]: ...

    def _by_name(self, name: str) -> SeatState: ...

    async def end(self, summary: dict[str, Any], players: list[str]) -> None: ...


#: A deal that could not start is tried again this much later (below).
DEAL_RETRY_SECONDS = 1.0


async def start(t: Dealing) -> bool:
    """Deal, if enough players are ready; whether anything visible changed.
    A start that fails (the store away: a PostgreSQL restart) is tried again
    ``DEAL_RETRY_SECONDS`` later: between deals nobody can move, and without
    this the table never dealt again (found by bench/bench_faults.py)."""
    try:
        return await _start(t)
    except Exception:
        t.next_deal_at = t.clock() + DEAL_RETRY_SECONDS
        raise


async def _start(t: Dealing) -> bool:
    await t.policy.before_deal(t)
    for s in t.seats.values():
        # A time-out's explanation stays until the player acts again.
        s.notice = None if not s.sitting_out and not s.timeouts else s.notice
    refused: dict[str, str] = {}
    while True:
        lineup = choose_lineup(t.game, [s for s in t._ready() if s.name not in refused],
                               t.button_seat, t.min_players)
        if lineup is None:
            return bool(refused)
        seats = []
        for s in lineup.players:
            entry: dict[str, Any] = {"player": s.name, "chips": s.chips}
            if s.name in lineup.posting:
                entry["post"] = True
            seats.append(entry)
        # The deck comes from the seed committed to before this deal and
        # the dealt players' own seeds, in seat order.
        names = [s.name for s in lineup.players]
        client_seeds = [t.client_seeds.get(n, "") for n in names]
        number = t.deals + 1
        stream = t.next_seed.stream(t.info.id, number, client_seeds)
        engine = t.game.new_deal(engine_config(t.info), seats, lineup.button, rng=stream, carry=t.carry)
        block = t.next_seed.block(t.info.id, number, names, client_seeds, stream)
        # Each card committed to apart before any is shown (issue 42 §6): the digests go out with the first state.
        cards = fair_cards.DealCards.of(t.next_seed, t.info.id, number, stream)
        block["cards"] = cards.digests()
        candidates = {s.name: s.user_id for s in lineup.players}
        archive_id, answer = await asyncio.to_thread(
            t.bank.begin_deal, t.info.id, t.info.tavern_id, candidates,
            registry.check_record(engine.record()).with_table(fair=block).dump())
        if archive_id is None:
            for name, why in answer.items():
                refused[name] = why
                t._by_name(name).notice = why  # "is not dealt in and is told why"
            continue
        break
    for name, info in answer.items():
        t._by_name(name).extra["hands"] = info
    t.engine = engine
    t.archive_id = archive_id
    logs.bind(deal=archive_id)  # the deal's archive id, as the admin's deal page shows it
    metrics.deal(t.info.game, "started")
    t.publisher.new_story({"event": "deal", "deal": t.deals + 1, "players": [s.name for s in lineup.players],
                           "dealer": lineup.players[lineup.button].name})
    t.deal_seed, t.fair_block = t.next_seed, block
    t.fair_stream = stream
    t.deal_cards = cards
    t.next_seed = fair.DealSeed(fair.new_server_seed(t.rng))  # a seed serves one deal only
    t.dealt = {s.name: s for s in lineup.players}
    t.button_seat = lineup.players[lineup.button].seat_no
    t.turns.new_deal()
    t.deals += 1
    for s in lineup.players:
        s.owes_big_blind = False
        s.post_now = False
    await t.turns.arm()
    return True


def _carried(game: GameSpec, carry: dict[str, Any] | None) -> int:
    count = game.carried_chips
    return count(carry) if count is not None else 0


async def finish(t: Dealing) -> None:
    """Settle the deal just over (one transaction), then what waited for its
    end. A settlement that fails (the store away) is tried again
    ``DEAL_RETRY_SECONDS`` later, not at once: the table's loop tried it
    again and again without a pause, flooding the log while the store was away."""
    try:
        await _finish(t)
    except Exception:
        t.next_settle_at = t.clock() + DEAL_RETRY_SECONDS
        raise
    t.next_settle_at = None


async def _finish(t: Dealing) -> None:
    assert t.engine is not None and t.fair_stream is not None and t.archive_id is not None
    # Its players from the button's left, with their chips before it (the policy's deal_ended).
    started = [(name, t.dealt[name].chips) for name in list(getattr(t.engine, "players", None) or t.dealt)]
    result = t.engine.result()
    # The reshuffles made during the deal came from the same stream.
    block = {**(t.fair_block or {}), "shuffles": list(t.fair_stream.shuffles)}
    if t.deal_cards is not None:  # a rebuilt stock's digest too
        block["cards"] = t.deal_cards.digests()
    record = registry.check_record(t.engine.record()).with_table(fair=block, story=t.publisher.story).dump()
    # Which positions each player was shown, and his openings (a replay of the deal: off the loop).
    block["seen"], own = await asyncio.to_thread(fair_cards.deal_end, t.deal_cards, record, list(t.dealt))
    record["fair"] = block
    chips = result["chips"]
    deltas = {t.dealt[name].user_id: chips[name] - t.dealt[name].chips for name in t.dealt}
    rake = int(result.get("rake", 0) or 0)
    carried = _carried(t.game, result.get("carry")) - _carried(t.game, t.carry)
    # Poker's first betting round as the engine played it: the figures' VPIP and PFR without a replay.
    first_round = getattr(t.engine, "first_round_moves", None)
    await asyncio.get_running_loop().run_in_executor(  # not behind the deal starts (bank.SETTLEMENTS)
        SETTLEMENTS, t.bank.finish_deal, t.archive_id, t.info.id, t.info.owner_id,
        deltas, rake, record, result, carried, first_round() if first_round is not None else None)
    for name, seat in t.dealt.items():
        seat.chips = chips[name]
    if t.time_bank:  # a table without time bank never grows one
        Turns.refill(list(t.dealt.values()))
    t.carry = result.get("carry")
    t.last_result = {"deal": t.deals, "result": public_result(result, t.game)}
    t.settling = False
    # Revealed to the deal's players only (message_for), each his own: the
    # openings of the cards he saw, checked by his page against the digests
    # it saw before the deal — never the server seed nor the deck, which
    # would give away every folded hand (issue 42 §6; the seed reaches him
    # after TAVERN_FAIR_REVEAL_DAYS through « Mes donnes »).
    common = {k: v for k, v in block.items() if k not in ("server_seed", "seen")}
    t.revealed = {"players": set(t.dealt), "fair": {**common, "game": record["game"]}, "own": own}
    t.archive_id = None
    logs.bind(deal=None)
    metrics.deal(t.info.game, "settled")
    t.turns.deadlines = {}
    await _after_deal(t)
    await t.policy.deal_ended(t, started)


async def _after_deal(t: Dealing) -> None:
    """The players leaving at the deal's end leave, the sat-out's automatic
    folding stops, and the owner who asked to close during the deal closes."""
    for seat in list(t.seats.values()):
        if seat.leave_after_deal:
            await free_seat(t.bank, t.info.id, t.seats, seat)
        elif seat.sitting_out and seat.auto == "check_fold":
            seat.auto = None
    t.next_deal_at = t.clock() + t.deal_pause
    if t.closing_owner is not None:  # the owner asked to close during the deal
        owner, t.closing_owner = t.closing_owner, None
        try:
            await close(t, owner)
        except Exception as exc:  # the table stays open and deals on
            log.exception("table %s: closing after the deal failed", t.info.id)
            # A refusal is said in French; a bug is not shown to the players.
            why = exc.message if isinstance(exc, Refusal) else french("table_goes_on").lower()
            for seat in t.seats.values():
                seat.notice = french("table_could_not_close", {"why": why})


async def close_command(t: Dealing, owner_id: int) -> dict[str, Any]:
    """The owner closes the table (the web layer checked he owns it; the
    database checks again). Between deals it closes now; during a deal it
    closes at the deal's end and no new deal starts meanwhile."""
    if owner_id != t.info.owner_id:
        raise CommandError("owner_only_closes")
    if t.engine is not None and not t.engine.over:
        t.closing_owner = owner_id
        t.next_deal_at = None
        for seat in t.seats.values():
            seat.notice = french("owner_closes_after_deal")
        return {"closed": False, "notice": french("closing_after_deal")}
    if t.engine is not None and t.archive_id is not None:
        await finish(t)  # a deal just over: settle it first
    try:
        return await close(t, owner_id)
    except ValueError as exc:  # TavernError, LedgerError: said to the owner
        raise CommandError.of(exc) from None


async def close(t: Dealing, owner_id: int) -> dict[str, Any]:
    """Share out the carried chips among the seated players, cash everybody
    out and close the table — one database transaction — then tell the
    clients and stop."""
    seated = {s.seat_no: s.name for s in t.seats.values()}
    dealer_seat = t.button_seat
    if dealer_seat is None and seated:  # restarted since the last deal
        dealer = await asyncio.to_thread(t.bank.last_dealer, t.info.id)
        dealer_seat = next((n for n, name in seated.items() if name == dealer), None)
    awards, how = share_carry(t.game, t.carry, engine_config(t.info), seated, dealer_seat, t.rng)
    by_seat = sorted(t.seats.values(), key=lambda s: s.seat_no)
    record = {"game": t.info.game, "closing": True,
              "seats": [{"player": s.name, "seat": s.seat_no, "chips": s.chips} for s in by_seat],
              "carry": t.carry, "leftover": how}
    result = {"closing": True, "finished": True, "rake": 0, "carry": None, "awards": awards,
              "chips": {s.name: s.chips + awards.get(s.name, 0) for s in by_seat}}
    ids = {s.name: s.user_id for s in by_seat}
    cashed = await asyncio.to_thread(t.bank.close_table, t.info.id, owner_id,
                                     {ids[name]: amount for name, amount in awards.items()}, record, result)
    ecus = {s.name: cashed.get(s.user_id, 0) for s in by_seat}
    summary = {"closed": True, "awards": awards, "ecus": ecus,
               **({"method": how["method"], "winners": how.get("winners")} if how else {})}
    t.closing_owner = None
    t.seats = {}
    await t.end(summary, list(ecus))
    return summary
