"""What a reader's environment has and the sandbox's does not, read from a raise: an environment
variable the doc has the reader set (read with ``os.environ.get`` / ``os.getenv``, so the block gets
``None`` and fails further on), a standard-library name the chosen Python is too old to have
(``copy.replace`` is 3.13's), and a submodule a package binds to ``None`` when its optional
dependency is missing (``try: from pkg import twisted`` / ``except ImportError: twisted = None``).
Either way the run says nothing about the doc: ``unverified``.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from caas_tui.review.execute.session import RaisedError

SANDBOX_VARIABLES = frozenset({"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "MPLBACKEND"})  # sandbox.launch's env
_READERS = frozenset({"os.environ.get", "environ.get", "os.getenv", "getenv", "os.environ.setdefault"})
_CANNOT_IMPORT = re.compile(r"^cannot import name '(\w+)' from '([\w.]+)'")
_MODULE_LACKS = re.compile(r"^module '([\w.]+)' has no attribute '(\w+)'")
_NONE_LACKS = re.compile(r"^'NoneType' object has no attribute '(\w+)'")
_NOT_A_LACK = ("ImportError", "NameError", "SyntaxError")


def doc_sets_variable(name: str, doc_text: str) -> bool:
    """Whether the doc has the reader set the environment variable ``name`` outside Python: an
    ``export``/``set`` in a shell, ``$env:NAME``, ``NAME=value``, or a line naming it an environment variable."""
    n = re.escape(name)
    sets = re.compile(rf"\b(?:export|set|setenv)\s+{n}\b|\$env:{n}\b|(?<![\w.\[\"']){n}=\S|"
                      rf"\benv(?:ironment)?\b.*\b{n}\b|\b{n}\b.*\benv(?:ironment)?\b", re.IGNORECASE)
    return any(sets.search(line) for line in doc_text.split("\n"))


def _dotted(node: ast.expr) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else ""


def _trees(texts: Iterable[str]) -> Iterator[ast.Module]:
    """Each block's syntax tree; a block that does not parse has nothing to read."""
    for text in texts:
        try:
            yield compile(text, "<block>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        except (SyntaxError, ValueError):
            continue

def variables_read(texts: Iterable[str]) -> list[str]:
    """The environment variables the blocks read without requiring them (``os.environ.get("KEY")``,
    ``os.getenv("KEY", None)``): a missing one gives ``None`` or a default instead of raising."""
    out: list[str] = []
    for tree in _trees(texts):
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and _dotted(node.func) in _READERS and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                out.append(node.args[0].value)
    return list(dict.fromkeys(out))


def unset_variable(err: RaisedError, text: str, earlier: Sequence[str], doc_text: str) -> str | None:
    """Why a raise is the sandbox's unset environment: the doc's code reads a variable the doc has the
    reader set outside Python, which the sandbox does not replay, and the error came after."""
    if err.is_a(*_NOT_A_LACK):
        return None
    # what the missing value does: ``None`` meets an operation (``'NoneType' object ...``), or the
    # project refuses it (raised inside a callee of this block)
    from_callee = bool(err.frames) and not err.frames[-1].file.startswith("<block")
    # read here and refused by the project, or read anywhere before and met as ``None``
    reads = variables_read([*earlier, text]) if "NoneType" in err.message else variables_read([text]) if from_callee else []
    unset = [v for v in reads if v not in SANDBOX_VARIABLES and doc_sets_variable(v, doc_text)]
    if not unset:
        return None
    return (f"it reads the environment variable {unset[0]}, which the doc has the reader set outside Python and the "
            f"sandbox does not ({err.text})")


def stdlib_lacks(err: RaisedError) -> str | None:
    """Why a missing standard-library name is the chosen Python's age: a stdlib module without the
    attribute (``module 'copy' has no attribute 'replace'``) or the name imported from it."""
    module, name = None, None
    if err.is_a("AttributeError") and (m := _MODULE_LACKS.match(err.message)):
        module, name = m.group(1), m.group(2)
    elif err.is_a("ImportError") and (m := _CANNOT_IMPORT.match(err.message)):
        name, module = m.group(1), m.group(2)
    if module is None or module.split(".")[0] not in sys.stdlib_module_names:
        return None
    return (f"the chosen Python's standard library has no {module}.{name}; the doc may be written for a newer "
            f"Python ({err.text})")


def _imported(texts: Iterable[str]) -> set[str]:
    names: set[str] = set()
    for tree in _trees(texts):
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def _submodule(root: Path, dotted: str) -> bool:
    """Whether the chain's last name is a module the project ships in a package along it
    (``pkg.sub`` for ``pkg.sub``, or re-exported as ``pkg.api.sub``)."""
    *package, last = dotted.split(".")
    for i in range(1, len(package) + 1):
        rel = Path(*package[:i], last)
        if any((b / rel).is_dir() or (b / rel.with_suffix(".py")).is_file() for b in (root, root / "src")):
            return True
    return False


def optional_missing(err: RaisedError, text: str, earlier: Sequence[str], root: Path) -> str | None:
    """Why ``'NoneType' object has no attribute 'X'`` is a missing optional dependency: the block
    reaches ``X`` through ``pkg.sub`` (``pkg`` imported), a submodule the project ships, which the
    package set to ``None`` because what ``pkg.sub`` needs is not installed."""
    m = _NONE_LACKS.match(err.message) if err.is_a("AttributeError") else None
    if m is None or not err.frames or not err.frames[-1].file.startswith("<block"):
        return None
    chains = re.findall(rf"\b([A-Za-z_]\w*(?:\.\w+)+)\.{re.escape(m.group(1))}\b", text)
    modules = _imported([*earlier, text])
    found = next((c for c in chains if c.split(".")[0] in modules and _submodule(root, c)), None)
    if found is None:
        return None
    return (f"{found} is None here: the package leaves it unset when an optional dependency is not installed "
            f"in the chosen Python ({err.text})")


_NO_TERMINAL = (6, 25)  # ENXIO, ENOTTY: no controlling terminal (``os.getlogin()``, ``getpass``)


def sandbox_lacks(err: RaisedError) -> str | None:
    """Why an error is what the sandbox lacks rather than the doc's: keyboard input (stdin is closed,
    whoever calls ``input()``), a terminal, a locale or a time zone not installed, the project not
    installed as a distribution (``importlib.metadata``)."""
    if err.is_a("EOFError") and "EOF when reading a line" in err.message:
        return f"it waits for keyboard input; stdin is closed ({err.text})"
    if err.is_a("OSError") and err.errno in _NO_TERMINAL:
        return f"there is no terminal in the sandbox ({err.text})"
    if err.is_a("ZoneInfoNotFoundError") or (err.type == "Error" and err.module == "locale"):
        return f"the sandbox's Python lacks that time zone or locale ({err.text})"
    if err.is_a("PackageNotFoundError"):
        return f"the project is not installed as a distribution in the chosen Python ({err.text})"
    return None


def ellipsis_placeholder(text: str, upto: int | None = None) -> bool:
    """Whether the block (its 1-based lines up to ``upto``) passes ``...`` where a value goes, as a
    call's argument or a name's value (``Client(api_key=...)``, ``config = ...``): a reader fills it in."""
    try:
        tree = compile(text, "<block>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except (SyntaxError, ValueError):
        return False

    def is_dots(node: ast.expr | None) -> bool:
        return isinstance(node, ast.Constant) and node.value is Ellipsis and (upto is None or node.lineno <= upto)
    # not inside a class or a function: there ``...`` is a body, a default or a marker (``Field(...)``)
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.Call) and any(is_dots(a) for a in [*node.args, *(k.value for k in node.keywords)]):
            return True
        if isinstance(node, ast.Assign | ast.AnnAssign) and is_dots(node.value):
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def _tree(text: str) -> ast.Module | None:
    try:
        tree = compile(text, "<block>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except (SyntaxError, ValueError):
        return None
    return tree if isinstance(tree, ast.Module) else None


def left_unset(text: str, line: int | None) -> frozenset[str]:
    """The names a block that stopped at 0-based ``line`` leaves half set up: the objects the raising
    statement worked on (``client`` of ``client.connect(path)``) and what the statements after it bind."""
    tree = _tree(text)
    if tree is None or line is None:
        return frozenset()
    out: set[str] = set()
    for stmt in tree.body:
        end = stmt.end_lineno or stmt.lineno
        if stmt.lineno <= line + 1 <= end:
            out |= {n.value.id for n in ast.walk(stmt) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
        elif stmt.lineno > line + 1:
            out |= {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return frozenset(out)


def reads_any(text: str, names: frozenset[str]) -> bool:
    tree = _tree(text)
    return tree is not None and any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in names
                                    for n in ast.walk(tree))
