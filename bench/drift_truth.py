"""Ground truth for ``bench/drift.py``: griffe's breaking changes between two releases, and
which doc claims mention one (see ``mentions``)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from caas_tui.models import Claim, Verdict


@dataclass(frozen=True, slots=True)
class Package:
    dist: str
    imports: tuple[str, ...]  # top-level import packages compared by griffe
    old: str
    new: str
    why: str


def package_dir(sdist: Path, name: str) -> Path:
    for cand in (sdist / "src" / name, sdist / name):
        if (cand / "__init__.py").is_file():
            return cand
    raise FileNotFoundError(f"{sdist}: no package {name}")


# -- ground truth ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Change:
    kind: str  # griffe's BreakageKind value
    path: str  # the changed object (a function for parameter changes)
    key: str  # the name a doc uses for it: ``Class.method``, ``func`` or ``Class``
    param: str | None  # the parameter, for parameter changes
    text: str  # griffe's one-line explanation, without colours


def breaking_changes(old_sdist: Path, new_sdist: Path, pkg: Package) -> tuple[list[Change], dict[str, Any]]:
    """griffe's breaking changes from the old to the new release, and the new release's modules."""
    import griffe

    logging.getLogger("griffe").setLevel(logging.CRITICAL)
    out: list[Change] = []
    olds, news = _griffe_modules(old_sdist, pkg), _griffe_modules(new_sdist, pkg)
    for name in pkg.imports:
        old, new = olds[name], news[name]
        for b in griffe.find_breaking_changes(old, new):
            kind = b.kind.value
            if _not_an_api_change(kind, b.obj.name, b.old_value, b.new_value):
                continue
            if kind == "Public object was removed" and still_inherited(b.obj.path, news):
                continue
            param: str | None
            if kind == "Base class was removed":
                # only a claim naming a removed base is about it: ``Schema`` is still ``Schema``
                param = ",".join(str(x).rsplit(".", 1)[-1] for x in b.old_value or [])
            elif "arameter" in kind:
                param = getattr(b.old_value, "name", None) or getattr(b.new_value, "name", None)
            else:
                param = None
            out.append(Change(kind, b.obj.path, doc_key(b.obj.path, name), param,
                              re.sub(r"\x1b\[[0-9;]*m", "", b.explain()).split(": ", 1)[-1]))
    return out, news


def _not_an_api_change(kind: str, name: str, old: Any, new: Any) -> bool:
    """griffe findings that no documentation reader can observe."""
    if name.startswith("__") and name.endswith("__") and name not in ("__init__", "__call__"):
        return True  # ``__doc__``, ``__all__``, ``__version__`` bookkeeping
    if kind == "Base class was removed" and [str(x) for x in (old or [])] == ["object"]:
        return True  # py2-era ``class X(object)`` -> ``class X:`` is the same class
    if kind == "Public object points to a different kind of object" and {_kind(old), _kind(new)} <= _CALLED:
        return True  # ``f = Renderer()``, a function that became a class: still called the same way
    # an annotation that moved to a stub or was dropped is not a new return type
    return kind == "Return types are incompatible" and new is None


_CALLED = {"function", "class", "attribute"}


def _kind(value: Any) -> str:
    kind = getattr(value, "kind", value)
    return str(getattr(kind, "value", kind))


def _griffe_modules(sdist: Path, pkg: Package) -> dict[str, Any]:
    """All of ``pkg``'s top-level packages in one loader: ``attrs`` re-exports ``attr``."""
    import griffe

    # griffe skips namespace subpackages (``flask/sansio/`` has no ``__init__.py``), so members
    # inherited from a class defined there would read as removed: mark them for the load only.
    markers = [d / "__init__.py" for n in pkg.imports for d in package_dir(sdist, n).rglob("*")
               if d.is_dir() and not (d / "__init__.py").exists() and any(d.glob("*.py"))]
    for marker in markers:
        marker.write_text("", encoding="utf-8")
    try:
        loader = griffe.GriffeLoader(search_paths=[str(package_dir(sdist, n).parent) for n in pkg.imports],
                                     allow_inspection=False)
        modules = {name: loader.load(name) for name in pkg.imports}
        loader.resolve_aliases(implicit=True, external=False)
    finally:
        for marker in markers:
            marker.unlink()
    return modules


def still_inherited(change_path: str, news: dict[str, Any]) -> bool:
    """A member griffe calls removed that the newer class still has through a base class."""
    parent, _, member = change_path.rpartition(".")
    top, _, rest = parent.partition(".")
    try:
        cls = news[top][rest] if rest else None
        return cls is not None and cls.is_class and member in cls.all_members
    except Exception:  # an alias griffe cannot resolve: keep the change
        return False


def doc_key(path: str, top: str) -> str:
    """The part of a dotted path a guide writes: drop the module path, keep ``Class.attr``."""
    parts = path.split(".")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    tail = [p for p in parts[1:] if p[:1].isupper()]
    if tail:
        start = parts.index(tail[0])
        return ".".join(parts[start:])
    return parts[-1] if len(parts) > 1 else top


def mentions(claim: Claim, change: Change, foreign: frozenset[str] = frozenset(),
             exists: Callable[[str], bool] = lambda _: False) -> bool:
    """True when ``claim`` names the changed object (and the parameter, for parameter changes).

    A ``Class.attr`` key matches a symbol that is it or ends in ``.Class.attr``, or the same
    words in the text. A module-level ``name`` matches only a symbol: ``name`` itself or
    ``name`` qualified by its module path (``jinja2.ext.autoescape``, ``ext.autoescape``),
    so ``Environment.autoescape`` is not the removed ``jinja2.ext.autoescape`` extension,
    or the bare word in a code span; not when the doc imports that name from another
    package, and a removed object not when the name as written still resolves (it moved).
    For a parameter change (and a removed base class) the parameter (base) must also be
    written as code: one of the claim's symbols, or a word in one of its code spans.
    """
    key, path = change.key, change.path
    spans = [span for span in claim.code_spans if not _LINK.search(span)]
    if change.text.startswith("<module>"):  # a removed module: named by its dotted path, not a bare word
        return any(sym == path or ("." in sym and path.endswith("." + sym)) for sym in claim.symbols)
    if "." in key:  # ``Class.attr``: any qualification of it
        named = any(sym in (key, path) or sym.endswith("." + key) for sym in claim.symbols)
        named = named or re.search(rf"(?<![\w]){re.escape(key)}(?!\w)", claim.text) is not None
    else:  # a module-level name: bare, or qualified by (a suffix of) its own module path
        modules = path.split(".")[:-1]
        prefixes = {".".join(modules[i:]) for i in range(len(modules))} | {modules[0]}
        removed = change.kind == "Public object was removed"

        def names_it(sym: str) -> bool:
            if sym == key:  # bare: not when the doc imports that name from elsewhere or it is still exported
                return key not in foreign and not (removed and exists(f"{modules[0]}.{key}"))
            qualified = sym.rsplit(".", 1)[0] in prefixes and sym.endswith("." + key)
            return qualified and not (removed and exists(sym))  # moved, still importable as written

        named = any(names_it(sym) for sym in claim.symbols) or any(
            refers(span, key) for span in spans
        ) and names_it(key)
    if not named:
        return False
    if change.param is None:
        return True
    if change.kind == "Parameter default was changed" and not re.search(r"\bdefault", claim.text, re.IGNORECASE):
        return False  # a call that passes the parameter, or a text that never states its default, is unaffected
    # a parameter change concerns a claim that writes the parameter, not one whose prose uses the word;
    # a parameter that only moved or became keyword-only still works when passed by keyword
    by_keyword_ok = change.kind in ("Positional parameter was moved", "Parameter kind was changed")
    tail = r"(?!\w)(?!\s*=[^=])" if by_keyword_ok else r"(?!\w)"
    # and a parameter that only moved concerns a call passing it, not its name in a sentence
    calls = [span for span in spans if "(" in span] if by_keyword_ok else spans
    return any(
        p in claim.symbols and not by_keyword_ok
        or any(re.search(rf"(?<![\w.]){re.escape(p)}{tail}", span) for span in calls)
        for p in change.param.split(",")
    )


def refers(span: str, name: str) -> bool:
    """``name`` used in code as a reference to an object: not an attribute (``env.name``), a
    keyword argument (``name=``), the code's own definition (``def name``) or a template tag."""
    for m in re.finditer(rf"(?<![\w.]){re.escape(name)}(?!\w)(?!\s*=[^=])", span):
        before = span[: m.start()]
        if not re.search(r"(?:\b(?:def|class)\s+|\{%-?\s*)$", before):
            return True
    return False


# a reST hyperlink (```long polling <https://...>`_``) is link text, not code
_LINK = re.compile(r"<(?:https?|ftp|mailto):[^>]*>\s*$|^https?://")
IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\s+([^\n#]+)|import\s+([\w., ]+))", re.MULTILINE)


def foreign_names(pairs: Sequence[tuple[Claim, Verdict]], tops: Sequence[str]) -> dict[str, frozenset[str]]:
    """Per doc, the bare names its code imports from other packages (``from pprint import pprint``)."""
    out: dict[str, set[str]] = {}
    for claim, _ in pairs:
        for m in IMPORT.finditer(claim.text):
            module = m.group(1) or ""
            if module.split(".")[0] in tops:
                continue
            names = m.group(2) if m.group(1) else m.group(3)
            for part in re.split(r"[,()\s]+", names or ""):
                word = part.split(" as ")[0].strip().split(".")[-1]
                if word.isidentifier():
                    out.setdefault(claim.doc_path, set()).add(word)
    return {doc: frozenset(names) for doc, names in out.items()}


def resolver(modules: dict[str, Any]) -> Callable[[str], bool]:
    """Whether a dotted name as a doc writes it still resolves in the newer release."""
    def exists(dotted: str) -> bool:
        top, _, rest = dotted.partition(".")
        if top not in modules:
            return False
        try:
            obj = modules[top][rest] if rest else modules[top]
            return obj is not None
        except Exception:  # griffe raises KeyError or alias-resolution errors: either way, not there
            return False
    return exists
