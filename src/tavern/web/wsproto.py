"""The WebSocket protocol the server runs under uvicorn:
``uvicorn … --ws tavern.web.wsproto:TableSocketProtocol`` (``make run``, the
Docker image, ``scripts/scaled.sh`` and the benchmarks start it so).

It is uvicorn's own (websockets, sans-I/O) with one change: permessage-
deflate at zlib level 1 instead of 6. Browsers offer the compression and the
views compress ten times either way (a 3.8 KB state: 240 bytes at level 6,
390 at level 1), but with uvicorn's 4 KB window level 6 spent about 170 µs
per state frame against 38 µs at level 1 (measured on this project's
frames), and a table sends seven frames an action: compressing was the
largest cost of an action on the server (docs/benchmarks.md "Capacity").
Without this option the server works the same, only at level 6.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

#: zlib's fastest level: most of the size gain for a quarter of the time.
COMPRESSION_LEVEL = 1


class TableSocketProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            # uvicorn's own settings (4 KB windows, memLevel 5), level 1.
            self.conn = ServerProtocol(
                extensions=[ServerPerMessageDeflateFactory(
                    server_max_window_bits=12, client_max_window_bits=12,
                    compress_settings={"memLevel": 5, "level": COMPRESSION_LEVEL})],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
