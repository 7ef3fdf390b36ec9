"""The corpus's YAML parsed by a forked child while `bridge-laws build` imports the build: the build
gets from it exactly what it would have parsed, never a file that changed since, and still reports
a broken file itself."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.build import yaml_prefetch
from ingest.parsers.records import ParseError
from ingest.sources import corpus
from ingest.sources.corpus import DEFAULT_CORPUS
from laws_site.cli import cli


def prefetching(corpus_dir: Path) -> yaml_prefetch.YamlPrefetch:
    prefetch = yaml_prefetch.YamlPrefetch(corpus_dir)  # forks whatever threads this test process runs
    corpus.use_prefetch(prefetch.wait_for)
    return prefetch


def test_corpus_files_are_every_yaml_file_in_the_order_the_build_reads_them():
    files = yaml_prefetch.corpus_files(DEFAULT_CORPUS)
    names = [f"{kind}:{path.relative_to(DEFAULT_CORPUS)}" for kind, path in files]
    assert names[0] == "yaml:sources.yml" and names[-1] == "yaml:zh_variants.yml"
    assert sorted(names) == sorted(
        [f"yaml:{p.name}" for p in DEFAULT_CORPUS.glob("*.yml")]
        + [f"errata:errata/{p.name}" for p in (DEFAULT_CORPUS / "errata").glob("*.yml")]
    )
    assert names.index("yaml:variants.yml") == 1 + len(list((DEFAULT_CORPUS / "errata").glob("*.yml")))


def test_every_corpus_file_comes_from_the_child_as_this_process_would_parse_it():
    expected = {
        (kind, path): (corpus.parsed_errata.__wrapped__ if kind == "errata" else corpus.parsed_yaml.__wrapped__)(
            *corpus.cache_key(path)
        )
        for kind, path in yaml_prefetch.corpus_files(DEFAULT_CORPUS)
    }
    assert len(expected) >= 11
    corpus.parsed_yaml.cache_clear()
    corpus.parsed_errata.cache_clear()
    prefetch = prefetching(DEFAULT_CORPUS)
    try:
        for (kind, path), value in expected.items():
            refused = pytest.MonkeyPatch()
            refused.setattr(corpus, "parse_yaml", lambda p: pytest.fail(f"{p} parsed here"))
            try:
                got = corpus.errata_file(DEFAULT_CORPUS, path.stem)[1:] if kind == "errata" else corpus.read_yaml(path)
            finally:
                refused.undo()
            assert got == value, path
        assert prefetch.pid is not None or prefetch.pipe is None
    finally:
        yaml_prefetch.stop(prefetch)
    assert corpus.handed_over("yaml", corpus.cache_key(DEFAULT_CORPUS / "sources.yml")) is corpus.NOT_SENT


def test_the_sources_and_errata_come_from_the_child(monkeypatch):
    corpus.parsed_yaml.cache_clear()
    corpus.parsed_errata.cache_clear()
    prefetch = prefetching(DEFAULT_CORPUS)  # the child parses with the real function; this process may not
    monkeypatch.setattr(corpus, "parse_yaml", lambda path: pytest.fail(f"{path} parsed in the build's own process"))
    try:
        sources = corpus.load_sources(DEFAULT_CORPUS)
        assert [s.id for s in sources] == [
            "laws-2017-ja",
            "revoke-notes-ja",
            "out-of-turn-notes-ja",
            "laws-1997-zh",
            "jcbl-regs-ja",
        ]
        assert all(corpus.load_errata(DEFAULT_CORPUS, s.id) for s in sources)
    finally:
        yaml_prefetch.stop(prefetch)
        corpus.parsed_yaml.cache_clear()
        corpus.parsed_errata.cache_clear()


def test_a_file_changed_after_the_child_read_it_is_parsed_again(tmp_path):
    copy = tmp_path / "corpus"
    shutil.copytree(DEFAULT_CORPUS, copy)
    glossary = copy / "glossary.yml"
    prefetch = prefetching(copy)
    try:
        assert prefetch.wait_for(prefetch.announced[-1]) is not corpus.NOT_SENT  # the child has read every file
        glossary.write_text(
            glossary.read_text(encoding="utf-8") + "\n# changed after the child read it\n", encoding="utf-8"
        )
        os.utime(glossary, ns=(1, 1))  # another time and size: another file as far as the caches know
        corpus.parsed_yaml.cache_clear()
        parsed_here = []
        real = corpus.parse_yaml
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(corpus, "parse_yaml", lambda path: parsed_here.append(path.name) or real(path))
            corpus.read_yaml(glossary)
            corpus.read_yaml(copy / "sources.yml")
        assert parsed_here == ["glossary.yml"]  # sources.yml came from the child, unchanged
    finally:
        yaml_prefetch.stop(prefetch)
        corpus.parsed_yaml.cache_clear()


def test_a_broken_errata_file_is_reported_by_the_build_with_its_line(tmp_path):
    copy = tmp_path / "corpus"
    shutil.copytree(DEFAULT_CORPUS, copy)
    (copy / "errata" / "laws-1997-zh.yml").write_text("errata:\n  - line: 3\n    find: [unclosed\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--db", str(tmp_path / "laws.db"), "--corpus", str(copy)])
    assert result.exit_code == 2, result.output
    assert f"{copy / 'errata' / 'laws-1997-zh.yml'}:" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "laws.db").exists()


def test_a_broken_file_read_in_this_process_is_a_parse_error_naming_it(tmp_path):
    copy = tmp_path / "corpus"
    shutil.copytree(DEFAULT_CORPUS, copy)
    (copy / "glossary.yml").write_text("terms: [unclosed\n", encoding="utf-8")
    prefetch = prefetching(copy)
    try:
        with pytest.raises(ParseError) as error:
            corpus.read_yaml(copy / "glossary.yml")
        assert "glossary.yml" in str(error.value)
        assert prefetch.pipe is None  # the child said all it had to say; the rest was read here
    finally:
        yaml_prefetch.stop(prefetch)
        corpus.parsed_yaml.cache_clear()


def test_a_later_child_of_the_build_never_reads_the_pipe():
    """The build forks its workers after the prefetch started: one asking for a file that has not
    come yet parses it itself, and the build still receives it whole."""
    prefetch = prefetching(DEFAULT_CORPUS)
    try:
        first, last = prefetch.announced[0], prefetch.announced[-1]
        assert prefetch.wait_for(first) is not corpus.NOT_SENT
        answer_in, answer_out = os.pipe()
        pid = os.fork()
        if pid == 0:  # a worker forked by the build
            try:
                os.write(answer_out, b"not sent" if prefetch.wait_for(last) is corpus.NOT_SENT else b"read it")
            finally:
                os._exit(0)
        os.close(answer_out)
        os.waitpid(pid, 0)
        assert os.read(answer_in, 100) == b"not sent"
        os.close(answer_in)
        assert prefetch.wait_for(last) == corpus.parsed_yaml.__wrapped__(*last[1])
    finally:
        yaml_prefetch.stop(prefetch)


def test_the_build_process_itself_never_imports_pyyaml(tmp_path):
    """PyYAML (~0.015 s to import) is imported where a file is parsed: in the prefetch child, which
    parses every file, not in `bridge-laws build`'s own process while it starts."""
    import subprocess
    import sys

    code = (
        "import os, sys\n"
        "from laws_site.cli import main\n"
        "assert 'yaml' not in sys.modules, 'imported with the CLI'\n"
        "exit = os._exit\n"
        "def leave(status):\n"
        "    sys.stderr.write('yaml imported: %s\\n' % ('yaml' in sys.modules))\n"
        "    exit(status)\n"
        "os._exit = leave\n"
        "sys.argv = ['bridge-laws', 'build', '--db', sys.argv[1]]\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "laws.db")],
        capture_output=True,
        text=True,
        cwd=DEFAULT_CORPUS.parent,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "yaml imported: False" in done.stderr
