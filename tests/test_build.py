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

from ingest.build.outputs import lock_path, staged
from ingest.parsers.records import ParseError
from laws_site.cli import cli

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


@pytest.fixture
def built(laws_db_path) -> Path:
    """A whole-corpus database as a failed build must leave it: the session's (tests copy it, never change it)."""
    return laws_db_path


@pytest.fixture(scope="module")
def cli_built(tmp_path_factory) -> Path:
    """The database as `bridge-laws build` makes it (its build id covers the site's code)."""
    db = tmp_path_factory.mktemp("build") / "laws.db"
    result = CliRunner().invoke(cli, ["build", "--db", str(db), "--no-offline"])
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
    result = CliRunner().invoke(cli, ["build", "--db", str(db), "--no-offline"])
    assert result.exit_code == 0
    assert not list(tmp_path.glob(".laws.db.*.tmp")), "staging directory left behind"


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
    """A document after the first that does not parse: one line naming its file."""
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
    make_temporary = tempfile.mkdtemp

    def refused(*args, dir=None, **kwargs):
        if dir is not None and Path(dir) == unwritable:
            raise PermissionError(13, "Permission denied", str(unwritable))
        return make_temporary(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkdtemp", refused)
    result = CliRunner().invoke(cli, ["build", "--db", str(unwritable / "laws.db")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"left unchanged: Permission denied ({unwritable})" in result.output
    assert [p.name for p in unwritable.iterdir()] == [".laws.db.lock"]


# ---------------------------------------------------------------- file mode and temporary files


@pytest.mark.slow
@pytest.mark.parametrize("mode", [0o644, 0o600, 0o664])
def test_rebuild_keeps_the_file_mode(built, tmp_path, mode):
    db = tmp_path / "laws.db"
    shutil.copy(built, db)
    os.chmod(db, mode)
    assert CliRunner().invoke(cli, ["build", "--db", str(db), "--no-offline"]).exit_code == 0
    assert db.stat().st_mode & 0o777 == mode


def publish_a_small_database(db: Path, build_id: str = "b1", during=lambda stage: None) -> None:
    """What a build does to its outputs, with a one-table database."""
    with staged(db) as stage:
        conn = sqlite3.connect(stage.database)
        conn.execute("create table t (x)")
        conn.close()
        during(stage)
        stage.publish(build_id)


def test_new_database_gets_the_umask_mode(tmp_path):
    old = os.umask(0o022)
    try:
        publish_a_small_database(tmp_path / "fresh.db")
    finally:
        os.umask(old)
    assert (tmp_path / "fresh.db").stat().st_mode & 0o777 == 0o644


def test_a_killed_builds_staging_is_removed_by_the_next_whatever_its_age(tmp_path):
    """A build killed with SIGKILL leaves its staging directory (and an older build's temporary file):
    the next build removes them, however recent, since it holds the lock no live build could hold."""
    db = tmp_path / "laws.db"
    killed = tmp_path / ".laws.db.dead1234.tmp"
    (killed / "offline").mkdir(parents=True)
    (killed / "laws.db").write_bytes(b"half a database")
    older = tmp_path / ".laws.db.old5678.tmp"
    older.write_bytes(b"an older build's temporary file")
    publish_a_small_database(db)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".laws.db.lock", "laws.db"]


def test_a_second_build_waits_for_the_live_one_and_leaves_its_staging_alone(tmp_path):
    db = tmp_path / "laws.db"
    live_staging = tmp_path / ".laws.db.live1234.tmp"
    live_staging.mkdir()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); "
            "print('locked', flush=True); sys.stdin.readline()",
            str(lock_path(db)),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout.readline().strip() == b"locked"
        waiting = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from pathlib import Path; from tests.test_build import publish_a_small_database; "
                "publish_a_small_database(Path(sys.argv[1]))",
                str(db),
            ],
            cwd=CORPUS.parent,
        )
        time.sleep(1.5)
        assert waiting.poll() is None and live_staging.exists() and not db.exists()  # waiting, nothing touched
        holder.stdin.write(b"done\n")
        holder.stdin.flush()
        assert waiting.wait(30) == 0
    finally:
        holder.kill()
        holder.wait()
    assert db.exists() and not live_staging.exists()  # the live build ended without it: it was dead then


class Unwound(Exception):
    pass


def test_a_sigterm_just_as_the_staging_directory_is_made_leaves_it_to_the_next_build(tmp_path, monkeypatch):
    """The signal comes the moment mkdtemp has made the directory, before the code that removes it is
    armed: the next build removes it."""

    def unwind(signum, frame):
        raise Unwound

    made = []

    def mkdtemp_then_sigterm(*args, **kwargs):
        name = real_mkdtemp(*args, **kwargs)
        made.append(name)
        signal.raise_signal(signal.SIGTERM)
        return name

    real_mkdtemp = tempfile.mkdtemp
    monkeypatch.setattr(tempfile, "mkdtemp", mkdtemp_then_sigterm)
    previous = signal.signal(signal.SIGTERM, unwind)
    try:
        with pytest.raises(Unwound):
            publish_a_small_database(tmp_path / "laws.db")
    finally:
        signal.signal(signal.SIGTERM, previous)
    monkeypatch.setattr(tempfile, "mkdtemp", real_mkdtemp)
    publish_a_small_database(tmp_path / "laws.db")
    assert made and sorted(p.name for p in tmp_path.iterdir()) == [".laws.db.lock", "laws.db"]


def test_the_packs_and_the_database_switch_together_and_older_packs_go(tmp_path):
    """The packs' directory is in place before the database that names it; the build replaced keeps its
    packs (a server started on it still serves them), older ones are removed."""
    db = tmp_path / "laws.db"
    root = tmp_path / "laws.db.offline"

    def with_build_info(build_id):
        def during(stage):
            conn = sqlite3.connect(stage.database)
            conn.execute("create table build_info (key text primary key, value text)")
            conn.execute("insert into build_info values ('build_id', ?)", [build_id])
            conn.commit()
            conn.close()
            stage.offline.mkdir()
            (stage.offline / "search.json.gz").write_bytes(build_id.encode())

        return during

    for build_id in ("b1", "b2", "b3"):
        publish_a_small_database(db, build_id, with_build_info(build_id))
    assert sorted(p.name for p in root.iterdir()) == ["b2", "b3"]
    assert (root / "b3" / "search.json.gz").read_bytes() == b"b3"
    publish_a_small_database(db, "b3", with_build_info("b3"))  # the same build again: files replaced in place
    assert sorted(p.name for p in root.iterdir()) == ["b3"]


@pytest.mark.slow
@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
def test_a_build_killed_mid_write_leaves_nothing_behind_after_the_next_build(tmp_path, signal_name):
    db = tmp_path / "laws.db"
    build = subprocess.Popen(
        [sys.executable, "-m", "laws_site.cli", "build", "--db", str(db), "--no-offline"],
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
        assert not leftovers, f"SIGTERM unwinds: the build removes its own staging (exit {build.returncode})"
    assert not db.exists()
    assert CliRunner().invoke(cli, ["build", "--db", str(db), "--no-offline"]).exit_code == 0
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
        publish_a_small_database(db, during=lambda stage: os.mkfifo(db))
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
    "zh_variants.yml",
]


def expected_yaml_errors(path: Path, attack: str) -> list[str]:
    _, line, message = ATTACKS[attack]
    messages = message if isinstance(message, tuple) else (message,)
    return [f"{path}:{line}: invalid YAML: {m}" for m in messages]


@pytest.mark.parametrize("attack", list(ATTACKS))
@pytest.mark.parametrize("name", YAML_FILES)
def test_hostile_yaml_is_refused_naming_file_and_line(tmp_path, name, attack):
    """Every YAML file of the corpus is read by the one reader (ingest/sources/corpus.read_yaml), which
    refuses each attack naming file and line; the build reports what it raises (next test)."""
    from ingest.sources.corpus import read_yaml

    path = tmp_path / name.replace("/", "-")
    path.write_text(ATTACKS[attack][0], encoding="utf-8")
    with pytest.raises(ParseError) as refused:
        read_yaml(path)
    assert any(expected in str(refused.value) for expected in expected_yaml_errors(path, attack)), refused.value


@pytest.mark.slow
@pytest.mark.parametrize("attack", list(ATTACKS))
@pytest.mark.parametrize("name", YAML_FILES)
def test_a_build_with_hostile_yaml_exits_naming_file_and_line_and_keeps_the_old_db(built, tmp_path, name, attack):
    corpus = copy_corpus(tmp_path)
    (corpus / name).write_text(ATTACKS[attack][0], encoding="utf-8")
    db = tmp_path / "laws.db"
    shutil.copy(built, db)
    before = db.read_bytes()
    line_shown = error_line(build_in(tmp_path, db, corpus))
    assert any(expected in line_shown for expected in expected_yaml_errors(corpus / name, attack)), line_shown
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
    # a spoken form's language is data (the site marks it lang=): a language no page has, or none given
    "vocabulary spoken language unknown": (
        "vocabulary.yml",
        "spoken: {ja: [点差]}",
        "spoken: {jp: [点差]}",
        "spoken: {jp:",
        "spoken: unknown language 'jp'; use ja, zh, en",
    ),
    "vocabulary spoken forms without a language": (
        "vocabulary.yml",
        "spoken: {ja: [点差]}",
        "spoken: [点差]",
        "spoken: [点差]",
        "'spoken' must list the forms under their language",
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


@pytest.mark.slow
def test_the_same_corpus_gives_the_same_bytes(cli_built, tmp_path, monkeypatch):
    """A rebuild is byte for byte the database before (the build id derived from it and from the site's
    code, as `bridge-laws build` makes it; built_at from the corpus); another SOURCE_DATE_EPOCH gives
    another built_at, and so another build id."""
    from ingest.build.identity import read_build_id

    def build_with_cli(db: Path) -> None:
        db.parent.mkdir(parents=True, exist_ok=True)
        result = CliRunner().invoke(cli, ["build", "--db", str(db), "--no-offline"])
        assert result.exit_code == 0, result.output

    again = tmp_path / "again" / "laws.db"
    build_with_cli(again)
    assert again.read_bytes() == cli_built.read_bytes()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    dated = tmp_path / "dated" / "laws.db"
    build_with_cli(dated)
    conn = sqlite3.connect(dated)
    assert conn.execute("select value from build_info where key = 'built_at'").fetchone() == (
        "2023-11-14T22:13:20+00:00",
    )
    conn.close()
    assert read_build_id(dated) != read_build_id(cli_built)


def test_a_source_date_epoch_that_is_not_a_number_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    line = error_line(build_in(tmp_path, tmp_path / "laws.db"))
    assert line.endswith("SOURCE_DATE_EPOCH: 'yesterday' is not a number of seconds since 1970")


# ---------------------------------------------------------------- issue 38: corpus/synonyms.csv damaged

SYNONYM_DAMAGE = {
    "not UTF-8": (b"\xff\xfe garbled\n", "not UTF-8 (byte 0xff)"),
    "wrong fields": ("g1,2,word\n".encode(), "expected `group,expansion flag (0 or 1),word,search tokens`"),
    "unclosed quote": (b'g1,0,"word,tokens\n', "not CSV: unexpected end of data"),
}


@pytest.mark.parametrize("how", list(SYNONYM_DAMAGE))
def test_a_damaged_synonyms_file_is_a_parse_error_naming_its_line(tmp_path, how):
    from ingest.parsers.records import ParseError
    from ingest.search.expansions import synonym_groups

    damage, message = SYNONYM_DAMAGE[how]
    path = tmp_path / "synonyms.csv"
    path.write_bytes((CORPUS / "synonyms.csv").read_bytes() + damage)
    lines = (CORPUS / "synonyms.csv").read_bytes().count(b"\n") + 1
    with pytest.raises(ParseError) as raised:
        synonym_groups(path)
    assert raised.value.line == lines and message in str(raised.value), str(raised.value)


@pytest.mark.slow
def test_a_damaged_synonyms_file_stops_the_build_in_one_line(built, tmp_path):
    corpus = copy_corpus(tmp_path)
    (corpus / "synonyms.csv").write_bytes((CORPUS / "synonyms.csv").read_bytes() + b"\xff\xfe garbled\n")
    db = tmp_path / "laws.db"
    shutil.copy(built, db)
    before = db.read_bytes()
    line = error_line(build_in(tmp_path, db, corpus))
    assert f"left unchanged: {corpus / 'synonyms.csv'}:" in line and "not UTF-8" in line, line
    assert db.read_bytes() == before


# ---------------------------------------------------------------- the wheel is the repository (issue 35)


def test_every_corpus_file_is_in_the_wheel():
    """A corpus file the wheel lacks is a build from the installed wheel that silently differs (it
    lacked corpus/synonyms.csv: 1,497 synonym expansions fewer); tests/test_package.py builds from
    the installed wheel and compares."""
    import tomllib
    from pathlib import PurePosixPath

    data = tomllib.loads((CORPUS.parent / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    patterns = [
        f"{pkg.replace('.', '/')}/{pattern}" for pkg, globs in data["package-data"].items() for pattern in globs
    ]
    corpus = [path.relative_to(CORPUS.parent).as_posix() for path in CORPUS.rglob("*") if path.is_file()]
    left_out = [path for path in corpus if not any(PurePosixPath(path).match(pattern) for pattern in patterns)]
    assert corpus and not left_out, left_out


@pytest.mark.slow
def test_a_pack_that_cannot_be_made_fails_the_build_in_one_line_and_leaves_the_outputs(built, tmp_path, monkeypatch):
    """The disk full or a page that will not render while the packs are made: one line, exit 2, the
    previous database and packs as they were, no staging left, nothing tried again."""
    from laws_site.offline import make

    db = tmp_path / "laws.db"
    shutil.copy(built, db)
    before = db.read_bytes()
    tries = []

    def full_disk(*args, **kwargs):
        tries.append(args)
        raise OSError(28, "No space left on device", str(tmp_path / "pages-ja.json.gz"))

    monkeypatch.setattr(make, "make_packs", full_disk)
    line = error_line(CliRunner().invoke(cli, ["build", "--db", str(db)]))
    assert line.startswith(f"Error: build failed, {db} left unchanged: No space left on device"), line
    assert len(tries) == 1 and db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".laws.db.lock", "laws.db"]
