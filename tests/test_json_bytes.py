"""JSON answers (laws_site/http/responses.json_bytes): the standard library's bytes, made by orjson, whose
option for keys other than strings is asked for only where such keys are (it doubled the time of a search
answer, issue 36)."""

from __future__ import annotations

import json

import orjson
import pytest

from laws_site.http import responses

ANSWERS = [
    {"ok": True, "query": "リボーク", "score": 5.0134, "labels": {"ja": "第61条", "zh": "第61条"}, "next": None},
    {1: "one", "2": [0.1, -3, "藏牌"]},  # a key that is no string
    {"count": 2**70},  # an integer orjson refuses
]


@pytest.mark.parametrize("data", ANSWERS)
def test_json_bytes_are_the_standard_librarys(data):
    assert responses.json_bytes(data) == json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def test_string_keys_are_written_without_the_option_for_other_keys(monkeypatch):
    options, dumps = [], orjson.dumps

    def recorded(data, option=None):
        options.append(option)
        return dumps(data, option=option)

    monkeypatch.setattr(responses.orjson, "dumps", recorded)
    responses.json_bytes(ANSWERS[0])
    assert options == [None]
    options.clear()
    responses.json_bytes(ANSWERS[1])
    assert options[-1] == orjson.OPT_NON_STR_KEYS
