"""The WebSocket protocol the server is started with (web/wsproto.py):
uvicorn's own, compressing at zlib's fastest level."""

from __future__ import annotations

import asyncio
import zlib

from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

from tavern.web.wsproto import COMPRESSION_LEVEL, SERVER_WINDOW_BITS, TableSocketProtocol

SHIPPED = "tavern.web.wsproto:TableSocketProtocol"  # the --ws of make run, the image, scripts/scaled.sh


def protocol(**options: object) -> TableSocketProtocol:
    config = Config("tavern.web.app:create_app", factory=True, ws=SHIPPED, **options)
    config.load()
    assert config.ws_protocol_class is TableSocketProtocol  # uvicorn takes the import string
    return TableSocketProtocol(config, ServerState(), {}, _loop=asyncio.new_event_loop())


def test_the_shipped_protocol_offers_deflate_at_the_fastest_level():
    offered = protocol().conn.available_extensions
    assert len(offered) == 1 and offered[0].compress_settings == {"memLevel": 5, "level": COMPRESSION_LEVEL}
    assert COMPRESSION_LEVEL == 1


def test_the_compression_stays_within_what_the_client_accepts():
    """RFC 7692: the window the server uses is the one it declared (14 bits:
    16 KB) and a client inflates what it sends with that window; the
    client's own window stays at 12 bits."""
    factory = protocol().conn.available_extensions[0]
    assert (factory.server_max_window_bits, factory.client_max_window_bits) == (SERVER_WINDOW_BITS, 12) == (14, 12)
    ext = PerMessageDeflate(False, False, 12, SERVER_WINDOW_BITS, factory.compress_settings)  # remote, local
    text = b'{"type":"state","seq":1,"table":{"players":[' + b",".join(
        b'{"seat":%d,"chips":200}' % i for i in range(6)) + b"]}}"
    frame = ext.encode(Frame(Opcode.TEXT, text))
    assert frame.rsv1 and len(frame.data) < len(text)
    assert zlib.decompressobj(-SERVER_WINDOW_BITS).decompress(bytes(frame.data) + b"\x00\x00\xff\xff") == text


def test_without_deflate_nothing_is_offered():
    assert protocol(ws_per_message_deflate=False).conn.available_extensions == []


def test_a_state_is_written_at_once_in_order_and_never_past_a_full_buffer_or_a_close():
    """web/wsproto.py: the channel's direct sender writes a text frame at
    once while the socket is open and its buffer under the high-water mark;
    otherwise it refuses (False) and the channel queues the frame instead."""
    from websockets.asyncio.client import connect

    from tavern.web.wsproto import SEND_NOW

    said: list[object] = []

    async def app(scope, receive, send):
        assert (await receive())["type"] == "websocket.connect"
        now = scope["extensions"][SEND_NOW]
        said.append(now("before accept"))
        await send({"type": "websocket.accept"})
        proto = now.__self__
        said.append(now("one"))
        proto.pause_writing()  # what the transport calls past its high-water mark
        said.append(now("held"))
        proto.resume_writing()
        await send({"type": "websocket.send", "text": "through ASGI"})
        said.append(now("two"))
        await send({"type": "websocket.close", "code": 1000})
        said.append(now("after close"))

    async def scenario():
        config = Config(app, ws=SHIPPED, log_level="warning")
        config.load()
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: TableSocketProtocol(config, ServerState(), {}), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            async with connect(f"ws://127.0.0.1:{port}/") as ws:
                return [m async for m in ws]
        finally:
            server.close()

    received = asyncio.run(scenario())
    assert said == [False, True, False, True, False]
    assert received == ["one", "through ASGI", "two"]
