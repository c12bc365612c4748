"""API names a guide uses that the project binds nowhere: a function or decorator that was
removed (``@environmentfilter`` in an example, "the ``@asynchronous`` decorator").

``names`` leaves a bare lower-case code span alone (it may be a variable, a parameter, a key)
and ``prosenames`` judges only roles. Written as a decorator (``@name``, in a code block or a code
span), the name is an API object (a guide's "the ``render`` function" may be the reader's own
function or another library's, so words alone do not count). Such a name that
no module, class, function, assignment, parameter or string of the project binds, that the
doc neither defines nor imports, and that is no builtin or standard library name, cannot be
used as the guide says.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import keyword
import re
import sys
import weakref

from caas_tui.models import Claim
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding
from caas_tui.review.static.model.project import Project
from caas_tui.review.static.naming.prosenames import undefined_name

_SPAN = re.compile(r"(?<!`)``?(?P<at>@)?(?P<name>[A-Za-z_]\w*)(?P<call>\(\))?``?(?!`)")
# a decorator line that decorates something (an IPython ``@verbatim`` line decorates nothing)
_DECORATOR_LINE = re.compile(
    r"^[ \t]*@(?P<name>[A-Za-z_]\w*)[ \t]*(?:\([^\n]*\))?[ \t]*\n(?=(?:[ \t]*@[^\n]*\n)*[ \t]*(?:async[ \t]+def|def|class)\b)",
    re.MULTILINE)
# stdlib decorators examples use without an import line
_COMMON = frozenset({"dataclass", "wraps", "cache", "lru_cache", "cached_property", "contextmanager",
                     "asynccontextmanager", "total_ordering", "singledispatch", "abstractmethod", "overload",
                     "final", "override", "fixture", "coroutine"})
_BOUND: weakref.WeakKeyDictionary[Project, frozenset[str]] = weakref.WeakKeyDictionary()


def bound_names(project: Project) -> frozenset[str]:
    """Every name the project's code binds or spells anywhere: definitions, assignments,
    attributes, parameters, imports, identifier-like strings. "Not in here" is a safe negative."""
    cached = _BOUND.get(project)
    if cached is not None:
        return cached
    names: set[str] = set(project.symbols_by_short) | set(project.string_literals())
    for src in project.all_modules():
        names.update(src.bindings)
        names.update(src.name.split("."))
        assert src.tree is not None
        for node in ast.walk(src.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[-1])
    out = frozenset(names)
    _BOUND[project] = out
    return out


# Standard library modules whose functions guides name bare ("the ``urlencode`` function").
_STDLIB_MODULES = (
    "asyncio", "base64", "collections", "contextlib", "copy", "datetime", "email.utils", "functools", "gzip",
    "hashlib", "hmac", "html", "http.client", "http.cookies", "http.server", "inspect", "io", "itertools", "json",
    "logging", "math", "mimetypes", "operator", "os", "os.path", "pathlib", "pickle", "random", "re", "secrets",
    "shutil", "socket", "ssl", "string", "subprocess", "sys", "textwrap", "threading", "time", "typing",
    "unittest", "urllib.parse", "urllib.request", "uuid", "warnings", "wsgiref.util", "zlib",
)
_STDLIB_NAMES: set[str] = set()


def stdlib_names() -> set[str]:
    """Public names of ``_STDLIB_MODULES`` (``urlencode``, ``sleep``, ``dumps``)."""
    if not _STDLIB_NAMES:
        for mod_name in _STDLIB_MODULES:
            mod = importlib.import_module(mod_name)
            _STDLIB_NAMES.update(n for n in vars(mod) if not n.startswith("_"))
    return _STDLIB_NAMES


# directives that describe an object by hand (``autofunction`` imports it: it defines nothing)
_DEFINING = r"(?:function|class|exception|data|decorator|method|attribute|staticmethod|classmethod)"


def doc_has(ctx: ReviewContext, claim: Claim, name: str) -> bool:
    """The doc defines or imports ``name`` itself (an example's ``def name``, ``import``, a directive)."""
    text = "\n".join(ctx.doc_lines(claim.doc_path))
    n = re.escape(name)
    return re.search(
        rf"\b(?:def|class)\s+{n}\b|(?<![\w.]){n}\s*=[^=]|\bimport\s+[^\n]*\b{n}\b|\bas\s+{n}\b"
        rf"|^\s*\.\.\s+(?:py:)?{_DEFINING}::\s*(?:[\w.]+\.)?{n}\b", text, re.MULTILINE) is not None


def _unknown_api_name(ctx: ReviewContext, claim: Claim, name: str) -> bool:
    if keyword.iskeyword(name) or hasattr(builtins, name) or name in sys.stdlib_module_names or name in _COMMON \
            or name in stdlib_names():
        return False
    if name.startswith("_") or name in bound_names(ctx.project):
        return False
    return not doc_has(ctx, claim, name)


def check_unbound_api_names(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if not ctx.project.packages or claim.doc_path.endswith((".py", ".pyi")):
        return []
    names: list[str] = []
    if claim.kind == "code":
        names = [m.group("name") for m in _DECORATOR_LINE.finditer(claim.text)]
    else:
        # only ``@name``: "the ``render`` function" may be the reader's own or another library's
        names = [m.group("name") for m in _SPAN.finditer(claim.text) if m.group("at")]
    findings: list[Finding] = []
    for name in dict.fromkeys(names):
        if _unknown_api_name(ctx, claim, name):
            findings.append(undefined_name(ctx, claim, name, "so it cannot be used as written"))
    return findings
