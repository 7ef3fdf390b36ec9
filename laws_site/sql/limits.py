"""What one SQL statement may cost on the public site: memory, result size and time in one call.

Datasette's `sql_time_limit_ms` interrupts a statement between VM steps; it bounds neither memory
nor the time spent inside one function call. Measured on SQLite 3.40 before these limits:
`select randomblob(1000000000)` took the server to 7.5 GB and 77 s, `select zeroblob(1000000000)`
to 22 GB (killed by the kernel). So every connection Datasette opens gets (`prepare_connection`):

- SQLite's per-connection limits: no string or blob over 256 KiB (randomblob, zeroblob, printf,
  replace, group_concat... fail with "string or blob too big"), short SQL, shallow expressions,
  short LIKE/GLOB patterns (a GLOB character class costs pattern x text per call), no ATTACH;
- (on the public site only: asgi.public_site sets it) a process-wide SQLite heap ceiling
  (`PRAGMA hard_heap_limit`): aggregates such as json_group_array grow without checking the length
  limit until they finish;
- a result budget: a statement may hand Python at most RESULT_BUDGET characters/bytes in total
  (1,001 rows of 256 KiB would otherwise be 256 MB before JSON encoding multiplies it);
- guarded versions of the built-ins whose cost inside one call is not bounded by the length limit:
  `printf('%.*c', 1000000000, 'x')` loops a billion times (17 s) before returning NULL, and
  `trim(x, y)` costs len(x) x len(y) (two 100,000-character arguments: 69 s);
- an authorizer refusing what reveals files or memory: `pragma_database_list` (the database's
  absolute path), `fts3_tokenizer` (a pointer, and it can set one), `load_extension` and the other
  names in DENIED_TABLES and DENIED_FUNCTIONS.
"""

from __future__ import annotations

import re
import sqlite3
import threading

MAX_VALUE_BYTES = 256 * 1024
SQLITE_LIMITS = {
    sqlite3.SQLITE_LIMIT_LENGTH: MAX_VALUE_BYTES,
    sqlite3.SQLITE_LIMIT_SQL_LENGTH: 100_000,
    sqlite3.SQLITE_LIMIT_COLUMN: 200,
    sqlite3.SQLITE_LIMIT_EXPR_DEPTH: 200,
    sqlite3.SQLITE_LIMIT_COMPOUND_SELECT: 100,
    sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH: 256,
    sqlite3.SQLITE_LIMIT_VDBE_OP: 1_000_000,
}
# ATTACH stays possible only where Datasette itself attaches (--crossdb's _memory database)
NO_ATTACH = {sqlite3.SQLITE_LIMIT_ATTACHED: 0}
HARD_HEAP_LIMIT = 256 * 1024 * 1024
SOFT_HEAP_LIMIT = 64 * 1024 * 1024
# table-valued pragmas a SELECT may read that name files; Datasette's own `PRAGMA database_list;`
# statement (its attached databases) is a PRAGMA, which arbitrary SQL cannot run
DENIED_TABLES = frozenset({"pragma_database_list", "pragma_temp_store_directory", "pragma_data_store_directory"})
DENIED_FUNCTIONS = frozenset({"fts3_tokenizer", "load_extension", "readfile", "writefile", "edit", "fts5"})
RESULT_BUDGET = 2_000_000  # characters of text plus bytes of blobs, per statement (the largest real one: ~0.3M)


class ResultTooLarge(sqlite3.DataError):
    """Raised while rows are fetched: Datasette shows it like any SQL error (400)."""


def prepare(conn: sqlite3.Connection, database: str) -> None:
    """All the bounds, on one connection to the laws database Datasette just opened (or one of our own)."""
    for limit, value in SQLITE_LIMITS.items():
        conn.setlimit(limit, value)
    if database != "_memory":
        for limit, value in NO_ATTACH.items():
            conn.setlimit(limit, value)
    for name in ("printf", "format"):
        conn.create_function(name, -1, guarded_printf(name))
    for name in ("trim", "ltrim", "rtrim"):
        conn.create_function(name, 2, guarded_trim(name))
    conn.set_authorizer(authorize)
    guard_results(conn)


def authorize(
    action: int,
    arg1,
    arg2,
    database,
    trigger,
    READ=sqlite3.SQLITE_READ,
    FUNCTION=sqlite3.SQLITE_FUNCTION,
    OK=sqlite3.SQLITE_OK,
    DENY=sqlite3.SQLITE_DENY,
) -> int:
    """SQLite asks while it prepares each statement: deny the few names that reveal files or pointers."""
    if action == READ and arg1 in DENIED_TABLES:
        return DENY
    if action == FUNCTION and arg2 and arg2.lower() in DENIED_FUNCTIONS:
        return DENY
    return OK


def guard_results(conn: sqlite3.Connection) -> None:
    """Rows as sqlite3.Row, counted against the result budget. Call again after code that set
    its own row_factory on a shared connection."""
    conn.row_factory = budgeted_row


_heap_limits_set = False
_heap_lock = threading.Lock()


def set_heap_limits() -> None:
    """Process-wide in SQLite, so set once, by the server (asgi.public_site); the soft limit makes
    caches give memory back first."""
    global _heap_limits_set
    with _heap_lock:
        if not _heap_limits_set:
            conn = sqlite3.connect(":memory:")
            try:
                conn.execute(f"pragma hard_heap_limit = {HARD_HEAP_LIMIT}")
                conn.execute(f"pragma soft_heap_limit = {SOFT_HEAP_LIMIT}")
            finally:
                conn.close()
            _heap_limits_set = True


# ---------------------------------------------------------------- the result budget

_spent = threading.local()


def budgeted_row(
    cursor: sqlite3.Cursor, values: tuple, Row=sqlite3.Row, state=_spent, budget=RESULT_BUDGET
) -> sqlite3.Row:
    """sqlite3.Row, after adding the row's text and blob lengths to its statement's total. Runs for
    every row the site reads, so it is kept to a few operations (1.2x plain sqlite3.Row, measured).
    The total is per cursor: the thread remembers the cursor it last counted for."""
    cost = 0
    for value in values:
        if value.__class__ is str or value.__class__ is bytes:
            cost += len(value)
    counted = state.__dict__
    if counted.get("cursor") is cursor:
        cost += counted["spent"]
    else:
        counted["cursor"] = cursor
    if cost > budget:
        raise ResultTooLarge(f"result too large: more than {budget:,} characters; select fewer rows or shorter values")
    counted["spent"] = cost
    return Row(cursor, values)


# ---------------------------------------------------------------- guarded built-ins

_builtins = threading.local()


def builtin(sql: str, args: tuple):
    """Call SQLite's own function on a private in-memory connection with the same limits."""
    conn = getattr(_builtins, "conn", None)
    if conn is None:
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        for limit, value in {**SQLITE_LIMITS, **NO_ATTACH}.items():
            conn.setlimit(limit, value)
        _builtins.conn = conn
    return conn.execute(sql, args).fetchone()[0]


# %[flags][width][.precision][length]type, as SQLite's printf reads it
PRINTF_SPEC = re.compile(r"%([-+ #!0,]*)(\*|\d+)?(?:\.(\*|\d*))?(?:ll|l)?(.)", re.S)


def printf_repeats_too_much(fmt: str, args: tuple) -> bool:
    """True if a %c asks to repeat its character more than a value may hold: SQLite would loop
    that many times and then return NULL anyway."""
    next_arg = 0
    for match in PRINTF_SPEC.finditer(fmt):
        _flags, width, precision, kind = match.groups()
        if kind == "%":
            continue
        if width == "*":
            next_arg += 1
        if precision == "*":
            precision = as_integer(args[next_arg]) if next_arg < len(args) else 0
            next_arg += 1
        else:
            precision = int(precision) if precision else 0
        if kind != "n":
            next_arg += 1
        if kind == "c" and abs(precision) > MAX_VALUE_BYTES:
            return True
    return False


def as_integer(value) -> int:
    """An argument as printf reads a `*`: SQLite's own integer conversion of any value."""
    if isinstance(value, int):
        return value
    return builtin("select cast(? as integer)", (value,)) or 0


def guarded_printf(name: str):
    def printf(*args):
        if args and isinstance(args[0], str) and printf_repeats_too_much(args[0], args[1:]):
            return None
        return builtin(f"select {name}({', '.join('?' * len(args))})", args)

    return printf


TRIM_DIRECT_LIMIT = 1_000_000  # len(x) * len(y) SQLite may do itself (about a millisecond)


def guarded_trim(name: str):
    def trim(text, characters):
        if isinstance(text, str) and isinstance(characters, str) and len(text) * len(characters) > TRIM_DIRECT_LIMIT:
            return trim_linear(name, text, frozenset(characters))
        return builtin(f"select {name}(?, ?)", (text, characters))

    return trim


def trim_linear(name: str, text: str, characters: frozenset[str]) -> str:
    start, end = 0, len(text)
    if name != "rtrim":
        while start < end and text[start] in characters:
            start += 1
    if name != "ltrim":
        while end > start and text[end - 1] in characters:
            end -= 1
    return text[start:end]
