"""The WebSocket protocol the server runs under uvicorn:
``uvicorn … --ws tavern.web.wsproto:TableSocketProtocol`` (``make run``, the
Docker image, ``scripts/scaled.sh`` and the benchmarks start it so).

It is uvicorn's own (websockets, sans-I/O) with one change: permessage-
deflate at zlib level 1 instead of 6. Browsers offer the compression and the
views compress ten times either way (a 3.8 KB state: 240 bytes at level 6,
390 at level 1), but with uvicorn's 4 KB window level 6 spent about 170 µs
per state frame against 38 µs at level 1 (measured on this project's
frames), and a table sends six or seven frames an action: compressing was the
largest cost of an action on the server (docs/benchmarks.md "Capacity").
Without this option the server works the same, only at level 6.

And a 16 KB window for what the server sends (uvicorn's is 4 KB): a table's
views to one player follow each other closely, and with the previous few in
the window each new one is mostly long matches — measured on a Ramponneau
table's real stream of states to one player (3.3 KB each): 19.7 µs and 421
bytes a frame with a 4 KB window, 11.9 µs and 228 bytes with 16 KB (9.9 µs
and 180 bytes with 32 KB). It costs 80 KB of zlib state per connection
instead of 32 KB (320 MB at 4,000 players; 32 KB windows would take 576 MB).
What the client sends (short commands) keeps the 4 KB window.

And a way around the ASGI send for the table's states (:data:`SEND_NOW`):
a publication reaches six or seven sockets an action, and each frame used to
wake the connection's sending task and pass the whole chain of ASGI send
wrappers (Starlette's, FastAPI's) before uvicorn wrote it — work per frame
that an action pays six or seven times. The channel (``tavern.web.ws``)
writes a state at once when nothing is waiting before it on that socket;
otherwise, or under any other server, through its outbox as before.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

#: zlib's fastest level: most of the size gain for a quarter of the time.
COMPRESSION_LEVEL = 1
#: log2 of the window for the server's frames (see above).
SERVER_WINDOW_BITS = 14
#: The scope extension holding the connection's direct sender: a callable
#: taking a text frame, returning whether it was written (False: the socket
#: is closing, or its buffer is full and the sender must wait its turn).
SEND_NOW = "tavern.send_now"


class TableSocketProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            # uvicorn's own settings (memLevel 5, the client's 4 KB window), level 1, a 16 KB window.
            self.conn = ServerProtocol(
                extensions=[ServerPerMessageDeflateFactory(
                    server_max_window_bits=SERVER_WINDOW_BITS, client_max_window_bits=12,
                    compress_settings={"memLevel": 5, "level": COMPRESSION_LEVEL})],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"][SEND_NOW] = self.send_now

    def send_now(self, text: str) -> bool:
        """Write a text frame at once, as uvicorn's ``send`` does for
        ``websocket.send`` once the socket is writable — without awaiting:
        False when it cannot go now (not open, closing, or the transport's
        buffer over its high-water mark: the caller queues it)."""
        if (not self.handshake_complete or self.close_sent or self.disconnected or self.initial_response is not None
                or self.transport.is_closing() or not self.writable.is_set()):
            return False
        try:
            self.conn.send_text(text.encode())
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True
