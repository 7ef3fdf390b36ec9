"""Draw the pocket app's icons (laws_site/static/icon-192.png, icon-512.png): a white spade on the
site's green, full-bleed so that a "maskable" crop keeps it whole. Standard library only.

    python scripts/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

GREEN = (0x1D, 0x4D, 0x3A)
WHITE = (0xFF, 0xFF, 0xFF)
STATIC = Path(__file__).resolve().parent.parent / "laws_site" / "static"


def inside_spade(x: float, y: float) -> bool:
    """(x, y) in [-1, 1]^2, y downwards: two lobes, a point at the top, a foot."""
    lobe = ((x - 0.24) ** 2 + (y - 0.12) ** 2 <= 0.075) or ((x + 0.24) ** 2 + (y - 0.12) ** 2 <= 0.075)
    upper = -0.52 <= y <= 0.18 and abs(x) <= 0.49 * (y + 0.52) / 0.7
    foot = 0.1 <= y <= 0.52 and abs(x) <= 0.05 + 0.22 * max(0.0, (y - 0.25) / 0.27)
    return lobe or upper or foot


def png(size: int) -> bytes:
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            x, y = (2 * i + 1) / size - 1, (2 * j + 1) / size - 1
            row += bytes(WHITE if inside_spade(x / 0.62, y / 0.62) else GREEN)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    for size in (192, 512):
        (STATIC / f"icon-{size}.png").write_bytes(png(size))
