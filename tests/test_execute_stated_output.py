"""issue 14: outputs stated in code-block comments (``print(x)  # 12.50``) are checked by running the block.

Spec first: every cell is a pair of docs run against the same tiny project, a correct twin and a
defect twin, in a real sandbox (both tiers where bubblewrap runs).
"""

from __future__ import annotations

import pytest

from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import extract_claims
from caas_tui.review.execute import ExecuteReviewer, Limits
from caas_tui.review.execute.sandbox import bwrap_path
from tests.conftest import write

needs_bwrap = pytest.mark.skipif(bwrap_path() is None, reason="bubblewrap not installed or not allowed to run here")

MONEY = '''
from decimal import Decimal


class Money:
    def __init__(self, amount):
        self.amount = Decimal(amount).quantize(Decimal("0.01"))

    def __repr__(self):
        return f"Money('{self.amount}')"

    def __str__(self):
        return f"${self.amount}"


def total(prices):
    return sum((Decimal(p) for p in prices), Decimal(0))


def split(bill, parts):
    return [Money(bill.amount / parts) for _ in range(parts)]


def greet(name):
    return f"Hello, {name}"


def euros(amount):
    return f"{amount}\u00a0€"  # a no-break space, as locale formatting writes


def boom():
    raise ValueError("the till is closed")


class Rate:
    def __init__(self, value):
        self.value = value

    def invert(self):
        return 1 / self.value


class Queue:
    def __init__(self):
        self.jobs = []

    def push(self, job):
        self.jobs.append(job)

    def __len__(self):
        return len(self.jobs)

    def describe(self):
        return f"{len(self.jobs)} jobs"
'''

IMPORTS = "from shop.money import Money, Queue, Rate, boom, euros, greet, split, total"
QUEUE = 'q = Queue()\nq.push("a")\nq.push("b")'


def md(body: str, setup: str = QUEUE) -> str:
    return f"# Guide\n\nSome text.\n\n```python\n{IMPORTS}\n{setup}\n{body}\n```\n"


def rst(body: str) -> str:
    code = "\n".join("   " + line if line else "" for line in f"{IMPORTS}\n{QUEUE}\n{body}".split("\n"))
    return f"Guide\n=====\n\nSome text.\n\n.. code-block:: python\n\n{code}\n\nMore text.\n"


def listed(body: str) -> str:
    code = "\n".join("   " + line if line else "" for line in f"```python\n{IMPORTS}\n{QUEUE}\n{body}\n```".split("\n"))
    return f"# Guide\n\n1. Make a queue:\n\n{code}\n\n2. Done.\n"


CHECKED = "consistent"
NOT_CHECKED = "unverified"
PARTLY = "unverified, outputs matched"  # what other comments assert was not compared
# name -> (correct twin, its expected label, defect twin); every defect twin must be contradicted
CELLS: dict[str, tuple[tuple[str, str], str, tuple[str, str]]] = {
    "arrow_print": (("md", 'print(total(["1.25", "2.50"]))  # -> 3.75'), CHECKED,
                    ("md", 'print(total(["1.25", "2.50"]))  # -> 3.25')),
    "fat_arrow_expression_rounded": (("md", "Rate(1.1).invert()  # => 0.91"), CHECKED,
                                     ("md", "Rate(1.1).invert()  # => 1.10")),
    "unicode_arrow": (("md", "len(q)  # → 2"), CHECKED, ("md", "len(q)  # → 3")),
    "prints_word": (("md", "print(q.describe())  # prints 2 jobs"), CHECKED,
                    ("md", "print(q.describe())  # prints 3 jobs")),
    "output_colon_inline": (("md", 'print(greet("Ann"))  # output: Hello, Ann'), CHECKED,
                            ("md", 'print(greet("Ann"))  # output: Hello, Bob')),
    "result_colon_repr": (("md", 'total(["1", "2"])  # result: Decimal(\'3\')'), CHECKED,
                          ("md", 'total(["1", "2"])  # result: Decimal(\'4\')')),
    "gives_word": (("md", "len(q)  # gives 2"), CHECKED, ("md", "len(q)  # gives 5")),
    "bare_number_on_print": (("md", 'print(total(["10", "2.5"]))  # 12.5'), CHECKED,
                             ("md", 'print(total(["10", "2.5"]))  # 13.5')),
    "bare_literal_on_expression": (
        ("md", 'split(Money("12.00"), 3)  # [Money(\'4.00\'), Money(\'4.00\'), Money(\'4.00\')]'), CHECKED,
        ("md", 'split(Money("12.00"), 3)  # [Money(\'3.00\'), Money(\'3.00\'), Money(\'3.00\')]')),
    "ellipsis": (("md", 'split(Money("12.00"), 3)  # -> [Money(\'4.00\'), ...]'), CHECKED,
                 ("md", 'split(Money("12.00"), 3)  # -> [Money(\'6.00\'), ...]')),
    "repr_of_a_string": (("md", 'greet("Ann")  # \'Hello, Ann\''), CHECKED, ("md", 'greet("Ann")  # \'Hi, Ann\'')),
    "no_break_space_in_a_str": (("md", 'euros("94,88")  # \'94,88 €\''), CHECKED,
                                ("md", 'euros("94,88")  # \'94,89 €\'')),
    "str_of_an_object": (("md", 'Money("2")  # -> $2.00'), CHECKED, ("md", 'Money("2")  # -> $3.00')),
    "output_block_after_a_loop": (
        ("md", 'for job in ["c", "d"]:\n    q.push(job)\n    print(len(q))\n# Output:\n# 3\n# 4'), CHECKED,
        ("md", 'for job in ["c", "d"]:\n    q.push(job)\n    print(len(q))\n# Output:\n# 3\n# 5')),
    "output_line_after_print": (("md", "print(q.describe())\n# Output: 2 jobs"), CHECKED,
                                ("md", "print(q.describe())\n# Output: 4 jobs")),
    "rest_code_block": (("rst", 'print(total(["1", "1"]))  # -> 2'), CHECKED,
                        ("rst", 'print(total(["1", "1"]))  # -> 11')),
    "indented_in_a_list": (("list", "len(q)  # -> 2"), CHECKED, ("list", "len(q)  # -> 20")),
    "whitespace_normalised": (("md", "print(q.describe())  # ->   2   jobs"), CHECKED,
                              ("md", "print(q.describe())  # -> 2 job")),
    "rounded_number_on_print": (("md", "print(Rate(3).invert())  # 0.33"), CHECKED,
                                ("md", "print(Rate(3).invert())  # 0.25")),
    "multi_line_statement": (("md", 'print(\n    total(["1", "2"])\n)  # -> 3'), CHECKED,
                             ("md", 'print(\n    total(["1", "2"])\n)  # -> 4')),
    "a_stated_rounding_of_an_exact_value": (("md", 'print(total(["2.675"]))  # 2.675'), CHECKED,
                                            ("md", 'print(total(["2.675"]))  # 2.68')),
    "other_comments_are_not_checked": (("md", "# the queue holds both jobs now\nprint(len(q))  # -> 2"), PARTLY,
                                       ("md", "# the queue holds both jobs now\nprint(len(q))  # -> 1")),
    "a_value_with_an_aside": (("md", 'print(total(["1", "2"]))  # 3  (the sum of both)'), PARTLY,
                              ("md", 'print(total(["1", "2"]))  # 4  (the sum of both)')),
    "a_path_token_on_print": (("md", 'print("res://" + greet("x")[:5])  # res://Hello'), CHECKED,
                              ("md", 'print("res://" + greet("x")[:5])  # res://Hi')),
    "prose_comment_on_print": (("md", 'print(total(["1"]))  # show the total'), NOT_CHECKED,
                               ("md", 'print(total(["1"]))  # 5')),
    "prose_comment_on_call_returning_none": (("md", 'q.push("c")  # adds a job'), NOT_CHECKED,
                                             ("md", "len(q)  # 7")),
    "effect_comment_on_none_call": (("md", 'q.push("c")  # -> 3 jobs'), NOT_CHECKED,
                                    ("md", "q.describe()  # -> 9 jobs")),
    "a_word_in_brackets_is_prose": (("md", "q.describe()  # (cached)"), NOT_CHECKED,
                                    ("md", "q.describe()  # ('2 jobs', 1)")),
    "a_description_after_an_arrow": (("md", "q.describe()  # -> summary"), NOT_CHECKED,
                                     ("md", "q.describe()  # -> '3 jobs'")),
    "directive_comment": (("md", "len(q)  # noqa"), NOT_CHECKED, ("md", "len(q)  # 9")),
    "prose_on_an_assignment": (("md", "n = len(q)  # 2"), NOT_CHECKED, ("md", "n = len(q)\nn  # 3")),
    "address_is_not_compared": (("md", "print(object())  # -> <object object at 0x7f00deadbeef>"), NOT_CHECKED,
                                ("md", "print(len([1]))  # -> 2")),
    "random_is_not_compared": (("md", "import random\nprint(random.random())  # 0.42"), NOT_CHECKED,
                               ("md", "print(len([1, 2]))  # 0")),
}
RAISES = ("md", "boom()\nprint(1)  # -> 1")
FORMATS = {"md": md, "rst": rst, "list": listed}
SUFFIX = {"md": ".md", "rst": ".rst", "list": ".md"}


def _doc_name(cell: str, twin: str, form: str) -> str:
    return f"docs/{cell}_{twin}{SUFFIX[form]}"


@pytest.fixture(scope="module", params=[pytest.param(None, marks=needs_bwrap, id="bwrap"),
                                        pytest.param(False, id="rlimits")])
def reviewed(request, tmp_path_factory):
    root = tmp_path_factory.mktemp("stated") / "proj"
    write(root, "shop/__init__.py", "")
    write(root, "shop/money.py", MONEY)
    docs = {}
    for cell, (ok, _, bad) in CELLS.items():
        for twin, (form, body) in (("ok", ok), ("bad", bad)):
            docs[(cell, twin)] = _doc_name(cell, twin, form)
            (root / docs[(cell, twin)]).parent.mkdir(parents=True, exist_ok=True)
            (root / docs[(cell, twin)]).write_text(FORMATS[form](body))
    docs[("raises", "bad")] = "docs/raises_bad.md"
    (root / "docs/raises_bad.md").write_text(md(RAISES[1]))
    engine = Engine.open(root)
    try:
        claims = []
        for path in docs.values():
            claims += [c for c in extract_claims(path, (root / path).read_text()) if c.kind == "code"]
        reviewer = ExecuteReviewer(limits=Limits(block_seconds=10, doc_seconds=30), use_bwrap=request.param)
        verdicts = reviewer.review(claims, engine)
    finally:
        engine.close()
    by_doc = {c.doc_path: v for c, v in zip(claims, verdicts, strict=True)}
    texts = {p: (root / p).read_text() for p in docs.values()}
    return {key: by_doc[path] for key, path in docs.items()}, {key: texts[path] for key, path in docs.items()}


@pytest.mark.parametrize("cell", list(CELLS))
def test_correct_twin(reviewed, cell):
    v = reviewed[0][(cell, "ok")]
    expected = CELLS[cell][1]
    if expected == PARTLY:
        assert v.verdict == "unverified" and v.rationale == "ran; 1 stated output matched; 1 other comment not checked"
        return
    assert v.verdict == expected, v.rationale
    if expected == CHECKED:
        assert v.rationale.startswith("ran; ") and "stated output" in v.rationale and "matched" in v.rationale
    else:
        assert v.rationale.startswith("ran without error"), v.rationale


@pytest.mark.parametrize("cell", list(CELLS))
def test_defect_twin_is_contradicted(reviewed, cell):
    v = reviewed[0][(cell, "bad")]
    assert v.verdict == "contradicted", v.rationale
    assert "the comment says" in v.rationale


def test_a_block_that_raises_before_the_line_is_judged_by_the_raise(reviewed):
    v = reviewed[0][("raises", "bad")]
    assert v.verdict == "contradicted" and "raises ValueError" in v.rationale
    assert "the comment says" not in v.rationale
    assert [e.symbol for e in v.evidence] == ["shop.money.boom"]


def test_mismatch_names_both_outputs_and_points_at_the_called_definition(reviewed):
    v = reviewed[0][("arrow_print", "bad")]
    assert "3.25" in v.rationale and "3.75" in v.rationale
    assert [(e.path, e.symbol) for e in v.evidence] == [("shop/money.py", "shop.money.total")]


def test_fix_rewrites_the_trailing_comment(reviewed):
    verdicts, texts = reviewed
    for cell, new in (("arrow_print", 'print(total(["1.25", "2.50"]))  # -> 3.75'),
                      ("unicode_arrow", "len(q)  # → 2"),
                      ("indented_in_a_list", "   len(q)  # -> 2"),
                      ("rest_code_block", '   print(total(["1", "1"]))  # -> 2'),
                      ("a_value_with_an_aside", 'print(total(["1", "2"]))  # 3  (the sum of both)')):
        v = verdicts[(cell, "bad")]
        assert v.fix is not None, cell
        lines = texts[(cell, "bad")].split("\n")
        assert v.fix.start_line == v.fix.end_line and v.fix.replacement == new, cell
        assert "# " in lines[v.fix.start_line - 1] and lines[v.fix.start_line - 1] != new


def test_fix_rewrites_an_output_block(reviewed):
    verdicts, texts = reviewed
    v = verdicts[("output_block_after_a_loop", "bad")]
    assert v.fix is not None
    lines = texts[("output_block_after_a_loop", "bad")].split("\n")
    assert lines[v.fix.start_line - 1 : v.fix.end_line] == ["# Output:", "# 3", "# 5"]
    assert v.fix.replacement == "# Output:\n# 3\n# 4"


def test_matched_outputs_are_counted(reviewed):
    v = reviewed[0][("output_block_after_a_loop", "ok")]
    assert v.rationale == "ran; 1 stated output matched"


def test_fixed_doc_passes(tmp_path):
    write(tmp_path, "shop/__init__.py", "")
    write(tmp_path, "shop/money.py", MONEY)
    doc = md('print(q.describe())  # -> 5 jobs\nlen(q)  # 7')
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/g.md").write_text(doc)
    engine = Engine.open(tmp_path)
    try:
        reviewer = ExecuteReviewer(limits=Limits(block_seconds=10, doc_seconds=30), use_bwrap=False)
        [claim] = [c for c in extract_claims("docs/g.md", doc) if c.kind == "code"]
        [v] = reviewer.review([claim], engine)
        assert v.verdict == "contradicted" and "(and 1 more" in v.rationale and v.fix is not None
        lines = doc.split("\n")
        fixed = "\n".join(lines[: v.fix.start_line - 1] + v.fix.replacement.split("\n") + lines[v.fix.end_line:])
        (tmp_path / "docs/g.md").write_text(fixed)
        [claim] = [c for c in extract_claims("docs/g.md", fixed) if c.kind == "code"]
        [again] = reviewer.review([claim], engine)
    finally:
        engine.close()
    assert again.verdict == "consistent" and again.rationale == "ran; 2 stated outputs matched"
