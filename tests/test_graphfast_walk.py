"""The graph walk's shortcuts (issue 20): child fields learnt from each node class's ASDL
signature give what the generic field scan gives, and the inlined walk records the same facts."""

from __future__ import annotations

import ast
import hashlib
import textwrap
from pathlib import Path

from caas_tui.graph.pyexpr import FIELD_ANY, FIELD_MANY, FIELD_ONE, child_fields, child_nodes, walk_statements
from caas_tui.graph.pyfacts import python_fragment
from caas_tui.models import SourceFile

_LEAVES = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)
_BLOCKS = (ast.stmt, ast.excepthandler, ast.match_case)
# Every construct whose fields are unusual: ``None`` in a list (``**x`` keys), identifier lists
# (``global``, match keyword names), optional nodes, comprehensions, f-strings, ``try``/``except*``.
_ODD = textwrap.dedent('''
    global G
    import a.b as c, d
    from .x import (y as z)
    def f(p: "Scene | None", /, q=1, *a, k: int = DEFAULT, **kw) -> Scene:  # type: ignore
        nonlocal_like = {**kw, "k": Box(), None: [i for i in a if i async for j in q]}
        with open(p) as fh, lock:
            yield fh.read()
        match p:
            case Point(x=0, y=yy) | [1, *rest] | {"k": v, **others} as whole if whole:
                return f"{p!r:>{q}}"
        try:
            pass
        except* (ValueError, TypeError) as e:
            raise Error(e) from None
        lambda: (yield)
        return q if a else -q < 3 <= 4
''')


def _generic(node: ast.AST) -> list[ast.AST]:
    """The reading ``child_nodes`` replaced: every field, filtered by type."""
    return [c for c in ast.iter_child_nodes(node) if not isinstance(c, _LEAVES)]


def _trees() -> list[ast.Module]:
    pkg = Path(__file__).resolve().parents[1] / "caas_tui"
    paths = sorted(pkg.rglob("*.py"))[::7]
    return [ast.parse(_ODD, type_comments=True), *(ast.parse(p.read_text(encoding="utf-8")) for p in paths)]


def test_learnt_child_fields_read_what_the_generic_scan_reads() -> None:
    seen: set[type] = set()
    for tree in _trees():
        for node in ast.walk(tree):
            seen.add(type(node))
            assert child_nodes(node) == _generic(node)
            expected = [n for n in ast.walk(node) if n is node or isinstance(n, _BLOCKS)]
            if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.Module):
                assert walk_statements(node) == expected
    assert {ast.Dict, ast.Global, ast.MatchClass, ast.MatchMapping, ast.TryStar, ast.JoinedStr} <= seen
    # the readable signatures were used, not the fallback
    assert all(how != FIELD_ANY for cls in seen for _, how in child_fields(cls))
    assert child_fields(ast.Name) == () and child_fields(ast.Constant) == ()
    assert child_fields(ast.Dict) == (("keys", FIELD_MANY), ("values", FIELD_MANY))
    assert child_fields(ast.Attribute) == (("value", FIELD_ONE),)


def test_a_class_whose_signature_cannot_be_read_is_scanned_generically() -> None:
    class Odd(ast.expr):
        """not an ASDL line"""

        _fields = ("left", "names", "right")

    node = Odd()
    node.left, node.names, node.right = ast.Name("a", ast.Load()), ["x", ast.Name("b", ast.Load())], ast.Load()
    assert [how for _, how in child_fields(Odd)] == [FIELD_ANY] * 3
    assert child_nodes(node) == [node.left, node.names[1]]


def _src(text: str, kind: str) -> SourceFile:
    path = "pkg/mod.py" if kind == "code" else "tests/test_mod.py"
    return SourceFile(path, kind, "python", text, 0.0, hashlib.sha256(text.encode()).hexdigest(), len(text))  # type: ignore[arg-type]


def test_the_inlined_walk_records_names_calls_and_typed_locals() -> None:
    code = textwrap.dedent('''
        def run(scene, n):
            box = Box(size=DEFAULT)
            table = {**extra, "a": Scene.make(n).state, None: helper}
            return box
    ''')
    # As the walk before the shortcuts recorded them (order included: it is the walk's order).
    expected = {
        "code": [("Box", 3, True), ("DEFAULT", 3, False), ("Scene.make", 4, True)],
        "test": [("Box", 3, True), ("DEFAULT", 3, False), ("helper", 4, False), ("Scene.make().state", 4, False),
                 ("Scene.make", 4, True), ("n", 4, False), ("extra", 4, False), ("box", 5, False)],
    }
    for kind in ("code", "test"):
        frag = python_fragment(_src(code, kind))
        run = next(d for d in frag.defs if d.qualname.endswith(".run"))
        assert [(r.expr, r.line, r.call) for r in run.refs] == expected[kind]
        assert [(t.name, t.type_expr) for t in run.locals] == [("box", "Box()")]
        assert run.returns == "box"
