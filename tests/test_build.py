"""The build: schema, atomic replacement, and bad corpus input that loses nothing."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from ingest.build.database import write_atomically
from laws_site.cli import cli

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("build") / "laws.db"
    result = CliRunner().invoke(cli, ["build", "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def copy_corpus(tmp_path: Path) -> Path:
    target = tmp_path / "corpus"
    shutil.copytree(CORPUS, target)
    return target


@pytest.mark.slow
def test_schema_and_counts(built):
    conn = sqlite3.connect(built)
    docs = [r[0] for r in conn.execute("select id from documents order by id")]
    assert docs == ["jcbl-regs-ja", "laws-1997-zh", "laws-2017-ja", "out-of-turn-notes-ja", "revoke-notes-ja"]
    row = conn.execute(
        "select doc, ref, parent_id, kind, title, page from sections where id = 'laws-2017-ja:61B2(a)'"
    ).fetchone()
    assert row == ("laws-2017-ja", "61B2(a)", "laws-2017-ja:61B2", "subitem", None, 93)
    assert conn.execute("select count(*) from sections where doc = 'laws-2017-ja' and kind = 'law'").fetchone() == (93,)
    # foreign keys are declared so Datasette links parent and document
    fks = {(fk[2], fk[3]) for fk in conn.execute("pragma foreign_key_list(sections)")}
    assert ("documents", "doc") in fks and ("sections", "parent_id") in fks
    # every parent exists
    orphans = conn.execute(
        "select count(*) from sections s where parent_id is not null "
        "and not exists (select 1 from sections p where p.id = s.parent_id)"
    ).fetchone()
    assert orphans == (0,)


def test_fts_table_is_detected_by_datasette(built):
    conn = sqlite3.connect(built)
    sql = conn.execute("select sql from sqlite_master where name = 'sections_fts'").fetchone()[0]
    assert "content=[sections]" in sql or 'content="sections"' in sql or "content='sections'" in sql


@pytest.mark.slow
def test_rebuild_replaces_atomically(built, tmp_path):
    db = tmp_path / "laws.db"
    shutil.copy(built, db)
    result = CliRunner().invoke(cli, ["build", "--db", str(db)])
    assert result.exit_code == 0
    assert not list(tmp_path.glob(".laws.db.*.tmp")), "temporary file left behind"


def corrupt(tmp_path: Path, how: str) -> tuple[Path, str]:
    """A corpus copy broken in one way; returns it and the file name the error must name."""
    corpus = copy_corpus(tmp_path)
    laws = corpus / "laws-2017-ja.txt"
    text = laws.read_text(encoding="utf-8")
    if how == "truncated":
        laws.write_text(text[: text.index("### 第53条")], encoding="utf-8")
        # the errata would stop the build first (their lines are past the cut): the parser's error is tested here
        (corpus / "errata" / "laws-2017-ja.yml").unlink()
    elif how == "shift_jis":
        laws.write_bytes(text.encode("shift_jis", errors="replace"))
    elif how == "empty":
        laws.write_text("", encoding="utf-8")
    elif how == "duplicated_law_heading":
        laws.write_text(
            text.replace("### 第53条 順番外のリードの受け入れ", "### 第52条 順番外のリードの受け入れ"), encoding="utf-8"
        )
    elif how == "missing_file":
        manifest = yaml.safe_load((corpus / "sources.yml").read_text(encoding="utf-8"))
        manifest["documents"][0]["file"] = "no-such-file.txt"
        (corpus / "sources.yml").write_text(yaml.safe_dump(manifest, allow_unicode=True), encoding="utf-8")
        return corpus, "no-such-file.txt"
    return corpus, "laws-2017-ja.txt"


@pytest.mark.parametrize(
    "how, line_expected",
    [
        ("truncated", True),
        ("shift_jis", True),
        ("empty", False),
        ("duplicated_law_heading", True),
        ("missing_file", False),
    ],
)
def test_bad_corpus_fails_and_leaves_the_database_byte_identical(built, tmp_path, how, line_expected):
    db = tmp_path / "laws.db"
    shutil.copy(built, db)
    before = db.read_bytes()
    corpus, named_file = corrupt(tmp_path, how)
    result = CliRunner().invoke(cli, ["build", "--db", str(db), "--corpus", str(corpus)])
    assert result.exit_code != 0
    assert named_file in result.output
    if line_expected:
        assert f"{named_file}:" in result.output and any(
            ch.isdigit() for ch in result.output.split(named_file + ":")[1][:6]
        )
    assert "left unchanged" in result.output
    assert db.read_bytes() == before
    assert not list(tmp_path.glob(".laws.db.*.tmp"))


def test_a_later_document_that_does_not_parse_fails_the_build_naming_it(built, tmp_path):
    """The documents after the first parse in a forked child: its failure is the build's, one line naming
    the file (the parent parses that document again and raises the parser's own error)."""
    db = tmp_path / "laws.db"
    shutil.copy(built, db)
    before = db.read_bytes()
    corpus = copy_corpus(tmp_path)
    (corpus / "laws-1997-zh.txt").write_text("桥牌竞赛规则\n", encoding="utf-8")  # no chapter heading
    (corpus / "errata" / "laws-1997-zh.yml").unlink(missing_ok=True)  # its lines are gone: the parser's error is tested
    result = CliRunner().invoke(cli, ["build", "--db", str(db), "--corpus", str(corpus)])
    error = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert len(error) == 1 and "laws-1997-zh.txt" in error[0] and "chapter headings" in error[0], result.output
    assert db.read_bytes() == before


# ---------------------------------------------------------------- errata and manifest errors name file and line

ERRATA = "jcbl-regs-ja.yml"


def break_errata(tmp_path: Path, how: str) -> tuple[Path, str, int | None]:
    """A corpus copy whose jcbl-regs-ja errata are broken one way; (corpus, file named, line named)."""
    corpus = copy_corpus(tmp_path)
    path = corpus / "errata" / ERRATA
    lines = path.read_text(encoding="utf-8").split("\n")
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("- line:"))  # 0-based
    if how == "yaml_syntax":
        lines[first + 1] = '    find: "J C B L'
        expected_line = None  # the parser names where it noticed, a line or two later
    elif how == "missing_find":
        del lines[first + 1]
        expected_line = first + 1
    elif how == "bad_line":
        lines[first] = lines[first].replace(lines[first].split(":")[1], " twelve")
        expected_line = first + 1
    elif how == "line_out_of_range":
        lines[first] = "  - line: 999999"
        expected_line = first + 1
    elif how == "no_reason":
        lines = [line for line in lines[: first + 5] if "reason:" not in line] + lines[first + 5 :]
        expected_line = first + 1
    path.write_text("\n".join(lines), encoding="utf-8")
    return corpus, str(path), expected_line


@pytest.mark.parametrize("how", ["yaml_syntax", "missing_find", "bad_line", "line_out_of_range", "no_reason"])
def test_errata_errors_name_the_file_and_line(built, tmp_path, how):
    db = tmp_path / "laws.db"
    shutil.copy(built, db)
    before = db.read_bytes()
    corpus, named, line = break_errata(tmp_path, how)
    result = CliRunner().invoke(cli, ["build", "--db", str(db), "--corpus", str(corpus)])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    error = [l for l in result.output.splitlines() if l.startswith("Error:")]
    assert len(error) == 1 and f"{named}:" in error[0], result.output
    if line is not None:
        assert f"{named}:{line}:" in error[0], error[0]
    assert db.read_bytes() == before


def test_manifest_yaml_error_names_the_line(tmp_path):
    corpus = copy_corpus(tmp_path)
    (corpus / "sources.yml").write_text("documents: [\n  {id: x\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--db", str(tmp_path / "laws.db"), "--corpus", str(corpus)])
    assert result.exit_code == 2 and "sources.yml:" in result.output and "Traceback" not in result.output


def test_build_into_an_unwritable_place_is_one_line(tmp_path, monkeypatch):
    """A directory the build may not write in (as root every directory is writable, so the refusal
    is the operating system's answer to the build's temporary file there, made by hand)."""
    import tempfile

    unwritable = tmp_path / "read-only"
    unwritable.mkdir()
    make_temporary = tempfile.mkstemp

    def refused(*args, dir=None, **kwargs):
        if dir is not None and Path(dir) == unwritable:
            raise PermissionError(13, "Permission denied", str(unwritable))
        return make_temporary(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    result = CliRunner().invoke(cli, ["build", "--db", str(unwritable / "laws.db")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"left unchanged: Permission denied ({unwritable})" in result.output
    assert list(unwritable.iterdir()) == []


# ---------------------------------------------------------------- file mode and temporary files


@pytest.mark.slow
@pytest.mark.parametrize("mode", [0o644, 0o600, 0o664])
def test_rebuild_keeps_the_file_mode(built, tmp_path, mode):
    db = tmp_path / "laws.db"
    shutil.copy(built, db)
    os.chmod(db, mode)
    assert CliRunner().invoke(cli, ["build", "--db", str(db)]).exit_code == 0
    assert db.stat().st_mode & 0o777 == mode


def test_new_database_gets_the_umask_mode(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomically(tmp_path / "fresh.db", lambda db: db["t"].insert({"x": 1}))
    finally:
        os.umask(old)
    assert (tmp_path / "fresh.db").stat().st_mode & 0o777 == 0o644


def test_abandoned_temporary_files_are_removed_and_live_ones_kept(tmp_path):
    db = tmp_path / "laws.db"
    abandoned = tmp_path / ".laws.db.dead1234.tmp"
    abandoned.write_bytes(b"half a database")
    old = time.time() - 3600
    os.utime(abandoned, (old, old))
    fresh = tmp_path / ".laws.db.fresh567.tmp"  # just created: a build may be about to lock it
    fresh.write_bytes(b"")
    locked = tmp_path / ".laws.db.busy890.tmp"
    locked.write_bytes(b"")
    os.utime(locked, (old, old))
    other_build = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys, time; f = open(sys.argv[1], 'rb'); "
            "fcntl.flock(f, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(60)",
            str(locked),
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert other_build.stdout.readline().strip() == b"locked"
        write_atomically(db, lambda database: database["t"].insert({"x": 1}))
    finally:
        other_build.kill()
        other_build.wait()
    assert not abandoned.exists()
    assert fresh.exists() and locked.exists()
    assert db.exists()


class Unwound(Exception):
    pass


def test_a_sigterm_just_as_the_temporary_file_is_made_still_removes_it(tmp_path, monkeypatch):
    """The signal comes the moment mkstemp has made the file (CI once saw one left behind, the build's
    SIGTERM handled before the code that removes the file was armed)."""

    def unwind(signum, frame):
        raise Unwound

    made = []

    def mkstemp_then_sigterm(*args, **kwargs):
        handle, name = real_mkstemp(*args, **kwargs)
        made.append(name)
        signal.raise_signal(signal.SIGTERM)
        return handle, name

    real_mkstemp = tempfile.mkstemp
    monkeypatch.setattr(tempfile, "mkstemp", mkstemp_then_sigterm)
    previous = signal.signal(signal.SIGTERM, unwind)
    try:
        with pytest.raises(Unwound):
            write_atomically(tmp_path / "laws.db", lambda db: db["t"].insert({"x": 1}))
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert made and not list(tmp_path.iterdir())
    assert signal.SIGTERM not in signal.pthread_sigmask(signal.SIG_BLOCK, set())  # nothing left held


@pytest.mark.slow
@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
def test_a_build_killed_mid_write_leaves_nothing_behind_after_the_next_build(tmp_path, signal_name):
    db = tmp_path / "laws.db"
    build = subprocess.Popen(
        [sys.executable, "-m", "laws_site.cli", "build", "--db", str(db)],
        cwd=CORPUS.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".laws.db.*.tmp")) and build.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    if build.poll() is not None:
        pytest.skip("the build finished before it could be interrupted mid-write")
    build.send_signal(getattr(signal, signal_name))
    build.wait(30)
    if build.returncode == 0:  # the rename came before the signal (a loaded machine polls late)
        pytest.skip("the build finished before the signal arrived")
    leftovers = list(tmp_path.glob(".laws.db.*.tmp"))
    if signal_name == "SIGTERM":
        assert not leftovers, f"SIGTERM unwinds: the build removes its own temporary file (exit {build.returncode})"
    for path in leftovers:  # SIGKILL: the file stays; age it past the grace period a fresh file gets
        os.utime(path, (time.time() - 3600, time.time() - 3600))
    assert not db.exists()
    assert CliRunner().invoke(cli, ["build", "--db", str(db)]).exit_code == 0
    assert not list(tmp_path.glob(".laws.db.*.tmp"))


# ---------------------------------------------------------------- issue 21: what the build refuses to touch or read


def build_in(tmp_path: Path, db: Path, corpus: Path = CORPUS):
    return CliRunner().invoke(cli, ["build", "--db", str(db), "--corpus", str(corpus)])


def error_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output and (result.exception is None or isinstance(result.exception, SystemExit))
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    return errors[0]


def test_build_refuses_a_fifo_as_db_and_leaves_it_a_fifo(tmp_path):
    fifo = tmp_path / "laws.db"
    os.mkfifo(fifo)
    result = build_in(tmp_path, fifo)
    assert error_line(result) == (
        f"Error: build refused: {fifo} is a FIFO (named pipe), not a database file; "
        f"the build replaces only a regular file"
    )
    assert "parsed" not in result.output  # refused before any work
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["laws.db"]


@pytest.mark.parametrize(
    "kind, what", [("loop", "a loop of symbolic links"), ("dangling", "a symbolic link to nothing")]
)
def test_build_refuses_a_broken_symlink_as_db(tmp_path, kind, what):
    link = tmp_path / "laws.db"
    link.symlink_to(link if kind == "loop" else tmp_path / "missing" / "laws.db")
    assert f"{link} is {what}, not a database file" in error_line(build_in(tmp_path, link))
    assert link.is_symlink() and not (tmp_path / "missing").exists()


def test_a_fifo_appearing_during_the_build_is_not_replaced(tmp_path):
    """The target is checked again just before the rename."""
    from ingest.build.db_target import TargetError

    db = tmp_path / "laws.db"
    with pytest.raises(TargetError, match="FIFO"):
        write_atomically(db, lambda database: os.mkfifo(db))
    assert stat.S_ISFIFO(os.lstat(db).st_mode)
    assert not list(tmp_path.glob(".laws.db.*.tmp"))


# Each attack replaces a corpus YAML file; (text, the line the error must name). Two comment lines
# first, so a line number that is not looked up cannot pass by accident.
HEADER = "# attack\n# file\n"
ALIAS_BOMB = (
    HEADER
    + "a: &a [x, x, x, x, x, x, x, x, x]\n"
    + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))
    + "errata:\n  - line: *i\n    find: x\n    replace: y\n    reason: bomb\n"
)
ATTACKS = {
    "alias bomb": (ALIAS_BOMB, 3, "anchor &a on a list"),
    # libyaml's scanner refuses 50,000 levels itself since PyYAML 6.0.4 (it reads ahead, past our 33rd)
    "deep nesting": (
        HEADER + "errata:\n  - line: " + "[" * 50_000 + "\n",
        4,
        ("nested deeper than 32 levels", "exceeded maximum nesting depth"),
    ),
    "nesting past 32": (HEADER + "errata:\n  - line: " + "[" * 40 + "]" * 40 + "\n", 4, "nested deeper than 32 levels"),
    "5,000-digit number": (HEADER + "errata:\n  - line: " + "9" * 5000 + "\n", 4, "a number of 5,000 characters"),
}
YAML_FILES = [
    "errata/jcbl-regs-ja.yml",
    "sources.yml",
    "variants.yml",
    "glossary.yml",
    "vocabulary.yml",
    "concordance.yml",
]


@pytest.mark.parametrize("attack", list(ATTACKS))
@pytest.mark.parametrize("name", YAML_FILES)
def test_hostile_yaml_is_refused_naming_file_and_line(built, tmp_path, name, attack):
    text, line, message = ATTACKS[attack]
    corpus = copy_corpus(tmp_path)
    (corpus / name).write_text(text, encoding="utf-8")
    db = tmp_path / "laws.db"
    shutil.copy(built, db)
    before = db.read_bytes()
    line_shown = error_line(build_in(tmp_path, db, corpus))
    messages = message if isinstance(message, tuple) else (message,)
    assert any(f"{corpus / name}:{line}: invalid YAML: {m}" in line_shown for m in messages), line_shown
    assert db.read_bytes() == before


def test_scalar_aliases_still_load():
    """laws-2017-ja's errata share long reasons with &ra / *ra: an alias of a string is harmless."""
    from ingest.sources import safe_yaml

    assert safe_yaml.load("a: &r long reason\nb: *r\nc: [*r, *r]\n") == {
        "a": "long reason",
        "b": "long reason",
        "c": ["long reason", "long reason"],
    }
    errata = (CORPUS / "errata" / "laws-2017-ja.yml").read_text(encoding="utf-8")
    assert "reason: *ra" in errata and safe_yaml.load(errata) == yaml.safe_load(errata)


def rewrite(corpus: Path, name: str, old: str, new: str) -> None:
    path = corpus / name
    text = path.read_text(encoding="utf-8")
    assert old in text, (name, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(corpus: Path, name: str, needle: str) -> int:
    return next(
        n for n, line in enumerate((corpus / name).read_text(encoding="utf-8").splitlines(), 1) if needle in line
    )


# (file, old text, new text, the line named: a needle in the changed file or None, the message)
WRONG_SHAPES = {
    "errata under another key": ("errata/jcbl-regs-ja.yml", "errata:", "fixes:", "fixes:", "unknown key 'fixes'"),
    "errata without errata:": (
        "errata/laws-1997-zh.yml",
        "errata:",
        "not_kept:",
        None,
        "no 'errata:' list of mappings",
    ),
    "errata a mapping": (
        "errata/jcbl-regs-ja.yml",
        "errata:\n",
        "errata:\n  first:\n",
        "first:",
        "'errata' must be a list of mappings",
    ),
    "manifest documents a mapping": (
        "sources.yml",
        "documents:\n",
        "documents:\n  first:\n",
        "first:",
        "'documents' must be a list of mappings",
    ),
    "manifest file a list": (
        "sources.yml",
        "file: laws-2017-ja.txt",
        "file: [laws-2017-ja.txt]",
        None,
        "entry 'laws-2017-ja': file must be a single value",
    ),
    "manifest file outside": (
        "sources.yml",
        "file: laws-2017-ja.txt",
        "file: ../laws-2017-ja.txt",
        None,
        "file '../laws-2017-ja.txt' must be a path inside the corpus directory",
    ),
    "manifest id twice": (
        "sources.yml",
        "id: revoke-notes-ja",
        "id: laws-2017-ja",
        None,
        "document id 'laws-2017-ja' is listed twice",
    ),
    "concordance moves a mapping": (
        "concordance.yml",
        "moves:\n",
        "moves:\n  first:\n",
        "first:",
        "'moves' must be a list of mappings",
    ),
    "variants a list": (
        "variants.yml",
        "variants:\n",
        "variants:\n  - first\nformer:\n",
        "- first",
        "'variants' must be a mapping of lists",
    ),
    "glossary term a string": (
        "glossary.yml",
        "terms:\n",
        "terms:\n  - first\n",
        "- first",
        "'terms' must be a list of mappings: this item is not",
    ),
}


@pytest.mark.parametrize("how", list(WRONG_SHAPES))
def test_corpus_file_of_the_wrong_shape_stops_the_build(built, tmp_path, how):
    name, old, new, needle, message = WRONG_SHAPES[how]
    corpus = copy_corpus(tmp_path)
    rewrite(corpus, name, old, new)
    db = tmp_path / "laws.db"
    shutil.copy(built, db)
    before = db.read_bytes()
    line_shown = error_line(build_in(tmp_path, db, corpus))
    where = f"{corpus / name}:{line_of(corpus, name, needle)}:" if needle else f"{corpus / name}:"
    assert f"left unchanged: {where}" in line_shown and message in line_shown, line_shown
    assert db.read_bytes() == before


@pytest.mark.parametrize("name", ["laws-2017-ja.txt", "errata/laws-2017-ja.yml", "sources.yml", "glossary.yml"])
def test_a_fifo_in_the_corpus_is_refused_not_read(tmp_path, name):
    """A FIFO would block the build forever: run in a child with a timeout so a regression fails."""
    corpus = copy_corpus(tmp_path)
    (corpus / name).unlink()
    os.mkfifo(corpus / name)
    result = subprocess.run(
        [sys.executable, "-m", "laws_site.cli", "build", "--db", str(tmp_path / "laws.db"), "--corpus", str(corpus)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert f"{corpus / name}: not a regular file" in result.stderr
    assert not (tmp_path / "laws.db").exists()


def test_registry_rows_that_are_not_documents_are_a_clear_error():
    from ingest.sources.registry import Registry, RegistryError

    with pytest.raises(RegistryError, match=r"document 'x' has no language, kind: not a bridge-laws documents"):
        Registry.from_rows([{"id": "x", "title": "t"}])


def test_check_text_on_a_broken_corpus_is_one_line(tmp_path):
    corpus = copy_corpus(tmp_path)
    (corpus / "errata" / ERRATA).write_text("errata:\n  - line: [[[[\n", encoding="utf-8")
    line = error_line(CliRunner().invoke(cli, ["check", "--text", "--corpus", str(corpus)]))
    assert line == (
        f"Error: cannot check the corpus: {corpus / 'errata' / ERRATA}:3: invalid YAML: "
        f"did not find expected node content"
    )


def test_scratch_files_of_killed_builds_are_removed_by_the_next(tmp_path, monkeypatch):
    """A build's children write SQLite files into a scratch directory named after the build's
    process; SIGKILL leaves it behind, and the next build removes it (not a live build's)."""
    from ingest.build import database as build_module

    monkeypatch.setattr(build_module.tempfile, "tempdir", str(tmp_path))
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        stale = tmp_path / f"bridge-laws-build-{gone.pid}-abc"
        live = tmp_path / f"bridge-laws-build-{alive.pid}-def"
        for directory in (stale, live):
            directory.mkdir()
            (directory / "tmp1.db").write_bytes(b"x")
        mine = Path(build_module.scratch_directory())
        assert not stale.exists() and (live / "tmp1.db").exists()
        assert mine.parent == tmp_path and mine.name.startswith(f"bridge-laws-build-{os.getpid()}-")
    finally:
        alive.kill()
        alive.wait()


@pytest.mark.slow
def test_a_child_done_while_the_tokens_are_not_is_copied_first_and_the_database_is_the_same(
    built, tmp_path, monkeypatch
):
    """The editions child's tables are copied while the build waits for the token child when that child
    is done first, else after the sections: the same database either way (rowids included); and the disk
    is given what is written while the last tables are copied (fsync in a thread, not only at the end)."""
    from ingest.build import background_tokens
    from ingest.build import database as build_module

    flushed = []
    flush = build_module.flush_in_background
    monkeypatch.setattr(build_module, "flush_in_background", lambda path: flushed.append(path) or flush(path))
    monkeypatch.setattr(background_tokens, "can_fork", lambda: True)  # whatever threads other tests left running
    monkeypatch.setattr(background_tokens.Forked, "done", lambda self: True)  # the editions child: wait for it
    monkeypatch.setattr(background_tokens.BackgroundTokens, "child_done", lambda self: False)
    copied = []
    populate = build_module.populate

    def recording(db, parsed, rows, tables, later=(), *rest):
        def watched():
            for written in later:
                copied.append("sections" if isinstance(written, dict) else "file")
                yield written

        return populate(db, parsed, rows, tables, watched(), *rest)

    monkeypatch.setattr(build_module, "populate", recording)
    build_module.build(tmp_path / "laws.db")
    assert copied == ["file", "sections", "file"]  # the editions child's tables first
    assert len(flushed) == 1 and Path(flushed[0]).name.startswith(".laws.db.")
    assert database_contents(built) == database_contents(tmp_path / "laws.db")


def database_contents(path: Path) -> tuple[list, dict]:
    """The schema in order and every table's rows with their rowids (build_info's per-build rows left out)."""
    conn = sqlite3.connect(path)
    schema = conn.execute("select type, name, tbl_name, sql from sqlite_master order by rowid").fetchall()
    rows = {}
    for kind, name, _, sql in schema:
        if kind == "table" and not sql.upper().startswith("CREATE VIRTUAL"):
            shadow = name.endswith(("_config", "_data", "_idx", "_docsize", "_content"))
            rows[name] = conn.execute(
                f'select * from "{name}"' if shadow else f'select rowid, * from "{name}"'
            ).fetchall()
    rows["build_info"] = [row for row in rows["build_info"] if row[1] not in ("build_id", "built_at")]
    conn.close()
    return schema, rows
