"""Form-coverage matrix for raise claims under a condition (issue 14, Deliver 2).

"raises E when C" is compared with the ``raise`` whose guard matches C, in the function
and in the project code it calls (another module included): a guard that raises another
exception contradicts the claim; a call the reviewer cannot resolve (a callable held in an
attribute, a module loaded with ``importlib``) leaves "never raised" unknown. Every cell is
one idea in one form (prose with inline code, reST roles, Google / NumPy / Sphinx fields, a
Markdown table row), as a defect that must be flagged and a correct twin that must not be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer

from .conftest import write

# name -> (parameters after self, annotation, body lines); methods of a purse.
METHODS: dict[str, tuple[str, str, list[str]]] = {
    "allocate": ("weights: list[int]", "list[int]", ["return share(100, weights)"]),
    "amount": ("value: object", "int",
               ["if isinstance(value, float):", "    raise TypeError('floats are refused')", "try:",
                "    return int(str(value))", "except ValueError:", "    raise BadAmount(str(value)) from None"]),
    "convert": ("pair: str", "float",
                ["if pair not in self._rates:", "    raise RateMissing(pair)", "if self._expired(pair):",
                 "    raise StaleRate(pair)", "return self._rates[pair]"]),
    "notify": ("name: str", "None", ["self._hook(name)"]),
    "quiet": ("name: str", "None", ["self._names.append(name)"]),
    "plugin": ("name: str", "None", ["mod = importlib.import_module(name)", "mod.run(self)"]),
    "__truediv__": ("n: int", "'Purse'", ["if n == 0:", "    raise BadAmount('divide by zero')", "return self"]),
    "__lt__": ("other: object", "bool", ["if not isinstance(other, Purse):", "    raise TypeError(other)",
                                         "return False"]),
}

FIELD_FORMS = ("google", "numpy", "sphinx", "docprose")


@dataclass(frozen=True)
class Cell:
    id: str
    form: str  # md | rst | table | google | numpy | sphinx | docprose
    defect_fn: str
    twin_fn: str
    defect: str
    twin: str


def _ideas() -> list[Cell]:
    # (idea, defect fn, twin fn, defect exception, twin exception, condition)
    ideas = [
        ("callee", "allocate", "allocate", "ZeroDivisionError", "SplitError", "all weights are zero"),
        ("isinstance", "amount", "amount", "BadAmount", "TypeError", "the value is a float"),
        ("branch", "convert", "convert", "RateMissing", "StaleRate", "the pair's rate has expired"),
        ("unresolved", "quiet", "notify", "StaleRate", "StaleRate", "the hook rejects the name"),
    ]
    args = {"allocate": "weights", "amount": "value", "convert": "pair", "notify": "name", "quiet": "name",
            "plugin": "name"}
    out: list[Cell] = []
    for idea, dfn, tfn, dexc, texc, cond in ideas:
        def md(fn: str, exc: str, cond: str = cond) -> str:
            return f"`Purse.{fn}({args[fn]})` raises `{exc}` when {cond}."

        def rst(fn: str, exc: str, cond: str = cond) -> str:
            return f":meth:`coinage.purse.Purse.{fn}` raises :exc:`{exc}` if {cond}."

        def table(fn: str, exc: str, cond: str = cond) -> str:
            return f"| `Purse.{fn}({args[fn]})` | raises `{exc}` when {cond} |"

        def google(fn: str, exc: str, cond: str = cond) -> str:
            return f"Raises:\n    {exc}: If {cond}."

        def numpy(fn: str, exc: str, cond: str = cond) -> str:
            return f"Raises\n------\n{exc}\n    If {cond}."

        def sphinx(fn: str, exc: str, cond: str = cond) -> str:
            return f":raises {exc}: when {cond}."

        for form, make in (("md", md), ("rst", rst), ("table", table), ("google", google), ("numpy", numpy),
                           ("sphinx", sphinx)):
            out.append(Cell(f"{idea}-{form}", form, dfn, tfn, make(dfn, dexc), make(tfn, texc)))
    out.append(Cell("importlib-md", "md", "quiet", "plugin",
                    "`Purse.quiet(name)` raises `StaleRate` when the plugin refuses the purse.",
                    "`Purse.plugin(name)` raises `StaleRate` when the plugin refuses the purse."))
    # a docstring sentence whose subject is a parameter phrase: the owner raises, the phrase is the condition
    out.append(Cell("callee-docprose", "docprose", "allocate", "allocate",
                    "A list of weights that are all zero raises `ZeroDivisionError`.",
                    "A list of weights that are all zero raises `SplitError`."))
    out.append(Cell("branch-docprose", "docprose", "convert", "convert",
                    "A pair whose rate has expired raises `RateMissing`.",
                    "A pair whose rate has expired raises `StaleRate`."))
    # "if A, or B": an alternative that another exception's guard answers is a defect
    out.append(Cell("disjunction-numpy", "numpy", "amount", "amount",
                    "Raises\n------\nBadAmount\n    If the value is a float, or a string that is not a number.",
                    "Raises\n------\nBadAmount\n    If the value is a string that is not a number."))
    # an expression on a project object is judged by the dunder it runs
    out.append(Cell("operator-div-md", "md", "__truediv__", "__truediv__",
                    "`Purse / 0` raises `RateMissing`.", "`Purse / 0` raises `BadAmount`."))
    out.append(Cell("operator-lt-rst", "rst", "__lt__", "__lt__",
                    "``Purse < 3`` raises :exc:`StaleRate`.", "``Purse < 3`` raises :exc:`TypeError`."))
    return out


CELLS = _ideas()

HEADER = """import importlib

from coinage.errors import BadAmount, RateMissing, StaleRate
from coinage.split import share
"""

PACKAGE = {
    "coinage/__init__.py": '"""Small sums of money."""\n',
    "coinage/errors.py": (
        "class CoinError(Exception):\n    pass\n\n\nclass BadAmount(CoinError, ValueError):\n    pass\n\n\n"
        "class RateMissing(CoinError, LookupError):\n    pass\n\n\nclass StaleRate(CoinError):\n    pass\n\n\n"
        "class SplitError(CoinError, ValueError):\n    pass\n"
    ),
    "coinage/split.py": (
        "from coinage.errors import SplitError\n\n\n"
        "def share(total: int, weights: list[int]) -> list[int]:\n"
        "    if not weights:\n        raise SplitError('no weights')\n"
        "    if sum(weights) == 0:\n        raise SplitError('every weight is zero')\n"
        "    return [total * w // sum(weights) for w in weights]\n"
    ),
}


def _slug(cell: Cell, side: str) -> str:
    return re.sub(r"\W", "_", f"{cell.id}_{side}")


def _method(name: str, new_name: str, doc: str | None) -> str:
    params, ann, body = METHODS[name]
    lines = [f"def {new_name}(self, {params}) -> {ann}:"]
    if doc is not None:
        lines += ['    """Purse helper.', ""] + [f"    {ln}" if ln else "" for ln in doc.splitlines()] + ['    """']
    lines += [f"    {ln}" for ln in body]
    return "\n".join("    " + ln if ln else "" for ln in lines)


def _purse_module() -> str:
    methods = [_method(n, n, None) for n in METHODS]
    methods.append("    def _expired(self, pair: str) -> bool:\n        return self._stamps.get(pair, 0) < 0")
    for cell in CELLS:
        if cell.form in FIELD_FORMS:
            methods.append(_method(cell.defect_fn, f"{cell.defect_fn}_{_slug(cell, 'd')}", cell.defect))
            methods.append(_method(cell.twin_fn, f"{cell.twin_fn}_{_slug(cell, 't')}", cell.twin))
    init = ("    def __init__(self, hook) -> None:\n        self._hook = hook\n"
            "        self._rates: dict[str, float] = {}\n        self._stamps: dict[str, float] = {}\n"
            "        self._names: list[str] = []")
    return '"""A purse of coins."""\n\n' + HEADER + "\n\nclass Purse:\n" + init + "\n\n" + "\n\n".join(methods) + "\n"


def _docs() -> dict[str, str]:
    md = ["# Purse guide", ""]
    rst = ["Purse reference", "===============", ""]
    table = ["# Purse table", "", "| method | behaviour |", "|---|---|"]
    for cell in CELLS:
        for text in (cell.defect, cell.twin):
            if cell.form == "md":
                md += [text, ""]
            elif cell.form == "rst":
                rst += [text, ""]
            elif cell.form == "table":
                table.append(text)
    return {"docs/guide.md": "\n".join(md), "docs/api.rst": "\n".join(rst), "docs/table.md": "\n".join(table) + "\n"}


def _project(root: Path) -> None:
    files = {**PACKAGE, "coinage/purse.py": _purse_module(), **_docs()}
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Claim, Verdict]]]:
    root = tmp_path_factory.mktemp("conditions") / "proj"
    _project(root)
    write(root, "README.md", "# coinage\n")
    eng = Engine.open(root)
    try:
        docs = ["docs/guide.md", "docs/api.rst", "docs/table.md", "coinage/purse.py"]
        return {d: review_doc(eng, d, StaticReviewer()).pairs() for d in docs}
    finally:
        eng.close()


def _verdict(reviewed: dict[str, list[tuple[Claim, Verdict]]], cell: Cell, side: str) -> Verdict:
    text = cell.defect if side == "d" else cell.twin
    fn = cell.defect_fn if side == "d" else cell.twin_fn
    if cell.form in ("md", "rst", "table"):
        doc = {"md": "docs/guide.md", "rst": "docs/api.rst", "table": "docs/table.md"}[cell.form]
        key = text.strip("| ").split(" | ")[-1] if cell.form == "table" else text
        owner = text.split("`")[1] if cell.form == "table" else ""
        hits = [v for c, v in reviewed[doc] if key in c.text and owner in c.text]
    else:
        owner = f"{fn}_{_slug(cell, side)}"
        hits = [v for c, v in reviewed["coinage/purse.py"] if (c.section or "").endswith(owner)
                and (c.kind == "field" if cell.form != "docprose" else c.text == text)]
    assert len(hits) == 1, (cell.id, side, len(hits))
    return hits[0]


FLAGS = ("contradicted", "incomplete")


@pytest.mark.parametrize("cell", CELLS, ids=[c.id for c in CELLS])
def test_defect_is_flagged(reviewed: dict[str, list[tuple[Claim, Verdict]]], cell: Cell) -> None:
    v = _verdict(reviewed, cell, "d")
    assert v.verdict in FLAGS, (v.verdict, v.rationale)


@pytest.mark.parametrize("cell", CELLS, ids=[c.id for c in CELLS])
def test_twin_is_not_flagged(reviewed: dict[str, list[tuple[Claim, Verdict]]], cell: Cell) -> None:
    v = _verdict(reviewed, cell, "t")
    assert v.verdict not in FLAGS, (v.verdict, v.rationale)


def test_matrix_covers_every_form_and_idea() -> None:
    assert {c.form for c in CELLS} == {"md", "rst", "table", "google", "numpy", "sphinx", "docprose"}
    assert len(CELLS) >= 24 and len({c.id for c in CELLS}) == len(CELLS)


# -- percent against a fraction or a percentage (wording.units) ----------------------------------
@pytest.mark.parametrize(("stated", "param", "actual", "holds"), [
    ("10 %", "max_jump", 0.25, False),  # neither reading (10 or 0.1) is 0.25
    ("25 %", "max_jump", 0.25, True),  # a fraction reading
    ("25 %", "max_jump", 25, True),  # a percentage reading: the name does not say which
    ("ten percent", "drop_ratio", 0.25, False),
    ("25%", "drop_ratio", 0.25, True),
    ("25 %", "drop_ratio", 25, False),  # a ratio of 25 is 2500 %
    ("25 %", "jitter_pct", 25, True),
    ("25 %", "jitter_pct", 0.25, False),
])
def test_percent_against_the_scale_the_name_allows(stated: str, param: str, actual: float, holds: bool) -> None:
    from caas_tui.review.static.wording.units import matches, quantities

    (q,) = quantities(stated)
    assert matches(q, param, actual) is holds


def test_a_fraction_default_is_restated_as_a_percentage() -> None:
    from caas_tui.review.static.wording.units import quantities, restate

    assert restate(quantities("10 %")[0], "drop_ratio", 0.25) == "25%"
    assert restate(quantities("10 %")[0], "max_jump", 0.25) is None  # the scale is not known: no restating
