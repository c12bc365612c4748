"""Readings whose failure a blind-written project showed, each as a defect and a correct twin in a
small garden package (real Engine, real index): a default stated as the module constant the code
reads it from, a migration table's old column, a signature with a bare ``*`` marker (its names,
defaults and keyword-only marker), a raises entry saying what the exception derives from, a return type
that is a stdlib class where the code returns a project class, and a default stated as "with
``X`` unless you pass another" where the code's default is a constant bound to an Enum member."""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims.markdown import past_columns
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from tests.conftest import verdict_containing as by_text

from .conftest import write

FLAGS = ("contradicted", "incomplete")

FILES = {
    "garden/__init__.py": '''
        """Gardening."""
        from garden.beds import Bed, mow, plant, sow, water
        from garden.modes import Pace

        Plot = Bed  # the 1.x name
        ''',
    "garden/settings.py": '''
        DEFAULT_SOIL = "loam"
        DEFAULT_PACE_NAME = "slow"


        class Shed:
            pass
        ''',
    "garden/modes.py": '''
        import enum


        class Pace(enum.Enum):
            SLOW = "slow"
            FAST = "fast"


        DEFAULT_PACE = Pace.SLOW
        ''',
    "garden/beds.py": '''
        from decimal import Decimal

        from garden.modes import DEFAULT_PACE, Pace
        from garden.settings import DEFAULT_SOIL


        class SoilError(LookupError):
            pass


        class DryError(ValueError):
            pass


        class Bed:
            def __init__(self, width: int) -> None:
                self.width = width


        def plant(name: str, soil: str | None = None) -> Bed:
            """Plant a seed.

            Parameters
            ----------
            name : str
                The seed.
            soil : str, optional
                The soil; defaults to ``DEFAULT_SOIL``.

            Returns
            -------
            Decimal
                The bed, as a :class:`~decimal.Decimal`.
            """
            soil = soil or DEFAULT_SOIL
            return Bed(len(name + soil))


        def sow(name: str, soil: str | None = None) -> Bed:
            """Sow a seed.

            Parameters
            ----------
            name : str
                The seed.
            soil : str, optional
                The soil; defaults to ``"clay"``.

            Returns
            -------
            Bed
                The bed it went into.

            Raises
            ------
            SoilError
                If the soil is bad; it is a ``ValueError``, so ``except ValueError`` catches it.
            DryError
                If the bed is dry; it is a ``ValueError`` too.
            """
            soil = soil or DEFAULT_SOIL
            if soil == "sand":
                raise SoilError(soil)
            if not name:
                raise DryError(name)
            return Bed(len(name + soil))


        def store(tool: str, spare: object) -> None:
            """Store a tool.

            Parameters
            ----------
            tool : Shed
                Where it goes (see :class:`garden.settings.Shed`).
            spare : Shed
                A spare place (see :class:`garden.settings.Shed`).
            """


        def water(bed: Bed, *, pace: Pace = DEFAULT_PACE, litres: int = 1) -> Decimal:
            """Water a bed."""
            return Decimal(litres)


        def mow(lawn: str, *, blade: str, height: int) -> int:
            """Mow a lawn."""
            return height
        ''',
    "docs/guide.md": """
        # Garden

        ## Calls

        | call | notes |
        |---|---|
        | `water(bed, *, pace=DEFAULT_PACE, litres=1)` | waters a bed |
        | `water(bed, *, speed=DEFAULT_PACE, litres=1)` | waters a bed quickly |
        | `water(bed, *, pace=DEFAULT_PACE, litres=3)` | waters a bed well |
        | `water(bed, litres=1, *, pace=DEFAULT_PACE)` | waters a bed twice |
        | `water(bed, *, pace=Pace.FAST, litres=1)` | waters a bed fast |
        | `mow(lawn, *, blade, height)` | mows a lawn |
        | `mow(lawn, blade, *, height)` | mows a lawn short |

        ## Paces

        `water` pours with `Pace.SLOW` unless you pass another pace.

        `water` pours with `Pace.FAST` unless you pass a different pace.

        ## Errors

        `sow` raises `SoilError` because of the wind.

        `sow` raises `SoilError`.

        ## Upgrading

        | 1.x | 2.0 | notes |
        |---|---|---|
        | `garden.hose` | `garden.beds` | the hose module is gone |
        | `Bed.dig()` | `Bed.width` | holds the bed's width |
        | `Bed.rake()` | `Bed.length` | holds the bed's length |
        | `garden.Plot` | `garden.Bed` | the old name is kept as a deprecated alias |
        | `garden.Patch` | `garden.Bed` | the old name still imports |
        """,
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("garden") / "proj"
    for rel, text in FILES.items():
        write(root, rel, text)
    eng = Engine.open(root)
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def guide(engine: Engine) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, "docs/guide.md", StaticReviewer()).pairs()


@pytest.fixture(scope="module")
def beds(engine: Engine) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, "garden/beds.py", StaticReviewer()).pairs()


def test_default_stated_as_the_constant_the_code_reads(beds: list[tuple[Claim, Verdict]]) -> None:
    named = by_text(beds, "defaults to ``DEFAULT_SOIL``")
    assert named.verdict not in FLAGS, named.rationale
    assert "default of `soil`" in " ".join(named.checks), named.checks
    wrong = by_text(beds, 'defaults to ``"clay"``')
    assert wrong.verdict == "contradicted" and "loam" in wrong.rationale, wrong.rationale


def test_stdlib_return_type_against_a_project_class(beds: list[tuple[Claim, Verdict]]) -> None:
    stated = by_text(beds, "The bed, as a")
    assert stated.verdict == "contradicted" and "Bed" in stated.rationale, stated.rationale
    right = by_text(beds, "The bed it went into")
    assert right.verdict not in FLAGS, right.rationale


def test_signature_with_a_bare_star(guide: list[tuple[Claim, Verdict]]) -> None:
    wrong = by_text(guide, "speed=DEFAULT_PACE")
    assert wrong.verdict == "contradicted" and "speed" in wrong.rationale, wrong.rationale
    right = by_text(guide, "`water(bed, *, pace=DEFAULT_PACE, litres=1)`")
    assert right.verdict not in FLAGS, right.rationale


def test_signature_states_defaults_and_keyword_only(guide: list[tuple[Claim, Verdict]]) -> None:
    right = by_text(guide, "`water(bed, *, pace=DEFAULT_PACE, litres=1)`")
    assert any("default of `litres`" in c for c in right.checks), right.checks
    wrong = by_text(guide, "litres=3")
    assert wrong.verdict == "contradicted" and "litres" in wrong.rationale, wrong.rationale
    positional = by_text(guide, "`water(bed, litres=1, *, pace=DEFAULT_PACE)`")
    assert positional.verdict == "contradicted" and "keyword-only" in positional.rationale, positional.rationale
    member = by_text(guide, "pace=Pace.FAST")
    assert member.verdict == "contradicted" and "Pace.SLOW" in member.rationale, member.rationale


def test_default_stated_as_what_is_used_unless_you_pass_another(guide: list[tuple[Claim, Verdict]]) -> None:
    # ``DEFAULT_PACE = Pace.SLOW``: the constant stands for the member
    right = by_text(guide, "with `Pace.SLOW` unless")
    assert right.verdict not in FLAGS, right.rationale
    assert any("default of `pace`" in c for c in right.checks), right.checks
    wrong = by_text(guide, "with `Pace.FAST` unless")
    assert wrong.verdict == "contradicted" and "Pace.SLOW" in wrong.rationale, wrong.rationale


def test_migration_table_old_column_is_the_past(guide: list[tuple[Claim, Verdict]]) -> None:
    gone = by_text(guide, "`garden.beds`")
    assert gone.verdict not in FLAGS, gone.rationale
    renamed = by_text(guide, "`Bed.width`")
    assert renamed.verdict not in FLAGS, renamed.rationale
    # the new column must exist now
    missing = by_text(guide, "`Bed.length`")
    assert missing.verdict == "contradicted" and "length" in missing.rationale, missing.rationale


def test_past_columns_of_a_table_header() -> None:
    assert past_columns(["1.x", "2.0", "notes"]) == {0}
    assert past_columns(["pkg 2.3", "pkg 3.0"]) == {0}
    assert past_columns(["Old name", "New name", "Why"]) == {0}
    assert past_columns(["Before", "After"]) == {0}
    assert past_columns(["option", "default", "meaning"]) == frozenset()
    assert past_columns(["2.0", "notes"]) == frozenset()  # one version column: nothing replaced


def test_raises_entry_states_the_exception_base(beds: list[tuple[Claim, Verdict]]) -> None:
    wrong = by_text(beds, "If the soil is bad")
    assert wrong.verdict == "contradicted" and "`SoilError` is not a `ValueError`" in wrong.rationale, wrong.rationale
    right = by_text(beds, "If the bed is dry")
    assert right.verdict not in FLAGS, right.rationale
    assert "`DryError` is a `ValueError`" in right.checks, right.checks


def test_type_named_short_and_spelled_out_in_the_entry(beds: list[tuple[Claim, Verdict]]) -> None:
    # ``Shed`` is not imported where ``store`` lives; the entry's role says which class it is
    wrong = by_text(beds, "Where it goes")
    assert wrong.verdict == "contradicted" and "annotated `str`" in wrong.rationale, wrong.rationale
    loose = by_text(beds, "A spare place")  # annotated ``object``: any class fits
    assert loose.verdict not in FLAGS, loose.rationale


def test_migration_row_saying_the_old_name_lives_on(guide: list[tuple[Claim, Verdict]]) -> None:
    kept = by_text(guide, "`garden.Plot`")
    assert kept.verdict not in FLAGS, kept.rationale
    gone = by_text(guide, "`garden.Patch`")
    assert gone.verdict == "contradicted" and "garden.Patch" in gone.rationale, gone.rationale


def test_a_stated_cause_is_not_checked_by_the_raise(guide: list[tuple[Claim, Verdict]]) -> None:
    # the raise exists; why it happens is not read by any check, so the label can't promise it
    caused = by_text(guide, "because of the wind")
    assert caused.verdict == "unverified", caused.rationale
    plain = by_text(guide, "`sow` raises `SoilError`.")
    assert plain.verdict == "consistent", plain.rationale


def test_signature_names_after_a_bare_star_are_keyword_only(guide: list[tuple[Claim, Verdict]]) -> None:
    """``f(a, *, b, c)`` shows ``b`` and ``c`` keyword-only without defaults: no arity error, no
    stated default; a keyword-only name written before the ``*`` is shown positional."""
    right = by_text(guide, "`mow(lawn, *, blade, height)`")
    assert right.verdict not in FLAGS, right.rationale
    assert not any("default of" in c for c in right.checks), right.checks
    wrong = by_text(guide, "`mow(lawn, blade, *, height)`")
    assert wrong.verdict == "contradicted" and "`blade`" in wrong.rationale and "keyword-only" in wrong.rationale, \
        wrong.rationale
    assert "`height`" not in wrong.rationale, wrong.rationale
