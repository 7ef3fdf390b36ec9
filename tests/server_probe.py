"""Issue 38's probe, kept: attacks on a running server, each bounded in time and count, and a
bystander fetching a unit page every 0.5 s meanwhile. The live tests (tests/test_server_platform.py)
and the benchmark (benchmarks/server_attacks.py) both use them. Traffic goes to loopback only; an
attacker may take another loopback address (127.0.0.2) as its source, so a per-address bound in a
proxy tells it from the bystander.
"""

from __future__ import annotations

import contextlib
import re
import selectors
import shutil
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

import httpx

UNIT_PAGE = "/laws-2017-ja/61B2(a)"
HALF_SENT_HEAD = b"GET /laws-2017-ja/61 HTTP/1.1\r\nHost: attack\r\nX-Never-Ends: "
# other client addresses on this machine (all of 127/8 is loopback)
ATTACKER = "127.0.0.2"
ANOTHER_CLIENT = "127.0.0.3"

# the paths: each a prefix, then a path that a browser would read as another host or that
# holds a control character - refused, whatever follows the prefix
CRAFTED = {
    "/ja//evil.example": 404,
    "/ja/%5Cevil.example": 404,
    "/ja/%09/evil.example": 400,
    "/zh/%2F%2Fevil.example": 404,
    "/en/\\\\evil.example": 404,
    "/en/\\evil.example": 404,
    "/ja/%0d%0aX:1": 400,
    "/ja/%00": 400,
    "//evil.example": 404,
    "/%5Cevil.example": 404,
    "/%2F%2Fevil.example": 404,
    "/en/%2f%2fevil.example/x": 404,
    "/zh/%5C%5Cevil.example": 404,
}


class Bystander:
    """Fetches `path` every `every` seconds, one request at a time, each allowed `timeout` seconds,
    while an attack runs; counts the answers that were 200 within `timeout`."""

    def __init__(
        self, base: str, path: str = UNIT_PAGE, every: float = 0.5, timeout: float = 1.0, source: str | None = None
    ):
        self.base, self.path, self.every, self.timeout, self.source = base, path, every, timeout, source
        self.outcomes: list[tuple[object, float]] = []  # (status or error name, seconds)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        transport = httpx.HTTPTransport(local_address=self.source) if self.source else None
        with httpx.Client(base_url=self.base, timeout=self.timeout, transport=transport) as client:
            while not self.stop.is_set():
                started = time.perf_counter()
                try:
                    outcome = client.get(self.path).status_code
                except httpx.HTTPError as error:
                    outcome = type(error).__name__
                took = time.perf_counter() - started
                self.outcomes.append((outcome, took))
                self.stop.wait(max(0.0, self.every - took))

    def __enter__(self):
        # once before the attack, untimed: a cold server's first page (Datasette's start-up, the
        # proxy's first connection) is not the attack's doing
        with contextlib.suppress(httpx.HTTPError):
            httpx.get(self.base + self.path, timeout=30)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()

    def within(self, seconds: float) -> int:
        """How many answers were 200 within `seconds`."""
        return sum(1 for status, took in self.outcomes if status == 200 and took <= seconds)

    @property
    def answered(self) -> int:
        return self.within(self.timeout)

    @property
    def share(self) -> float:
        return self.answered / len(self.outcomes) if self.outcomes else 0.0

    def summary(self) -> str:
        others = sorted({str(status) for status, _ in self.outcomes if status != 200})
        slowest = max((took for _, took in self.outcomes), default=0.0)
        return (
            f"bystander {self.answered}/{len(self.outcomes)} answered 200 within {self.timeout:g} s "
            f"({self.share:.1%}), slowest {slowest * 1000:.0f} ms" + (f", also {', '.join(others)}" if others else "")
        )


@dataclass
class HeldSockets:
    opened: int = 0
    refused: int = 0  # connect failed or was reset at once
    closed_at_once: int = 0  # accepted, then closed by the other side within AT_ONCE seconds
    closed_by_server: int = 0  # closed later (a head time-out)
    most_open: int = 0
    open_at_end: int = 0
    seconds: float = 0.0
    errors: dict = field(default_factory=dict)

    def summary(self) -> str:
        return (
            f"{self.opened:,} sockets opened in {self.seconds:.0f} s (at most {self.most_open:,} at once), "
            f"{self.open_at_end:,} open at the end, {self.closed_by_server:,} closed by the server after a while, "
            f"{self.closed_at_once:,} closed at once, {self.refused:,} refused"
        )


REOPEN_RATE = 200  # connections reopened per second at most, once `count` are open


def hold_half_sent(base: str, count: int, seconds: float, source: str | None = None) -> HeldSockets:
    """Keep `count` connections open for `seconds`, each having sent part of a request head and
    nothing more, reopening each one the server closes (the probe's slow-loris)."""
    parts = urlsplit(base)
    address = (parts.hostname, parts.port)
    held = HeldSockets()
    selector = selectors.DefaultSelector()
    started = time.monotonic()
    deadline = started + seconds
    try:
        while time.monotonic() < deadline:
            while len(selector.get_map()) < count and time.monotonic() < deadline:
                if held.opened > count + REOPEN_RATE * (time.monotonic() - started):
                    break  # reopening as fast as it can would measure the attacker's CPU, not the server
                sock = open_half_sent(address, source, held)
                if sock is None:
                    time.sleep(0.01)  # refused: do not spin
                    break
                selector.register(sock, selectors.EVENT_READ, time.monotonic())
            sweep_closed(selector, held, timeout=0.2)
            held.most_open = max(held.most_open, len(selector.get_map()))
        sweep_closed(selector, held, timeout=0.5)
        held.open_at_end = len(selector.get_map())
    finally:
        for key in list(selector.get_map().values()):
            key.fileobj.close()
        selector.close()
    held.seconds = time.monotonic() - started
    return held


AT_ONCE = 1.0


def sweep_closed(selector: selectors.BaseSelector, held: HeldSockets, timeout: float) -> None:
    """Forget the sockets the other side has closed, counting how soon after opening."""
    for key, _ in selector.select(timeout=timeout):
        if not still_open(key.fileobj):
            if time.monotonic() - key.data < AT_ONCE:
                held.closed_at_once += 1
            else:
                held.closed_by_server += 1
            selector.unregister(key.fileobj)
            key.fileobj.close()


def open_half_sent(address, source: str | None, held: HeldSockets) -> socket.socket | None:
    try:
        sock = socket.create_connection(address, timeout=2, source_address=(source, 0) if source else None)
        sock.sendall(HALF_SENT_HEAD)
    except OSError as error:
        held.refused += 1
        held.errors[type(error).__name__] = held.errors.get(type(error).__name__, 0) + 1
        return None
    sock.setblocking(False)
    held.opened += 1
    return sock


def still_open(sock: socket.socket) -> bool:
    try:
        return sock.recv(65536) != b""  # an answer (400/408) still means it is closing; count it closed
    except BlockingIOError:
        return True
    except OSError:
        return False


@dataclass
class Burst:
    complete: int
    failed_connect: int
    failed_receive: int
    failed_length: int
    failed_exceptions: int
    non_2xx: int
    seconds: float
    output: str

    @property
    def resets(self) -> int:
        """Connections refused, reset or closed without an answer."""
        return self.failed_connect + self.failed_receive + self.failed_exceptions

    def summary(self) -> str:
        return (
            f"{self.complete:,} complete in {self.seconds:.1f} s, {self.non_2xx:,} non-2xx, "
            f"{self.resets:,} reset or unanswered (connect {self.failed_connect}, receive {self.failed_receive}, "
            f"exceptions {self.failed_exceptions})"
        )


def ab_burst(
    url: str, concurrency: int = 1000, requests: int = 10_000, timeout: int = 60, keep_alive: bool = False
) -> Burst:
    """Apache Bench (Debian's apache2-utils): `requests` GETs, `concurrency` at once, each on a new
    connection (or on `concurrency` kept-alive ones); -r counts a reset instead of stopping."""
    ab = shutil.which("ab")
    assert ab, "ab not found: install Debian's apache2-utils (.ci/run does)"
    started = time.monotonic()
    done = subprocess.run(
        [ab, "-r", "-q", *(["-k"] if keep_alive else []), "-s", str(timeout), "-c", str(concurrency)]
        + ["-n", str(requests), url],
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = done.stdout + done.stderr
    failed = re.search(r"\(Connect: (\d+), Receive: (\d+), Length: (\d+), Exceptions: (\d+)\)", output)
    return Burst(
        complete=int(number(r"Complete requests:\s+(\d+)", output)),
        failed_connect=int(failed.group(1)) if failed else 0,
        failed_receive=int(failed.group(2)) if failed else 0,
        failed_length=int(failed.group(3)) if failed else 0,
        failed_exceptions=int(failed.group(4)) if failed else 0,
        non_2xx=int(number(r"Non-2xx responses:\s+(\d+)", output)),
        seconds=time.monotonic() - started,
        output=output,
    )


def wrk_flood(url: str, connections: int = 1500, seconds: int = 15) -> dict:
    """wrk (Debian's wrk): `connections` keep-alive connections sending requests for `seconds`."""
    wrk = shutil.which("wrk")
    assert wrk, "wrk not found: install Debian's wrk (.ci/run does)"
    done = subprocess.run(
        [wrk, "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--timeout", "10s", url],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
    )
    output = done.stdout + done.stderr
    return {
        "requests": int(number(r"(\d+) requests in", output)),
        "non_2xx_3xx": int(number(r"Non-2xx or 3xx responses: (\d+)", output)),
        "socket_errors": output.split("Socket errors:", 1)[1].split("\n", 1)[0].strip()
        if "Socket errors:" in output
        else "none",
        "output": output,
    }


def number(pattern: str, text: str) -> str:
    found = re.search(pattern, text)
    return found.group(1) if found else "0"


@contextlib.contextmanager
def slow_reader(base: str, path: str):
    """A client that asks for `path` and reads almost nothing of the answer (a tiny receive
    buffer, never drained): the server's answer stays in progress."""
    parts = urlsplit(base)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((parts.hostname, parts.port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {parts.hostname}\r\n\r\n".encode())
    sock.settimeout(5)
    first = sock.recv(64)  # the answer has begun
    try:
        yield first
    finally:
        sock.close()


def raw_request(base: str, target: str, method: str = "GET") -> tuple[int | None, dict[str, str]]:
    """Send the request line byte for byte (httpx would normalise `/\\x` and refuses URLs over 64 KiB).
    (None, {}) when the server's HTTP layer closed the connection instead of answering."""
    parts = urlsplit(base)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        try:
            sock.sendall(
                f"{method} {target} HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: close\r\n\r\n".encode("latin-1")
            )
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except ConnectionResetError:
            return None, {}
    head = data.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    if not head or not head[0].startswith("HTTP/"):
        return None, {}
    headers = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(head[0].split()[1]), headers


def stays_on_the_site(origin: str, path: str, location: str) -> bool:
    target = urlsplit(urljoin(origin + path, location))
    return (target.scheme, target.netloc) == tuple(urlsplit(origin)[:2]) and not any(
        ord(char) < 0x20 or char == "\\" for char in location
    )
