"""Build time of the whole corpus against a baseline measured in the same run.

Baseline: read the corpus (manifest, texts, errata) and tokenize every line with SudachiPy
(mode C): the least any build that tokenizes Japanese must do. Target: build <= 3x baseline.

    .venv/bin/python -m benchmarks.build_bench            # medians of 5 runs each
    .venv/bin/python -m benchmarks.build_bench --runs 9 --profile 25

Both run in this process after one warm-up each (dictionary loading is not what we measure;
`--cold` adds one fresh-process timing of each for the record). `--whole-process N` times what a
user waits for, N interleaved runs each: `bridge-laws build` (the installed CLI, fresh process) against
a fresh process that imports SudachiPy and nothing of this project, loads its dictionary and
tokenizes every corpus line (BASELINE_CODE; issue 21's target: <= 3x). `--no-bytecode` runs both
without bytecode caches (PYTHONDONTWRITEBYTECODE=1: every project module compiled on each run).

    .venv/bin/python -m benchmarks.build_bench --whole-process 9
    .venv/bin/python -m benchmarks.build_bench --whole-process 9 --against /tmp/main   # before/after

`--with-packs N --against CHECKOUT` times the whole build a user runs, offline packs included
(issue 35's target: <= 60 s on this machine): N interleaved rounds of fresh processes, the other
checkout's `bridge-laws build` (the baseline, e.g. `git archive main | tar -x -C /tmp/main`) then
this one's, each into its own temporary directory; wall and CPU medians, the ratio, and each phase
as the build logs it (laws.db, each pack), median over the runs.

    .venv/bin/python -m benchmarks.build_bench --with-packs 3 --against /tmp/main
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT / "corpus"

TARGET_RATIO = 3.0
WHOLE_PROCESS_TARGET = 3.0  # issue 21: the whole build process <= 3x the honest baseline

# The whole-process baseline, run as `python -c BASELINE_CODE <corpus dir>` in a fresh process: it
# imports SudachiPy and nothing of this project (it reads the manifest's `file:` lines with a regular
# expression, the texts as UTF-8), loads the dictionary and tokenizes every non-blank line (mode C).
# It prints the project modules it imported (none, or the benchmark refuses the figure) and the token count.
BASELINE_CODE = """
import re, sys
from pathlib import Path
from sudachipy import Dictionary, SplitMode
corpus = Path(sys.argv[1])
tokenizer = Dictionary().tokenizer()
count = 0
for name in re.findall(r"^\\s*file:\\s*(\\S+)\\s*$", (corpus / "sources.yml").read_text(encoding="utf-8"), re.M):
    for line in (corpus / name).read_text(encoding="utf-8").splitlines():
        if line.strip():
            count += len(tokenizer.tokenize(line, SplitMode.C))
print(sorted(m for m in sys.modules if m.split(".")[0] in ("ingest", "laws_site", "benchmarks")), count)
"""


def baseline(corpus_dir: Path = DEFAULT_CORPUS) -> int:
    """In this process (after a warm-up): read every source and tokenize each line with SudachiPy;
    returns the token count."""
    from sudachipy import Dictionary, SplitMode

    from ingest.sources.corpus import load_sources

    tokenizer = _tokenizer(Dictionary, SplitMode)
    count = 0
    for source in load_sources(corpus_dir):
        for line in source.text.splitlines():
            if line.strip():
                count += len(tokenizer.tokenize(line, SplitMode.C))
    return count


_TOKENIZER = None


def _tokenizer(Dictionary, SplitMode):
    global _TOKENIZER
    if _TOKENIZER is None:
        _TOKENIZER = Dictionary().tokenizer()
    return _TOKENIZER


def build_once(corpus_dir: Path = DEFAULT_CORPUS) -> dict:
    from ingest.build.database import build

    with tempfile.TemporaryDirectory() as tmp:
        return build(Path(tmp) / "laws.db", corpus_dir)


def timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def cold_seconds(code: str) -> float:
    return seconds_of([sys.executable, "-c", code])


def profile_build(top: int) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    build_once()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("cumulative").print_stats(top)
    out.write("\n--- by own time ---\n")
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def corpus_bytes(corpus_dir: Path = DEFAULT_CORPUS) -> int:
    from ingest.sources.corpus import load_sources

    return sum(source.path.stat().st_size for source in load_sources(corpus_dir))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", type=int, metavar="N", default=0, help="print the top N functions of one build")
    parser.add_argument("--cold", action="store_true", help="also time each once in a fresh process")
    parser.add_argument(
        "--whole-process",
        type=int,
        default=0,
        metavar="N",
        help="only time N fresh-process runs of `bridge-laws build` and of the baseline",
    )
    parser.add_argument(
        "--no-bytecode", action="store_true", help="with --whole-process: PYTHONDONTWRITEBYTECODE=1 for both processes"
    )
    parser.add_argument(
        "--against",
        type=Path,
        metavar="CHECKOUT",
        help="with --whole-process: also time the build of another checkout of this project "
        "(e.g. `git archive main | tar -x -C DIR`), interleaved, wall and CPU time",
    )
    parser.add_argument(
        "--with-packs",
        type=int,
        default=0,
        metavar="N",
        help="with --against: time N fresh-process runs of the whole `bridge-laws build` (packs included) of both",
    )
    args = parser.parse_args()
    if args.with_packs:
        if args.against is None:
            parser.error("--with-packs needs --against CHECKOUT (the baseline, run in its own fresh process)")
        return with_packs(args.with_packs, args.against)
    if args.whole_process:
        return whole_process(args.whole_process, bytecode=not args.no_bytecode, against=args.against)

    print(
        f"machine: {platform.node()} {platform.machine()} {platform_cpu()} x{_cpus()}, "
        f"Python {platform.python_version()}; corpus {corpus_bytes() / 1024:.0f} KiB"
    )
    baseline()  # warm-up: dictionaries, OpenCC, regex caches
    build_once()
    base_times, build_times = [], []
    for _ in range(args.runs):  # interleaved so drift hits both alike
        base_times.append(timed(baseline))
        build_times.append(timed(build_once))
    base, built = statistics.median(base_times), statistics.median(build_times)
    ratio = built / base
    print(f"baseline (read + Sudachi every line): median {base:.3f}s  runs {fmt(base_times)}")
    print(f"build (ingest.build.database.build):          median {built:.3f}s  runs {fmt(build_times)}")
    print(
        f"ratio build/baseline: {ratio:.1f}x  (target <= {TARGET_RATIO:.0f}x: {'met' if ratio <= TARGET_RATIO else 'MISSED'})"
    )
    if args.cold:
        cold_base = cold_seconds("import benchmarks.build_bench as b; b.baseline()")
        cold_build = cold_seconds("import benchmarks.build_bench as b; b.build_once()")
        print(
            f"cold, fresh process incl. imports: baseline {cold_base:.2f}s, build {cold_build:.2f}s "
            f"({cold_build / cold_base:.1f}x)"
        )
    if args.profile:
        print(profile_build(args.profile))
    return 0


def whole_process(runs: int, bytecode: bool = True, against: Path | None = None) -> int:
    """N interleaved rounds of fresh processes: BASELINE_CODE, then `bridge-laws build` (the installed
    CLI, into a temporary file), then (``against``) the same CLI of another checkout. All run with
    bytecode caches written, as an installed package has them (PYTHONDONTWRITEBYTECODE is dropped from
    their environment, one warm-up run each first). Wall time of each, and its CPU time: user + system
    of the process and its children (getrusage)."""
    bridge_laws = Path(sys.executable).parent / "bridge-laws"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if not bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    print(
        f"machine: {platform.node()} {platform_cpu()} x{_cpus()}, Python {platform.python_version()}, "
        f"bytecode caches {'on' if bytecode else 'off'}, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    base_argv = [sys.executable, "-c", BASELINE_CODE, str(DEFAULT_CORPUS)]
    imported, tokens = subprocess.run(
        base_argv, cwd=ROOT, env=env, check=True, capture_output=True, text=True
    ).stdout.rsplit(" ", 1)
    if imported != "[]":
        raise SystemExit(f"the baseline imported project modules: {imported}")
    print(f"baseline imports no project module; {int(tokens):,} Sudachi tokens")
    names = ["baseline (fresh python: import SudachiPy, load, tokenize every line)", "`bridge-laws build --no-offline`"]
    with tempfile.TemporaryDirectory() as tmp:
        commands = [
            (base_argv, ROOT, env),
            # laws.db alone: the offline packs (`build` makes them too) are timed apart, in RESULTS.md
            ([str(bridge_laws), "build", "--no-offline", "--db", str(Path(tmp) / "laws.db")], ROOT, env),
        ]
        if against is not None:
            other = Path(against).resolve()
            names.append(f"`bridge-laws build` of {other}")
            commands.append(
                (
                    [
                        sys.executable,
                        "-c",
                        "from laws_site.cli import main; main()",
                        "build",
                        "--db",
                        str(Path(tmp) / "other.db"),
                    ],
                    other,
                    {**env, "PYTHONPATH": str(other)},
                )
            )
        for argv, cwd, environment in commands[1:]:
            seconds_of(argv, environment, cwd)  # warm-up: bytecode caches
        walls: list[list[float]] = [[] for _ in commands]
        cpus: list[list[float]] = [[] for _ in commands]
        for _ in range(runs):  # interleaved so drift hits all alike
            for n, (argv, cwd, environment) in enumerate(commands):
                wall, cpu = timed_process(argv, environment, cwd)
                walls[n].append(wall)
                cpus[n].append(cpu)
    base, base_cpu = statistics.median(walls[0]), statistics.median(cpus[0])
    for name, wall_times, cpu_times in zip(names, walls, cpus):
        wall, cpu = statistics.median(wall_times), statistics.median(cpu_times)
        print(
            f"whole process, {name}: median {wall:.3f}s wall ({wall / base:.2f}x), {cpu:.3f}s CPU "
            f"({cpu / base_cpu:.2f}x)\n    wall {fmt(wall_times)}\n    CPU  {fmt(cpu_times)}"
        )
    built = statistics.median(walls[1])
    verdict = "met" if built / base <= WHOLE_PROCESS_TARGET else "MISSED"
    print(
        f"ratio: {built / base:.2f}x  (target <= {WHOLE_PROCESS_TARGET:g}x: {verdict}); "
        f"load average after {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    return 0


WITH_PACKS_TARGET = 60.0  # issue 35: the whole build, packs included, on this machine
# the build's own log lines (stderr): "wrote laws.db in 4.8s", "offline pack pages-ja: ..., 61.2 s"
PHASE_LINES = (
    re.compile(r"^wrote (\S+?) in ([0-9.]+)s", re.M),
    re.compile(r"^offline pack ([\w-]+): .*?([0-9.]+) s$", re.M),
)


def with_packs(runs: int, against: Path) -> int:
    """N interleaved rounds: the baseline checkout's whole `bridge-laws build`, then this checkout's,
    each a fresh process (its module paths its own: PYTHONPATH), writing into its own temporary
    directory. Wall, CPU (the process and its pack workers) and each logged phase, medians."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    checkouts = [("baseline " + str(Path(against).resolve()), Path(against).resolve()), ("this checkout", ROOT)]
    print(
        f"machine: {platform.node()} {platform_cpu()} x{_cpus()}, Python {platform.python_version()}, "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    walls: dict[str, list[float]] = {name: [] for name, _ in checkouts}
    cpus: dict[str, list[float]] = {name: [] for name, _ in checkouts}
    phases: dict[str, dict[str, list[float]]] = {name: {} for name, _ in checkouts}
    for _ in range(runs):  # interleaved so drift hits both alike
        for name, checkout in checkouts:
            with tempfile.TemporaryDirectory() as tmp:
                argv = [
                    sys.executable,
                    "-c",
                    "from laws_site.cli import main; main()",
                    "build",
                    "--db",
                    f"{tmp}/laws.db",
                ]
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                started = time.perf_counter()
                done = subprocess.run(
                    argv, cwd=checkout, env={**env, "PYTHONPATH": str(checkout)}, capture_output=True, text=True
                )
                wall = time.perf_counter() - started
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if done.returncode:
                raise SystemExit(f"{name}: build failed:\n{done.stderr[-2000:]}")
            walls[name].append(wall)
            cpus[name].append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
            for pattern in PHASE_LINES:
                for phase, seconds in pattern.findall(done.stderr):
                    phases[name].setdefault(phase, []).append(float(seconds))
            print(f"  {name}: {wall:.1f} s wall, {cpus[name][-1]:.1f} s CPU", flush=True)
    for name, _ in checkouts:
        each = ", ".join(f"{phase} {statistics.median(times):.1f} s" for phase, times in phases[name].items())
        print(
            f"whole build with packs, {name}: median {statistics.median(walls[name]):.1f} s wall, "
            f"{statistics.median(cpus[name]):.1f} s CPU\n    wall {fmt(walls[name])}\n    CPU  {fmt(cpus[name])}"
            f"\n    phases (wall, as logged): {each}"
        )
    base, built = (statistics.median(walls[name]) for name, _ in checkouts)
    base_cpu, built_cpu = (statistics.median(cpus[name]) for name, _ in checkouts)
    verdict = "met" if built <= WITH_PACKS_TARGET else "MISSED"
    print(
        f"ratio this/baseline: {built / base:.2f}x wall, {built_cpu / base_cpu:.2f}x CPU; "
        f"target <= {WITH_PACKS_TARGET:g} s: {verdict}; load average after {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    return 0


def timed_process(argv: list[str], env: dict | None = None, cwd: Path = ROOT) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, the process and its children) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = seconds_of(argv, env, cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def seconds_of(argv: list[str], env: dict | None = None, cwd: Path = ROOT) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def fmt(times: list[float]) -> str:
    return " ".join(f"{t:.3f}" for t in times)


def _cpus() -> int:
    import os

    return os.cpu_count() or 1


def platform_cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "cpu"


if __name__ == "__main__":
    sys.exit(main())
