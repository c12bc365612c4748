"""ingest/markdown.py, rst.py, text.py: heading paths, exact spans, robustness."""

from __future__ import annotations

from caas_tui.ingest import chunk_file
from caas_tui.models import Chunk, SourceFile


def _chunks(text: str, language: str, path: str = "docs/guide.md", kind: str = "doc") -> list[Chunk]:
    src = SourceFile(path=path, kind=kind, language=language, text=text, mtime=1.0, sha256="a" * 64, size=len(text))
    return chunk_file(src)


def _spans(chunks: list[Chunk]) -> list[tuple[int, int, str | None, str | None]]:
    return [(c.start_line, c.end_line, c.symbol, c.parent) for c in chunks]


def _check_exact(text: str, chunks: list[Chunk]) -> None:
    lines = text.split("\n")
    for c in chunks:
        assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line])


MD = """\
Intro before any heading.

# Tutorial

Welcome.

## Step 1: Install

```bash
# this is a shell comment, not a heading
pip install game
```

~~~
## nor is this
~~~

Step 3: Add physics
-------------------

Call `World.add_body`.

### Details ###

Even more.

Reference
=========

Last words.
"""


def test_markdown_heading_paths_spans_and_fences() -> None:
    chunks = _chunks(MD, "markdown")
    assert _spans(chunks) == [
        (1, 1, "guide", None),
        (3, 5, "Tutorial", None),
        (7, 16, "Tutorial > Step 1: Install", "Tutorial"),
        (18, 21, "Tutorial > Step 3: Add physics", "Tutorial"),
        (23, 25, "Tutorial > Step 3: Add physics > Details", "Tutorial > Step 3: Add physics"),
        (27, 30, "Reference", None),
    ]
    _check_exact(MD, chunks)
    assert "pip install game" in chunks[2].text  # code blocks stay with their section
    assert all(c.kind == "doc" and c.language == "markdown" for c in chunks)


def test_markdown_front_matter_title_and_no_false_setext() -> None:
    text = '---\ntitle: "Getting Started"\ndraft: true\n---\nHello.\n\n# One\n\nBody.\n'
    chunks = _chunks(text, "markdown")
    assert _spans(chunks) == [(1, 5, "Getting Started", None), (7, 9, "One", None)]


def test_markdown_unclosed_fence_runs_to_the_end_without_crashing() -> None:
    text = "# A\n\n```python\n# inside\n## still inside\n\n# B\n"
    chunks = _chunks(text, "markdown")
    assert _spans(chunks) == [(1, 7, "A", None)]


def test_markdown_lists_hashtags_and_comments_are_not_headings() -> None:
    text = "# Top\n\n- item\n---\n\n#hashtag\n\n<!--\n# hidden\n-->\n\n    # indented code\n"
    assert _spans(_chunks(text, "markdown")) == [(1, 12, "Top", None)]


def test_markdown_long_section_windows_share_symbol_and_cut_at_blank_lines() -> None:
    paras = "\n\n".join(f"Paragraph {i} line a.\nParagraph {i} line b." for i in range(80))
    text = f"# Long\n\n{paras}\n"
    chunks = _chunks(text, "markdown")
    assert len(chunks) >= 3 and {c.symbol for c in chunks} == {"Long"}
    assert len({c.id for c in chunks}) == len(chunks)
    for c in chunks:
        assert c.end_line - c.start_line + 1 <= 100
        assert c.text.split("\n")[-1].endswith("line b.")  # cut between paragraphs
    _check_exact(text, chunks)


RST = """\
.. _manual:

==========
 Manual
==========

Intro.

Installation
============

.. code-block:: python

   # a comment, not a title
   x = 1

Example::

    Looks like a title
    ==================

.. note::

   Heads up.

Configuration
-------------

.. autoclass:: game.World
   :members:

Top again
=========

Short
===

Done.
"""


def test_rst_sections_by_adornment_order_with_directives_inside() -> None:
    chunks = _chunks(RST, "rst", path="docs/manual.rst")
    assert _spans(chunks) == [
        (1, 1, "manual", None),
        (3, 7, "Manual", None),
        (9, 24, "Manual > Installation", "Manual"),
        (26, 30, "Manual > Installation > Configuration", "Manual > Installation"),
        (32, 38, "Manual > Top again", "Manual"),
    ]
    _check_exact(RST, chunks)
    assert ".. note::" in chunks[2].text and "Looks like a title" in chunks[2].text
    assert ".. autoclass:: game.World" in chunks[3].text


def test_broken_rst_never_crashes() -> None:
    for text in ("====\n", "Title\n", "===\nTitle\n", "Title\n=====\n=====\n", "\n\n----\n\n", "a\n-\n"):
        for c in _chunks(text, "rst", path="x.rst"):
            assert 1 <= c.start_line <= c.end_line <= len(text.split("\n"))


def test_text_paragraph_windows() -> None:
    paras = [f"Para {i} first.\nPara {i} second.\nPara {i} third." for i in range(20)]
    text = "\n\n".join(paras) + "\n"
    chunks = _chunks(text, "text", path="NOTES.txt")
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 27), (29, 55), (57, 79)]
    assert all(c.symbol is None and c.kind == "doc" for c in chunks)
    _check_exact(text, chunks)


def test_upstream_docs_keep_their_kind_and_empty_files_give_nothing() -> None:
    chunks = _chunks("# Engine\n\nRemovals are deferred.\n", "markdown", path="upstream/engine.md", kind="upstream")
    assert [(c.kind, c.symbol) for c in chunks] == [("upstream", "Engine")]
    assert _chunks("", "markdown") == []
    assert _chunks("\n\n  \n", "rst", path="x.rst") == []
