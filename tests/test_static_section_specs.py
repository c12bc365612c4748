"""Claims whose subject only the section names (a default stated in words under a heading
whose code calls the class), a member the doc sets apart from one the upstream page lists
with it, and a numbering (weekdays, months) against the upstream page's numbering.

A small data-loading project written for these tests (real Engine, real index)."""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.specs.specmaps import numbering
from caas_tui.review.static.specs.specpolarity import excluded, negated
from caas_tui.review.static.wording.units import bare_numbers

from .conftest import write

FILES = {
    "loadkit/__init__.py": '''
        from loadkit.loader import Loader, RetryPause, Sorter
        ''',
    "loadkit/settings.py": '''
        CHUNK_SIZE = 128
        WAIT = 0.5
        ''',
    "loadkit/loader.py": '''
        from dataclasses import dataclass

        from loadkit.settings import CHUNK_SIZE, WAIT


        class Loader:
            def __init__(self, path: str, *, chunk_size: int = CHUNK_SIZE, workers: int = 2) -> None:
                self.path = path


        class Sorter:
            def __init__(self, chunk_size: int = 64) -> None:
                self.chunk_size = chunk_size


        @dataclass
        class RetryPause:
            """How long to wait before trying a load again.

            :param pause: wait before the first retry, in seconds.
            :param growth: multiplier applied to the wait after each retry.
            :param ceiling: longest single wait, in seconds.
            """

            pause: float = WAIT
            growth: float = 2.0
            ceiling: float = 30.0

            def next_wait(self, attempt: int = 1) -> float:
                return min(self.pause * self.growth ** attempt, self.ceiling)
        ''',
    "loadkit/net.py": '''
        def fetch(url: str, *, timeout: float = 5.0) -> bytes:
            return b""
        ''',
    "docs/imports.md": """
        # Fetching

        Any `fetch(url, verbose=True)` callback of yours is called with the page.

        ```python
        from loadkit.net import fetch
        ```

        Then `fetch("a.tsv", verbose=True)` prints what it reads.

        And `fetch("a.tsv", timeout=2.0)` gives up sooner.
        """,
    "upstream/tsv.md": """
        # TSV: tab-separated values

        ## Rules

        Values containing tabs, line breaks, and backslashes must be escaped.

        The last value of a row must not be followed by a tab.

        | field       | allowed values                 |
        |-------------|--------------------------------|
        | day of week | 0-7 (0 or 7 is Sunday)         |
        """,
    "docs/guide.md": """
        # Loading

        ## Step 1: read the file

        ```python
        loader = Loader("data.tsv", workers=4)
        ```

        If you leave the chunk size out, you get chunks of 500 rows.

        If you leave the chunk size out, each read returns chunks of 128 rows.

        If `chunk_size` is omitted, a read returns chunks of 300 rows.

        The `workers` option defaults to `3`.

        - `workers`: threads that read (default: `2`).

        ## Step 2: when a load fails

        By default a failed load is retried after 250 ms.

        By default a failed load is retried after 500 ms.

        By default `RetryPause.next_wait()` gives a retried load 250 ms.

        ## Step 3: two readers

        ```python
        loader = Loader("a.tsv")
        sorter = Sorter()
        ```

        If you leave the chunk size out, both use chunks of 500 rows.

        ## Step 4: the TSV file

        In TSV, values may contain tabs, but not line breaks.

        In TSV, the last value of a row is followed by a tab.

        The day of week field goes from 0 (Monday) to 6 (Sunday).

        The day of week field goes from 0 (Sunday) to 6 (Saturday).

        ## Step 5: options

        ```python
        loader = Loader("b.tsv")
        ```

        | option | default | meaning |
        |---|---|---|
        | `chunk_size` | 256 | rows per read |
        | `workers` | `2` | threads |
        | `path` | required | the file |

        `workers`
        : Threads that read. Defaults to `5`.
        """,
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("sections") / "proj"
    for rel, text in FILES.items():
        write(root, rel, text)
    eng = Engine.open(root)
    yield eng
    eng.close()


def reviewed(engine: Engine) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, "docs/guide.md", StaticReviewer()).pairs()


def verdicts(pairs: list[tuple[Claim, Verdict]], start: str) -> list[Verdict]:
    hits = [v for c, v in pairs if c.text.startswith(start)]
    assert hits, (start, [c.text for c, _ in pairs])
    return hits


def test_default_in_words_takes_its_subject_from_the_section(engine: Engine) -> None:
    pairs = reviewed(engine)
    wrong, right = verdicts(pairs, "If you leave the chunk size out, ")[:2]
    assert wrong.verdict == "contradicted"
    assert "chunk_size" in wrong.rationale and "128" in wrong.rationale and "CHUNK_SIZE" in wrong.rationale
    assert right.verdict != "contradicted"
    (written,) = verdicts(pairs, "If `chunk_size` is omitted")
    assert written.verdict == "contradicted" and "128" in written.rationale
    (coded,) = verdicts(pairs, "The `workers` option defaults to")
    assert coded.verdict == "contradicted" and "`3`" in coded.rationale
    (listed,) = verdicts(pairs, "`workers`: threads that read")
    assert listed.verdict != "contradicted"
    assert any("default of `workers`" in c for c in listed.checks)


def test_default_with_a_unit_goes_to_the_parameter_documented_as_that_kind(engine: Engine) -> None:
    wrong, right = verdicts(reviewed(engine), "By default a failed load is retried after")
    assert wrong.verdict == "contradicted"
    assert "pause" in wrong.rationale and "500 ms" in wrong.rationale
    assert right.verdict != "contradicted"
    (named,) = verdicts(reviewed(engine), "By default `RetryPause.next_wait()`")
    assert named.verdict != "contradicted"  # names code, not the parameter: about what the code computes


def test_two_subjects_taking_the_parameter_are_no_answer(engine: Engine) -> None:
    (both,) = verdicts(reviewed(engine), "If you leave the chunk size out, both")
    assert both.verdict != "contradicted"


def test_a_member_set_apart_from_one_the_page_lists_with_it(engine: Engine) -> None:
    (v,) = verdicts(reviewed(engine), "In TSV, values may contain tabs")
    assert v.verdict == "contradicted"
    assert "upstream/tsv.md" in v.rationale and "line breaks" in v.rationale


def test_a_rule_stated_with_the_opposite_polarity(engine: Engine) -> None:
    (v,) = verdicts(reviewed(engine), "In TSV, the last value of a row")
    assert v.verdict == "contradicted"
    assert "upstream/tsv.md" in v.rationale and "opposite" in v.rationale


def test_negated_needs_the_same_statement_and_no_condition() -> None:
    page = "The last field in the record must not be followed by a comma."
    assert negated("The last field in the record is followed by a comma.", page) is not None
    assert negated("The last field in the record is not followed by a comma.", page) is None
    assert negated("The last field may be followed by a comma.", page) is None  # a permission, not the rule
    assert negated("If you like, the last field in the record is followed by a comma.", page) is None
    assert negated("The last field is followed by a newline.", page) is None


def test_a_numbering_against_the_page_table(engine: Engine) -> None:
    wrong, right = verdicts(reviewed(engine), "The day of week field goes from")
    assert wrong.verdict == "contradicted"
    assert "Sunday, not Monday" in wrong.rationale
    assert right.verdict != "contradicted"


def test_a_table_row_under_a_default_column(engine: Engine) -> None:
    pairs = reviewed(engine)
    (wrong,) = verdicts(pairs, "`chunk_size` | 256")
    assert wrong.verdict == "contradicted"
    assert "128" in wrong.rationale and "CHUNK_SIZE" in wrong.rationale
    (right,) = verdicts(pairs, "`workers` | `2`")
    assert right.verdict != "contradicted"
    assert any("default of `workers`" in c for c in right.checks)
    (required,) = verdicts(pairs, "`path` | required")
    assert required.verdict != "contradicted"
    (entry,) = verdicts(pairs, "Defaults to `5`")  # the definition's term names the parameter
    assert entry.verdict == "contradicted" and "`workers`" in entry.rationale


def test_bare_call_in_prose_is_the_callable_an_earlier_block_imported(engine: Engine) -> None:
    pairs = review_doc(engine, "docs/imports.md", StaticReviewer()).pairs()
    (before,) = verdicts(pairs, "Any `fetch(url, verbose=True)`")
    assert before.verdict != "contradicted"  # nothing bound the name yet: any callable
    (wrong,) = verdicts(pairs, "Then `fetch(")
    assert wrong.verdict == "contradicted" and "verbose" in wrong.rationale
    (right,) = verdicts(pairs, "And `fetch(")
    assert right.verdict != "contradicted"


def test_excluded_member_needs_both_in_one_complete_list() -> None:
    page = "Fields containing line breaks (CRLF), double quotes, and commas should be enclosed in double-quotes."
    assert excluded("Quoted fields may contain commas, but not line breaks.", page) is not None
    assert excluded("Quoted fields may contain commas, but not tabs.", page) is None
    assert excluded("Names may contain letters but not digits.", "Names use, for example, letters, digits and dots.") is None
    assert excluded("Names may contain letters but not digits.", "Names are letters, digits and dots, except dots.") is None


def test_numbering_reads_only_closed_sets() -> None:
    assert numbering("from 0 (Monday) to 6 (Sunday)") == {0: "monday", 6: "sunday"}
    assert numbering("0 or 7 is Sunday") == {0: "sunday", 7: "sunday"}
    assert numbering("January = 1, and 0 (default) means none") == {1: "january"}
    assert numbering("0 (Monday) and 0 (Sunday)") == {}


def test_bare_numbers_skip_units_bounds_and_code() -> None:
    assert [n for n, _ in bare_numbers("batches of 500 records")] == [500.0]
    assert bare_numbers("waits at most 20 records, or 300 ms") == []
    assert bare_numbers("pass `size=500` here") == []
