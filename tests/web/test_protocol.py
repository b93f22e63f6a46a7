"""Issue 10 §2: the table protocol is typed — one model per command and per
server message (web/protocol.py) — the dispatcher is a table from type to
handler, every message a real table sends fits its model, and
docs/protocol.md documents every type and field of the models' JSON Schema."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from pydantic import ValidationError
from tests.tables.conftest import Harness, build_world, passive

from tavern.catalogue import validation_refusals
from tavern.tables.actor import HANDLERS
from tavern.tables.commands import Close
from tavern.web import protocol
from tavern.web.ws import CHAT_HANDLERS, SOCKET_COMMANDS

DOC = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")


def test_every_command_has_one_handler() -> None:
    """The table dispatches each command on its model's type: every command
    of the protocol has its handler (``sync`` too: a snapshot on the socket,
    a round trip through the inbox from the runtime); the chat's commands go
    to the socket's chat desk (tables/chat.py), never to the table."""
    handled = {t for model in HANDLERS for t in _types(model)}
    assert not handled & set(CHAT_HANDLERS)
    # (The table also takes the runtime's own commands: connect, disconnect, close.)
    # ``ping`` is answered by the socket itself (web/ws.py SOCKET_COMMANDS).
    assert set(protocol.COMMAND_TYPES) <= handled | set(CHAT_HANDLERS) | SOCKET_COMMANDS
    assert set(CHAT_HANDLERS) <= set(protocol.COMMAND_TYPES)
    table_models = [m for m in _members(protocol.Command) if set(_types(m)) <= handled]
    assert table_models and set(table_models) <= set(HANDLERS)


def _members(union) -> list[type]:
    return list(union.__args__[0].__args__)  # Annotated[A | B | ..., Field(...)]


def _types(model) -> list[str]:
    return list(model.model_fields["type"].annotation.__args__)


def test_the_documentation_follows_the_models() -> None:
    """Each command type is a row of the commands' table with its fields;
    each message type has its section and names its fields."""
    for model in _members(protocol.Command):
        schema = model.model_json_schema()
        fields = [f for f in schema["properties"] if f not in ("type", "id")]
        for t in _types(model):
            row = re.search(rf"^\| `{t}` \|(.*)$", DOC, re.M)
            assert row, f"docs/protocol.md: no row for the command {t!r}"
            for f in fields:
                assert f"`{f}`" in row.group(1), f"docs/protocol.md: the {t!r} row does not name {f!r}"
    assert set(protocol.COMMAND_TYPES) == {t for m in _members(protocol.Command) for t in _types(m)}
    for model in _members(protocol.Message):
        [t] = _types(model)
        assert re.search(rf"^###.*`{t}`", DOC, re.M), f"docs/protocol.md: no section for {t!r}"
        for f in model.model_json_schema()["properties"]:
            assert f'"{f}"' in DOC or f"`{f}`" in DOC, f"docs/protocol.md: the {t!r} field {f!r} is not documented"
    assert set(protocol.MESSAGE_TYPES) == {t for m in _members(protocol.Message) for t in _types(m)}


def test_the_messages_a_table_sends_fit_their_models(session_factory) -> None:
    world = build_world(session_factory, stakes={"small_blind": 1, "big_blind": 2})
    sent: list[str] = []

    async def scenario():
        h = Harness(world)
        real = h.broadcaster.publish

        async def keep(table_id, messages):
            sent.extend(messages.values())
            await real(table_id, messages)

        h.broadcaster.publish = keep
        actor = await h.start(seated=("ana", "bob", "cid"))
        for _ in range(3):
            await h.play_deal(passive)
        await actor.submit(Close(owner_id=world.owner_id))  # at the end of the running deal
        await h.play_deal(passive)
        await h.settle()
        await actor.stop()

    asyncio.run(scenario())
    kinds = set()
    for text in sent:
        msg = protocol.messages.validate_json(text)
        kinds.add(msg.type)
    assert kinds == {"state", "closed"}, kinds
    assert any(json.loads(t).get("fair") for t in sent), "a finished deal's seed was revealed"


@pytest.mark.parametrize("raw", ['{"type": "sit", "seat": 1, "cave": 10, "extra": 1}', '{"type": "fly"}',
                                 '{"type": "act", "action": ""}', '{"type": "client_seed", "seed": "a|b"}'])
def test_a_bad_command_is_refused_by_the_union(raw) -> None:
    with pytest.raises(ValueError):
        protocol.commands.validate_json(raw)


@pytest.mark.parametrize(("raw", "field"), [
    ('{"type": "sit", "seat": 1, "cave": 9223372036854775808}', "sit.cave"),
    ('{"type": "cave", "amount": 9223372036854775808}', "cave.amount"),
    ('{"type": "act", "action": "raise", "seq": 9223372036854775808}', "act.seq"),
    ('{"type": "sync", "id": 9223372036854775808}', "sync.id"),
    ('{"type": "act", "action": "raise", "args": {"amount": 9223372036854775808}}', "act.args.amount"),
    ('{"type": "act", "action": "bid", "args": {"bids": [1, -9223372036854775808]}}', "act.args.bids.1"),
])
def test_a_number_past_the_bounds_is_refused_naming_its_field(raw: str, field: str) -> None:
    """Issue 33 §6: every integer of a WebSocket command is bounded
    (tavern.bounds), the move's free-form arguments too; the socket answers
    ``malformed_message`` naming the field (web/ws.py)."""
    with pytest.raises(ValidationError) as info:
        protocol.commands.validate_json(raw)
    [problem] = validation_refusals(info.value.errors())
    assert problem["code"] == "less_than_equal" and problem["params"]["field"] == field
    assert problem["params"]["le"] == 10**12
