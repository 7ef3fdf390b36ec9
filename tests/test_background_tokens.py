"""Most of the build's tokenizing in a forked child: same tokens as one process, and a safe fallback."""
from __future__ import annotations

import threading

from ingest import background_tokens
from ingest.background_tokens import BackgroundTokens
from ingest.tokenize import index_tokens_and_offsets as index_tokens

KEYS = {
    ("リボークが成立したとき：", "ja"),
    ("反則したプレイヤー*19がリボークの起きたトリックを取った場合", "ja"),
    ("赛员虽能跟牌或可履行引牌判罚,却打出另外花色的牌张,即为藏牌。", "zh"),
    (None, "ja"),
    ("", "zh"),
}


def test_forked_child_gives_the_same_tokens_as_one_process():
    parallel = BackgroundTokens(KEYS, parallel=True)
    assert parallel.pool is not None  # the work really was split
    assert parallel.result() == {key: index_tokens(*key) for key in KEYS}
    assert parallel.pool is None  # the child is gone


def test_keys_added_in_batches_are_each_tokenized_once():
    """The build adds each document's texts as it is parsed; a text seen before is not sent again."""
    batches = [sorted(KEYS, key=str)[:3], sorted(KEYS, key=str)[1:]]
    tokens = BackgroundTokens(parallel=True)
    for batch in batches:
        tokens.add(batch)
    sent = list(tokens.own_keys) + [key for pending in tokens.pending for key in pending.get()]
    assert sorted(sent, key=str) == sorted(KEYS, key=str)  # every key once, none twice
    assert tokens.result() == {key: index_tokens(*key) for key in KEYS}


def test_no_fork_while_other_threads_run(monkeypatch):
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        assert background_tokens.can_fork() is False
        tokens = BackgroundTokens(KEYS)
        assert tokens.pool is None
        assert tokens.result() == {key: index_tokens(*key) for key in KEYS}
    finally:
        stop.set()
        worker.join()
