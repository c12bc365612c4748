"""Each one-shot command imports only what it uses (issue 20).

The CLI runs in a fresh interpreter that dumps ``sys.modules`` at exit, so a stray
top-level import of a heavy library on a command's path fails here, deterministically
(no timing). Heavy means: slow to import, or an optional extra the command does not use.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from caas_tui.cli.main import COMMANDS, load_command

REPO = Path(__file__).resolve().parent.parent

_RUNNER = """
import json, sys
from caas_tui.cli.main import main
try:
    rc = main(sys.argv[2:])
except SystemExit as exc:
    rc = exc.code
with open(sys.argv[1], "w") as fh:
    json.dump(sorted(sys.modules), fh)
raise SystemExit(rc)
"""

# Never on a one-shot path other than their own command.
FRONT_END_ONLY = ("textual", "mcp", "pydantic", "anthropic", "caas_tui.tui", "caas_tui.mcp_server")
# Optional model back ends and the hub client: only when a spec asks for them.
ON_REQUEST = ("sentence_transformers", "onnxruntime", "torch", "transformers", "huggingface_hub")
# Used by other commands only (the file watcher, large vector collections).
OTHER = ("watchfiles", "usearch")
# Opening a clean index reads and chunks no file and resolves no graph: the chunkers, the
# fact extractors and graph resolution load only when a file changed or the graph is walked.
BUILD_ONLY = ("caas_tui.ingest.python", "caas_tui.ingest.markdown", "caas_tui.ingest.rst", "caas_tui.ingest.text",
              "caas_tui.ingest.treesitter", "tree_sitter", "caas_tui.graph.build", "caas_tui.graph.resolve",
              "caas_tui.graph.pyfacts", "caas_tui.graph.tsfacts", "caas_tui.graph.docfacts")
# Only writing the index needs these: the build stream, the graph's own types (opening an index
# hashes graph.jsonl, it decodes no fragment), chunk ids, Whoosh's writer, and concurrent.futures
# (which imports logging). A search that finds every file unchanged writes nothing.
WRITE_ONLY = ("caas_tui.index.buildstream", "caas_tui.graph.model", "caas_tui.ingest.ids", "caas_tui.index.whoosh_writer",
              "whoosh.writing", "concurrent.futures", "logging")
# What a refresh that chunks files runs (the build path and its worker code), the lexical writer's
# collector pause, and the re-ranker: a search that finds the index clean and does not re-rank
# names only what a refresh reports (index/refreshstats.py).
REFRESH_ONLY = ("caas_tui.index.refresh", "caas_tui.ingest", "caas_tui.retrieve.rerank")
# The shipped model runs without model2vec (index/encoders/plainstatic.py) and the other
# encoder families' modules load only for their specs.
MODEL_EXTRAS = ("model2vec", "joblib", "tqdm", "safetensors", "caas_tui.index.encoders.st",
                "caas_tui.index.encoders.onnx_int8")


def _imported(tmp_path: Path, *args: str) -> set[str]:
    out = tmp_path / "modules.json"
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run([sys.executable, "-c", _RUNNER, str(out), *args], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(out.read_text()))


def _loaded(mods: set[str], *prefixes: str) -> list[str]:
    return sorted(m for m in mods if any(m == p or m.startswith(p + ".") for p in prefixes))


def _grammars(mods: set[str]) -> list[str]:
    return sorted(m for m in mods if m.startswith("tree_sitter_"))


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample project (Python and Markdown only), indexed once."""
    root = tmp_path_factory.mktemp("startup") / "sample"
    shutil.copytree(REPO / "sample_project", root, ignore=shutil.ignore_patterns(".caas"))
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    subprocess.run([sys.executable, "-m", "caas_tui", "index", "--root", str(root)], env=env, check=True,
                   capture_output=True, timeout=600)
    return root


def test_help_imports_no_command(tmp_path: Path) -> None:
    mods = _imported(tmp_path, "--help")
    assert _loaded(mods, *FRONT_END_ONLY, *ON_REQUEST, *OTHER, "numpy", "whoosh", "model2vec", "rich") == []
    commands = sorted(m for m in mods if m.startswith("caas_tui.cli.") and m != "caas_tui.cli.main")
    assert commands == []


def test_search_json(tmp_path: Path, project: Path) -> None:
    mods = _imported(tmp_path, "search", "--root", str(project), "--json", "parse a config file")
    assert _loaded(mods, *FRONT_END_ONLY, *ON_REQUEST, *OTHER) == []
    assert _grammars(mods) == []  # no file of a tree-sitter language was chunked
    # hybrid: both channels ran (the shipped model's forward pass is plainstatic's, not model2vec's;
    # an ASCII query is tokenized by encoders/wordpiece.py)
    assert "caas_tui.index.encoders.plainstatic" in mods and "whoosh" in mods
    assert "caas_tui.index.encoders.wordpiece" in mods
    assert _loaded(mods, *MODEL_EXTRAS) == []
    assert _loaded(mods, *BUILD_ONLY) == []
    assert _loaded(mods, *WRITE_ONLY) == []
    assert "tantivy" not in mods  # the other lexical backend is imported only when chosen
    assert _loaded(mods, "rich") == []  # --json prints no table and (no tty) no progress bar
    assert _loaded(mods, *REFRESH_ONLY) == []


def test_search_query_loads_no_tokenizer_library(tmp_path: Path, project: Path) -> None:
    """A short ASCII query is embedded without the ``tokenizers`` library (encoders/wordpiece.py
    gives the same ids). An identifier query: the token stage, which tokenizes candidates, skips it."""
    mods = _imported(tmp_path, "search", "--root", str(project), "--json", "parse_config")
    assert {"caas_tui.index.encoders.plainstatic", "caas_tui.index.encoders.wordpiece", "whoosh"} <= mods
    assert _loaded(mods, "tokenizers", *MODEL_EXTRAS) == []


def test_search_prose_query_reads_the_candidates_stored_token_ids(tmp_path: Path, project: Path) -> None:
    """The token stage re-scores a prose query's top candidates with token ids stored at build time
    (index/tokenids.py): no tokenizer library is loaded for them, and np.unique's ``numpy.ma`` is not
    either. Opening a clean index starts no worker pool, and the graph is loaded only by what walks it."""
    mods = _imported(tmp_path, "search", "--root", str(project), "--json", "how are errors reported to the user")
    assert {"caas_tui.retrieve.tokenstage", "caas_tui.index.tokenids", "caas_tui.index.encoders.plainstatic"} <= mods
    assert _loaded(mods, "tokenizers", "numpy.ma", *MODEL_EXTRAS) == []
    assert _loaded(mods, "multiprocessing", "concurrent.futures.process") == []
    assert _loaded(mods, "caas_tui.retrieve.chain", "caas_tui.retrieve.expand", "caas_tui.graph.graph") == []


def test_search_bm25_loads_no_model(tmp_path: Path, project: Path) -> None:
    mods = _imported(tmp_path, "search", "--root", str(project), "--json", "--mode", "bm25", "parse")
    assert _loaded(mods, *FRONT_END_ONLY, *ON_REQUEST, *OTHER, "model2vec", "tokenizers") == []
    assert _loaded(mods, *MODEL_EXTRAS, *BUILD_ONLY, *WRITE_ONLY, *REFRESH_ONLY,
                   "caas_tui.index.encoders.plainstatic") == []


def test_search_after_an_edit_chunks_only_that_language(tmp_path: Path, project: Path) -> None:
    """A changed Python file loads the Python chunker and fact extractor, and nothing else."""
    edited = tmp_path / "edited"
    shutil.copytree(project, edited)
    target = next(p for p in sorted(edited.rglob("*.py")) if ".caas" not in p.parts)
    target.write_text(target.read_text(encoding="utf-8") + "\n\ndef added_for_the_test():\n    return 1\n",
                      encoding="utf-8")
    mods = _imported(tmp_path, "search", "--root", str(edited), "--json", "added_for_the_test")
    assert {"caas_tui.ingest.python", "caas_tui.graph.pyfacts"} <= mods
    assert set(WRITE_ONLY) <= mods  # the names test_search_json keeps out are the ones a write loads
    assert {"caas_tui.index.refresh", "caas_tui.ingest"} <= mods  # and a refresh that chunks a file
    assert _loaded(mods, "caas_tui.ingest.markdown", "caas_tui.ingest.rst", "caas_tui.ingest.treesitter",
                   "tree_sitter", "caas_tui.graph.tsfacts", "caas_tui.graph.build", *MODEL_EXTRAS) == []


def test_review_static(tmp_path: Path, project: Path) -> None:
    mods = _imported(tmp_path, "review", "--root", str(project), "--reviewer", "static", "--json", "README.md")
    assert _loaded(mods, *FRONT_END_ONLY, *ON_REQUEST) == []
    assert _grammars(mods) == []
    # caas_tui.live's package file names the watcher lazily: review imports live.changes only
    assert _loaded(mods, *OTHER, "caas_tui.live.watcher") == []
    # --json prints no table; the sandbox, the other CI renderers and the chunkers are not needed
    assert _loaded(mods, "rich", "caas_tui.review.execute", "caas_tui.cli.formats.sarif", "caas_tui.cli.formats.junit",
                   "caas_tui.cli.formats.github", *MODEL_EXTRAS) == []


def test_status(tmp_path: Path, project: Path) -> None:
    mods = _imported(tmp_path, "status", "--root", str(project))
    # read-only: nothing is embedded, so the model is never loaded
    assert _loaded(mods, *FRONT_END_ONLY, *ON_REQUEST, "model2vec", "tokenizers") == []
    assert _grammars(mods) == []
    assert _loaded(mods, *OTHER, "caas_tui.live.watcher") == []


def test_command_list_matches_each_command(tmp_path: Path) -> None:
    """main.py lists the commands without importing them; each line must be the module's own help."""
    import argparse

    for name, (_, help_line) in COMMANDS.items():
        sub = argparse.ArgumentParser().add_subparsers()
        load_command(name).add_parser(sub)
        assert [a.help for a in sub._choices_actions] == [help_line], name


_GC_RUNNER = """
import contextlib, gc, io, json, sys
from caas_tui.cli.main import main
as_program = sys.argv[1] == "program"
args = sys.argv[2:]
out = io.StringIO()
with contextlib.redirect_stdout(out):
    if as_program:
        sys.argv = ["caas-tui", *args]
        rc = main()
    else:
        rc = main(args)
print(json.dumps({"rc": rc, "frozen": gc.get_freeze_count(), "enabled": gc.isenabled(), "out": out.getvalue()}))
"""


def _gc_state(tmp_path: Path, how: str, *args: str) -> dict[str, object]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run([sys.executable, "-c", _GC_RUNNER, how, *args], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def test_the_program_freezes_what_it_imported_and_a_caller_keeps_its_collector(tmp_path: Path, project: Path) -> None:
    """Run as the program (``main()``), the CLI takes the objects its imports made out of the
    cycle collector's walks (``gc.freeze``) and leaves the collector on; called with arguments
    (a test, a tool embedding it), it leaves the caller's collector as it found it. The answer
    is the same either way."""
    args = ("search", "--root", str(project), "--json", "parse a config file")
    program = _gc_state(tmp_path, "program", *args)
    caller = _gc_state(tmp_path, "caller", *args)
    assert program["rc"] == caller["rc"] == 0
    assert program["enabled"] is True and caller["enabled"] is True
    assert isinstance(program["frozen"], int) and program["frozen"] > 10_000
    assert caller["frozen"] == 0
    assert program["out"] == caller["out"] and json.loads(str(program["out"]))["hits"]
