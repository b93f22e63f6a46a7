"""The engine contract shared by every game.

Every game is a deterministic state machine. A game's spec
(:class:`tavern.games.spec.GameSpec`, its module's ``SPEC``, listed in
:mod:`tavern.games.registry`) holds these entry points; nothing finds them by
name in the module:

``new_deal(config: dict, seats: list[dict], button: int, *, deck: list[str] | None = None,
rng: RandomSource | None = None, reshuffles: list[list[str]] | None = None,
carry: dict | None = None) -> Engine``
    ``seats`` is ``[{"player": "A", "chips": 1000}, ...]`` in seat order going left
    (clockwise); ``button`` indexes the dealer. ``deck`` is an explicit order (top
    card first; replays, tests); otherwise the engine shuffles its own deck
    composition with ``rng`` (the table hands in :data:`tavern.cards.CSPRNG`).
    ``reshuffles`` replays decks rebuilt during the deal in order; when absent,
    the engine shuffles them with ``rng`` and records them. ``carry`` is the state
    that outlives a deal (a Rummoli board, a Rams pot, a match score sheet): the
    previous deal's ``result()["carry"]``; the table keeps it.

``replay_output(engine: Engine) -> dict``
    What a replay of this game reports once the record's actions are applied
    (``chips``, ``pots`` or the game's scoring, ``rake``, ``finished``). The
    replay itself is one loop for every game, :func:`tavern.games.registry.replay`:
    the record checked (:func:`tavern.games.records.check_record`), the deal built
    with ``new_deal``, every action applied; an inconsistent record raises
    :class:`IllegalAction` or :class:`tavern.cards.CardError`.

``replay_setup(record: dict) -> (seats, actions)`` (optional; poker)
    The seats ``new_deal`` takes and the actions left to apply, when some of the
    record's actions are the table's hand-in rather than decisions (a post to enter).

``deck_composition(config: dict, n_players: int) -> list[str]``
    The unshuffled cards the deal uses (the table needs it for deck items);
    ``tavern verify`` starts a deal's shuffle from it, never from the record's cards.

``deck_packs(config: dict, n_players: int) -> list[list[str]]`` (optional; Gin)
    When a deal shuffles several packs apart, each pack in the order shuffled
    (their cards together are ``deck_composition``).

``carried_chips(carry: dict | None) -> int`` (games whose carry holds chips)
    The chips a carry holds for the next deal (a Rams pot, the Rummoli board).
    The table books the change of this amount in the table's carried-pot
    ledger account, so a deal balances: results + rake + change carried = 0.

An :class:`Engine` object then offers the methods below. Actions are named as in
the hand records: ``engine.act("B", "raise", amount=100)`` appends
``{"player": "B", "action": "raise", "amount": 100}`` to the record.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

from tavern.refusal import Invalid, Refusal, from_pydantic

#: A legal action offered to a player, JSON-ready: ``{"action": "raise", "min": 100,
#: "max": 950}``, ``{"action": "discard", "cards": [...]}``. Games document their keys.
LegalAction = dict[str, Any]
#: Something that happened, JSON-ready: ``{"event": "bet", "player": "B", "amount": 50}``.
Event = dict[str, Any]


class IllegalAction(Refusal):
    """A move the rules refuse. The state is left untouched.

    A :class:`tavern.refusal.Refusal`: a stable ``code`` (``raise_too_small``)
    and its ``params`` (``{"minimum": 100}``), worded in French by
    :mod:`tavern.catalogue` as close as possible to the rules text. ``player``
    and ``action`` say whose move it was, when the engine knows.
    """

    def __init__(self, code: str, /, *, player: str | None = None, action: str | None = None,
                 **params: Any) -> None:
        if action is not None:  # the move refused, for the message and the client
            params.setdefault("action", action)
        super().__init__(code, **params)
        self.player = player
        self.action = action

    @property
    def rule(self) -> str:
        """The rule broken, in French (what the player and ``tavern replay`` show)."""
        return self.message


class RecordError(IllegalAction):
    """A hand record or a config that is not well formed: a field of the
    wrong type, an unknown key, an impossible value. ``field`` names it
    (``config.unit``, ``carry.column``); ``tavern replay`` exits with 2."""

    def __init__(self, field: str, code: str, /, **params: Any) -> None:
        if field:
            params["field"] = field
        super().__init__(code, **params)
        self.field = field


def in_action(index: int, player: Any, action: Any, exc: IllegalAction) -> IllegalAction:
    """A replay's refusal naming the action, counted from 1 in the record's
    ``actions`` list as people count (docs/hand-records.md), whatever the
    game: « action 3 (B relancer) : … »."""
    return IllegalAction("in_action", player=player if isinstance(player, str) else None,
                         action=action if isinstance(action, str) else None,
                         index=index + 1, who=str(player), what=str(action),
                         refusal={"code": exc.code, "params": exc.params})


def no_bool(value: Any) -> Any:
    """A ``mode="before"`` validator for number fields a strict model would
    still let ``true`` into (``Literal[1, 2]``: ``True == 1``)."""
    if isinstance(value, bool):
        raise Invalid("not_a_number_bool")
    return value


def record_error(exc: Any, prefix: str = "") -> RecordError:
    """The first problem of a pydantic ``ValidationError`` as a :class:`RecordError`."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in (prefix, *first.get("loc", ())) if p != "")
    code, params = from_pydantic(first)
    return RecordError(where, code, **params)


@runtime_checkable
class Engine(Protocol):
    """One deal of one game. See the module docstring for how it is created."""

    game: str

    @property
    def over(self) -> bool:
        """True once the deal is finished and ``result()`` is final."""

    def to_act(self) -> list[str]:
        """The players who must decide now (usually one; empty when over)."""

    def legal_actions(self, player: str) -> list[LegalAction]:
        """Exactly what ``player`` may do now, with bounds; empty if not his turn."""

    def act(self, player: str, action: str, **args: Any) -> list[Event]:
        """Apply a decision, or raise :class:`IllegalAction` leaving the state untouched."""

    def timeout_action(self, player: str) -> dict[str, Any]:
        """What the table plays for ``player`` when his time runs out
        (``{"action": "check"}`` or ``{"action": "fold"}`` at poker, the game's
        safest move elsewhere)."""

    def view(self, player: str | None) -> dict[str, Any]:
        """The projection sent to ``player`` (``None``: spectators). Never another
        player's hidden cards, the stock, the widow or the deck order."""

    def seen(self, action: dict[str, Any], player: str | None) -> dict[str, Any]:
        """A recorded ``action`` of this deal as ``player`` saw it at the table
        (``None``: a spectator), asked of the deal just after it: his own move
        whole; another's without the cards the table never showed him (draw
        poker's discards, the card the Rams dealer gave for the turned card,
        a face-down lead), said as :func:`hidden`. The replay of « Mes
        donnes » shows each step so, beside :meth:`view`
        (:func:`tavern.games.registry.seen_steps`)."""

    def result(self) -> dict[str, Any]:
        """Once over: ``{"chips": {player: end chips}, "delta": {player: won/lost},
        "rake": int, "pots": [...] or scoring, "shown": {player: cards},
        "carry": state for the next deal or None}``."""

    def record(self) -> dict[str, Any]:
        """The full hand record (``format``, ``game``, ``config``, ``seats``,
        ``button``, ``deck``, ``reshuffles``, ``actions``, plus ``carry`` if any),
        made by :func:`tavern.games.records.hand_record`."""


def hidden(action: dict[str, Any], cards: int) -> dict[str, Any]:
    """Another player's move as the table showed it: who, what, and how many
    cards it hid (``{"player": "bruno", "action": "draw", "hidden": 2}``)
    — never which (:meth:`Engine.seen`)."""
    return {"player": action["player"], "action": action["action"], "hidden": cards}


def views(engine: Engine, players: Iterable[str | None]) -> dict[str | None, dict[str, Any]]:
    """Each recipient's :meth:`Engine.view`. An engine whose views share a
    public part may offer ``views(players)`` building it once (poker: a
    table's publication asks for every seat's view at each move); the views
    returned may then share objects — encode them, never change them."""
    together = getattr(engine, "views", None)
    if together is not None:
        return together(players)  # type: ignore[no-any-return]  # an engine's views(), found by name
    return {player: engine.view(player) for player in players}


#: What only one player sees of a deal, as changes to lay over the public
#: view: ``(path, value)`` pairs, the path naming keys and list positions
#: from the view's top (``(["players", 2, "cards"], ["Ah", "Kd"])``).
Own = list[tuple[list[str | int], Any]]


def public_and_own(engine: Engine, players: Iterable[str]) -> tuple[dict[str, Any], dict[str, Own]] | None:
    """The public view once and, for each of ``players`` dealt in, what only
    he sees (:data:`Own`) — when the engine offers ``public_and_own``; None
    otherwise (each player is then sent his whole :meth:`Engine.view`).
    ``lay_own(public, own[p])`` is exactly ``view(p)``: a publication sends
    the public view encoded once and each player his own part beside it."""
    split = getattr(engine, "public_and_own", None)
    return split(players) if split is not None else None


def lay_own(public: dict[str, Any], own: Own) -> dict[str, Any]:
    """The player's view: ``own`` laid over a copy of the public view (what
    the table page does with a state's ``own``: docs/protocol.md)."""
    view = dict(public)
    for path, value in own:
        at: Any = view
        for step in path[:-1]:
            nxt = at[step]
            nxt = dict(nxt) if isinstance(nxt, dict) else list(nxt)  # copied: the public view is shared
            at[step] = nxt
            at = nxt
        at[path[-1]] = value
    return view
