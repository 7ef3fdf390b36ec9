"""Compile the corpus's regular expressions faster: same compiled code, less Python.

A build compiles ~420 patterns, most of them with CJK ranges (`[\\u3400-\\u9fff]`). CPython's
`re._compiler._optimize_charset` fills its character map for a range one character at a time, in
Python: 27,000 iterations for that one range, ~35 of the ~55 ms all the patterns take to compile
(benchmarks/RESULTS.md). `install()` recompiles that function from the standard library's own
source with the one loop replaced by a slice assignment that fills the same bytes (and, like the
loop, fills what fits and raises IndexError when the range runs past the map, so the function
grows the map or moves the range to its tail exactly as before). The patterns compiled are the
same, code for code (tests/test_fast_regex.py compares every pattern a build uses); where the
source is not the expected one (another Python version), nothing is replaced.
"""
from __future__ import annotations

import re._compiler as _compiler

LOOP = """                    else:
                        for i in r:
                            charmap[i] = 1
"""
SLICE = """                    else:
                        _lo, _hi, _size = av[0], av[1] + 1, len(charmap)
                        if _hi > _size:  # as the loop does: fill what fits, then IndexError
                            if _lo < _size:
                                charmap[_lo:_size] = b'\\x01' * (_size - _lo)
                            raise IndexError
                        charmap[_lo:_hi] = b'\\x01' * (_hi - _lo)
"""

ORIGINAL = _compiler._optimize_charset


def faster_source() -> str | None:
    """The source of `_optimize_charset` with the range loop as a slice, or None if it is not the
    source this replacement was written for."""
    code = ORIGINAL.__code__
    try:
        with open(code.co_filename, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
    except OSError:
        return None
    start = code.co_firstlineno - 1
    end = start + 1
    while end < len(lines) and (not lines[end] or lines[end][0] in " \t#"):
        end += 1
    source = "\n".join(lines[start:end]) + "\n"
    if not source.startswith("def _optimize_charset(") or source.count(LOOP) != 1:
        return None
    return source.replace(LOOP, SLICE)


def install() -> bool:
    """Use the faster function from now on; False (and nothing changed) if its source is not the expected one."""
    if _compiler._optimize_charset is not ORIGINAL:
        return _compiler._optimize_charset.__name__ == "_optimize_charset"
    source = faster_source()
    if source is None:
        return False
    namespace: dict = {}
    exec(compile(source, ORIGINAL.__code__.co_filename, "exec"), _compiler.__dict__, namespace)
    faster = namespace["_optimize_charset"]
    faster.__defaults__ = ORIGINAL.__defaults__
    _compiler._optimize_charset = faster
    return True


def uninstall() -> None:
    _compiler._optimize_charset = ORIGINAL
