"""Claim extraction: exact line spans, sentence splitting, field styles, roles, directives, ids."""

from __future__ import annotations

import textwrap

import pytest

from caas_tui.ingest import chunk_file
from caas_tui.models import SourceFile
from caas_tui.review.claims import claim_id, extract_claims
from caas_tui.review.claims.docstrings import parse_field


def claims_of(path: str, text: str):  # type: ignore[no-untyped-def]
    return extract_claims(path, textwrap.dedent(text).lstrip("\n"))


def spans(claims) -> list[tuple[int, int, str, str]]:  # type: ignore[no-untyped-def]
    return [(c.start_line, c.end_line, c.kind, c.text) for c in claims]


MD = """
# Guide

Call `Scene.spawn(name, tolerance=1e-3)` to add an entity. It returns a list, e.g. the ids.
Use xrkit.scene.Scene for more; see `find_by_tag()`. Version 1.5 is out!

## Step 2

- first item with `a.b`
  continued here.
- second item. Another sentence
  that wraps.

```python
from xrkit.scene import Scene
s = Scene()
```

| name | default |
|------|---------|
| `tolerance` | 1e-3 |
"""


def test_markdown_sentences_have_exact_lines_and_sections() -> None:
    claims = claims_of("docs/guide.md", MD)
    assert spans(claims) == [
        (3, 3, "prose", "Call `Scene.spawn(name, tolerance=1e-3)` to add an entity."),
        (3, 3, "prose", "It returns a list, e.g. the ids."),
        (4, 4, "prose", "Use xrkit.scene.Scene for more; see `find_by_tag()`."),
        (4, 4, "prose", "Version 1.5 is out!"),
        (8, 9, "prose", "first item with `a.b` continued here."),
        (10, 10, "prose", "second item."),
        (10, 11, "prose", "Another sentence that wraps."),
        (14, 15, "code", "from xrkit.scene import Scene\ns = Scene()"),
        (18, 18, "prose", "name | default"),
        (20, 20, "prose", "`tolerance` | 1e-3"),
    ]
    assert claims[0].section == "Guide"
    assert claims[4].section == "Guide > Step 2"
    assert claims[0].symbols == ("Scene.spawn",)
    assert claims[0].code_spans == ("Scene.spawn(name, tolerance=1e-3)",)
    assert set(claims[2].symbols) == {"xrkit.scene.Scene", "find_by_tag"}
    assert claims[7].symbols == ("xrkit.scene.Scene", "Scene")
    assert "Guide > Step 2" in claims[4].context and "continued here" in claims[4].context


def test_sentence_split_respects_backticks_and_abbreviations() -> None:
    claims = claims_of("a.md", "Use `x. Y` here, i.e. now. Then `pkg.Mod.run()` ends. Done.\n")
    assert [c.text for c in claims] == ["Use `x. Y` here, i.e. now.", "Then `pkg.Mod.run()` ends.", "Done."]


RST = """
Physics
=======

.. autoclass:: xrkit.scene.Scene
   :members:

Intro mentions :class:`~xrkit.scene.Scene` and :meth:`xrkit.Scene.spawn() <xrkit.scene.Scene.spawn>`. Second.

.. note:: Notes are
   prose too.

.. code-block:: python
   :caption: Example

   scene = Scene()
   scene.spawn("a")

Sub
---

Literal::

    x = 1

.. toctree::
   :maxdepth: 2

   intro

.. literalinclude:: ../x.py
   :lines: 1-3

.. _target:

>>> scene.step(0.1)
"""


def test_rst_directives_roles_and_literal_blocks() -> None:
    claims = claims_of("docs/physics.rst", RST)
    assert spans(claims) == [
        (4, 4, "prose", ":class:`xrkit.scene.Scene`"),  # an autodoc target: a claim that it exists
        (7, 7, "prose", "Intro mentions :class:`~xrkit.scene.Scene` and :meth:`xrkit.Scene.spawn() <xrkit.scene.Scene.spawn>`."),
        (7, 7, "prose", "Second."),
        (9, 10, "prose", "Notes are prose too."),
        (15, 16, "code", 'scene = Scene()\nscene.spawn("a")'),
        (21, 21, "prose", "Literal::"),
        (23, 23, "code", "x = 1"),
        (35, 35, "code", ">>> scene.step(0.1)"),
    ]
    assert claims[1].symbols == ("xrkit.scene.Scene", "xrkit.scene.Scene.spawn")
    assert claims[1].section == "Physics"
    assert claims[5].section == "Physics > Sub"
    # directive options and toctree entries are never claims
    assert not any(":maxdepth:" in c.text or c.text == "intro" or ":members:" in c.text for c in claims)


PY = '''
"""Module doc. Mentions `Scene`."""


class Scene:
    """A scene.

    Args:
        name (str): The name.
            Continues here.
        tolerance: Max distance. Defaults to 1e-3.
    """

    def spawn(self, name, *components, tolerance=1e-3):
        """Spawn an entity.

        :param name: the name.
        :param float tolerance: max distance,
            defaults to ``1e-3``.
        :returns: the entity.
        :rtype: Entity
        :raises KeyError: if taken.

        >>> scene.spawn("b")
        <Entity b>
        """

    def find(self, tag):
        """Find things.

        Parameters
        ----------
        tag : str
            The tag.

        Returns
        -------
        list of Entity
            The matches.

        Raises
        ------
        ValueError
            If bad.
        """
'''


def test_docstring_fields_in_three_styles() -> None:
    claims = claims_of("pkg/scene.py", PY)
    got = [(c.start_line, c.end_line, c.kind, c.section, c.text) for c in claims]
    assert got == [
        (1, 1, "prose", "pkg.scene", "Module doc."),
        (1, 1, "prose", "pkg.scene", "Mentions `Scene`."),
        (5, 5, "prose", "pkg.scene.Scene", "A scene."),
        (8, 9, "field", "pkg.scene.Scene", "Args: name (str): The name. Continues here."),
        (10, 10, "field", "pkg.scene.Scene", "Args: tolerance: Max distance. Defaults to 1e-3."),
        (14, 14, "prose", "pkg.scene.Scene.spawn", "Spawn an entity."),
        (16, 16, "field", "pkg.scene.Scene.spawn", ":param name: the name."),
        (17, 18, "field", "pkg.scene.Scene.spawn", ":param float tolerance: max distance, defaults to ``1e-3``."),
        (19, 19, "field", "pkg.scene.Scene.spawn", ":returns: the entity."),
        (20, 20, "field", "pkg.scene.Scene.spawn", ":rtype: Entity"),
        (21, 21, "field", "pkg.scene.Scene.spawn", ":raises KeyError: if taken."),
        (23, 24, "code", "pkg.scene.Scene.spawn", '>>> scene.spawn("b")\n<Entity b>'),
        (28, 28, "prose", "pkg.scene.Scene.find", "Find things."),
        (32, 33, "field", "pkg.scene.Scene.find", "Parameters: tag (str): The tag."),
        (37, 38, "field", "pkg.scene.Scene.find", "Returns: list of Entity: The matches."),
        (42, 43, "field", "pkg.scene.Scene.find", "Raises: ValueError: If bad."),
    ]
    facts = {c.text: parse_field(c.text) for c in claims if c.kind == "field"}
    assert facts[":param float tolerance: max distance, defaults to ``1e-3``."] is not None
    t = facts[":param float tolerance: max distance, defaults to ``1e-3``."]
    assert (t.role, t.name, t.type) == ("param", "tolerance", "float")
    g = facts["Args: name (str): The name. Continues here."]
    assert (g.role, g.name, g.type) == ("param", "name", "str")
    r = facts["Returns: list of Entity: The matches."]
    assert (r.role, r.type) == ("returns", "list of Entity")
    x = facts["Raises: ValueError: If bad."]
    assert (x.role, x.name) == ("raises", "ValueError")
    assert facts[":rtype: Entity"].type == "Entity"
    raises = next(c for c in claims if c.text.startswith(":raises"))
    assert raises.symbols[0] == "KeyError"


def test_ids_are_stable_and_count_repeats() -> None:
    text = "# A\n\nSame sentence.\n\n# B\n\nSame sentence.\n"
    first = extract_claims("d.md", text)
    again = extract_claims("d.md", "Intro line added.\n\n" + text)
    assert first[0].id != first[1].id  # same text, second occurrence
    assert [c.id for c in again[1:]] == [c.id for c in first]  # survives an edit above
    assert first[0].id == claim_id("d.md", "Same  sentence.", 0)  # whitespace-normalised
    assert extract_claims("other.md", text)[0].id != first[0].id  # the doc path is part of it


@pytest.mark.parametrize(
    "path,text",
    [
        ("x.md", "```python\nunclosed fence\n# heading inside"),
        ("x.md", "| a | b\n|---\n<!-- never closed"),
        ("x.rst", ".. code-block::\n\n.. note::\n\nTitle\n==\n:::\n\n.. \n   \n"),
        ("x.rst", "Title\n=====\n\n- item\n\n  ::\n\n.. directive:: with no body"),
        ("x.py", "def broken(:\n    '''doc'''"),
        ("x.py", '"""Args:\n    :param:\n\nReturns\n-------\n"""\n'),
    ],
)
def test_broken_input_never_crashes(path: str, text: str) -> None:
    claims = extract_claims(path, text)
    for c in claims:
        assert 1 <= c.start_line <= c.end_line <= text.count("\n") + 1


SECTIONS_MD = """\
# Guide

Call `World.start` first.

Setext Title
============

The world has `World.step`.

```python
# not a heading
x = 1
```

~~~
Not a title
-----------
~~~

Sub part
--------

Call `World.add` to add a body.

    # indented, not a heading
    y = 2
    ---

Line one mentions `World.one`.
Line two mentions `World.two`.
===

## ATX Part ##

Then `World.close` ends it.

- a list item with `World.item`
---

More text with `World.more`.
"""


def test_a_claim_and_the_chunk_covering_it_name_the_same_section() -> None:
    """Indexing and claim extraction share one Markdown scanner (``ingest.mdscan``)."""
    src = SourceFile(path="docs/guide.md", kind="doc", language="markdown", text=SECTIONS_MD, mtime=1.0,
                     sha256="a" * 64, size=len(SECTIONS_MD))
    chunks = chunk_file(src)
    claims = extract_claims("docs/guide.md", SECTIONS_MD)
    assert {c.kind for c in claims} == {"prose", "code"}
    for c in claims:
        covering = [ch for ch in chunks if ch.start_line <= c.start_line <= ch.end_line]
        assert len(covering) == 1, c
        assert covering[0].symbol == c.section, (c.start_line, c.text)
    # the setext and ATX headings count; code (both fences, indented), a list item's and
    # a two-line paragraph's underline do not
    assert [ch.symbol for ch in chunks] == [
        "Guide", "Setext Title", "Setext Title > Sub part", "Setext Title > ATX Part",
    ]
