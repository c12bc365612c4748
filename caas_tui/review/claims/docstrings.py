"""Python docstrings -> blocks: prose, code (doctests) and one ``field`` block per
``:param:`` / ``Args:`` / ``Returns`` / ``Raises`` entry, in Google, NumPy or Sphinx style.

Field claims get a canonical text so reviewers can tell which section an entry came
from: Sphinx entries as written (``:param tol: ...``); Google and NumPy entries as
``<Section>: <entry>`` (``Args: tol (float): ...``). ``parse_field`` reads both back.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass

from caas_tui.ingest import module_name
from caas_tui.review.claims.blocks import Block, Line
from caas_tui.review.claims.rst import parse_lines

PARAM_SECTIONS = frozenset(
    {"args", "arguments", "parameters", "params", "keyword args", "keyword arguments", "kwargs",
     "other parameters", "keyword parameters"}
)
RETURN_SECTIONS = frozenset({"returns", "return", "yields", "yield"})
RAISE_SECTIONS = frozenset({"raises", "raise", "exceptions", "throws", "except"})
ATTR_SECTIONS = frozenset({"attributes", "attrs"})
FIELD_SECTIONS = PARAM_SECTIONS | RETURN_SECTIONS | RAISE_SECTIONS | ATTR_SECTIONS
PROSE_SECTIONS = frozenset(
    {"example", "examples", "note", "notes", "warning", "warnings", "see also", "references", "todo",
     "methods", "usage", "tip", "hint", "important", "caution"}
)
_ALL_SECTIONS = FIELD_SECTIONS | PROSE_SECTIONS
_GOOGLE_HEAD = re.compile(r"^(\s*)([A-Za-z][A-Za-z ]*?)\s*:\s*$")
_DASHES = re.compile(r"^\s*-{3,}\s*$")
_SPHINX = re.compile(r"^(\s*):([A-Za-z]+)((?:\s+[^:]+?)?):(?:\s+(.*)|\s*)$")
SPHINX_ROLES = {
    "param": "param", "parameter": "param", "arg": "param", "argument": "param", "key": "param",
    "keyword": "param", "kwarg": "param", "kwparam": "param", "type": "type", "returns": "returns",
    "return": "returns", "rtype": "rtype", "raises": "raises", "raise": "raises", "except": "raises",
    "exception": "raises", "yields": "yields", "yield": "yields", "ytype": "ytype", "var": "attribute",
    "ivar": "attribute", "cvar": "attribute", "vartype": "vartype",
}
_GOOGLE_PARAM = re.compile(r"^(\*{0,2}[A-Za-z_][\w]*(?:\s*,\s*\*{0,2}[A-Za-z_]\w*)*)\s*(?:\(([^)]*)\))?\s*:(?:\s+(.*)|\s*)$")
_GOOGLE_RAISE = re.compile(r"^([A-Za-z_][\w.]*)\s*:(?:\s+(.*)|\s*)$")
_TYPE_LIKE = re.compile(r"^[\w\[\], .|`~:]+$")


@dataclass(frozen=True, slots=True)
class FieldFact:
    role: str  # param | type | returns | rtype | raises | yields | ytype | attribute | vartype
    name: str | None  # parameter / exception / attribute name(s)
    type: str | None
    desc: str


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _norm(text: str) -> str:
    return " ".join(text.split())


def _looks_typed(text: str) -> bool:
    text = text.strip()
    if not text or len(text) > 60 or not _TYPE_LIKE.match(text):
        return False
    words = re.sub(r"\[[^\]]*\]", "", text).split()
    return len(words) == 1 or (len(words) == 3 and words[1] in ("of", "or"))


def parse_field(text: str) -> FieldFact | None:
    """The structure of a field claim's text, or None if it is not one."""
    text = _norm(text)
    m = _SPHINX.match(text)
    if m and m.group(2).lower() in SPHINX_ROLES:
        role = SPHINX_ROLES[m.group(2).lower()]
        middle = (m.group(3) or "").strip()
        desc = (m.group(4) or "").strip()
        if role in ("param", "attribute"):
            parts = middle.split()
            name = parts[-1] if parts else None
            ftype = " ".join(parts[:-1]) or None
            return FieldFact(role, name, ftype, desc)
        if role in ("type", "vartype"):
            return FieldFact(role, middle or None, desc or None, desc)
        if role in ("rtype", "ytype"):
            return FieldFact(role, None, desc or None, desc)
        if role == "raises":
            return FieldFact(role, middle or None, None, desc)
        return FieldFact(role, None, None, desc)
    head, sep, rest = text.partition(": ")
    if not sep:
        head, rest = text.rstrip(":"), ""
    key = head.strip().lower()
    rest = rest.strip()
    if key in PARAM_SECTIONS or key in ATTR_SECTIONS:
        role = "param" if key in PARAM_SECTIONS else "attribute"
        pm = _GOOGLE_PARAM.match(rest)
        if pm:
            return FieldFact(role, pm.group(1).replace(" ", ""), (pm.group(2) or "").strip() or None, (pm.group(3) or "").strip())
        return FieldFact(role, rest.split()[0] if rest else None, None, rest)
    if key in RETURN_SECTIONS:
        role = "returns" if key.startswith("return") else "yields"
        tm = re.match(r"^(.{1,60}?):(?:\s+(.*)|\s*)$", rest)
        if tm and _looks_typed(tm.group(1)):
            return FieldFact(role, None, tm.group(1).strip(), (tm.group(2) or "").strip())
        return FieldFact(role, None, None, rest)
    if key in RAISE_SECTIONS:
        rm = _GOOGLE_RAISE.match(rest)
        if rm:
            return FieldFact("raises", rm.group(1), None, (rm.group(2) or "").strip())
        return FieldFact("raises", None, None, rest)
    return None


# -- docstring -> blocks ------------------------------------------------------------------
def _section_end(lines: list[Line], i: int, head_indent: int) -> int:
    while i < len(lines) and (not lines[i].text.strip() or _indent(lines[i].text) > head_indent):
        i += 1
    while i > 0 and i - 1 < len(lines) and not lines[i - 1].text.strip():
        i -= 1
    return i


def _numpy_head(lines: list[Line], i: int) -> str | None:
    if i + 1 < len(lines) and _DASHES.match(lines[i + 1].text):
        name = lines[i].text.strip()
        if name.lower() in _ALL_SECTIONS:
            return name
    return None


def _google_entries(body: list[Line], key: str) -> list[list[Line]]:
    """Split a Google section body into entries (continuations are deeper or unmatched)."""
    content = [ln for ln in body if ln.text.strip()]
    if not content:
        return []
    if key in RETURN_SECTIONS:
        return [content]
    base = min(_indent(ln.text) for ln in content)
    start = _GOOGLE_RAISE if key in RAISE_SECTIONS else _GOOGLE_PARAM
    entries: list[list[Line]] = []
    for line in content:
        at_base = _indent(line.text) == base
        if at_base and (start.match(line.text.strip()) or not entries):
            entries.append([line])
        else:
            entries[-1].append(line)
    return entries


def _numpy_entries(body: list[Line], header: str) -> list[tuple[list[Line], str]]:
    content = [ln for ln in body if ln.text.strip()]
    if not content:
        return []
    base = min(_indent(ln.text) for ln in content)
    groups: list[list[Line]] = []
    for line in content:
        if _indent(line.text) == base or not groups:
            groups.append([line])
        else:
            groups[-1].append(line)
    key = header.lower()
    out: list[tuple[list[Line], str]] = []
    for group in groups:
        head = group[0].text.strip()
        desc = _norm(" ".join(ln.text for ln in group[1:]))
        name, _, ftype = (p.strip() for p in head.partition(" : ")) if " : " in head else (head, "", "")
        if key in RETURN_SECTIONS:
            ftype, name = (ftype, name) if ftype else (name, "")
            text = f"{header}: {ftype}: {name + ', ' if name else ''}{desc}".rstrip(": ")
        elif key in RAISE_SECTIONS:
            text = f"{header}: {name}: {desc}".rstrip(": ")
        else:
            text = f"{header}: {name}" + (f" ({ftype})" if ftype else "") + (f": {desc}" if desc else ":")
        out.append((group, text))
    return out


def docstring_blocks(lines: list[Line], owner: str) -> list[Block]:
    """Blocks of one cleaned docstring; ``owner`` is the qualified symbol it documents."""
    blocks: list[Block] = []
    prose: list[Line] = []

    def flush() -> None:
        if prose:
            blocks.extend(parse_lines(list(prose), owner))
            prose.clear()

    def field(entry: list[Line], text: str) -> None:
        blocks.append(Block("field", tuple(entry), owner, _norm(text), f"{owner}: {_norm(text)}"))

    i, n = 0, len(lines)
    while i < n:
        text = lines[i].text
        numpy = _numpy_head(lines, i)
        google = _GOOGLE_HEAD.match(text)
        sphinx = _SPHINX.match(text)
        if numpy:
            flush()
            j = i + 2
            while j < n and not _numpy_head(lines, j):
                j += 1
            body = lines[i + 2 : j]
            if numpy.lower() in FIELD_SECTIONS:
                for entry, canon in _numpy_entries(body, numpy):
                    field(entry, canon)
            else:
                blocks.extend(parse_lines(body, owner))
            i = j
        elif google and google.group(2).lower() in _ALL_SECTIONS and i + 1 < n:
            flush()
            head, key = google.group(2), google.group(2).lower()
            j = _section_end(lines, i + 1, _indent(text))
            body = lines[i + 1 : j]
            if key in FIELD_SECTIONS:
                for entry in _google_entries(body, key):
                    field(entry, f"{head}: " + " ".join(ln.text.strip() for ln in entry))
            else:
                cut = min((_indent(ln.text) for ln in body if ln.text.strip()), default=0)
                blocks.extend(parse_lines([Line(ln.no, ln.text[cut:]) for ln in body], owner))
            i = max(j, i + 1)
        elif sphinx and sphinx.group(2).lower() in SPHINX_ROLES:
            flush()
            ind = _indent(text)
            j = i + 1
            while j < n and lines[j].text.strip() and _indent(lines[j].text) > ind:
                j += 1
            field(lines[i:j], " ".join(ln.text.strip() for ln in lines[i:j]))
            i = j
        else:
            prose.append(lines[i])
            i += 1
    flush()
    return blocks


def _doc_lines(node: ast.Expr) -> list[Line]:
    """The docstring's cleaned lines, each mapped to its source line."""
    value: str = node.value.value  # type: ignore[attr-defined]
    raw = value.expandtabs().split("\n")
    start, end = node.lineno, node.end_lineno or node.lineno
    exact = len(raw) == end - start + 1
    numbered = [Line(min(start + k, end) if exact else start, t) for k, t in enumerate(raw)]
    first = Line(numbered[0].no, numbered[0].text.strip())
    rest = numbered[1:]
    widths = [len(ln.text) - len(ln.text.lstrip()) for ln in rest if ln.text.strip()]
    cut = min(widths) if widths else 0
    out = [first] + [Line(ln.no, ln.text[cut:].rstrip() if ln.text.strip() else "") for ln in rest]
    while out and not out[-1].text.strip():
        out.pop()
    while out and not out[0].text.strip():
        out.pop(0)
    return out


def _docstring_expr(node: ast.AST) -> ast.Expr | None:
    body = getattr(node, "body", None)
    if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)):
        return body[0]
    return None


def python_blocks(path: str, text: str) -> list[Block]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    blocks: list[Block] = []

    def visit(node: ast.AST, qual: str, descend: bool) -> None:
        expr = _docstring_expr(node)
        if expr is not None:
            lines = _doc_lines(expr)
            if lines:
                blocks.extend(docstring_blocks(lines, qual))
        if not descend:
            return
        for child in scope_defs(getattr(node, "body", [])):
            visit(child, f"{qual}.{child.name}", isinstance(child, ast.ClassDef))

    visit(tree, module_name(path), True)
    return blocks


def scope_defs(body: list[ast.stmt]) -> list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    """Defs of a scope, looking through ``if``/``try`` blocks that don't open a scope."""
    out: list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = []
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append(stmt)
        elif isinstance(stmt, (ast.If, ast.Try)):
            for inner in (stmt.body, stmt.orelse, getattr(stmt, "finalbody", []),
                          *(h.body for h in getattr(stmt, "handlers", []))):
                out.extend(scope_defs(inner))
    return out
