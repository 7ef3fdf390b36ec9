"""Server CPU per answer, this checkout's `bridge-laws serve` against another checkout's (the before
code), interleaved: 40 rounds of five pages (a unit page, the search page, the 索引, search JSON, a
law), each with a fresh parameter so nothing comes from a cache, the client as browsers ask
(Accept-Encoding: gzip), CPU read from /proc (user + system). Load on a shared machine moves wall
times, not much the CPU a process spends.

    .venv/bin/python -m benchmarks.server_cpu /tmp/server-before
"""

import os
import statistics
import sys
from pathlib import Path

import httpx

from tests.live_server import PYTHON, ROOT, free_port, serving


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


PATHS = [
    "/laws-2017-ja/61B2(a)",
    "/-/search?q=リボーク",
    "/laws-2017-ja/-/index",
    "/-/search.json?q=dummy",
    "/laws-2017-ja/45",
]


ROUNDS, RUNS = 40, 3


def measure(checkout: Path | None) -> list[float]:
    """ms of server CPU per answer, RUNS times, of this checkout's server or `checkout`'s."""
    port = free_port()
    argv = [PYTHON, "-m", "laws_site.cli", "serve", "--db", str(ROOT / "laws.db"), "--port", str(port)]
    env = dict(os.environ, PYTHONPATH=str(checkout)) if checkout else None
    with serving(ROOT / "laws.db", port=port, argv=argv, cwd=checkout or ROOT, env=env, timeout=180) as (base, process):
        with httpx.Client(base_url=base, timeout=60) as client:
            for path in PATHS:
                client.get(path)
            runs = []
            for run in range(RUNS):
                start = cpu_seconds(process.pid)
                for i in range(ROUNDS):
                    for path in PATHS:
                        client.get(path, params={"n": f"{run}-{i}"})
                runs.append((cpu_seconds(process.pid) - start) / (ROUNDS * len(PATHS)) * 1000)
        return runs


def main() -> None:
    before = Path(sys.argv[1])
    figures = {"before": [], "after": []}
    for label, checkout in (("before", before), ("after", None), ("before", before), ("after", None)):
        runs = measure(checkout)
        figures[label] += runs
        print(label, " ".join(f"{ms:.2f}" for ms in runs), "ms CPU per answer", flush=True)
    medians = {label: statistics.median(runs) for label, runs in figures.items()}
    print(
        f"median before {medians['before']:.2f} ms, after {medians['after']:.2f} ms: {medians['after'] / medians['before']:.2f}x"
    )


if __name__ == "__main__":
    main()
