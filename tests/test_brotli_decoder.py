"""The brotli decoder a static export's service worker inflates its packs with (static/brotli-decode.js,
vendored from google/brotli): the file is upstream's but for its one documented change, and it
inflates what the build writes (laws_site/offline/make.py's brotli settings) to the same bytes."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import brotli

from laws_site.offline import make

DECODER = Path(__file__).resolve().parents[1] / "laws_site" / "static" / "brotli-decode.js"
# sha256 of js/decode.min.js at google/brotli 8e10eeb3378f6c459dbaf033ca6727e9816afccb
UPSTREAM_SHA256 = "8a5348dbfb1a2873dbcb9a4d53f4a2d99638c113888b65b03cbb8ed86c7f7c27"
INFLATE = """
const fs = require("fs"), vm = require("vm");
vm.runInThisContext(fs.readFileSync(process.argv[1], "utf8"));   // a classic script, as importScripts runs it
const out = BrotliDecode(new Int8Array(fs.readFileSync(process.argv[2])));
process.stdout.write(Buffer.from(out.buffer, out.byteOffset, out.length));
"""


def test_the_vendored_decoder_is_upstreams_file_but_for_its_first_word():
    text = DECODER.read_text(encoding="utf-8")
    header_end = text.index("*/\n") + len("*/\n")
    body = text[header_end:]
    assert body.startswith("var BrotliDecode=")
    upstream = "export let BrotliDecode=" + body.removeprefix("var BrotliDecode=")
    assert hashlib.sha256(upstream.encode("utf-8")).hexdigest() == UPSTREAM_SHA256


def test_the_decoder_inflates_what_the_build_writes(tmp_path):
    assert shutil.which("node"), "node is not installed"
    # a pack's shape: repeated lines of HTML a few hundred KB apart, Japanese text, numbers
    lines = [f'<a class="sibling" href="/laws-2017-ja/{n}A">第{n}条A 項 リボーク</a>' for n in range(1, 94)]
    text = json.dumps(
        {"common": lines * 40, "pages": {str(n): list(range(n, n + 50)) for n in range(400)}}, ensure_ascii=False
    )
    packed = tmp_path / "pack.json.br"
    packed.write_bytes(brotli.compress(text.encode(), quality=make.BROTLI_QUALITY, lgwin=make.BROTLI_WINDOW_BITS))
    out = subprocess.run(["node", "-e", INFLATE, str(DECODER), str(packed)], capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr.decode()[-2000:]
    assert out.stdout.decode("utf-8") == text
