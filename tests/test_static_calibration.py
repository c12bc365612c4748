"""Calibration of the static reviewer's green label: an order, scope, state or condition
no check reads keeps a claim from ``consistent``; ``X is a `C``` claims judged against
the attribute's class and the class's bases.

A small job-queue project written for these tests (real Engine, real index)."""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.wording.effects import effect_words
from tests.conftest import verdict_starting as by_text

from .conftest import write

PACKAGE = {
    "jobq/__init__.py": '''
        from jobq.queue import JobQueue
        ''',
    "jobq/events.py": '''
        class Bus:
            def emit(self, name: str) -> None:
                pass


        class AuditBus(Bus):
            pass


        class Ledger:
            pass
        ''',
    "jobq/errors.py": '''
        class JobError(Exception):
            pass


        class DuplicateJob(JobError):
            pass
        ''',
    "jobq/registry.py": '''
        import time

        from jobq.errors import DuplicateJob


        class Registry:
            def __init__(self) -> None:
                self._jobs: dict[str, float] = {}

            def add(self, name: str) -> None:
                """Register ``name``.

                :raises ValueError: if a job with that name is already registered.
                """
                if name in self._jobs:
                    raise DuplicateJob(name)
                self._jobs[name] = time.time()

            def add_checked(self, name: str) -> None:
                """Register ``name``.

                :raises DuplicateJob: if a job with that name is already registered.
                """
                if name in self._jobs:
                    raise DuplicateJob(name)
                self._jobs[name] = time.time()

            def add_late(self, name: str, when: float) -> None:
                """Register ``name`` to run at ``when``.

                :raises ValueError: if ``when`` is in the past.
                """
                if name in self._jobs:
                    raise DuplicateJob(name)
                self._jobs[name] = max(when, time.time())
        ''',
    "jobq/readers.py": '''
        def read_lines(path: str, *, skip_blank: bool = False, strip: bool = False) -> list[str]:
            out = []
            with open(path) as fh:
                for line in fh:
                    if strip:
                        line = line.strip()
                    if skip_blank and not line:
                        continue
                    out.append(line)
            return out
        ''',
    "jobq/sources.py": '''
        from jobq.readers import read_lines


        class LineSource:
            """Lines of a file. Blank lines are skipped, so a trailing newline adds no job."""

            def __init__(self, path: str, strip: bool = False) -> None:
                self.path = path
                self.strip = strip

            def rows(self) -> list[str]:
                return read_lines(self.path, strip=self.strip)


        class TidySource:
            """Lines of a file. Blank lines are skipped."""

            def __init__(self, path: str) -> None:
                self.path = path

            def rows(self) -> list[str]:
                return read_lines(self.path, skip_blank=True)
        ''',
    "jobq/queue.py": '''
        from jobq.events import AuditBus, Ledger


        class Base:
            pass


        class JobQueue(Base):
            def __init__(self) -> None:
                self.events = AuditBus()
                self.ledger = Ledger()
                self._jobs: list[str] = []

            def find(self, name: str) -> str | None:
                for job in self._jobs:
                    if job == name:
                        return job
                return None

            def put(self, name: str) -> None:
                self._jobs.append(name)

            def run_pending(self) -> int:
                return len(self._jobs)
        ''',
}

DOCS = {
    "docs/guide.md": '''
        # Queue

        ```python
        queue = JobQueue()
        ```

        `JobQueue.put(name)` stores a job.

        `JobQueue.find(name)` returns the job, or `None`.

        `JobQueue.find(name)` returns the oldest job, or `None`.

        `JobQueue.put` keeps jobs in a shared list across queues.

        Use `JobQueue.put` unless the queue is closed.

        `queue.events` is a `Bus`.

        `queue.ledger` is a `Bus`.

        `JobQueue` is a subclass of `Base`.

        `JobQueue` is a subclass of `Ledger`.

        `JobQueue.run_pending()` returns the list of jobs it ran.

        `LineSource` strips the spaces around every line for you.

        `LineSource` can strip the spaces around every line.

        Pass `strip=True` and `LineSource` strips the spaces around every line.
        ''',
}


@pytest.fixture(scope="module")
def guide(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Claim, Verdict]]:
    root = tmp_path_factory.mktemp("calib") / "proj"
    for rel, text in {**PACKAGE, **DOCS}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    try:
        return review_doc(eng, "docs/guide.md", StaticReviewer()).pairs()
    finally:
        eng.close()




def words(text: str, asserted: frozenset[str] = frozenset(), kind: str = "prose") -> list[str]:
    return effect_words(Claim("x", "d.md", 1, 1, text, kind), asserted)


def test_effect_words_are_order_scope_state_and_unowned_conditions() -> None:
    assert words("`find` returns the first match.") == ["first"]
    assert words("`Scene.active_entities` is a snapshot of the enabled entities.") == ["snapshot", "enabled"]
    assert words("Sessions are shared across threads.") == ["shared", "across"]
    assert words("`put` stores a value under a key.") == []  # a plain verb: descriptive prose, not judged
    assert words("Use `asset_uri` unless you pass `package=`.") == ["unless"]
    # a checked return or raise reads the condition of its own clause
    assert words("`get` returns `None` when the key is missing.", frozenset({"returns"})) == []
    assert words("`get` returns `None` when the key is missing.") == ["when", "missing"]
    assert words("See the first example below.") == []  # "first" pointing at the doc, not the code
    assert words("x = first(items)", kind="code") == []
    assert words("`sorted` and `order_by` are helpers.") == []  # words inside code spans assert nothing
    assert words(":param name: the oldest job's name.", kind="field") == ["oldest"]


def test_an_unchecked_order_or_condition_is_unverified_with_the_words(guide: list[tuple[Claim, Verdict]]) -> None:
    stores = by_text(guide, "`JobQueue.put(name)` stores")  # what it does: asserted, and no check reads it
    assert stores.verdict == "unverified" and "what `JobQueue.put` does (“stores a job”) was not" in stores.rationale
    assert by_text(guide, "`JobQueue.find(name)` returns the job").verdict == "consistent"
    oldest = by_text(guide, "`JobQueue.find(name)` returns the oldest")
    assert oldest.verdict == "unverified" and "“oldest”" in oldest.rationale, oldest.rationale
    assert "returns:checked" in oldest.coverage and "effect:unchecked" in oldest.coverage
    shared = by_text(guide, "`JobQueue.put` keeps")
    assert shared.verdict == "unverified" and "“shared”" in shared.rationale, shared.rationale
    unless = by_text(guide, "Use `JobQueue.put` unless")
    assert unless.verdict == "unverified" and "“unless”" in unless.rationale, unless.rationale


def test_is_a_claims_against_attribute_classes_and_bases(guide: list[tuple[Claim, Verdict]]) -> None:
    events = by_text(guide, "`queue.events` is a `Bus`")
    assert events.verdict == "consistent", events.rationale  # AuditBus derives from Bus
    assert "type:checked" in events.coverage
    ledger = by_text(guide, "`queue.ledger` is a `Bus`")
    assert ledger.verdict == "contradicted", ledger.rationale
    assert "holds a `Ledger`" in ledger.rationale and any(e.path == "jobq/events.py" for e in ledger.evidence)
    assert by_text(guide, "`JobQueue` is a subclass of `Base`").verdict == "consistent"
    wrong = by_text(guide, "`JobQueue` is a subclass of `Ledger`")
    assert wrong.verdict == "contradicted" and "is not a `Ledger`" in wrong.rationale, wrong.rationale


def test_raises_x_where_the_stated_condition_raises_an_unrelated_project_exception(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = tmp_path_factory.mktemp("raises") / "proj"
    for rel, text in PACKAGE.items():
        write(root, rel, text)
    eng = Engine.open(root)
    try:
        pairs = review_doc(eng, "jobq/registry.py", StaticReviewer()).pairs()
    finally:
        eng.close()
    fields = [(c, v) for c, v in pairs if c.text.startswith(":raises")]
    assert len(fields) == 3, [c.text for c, _ in pairs]
    (_, wrong), (_, right), (_, other) = fields
    assert wrong.verdict == "contradicted", wrong.rationale
    assert "raises `DuplicateJob` on that condition" in wrong.rationale and "not a `ValueError`" in wrong.rationale
    assert any(e.path == "jobq/errors.py" for e in wrong.evidence)
    assert right.verdict not in ("contradicted", "incomplete"), right.rationale
    # the condition names `when`, which no guard of the DuplicateJob raise reads: another condition
    assert other.verdict not in ("contradicted", "incomplete"), other.rationale


def test_the_list_of_is_a_stated_type(guide: list[tuple[Claim, Verdict]]) -> None:
    ran = by_text(guide, "`JobQueue.run_pending()` returns the list")
    assert ran.verdict == "contradicted" and "returns int, not list" in ran.rationale, ran.rationale


def test_behaviour_behind_an_off_by_default_flag(tmp_path_factory: pytest.TempPathFactory,
                                                 guide: list[tuple[Claim, Verdict]]) -> None:
    strips = by_text(guide, "`LineSource` strips")
    assert strips.verdict == "contradicted", strips.rationale
    assert "only when `strip=True`" in strips.rationale
    assert by_text(guide, "`LineSource` can strip").verdict not in ("contradicted", "incomplete")  # a capability
    assert by_text(guide, "Pass `strip=True`").verdict not in ("contradicted", "incomplete")  # the condition is stated
    root = tmp_path_factory.mktemp("flags") / "proj"
    for rel, text in PACKAGE.items():
        write(root, rel, text)
    eng = Engine.open(root)
    try:
        pairs = review_doc(eng, "jobq/sources.py", StaticReviewer()).pairs()
    finally:
        eng.close()
    skipped = [v for c, v in pairs if c.text.startswith("Blank lines are skipped")]
    assert len(skipped) == 2, [c.text for c, _ in pairs]
    line_source, tidy = skipped
    assert line_source.verdict == "contradicted", line_source.rationale
    assert "calls `read_lines` without `skip_blank`" in line_source.rationale
    assert any(e.path == "jobq/readers.py" for e in line_source.evidence)
    assert tidy.verdict not in ("contradicted", "incomplete"), tidy.rationale  # it passes skip_blank=True
