"""camelCase identifiers reach the shipped static model as words (issues 17, 21), and its id says so."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from caas_tui.index.encoders import DEFAULT_MODEL_NAME, load_encoder
from caas_tui.index.encoders.common import CAMEL_WORDS_TAG, camel_words
from caas_tui.index.manifest import read_manifest
from caas_tui.retrieve.engine import Engine


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("toPromise", "to promise"),
        ("createHTTPServer", "create http server"),
        ("xmlHttpRequest", "xml http request"),
        ("getX2", "get x2"),
        ("parseJSON2Data", "parse json2 data"),
        ("int8Array", "int8 array"),
        ("iOS", "i os"),
        ("obs.pipe(mergeMap(fn))", "obs.pipe(merge map(fn))"),
        ("get_userName", "get_user name"),  # underscores already split for WordPiece
        ("$fooBar @Input() HTTPServer.toPromise", "$foo bar @Input() HTTPServer.to promise"),
    ],
)
def test_camel_case_words_are_split(text: str, expected: str) -> None:
    assert camel_words(text) == expected


@pytest.mark.parametrize(
    "text",
    ["plain words only", "remove_body", "Server ABC vec3 x2y", "0xFFaa", "naïveCase", "fooBaré", "", "  \n",
     "HTTPServer OrderedDict XMLHttpRequest"],  # PascalCase stays whole (measured: see common.py)
)
def test_other_text_is_unchanged(text: str) -> None:
    assert camel_words(text) == text


def test_split_is_stable() -> None:
    once = camel_words("const subscriber = new SafeSubscriber(observerOrNext);")
    assert once == "const subscriber = new SafeSubscriber(observer or next);"
    assert camel_words(once) == once


def test_shipped_encoder_splits_documents_and_queries_alike() -> None:
    encoder = load_encoder(None)
    assert encoder.model_id.startswith(f"{DEFAULT_MODEL_NAME}@") and f"+{CAMEL_WORDS_TAG}@" in encoder.model_id
    for query in (False, True):
        split, words = encoder.encode(["HTTPServer.toPromise", "HTTPServer.to promise"], query=query)
        np.testing.assert_array_equal(split, words)
    doc = encoder.encode(["toPromise"])[0]
    assert float(doc @ encoder.encode(["to promise"], query=True)[0]) == pytest.approx(1.0, abs=1e-6)


def test_other_model2vec_models_are_left_as_they_are(tmp_path: Path) -> None:
    from .test_embed import make_tiny_model

    encoder = load_encoder(str(make_tiny_model(tmp_path / "m")))
    assert CAMEL_WORDS_TAG not in encoder.model_id
    split, joined = encoder.encode(["removeBody", "remove body"])
    assert not np.allclose(split, joined)  # the word-level toy vocabulary has no "removeBody"


def test_index_built_before_the_split_is_rebuilt(tiny_project: Path) -> None:
    Engine.open(tiny_project).close()
    index_dir = tiny_project / ".caas" / "index"
    manifest = json.loads((index_dir / "manifest.json").read_text())
    new_id = manifest["model_id"]
    assert f"+{CAMEL_WORDS_TAG}@" in new_id
    old_id = new_id.replace(f"+{CAMEL_WORDS_TAG}", "")  # what the shipped model was recorded as before
    manifest["model_id"] = old_id
    (index_dir / "manifest.json").write_text(json.dumps(manifest))

    messages: list[str] = []
    engine = Engine.open(tiny_project, notify=messages.append)
    try:
        assert messages == [f"index was built with model {old_id}; rebuilding with {new_id}"]
        assert engine.search("remove body", 5, mode="dense")
    finally:
        engine.close()
    rebuilt = read_manifest(index_dir)
    assert rebuilt is not None and rebuilt.model_id == new_id and rebuilt.state == "clean"
