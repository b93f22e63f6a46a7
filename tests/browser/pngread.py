"""A PNG as a grayscale numpy array, for a barcode reader: Chromium's
screenshots (8-bit RGB or RGBA, not interlaced) — no image library here."""

from __future__ import annotations

import struct
import zlib

import numpy as np


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def gray(png: bytes) -> np.ndarray:
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data)
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    assert header is not None
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and not interlace, header
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows = np.zeros((height, stride), dtype=np.uint8)
    prev = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - bpp] if x >= bpp else 0
            up, corner = prev[x], (prev[x - bpp] if x >= bpp else 0)
            line[x] = (line[x] + (0, left, up, (left + up) // 2, _paeth(left, up, corner))[kind]) & 0xFF
        rows[y] = np.frombuffer(bytes(line), dtype=np.uint8)
        prev = line
    pixels = rows.reshape(height, width, bpp)[:, :, :3].astype(np.uint16)
    return np.ascontiguousarray((pixels.sum(axis=2) // 3).astype(np.uint8))
