"""`bridge-laws serve --workers N`: N server processes behind one port.

One process answers on one core: its search runs on the event loop (responses.read_here) and the
GIL holds it to one core whatever its threads. With N workers the site answers on N cores. Each
worker is forked before the site starts and then starts all of it on its own (Datasette, its
threads and connections, the reload watch, the caches), so no state crosses a fork.

This process stays as the dispatcher and supervisor. It alone accepts on the port and hands each
new connection to the next worker in turn (its descriptor sent over a Unix socket pair), as Node's
cluster module does: when every worker accepts on a shared socket, the first to wake takes a burst
of connections and keep-alive clients stay unevenly spread (measured: 8 clients, 2 workers, one run
at 509 answers/s and the next at 918). SIGTERM or SIGINT stops the dispatch and is passed on to
every worker, which finish their requests as uvicorn does. A worker that ends by itself (a crash,
an out-of-memory kill) ends the service - the others are stopped, the exit status is 1 - so a
supervisor above (systemd, docker) restarts the whole rather than the site running a worker short.
"""

from __future__ import annotations

import errno
import os
import selectors
import signal
import socket
import sys
import time
from typing import Callable

MAX_WORKERS = 16
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
REAP_EVERY = 0.25  # seconds between looks for a worker that ended


BACKLOG = 2048  # uvicorn's


def bound(host: str, port: int) -> socket.socket:
    """A TCP socket bound to host:port as uvicorn binds its own (socket.gaierror for an unknown host,
    OSError for a port in use)."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


def listen(host: str, port: int) -> socket.socket:
    """The site's listening socket, accepted on by the dispatcher."""
    sock = bound(host, port)
    sock.listen(BACKLOG)
    return sock


def serve_forked(listener: socket.socket, workers: int, serve_one: Callable[[socket.socket], None]) -> int:
    """Fork `workers` children, each running serve_one(channel) (it serves the connections that
    arrive on `channel` and returns when its server stops); dispatch and supervise as the module
    says. Returns this process's exit status."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)  # until the handlers are set
    children: dict[int, socket.socket] = {}
    stopping: list = []
    try:
        for index in range(workers):
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            pid = os.fork()
            if pid == 0:
                ours.close()
                listener.close()
                for other in children.values():
                    other.close()
                _run_child(serve_one, theirs)
            theirs.close()
            ours.setblocking(False)
            children[pid] = ours

        def stop_all(signum, _frame):
            stopping.append(signum)
            _signal_all(children, signum)

        for stop in STOP_SIGNALS:
            signal.signal(stop, stop_all)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    status = _dispatch(listener, children, stopping)
    listener.close()
    return _wait_for_all(children, status)


def _dispatch(listener: socket.socket, children: dict[int, socket.socket], stopping: list) -> int:
    """Hand each connection to the next worker until a stop signal or a worker's end."""
    listener.setblocking(False)
    turn = 0
    with selectors.DefaultSelector() as selector:
        selector.register(listener, selectors.EVENT_READ)
        while not stopping:
            if selector.select(REAP_EVERY):
                while True:
                    try:
                        connection, _ = listener.accept()
                    except (BlockingIOError, InterruptedError):
                        break
                    except OSError as error:  # out of descriptors: the connection waits in the queue
                        if error.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                            time.sleep(REAP_EVERY / 5)  # the queue stays readable: do not spin on it
                            break
                        raise
                    turn = _hand_over(connection, list(children.values()), turn)
            ended = _reap(children)
            if ended and not stopping:
                pid, code = ended
                print(
                    f"bridge-laws serve: worker {pid} ended by itself ({_describe(code)}); stopping the others",
                    file=sys.stderr,
                    flush=True,
                )
                stopping.append(None)
                _signal_all(children, signal.SIGTERM)
                return 1
    return 0


def _hand_over(connection: socket.socket, channels: list[socket.socket], turn: int) -> int:
    """Send the connection to the worker whose turn it is (or the next that can take it); our copy
    closes either way. Returns the next turn."""
    with connection:
        for step in range(len(channels)):
            channel = channels[(turn + step) % len(channels)]
            try:
                socket.send_fds(channel, [b"c"], [connection.fileno()])
            except OSError:  # its channel is full (a stuck worker) or gone: the next worker
                continue
            return (turn + step + 1) % len(channels)
    return turn


def _reap(children: dict[int, socket.socket]) -> tuple[int, int] | None:
    """(pid, exit code) of a worker that has ended, removed from `children`; None if all run."""
    for pid in list(children):
        try:
            done, wait_status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done, wait_status = pid, 0
        if done:
            children.pop(pid).close()
            return pid, os.waitstatus_to_exitcode(wait_status)
    return None


def _wait_for_all(children: dict[int, socket.socket], status: int) -> int:
    """Wait for every worker to finish (only the workers: the offline packs' process is another
    child, reaped by its Popen); a worker failing on the way out makes the status 1."""
    stopped = {0, -signal.SIGTERM, -signal.SIGINT}
    for pid, channel in list(children.items()):
        try:
            _, wait_status = os.waitpid(pid, 0)
        except ChildProcessError:
            wait_status = 0
        channel.close()
        del children[pid]
        if os.waitstatus_to_exitcode(wait_status) not in stopped:
            status = 1
    return status


def _run_child(serve_one: Callable[[socket.socket], None], channel: socket.socket) -> None:
    """In a forked worker: the default stop signals (uvicorn sets its own), then serve; it never
    returns into the dispatcher's code."""
    code = 0
    try:
        for stop in STOP_SIGNALS:
            signal.signal(stop, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        serve_one(channel)
    except SystemExit as leaving:
        code = leaving.code if isinstance(leaving.code, int) else 1
    except BaseException:  # noqa: BLE001 - reported; a worker must not go on as the dispatcher
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _signal_all(children: dict[int, socket.socket], signum: int) -> None:
    for pid in children:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass


def _describe(code: int) -> str:
    return f"signal {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"


# ---------------------------------------------------------------- in a worker


def worker_server(config, channel: socket.socket):
    """A uvicorn Server that serves the connections the dispatcher sends over `channel`, each with
    the protocol uvicorn made for its own listener (so every HTTP limit of serve.py applies). Its
    own listener is a Unix socket nobody is told of; run it with `.run(sockets=[private_listener()])`."""
    import asyncio  # here, not at the top: `bridge-laws build` imports this module's MAX_WORKERS (asyncio: 20 ms)

    import uvicorn

    class WorkerServer(uvicorn.Server):
        async def startup(self, sockets=None):
            await super().startup(sockets=sockets)
            if self.should_exit or not self.servers:
                return
            loop = asyncio.get_running_loop()
            factory = self.servers[0]._protocol_factory  # uvicorn's protocol, configured
            channel.setblocking(False)
            loop.add_reader(channel, self.adopt, loop, factory)

        def adopt(self, loop, factory):
            try:
                message, fds, _, _ = socket.recv_fds(channel, 1024, 64)
            except (BlockingIOError, InterruptedError):
                return
            if not message:  # the dispatcher is gone: no more connections will come
                loop.remove_reader(channel)
                self.should_exit = True
                return
            for fd in fds:
                connection = socket.socket(fileno=fd)
                if self.should_exit:
                    connection.close()
                    continue
                connection.setblocking(False)
                loop.create_task(loop.connect_accepted_socket(factory, connection))

        async def shutdown(self, sockets=None):
            asyncio.get_running_loop().remove_reader(channel)
            await super().shutdown(sockets=sockets)

    return WorkerServer(config)


def private_listener() -> socket.socket:
    """A listening Unix socket with an address of its own (Linux autobinds one in the abstract
    namespace): uvicorn needs a listener; the worker's connections come over its channel."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind("")  # Linux: an address of its own in the abstract namespace
    sock.listen(1)
    return sock
