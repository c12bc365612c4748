"""Names of settings a doc tells the reader to set, against the names the code reads: an
environment variable (```SHOP_TOKEN``` "environment variable", ``export SHOP_TOKEN=...`` in a
shell block) against the ``os.environ`` / ``os.getenv`` keys, and a configuration key ("the
```request_timout``` key") against the project's string literals.

A name the code reads is checked and holds. A name it does not read is contradicted only when
the code reads a near-miss of it (``SHOP_API_TOKEN``): the setting may be a library's
(``HTTP_PROXY``) or a key the code builds at run time, so no near-miss is no answer, and a
project that builds environment names (``os.getenv(PREFIX + name)``) gives none at all.
"""

from __future__ import annotations

import ast
import re
import weakref

from caas_tui.models import Claim, EvidenceSpan
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.project import Project
from caas_tui.review.static.model.resolve import Def

_ENV_CUE = re.compile(r"\b(?:environment\s+variables?|env(?:ironment)?\s+vars?|envvars?)\b", re.IGNORECASE)
_ENV_NAME = re.compile(r"(`+)([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\1")
_EXPORT = re.compile(r"^\s*(?:\$\s+)?(?:export|set|setenv)\s+([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=|\s|$)", re.MULTILINE)
_SHELL = re.compile(r"code block \((?:bash|sh|shell|console|zsh|shell-session|env|dotenv)\)", re.IGNORECASE)
_KEY_CUE = re.compile(r"(`+)(?P<name>[a-z][a-z0-9]*(?:[._][a-z0-9]+)+)\1\s+(?:configuration\s+|config\s+|settings?\s+)?"
                      r"(?:key|option|setting|entry|field)\b", re.IGNORECASE)
_ENV_CALLS = frozenset({"os.getenv", "getenv", "os.environ.get", "environ.get", "os.environ.setdefault",
                        "environ.setdefault", "os.environ.pop", "environ.pop"})
_ENV_READS: weakref.WeakKeyDictionary[Project, frozenset[str] | None] = weakref.WeakKeyDictionary()


def env_reads(project: Project) -> frozenset[str] | None:
    """Every environment variable name the project's code reads; None when one is built at run
    time (a read whose key is no string literal), so absence proves nothing."""
    if project in _ENV_READS:
        return _ENV_READS[project]
    names: set[str] = set()
    opaque = False
    for src in project.all_modules():
        assert src.tree is not None
        for node in ast.walk(src.tree):
            key: ast.expr | None = None
            if isinstance(node, ast.Call) and (dotted(node.func) or "") in _ENV_CALLS and node.args:
                key = node.args[0]
            elif isinstance(node, ast.Subscript) and (dotted(node.value) or "") in ("os.environ", "environ"):
                key = node.slice
            elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) \
                    and any((dotted(c) or "") in ("os.environ", "environ") for c in node.comparators):
                key = node.left
            if key is None:
                continue
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                names.add(key.value)
            else:
                opaque = True
    out = None if opaque else frozenset(names)
    _ENV_READS[project] = out
    return out


def shell_block(claim: Claim) -> bool:
    """A shell session or script block (``bash``, ``console``, ``sh``, a ``.env`` file)."""
    return claim.kind == "code" and bool(_SHELL.search(claim.context))


def _env_names(claim: Claim) -> list[str]:
    if claim.kind == "code":
        return _EXPORT.findall(claim.text) if shell_block(claim) else []
    if not _ENV_CUE.search(claim.text):
        return []
    return [m.group(2) for m in _ENV_NAME.finditer(claim.text)]


def check_setting_names(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    findings: list[Finding] = []
    read = env_reads(ctx.project)
    if read:  # a project that reads no environment leaves the doc's variables to libraries
        for name in dict.fromkeys(_env_names(claim)):
            if name in read:
                findings.append(ok(f"the code reads `{name}` from the environment", _site(ctx, name)))
                continue
            near = ctx.nearest(name, set(read))
            if near is not None and near.unambiguous and near_miss(name, near.name):
                findings.append(bad("contradicted", f"the code reads `{name}` from the environment",
                                    f"no code reads `{name}` from the environment; it reads `{near.name}`",
                                    _site(ctx, near.name)))
    if claim.kind != "code":
        literals = ctx.project.string_literals()
        for m in _KEY_CUE.finditer(claim.text):
            name = m.group("name")
            if name in literals:
                findings.append(ok(f"the code uses the key `{name}`", _site(ctx, name)))
                continue
            if ctx.project.symbols_by_short.get(name):
                continue
            near = ctx.nearest(name, {s for s in literals if ("." in s) == ("." in name) and s.islower()})
            if near is not None and near.unambiguous and near_miss(name, near.name):
                findings.append(bad("contradicted", f"the code reads the key `{name}`",
                                    f"no code uses the key `{name}`; did you mean `{near.name}`?", _site(ctx, near.name)))
    return findings


def _site(ctx: ReviewContext, literal: str) -> EvidenceSpan | None:
    """The first function (else module) of the project whose code holds the string ``literal``."""
    for src in ctx.project.all_modules():
        assert src.tree is not None
        if not any(literal in line for line in src.lines):
            continue
        best: Def | None = None
        for node in ast.walk(src.tree):  # breadth first: a later match is nested deeper
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    isinstance(n, ast.Constant) and n.value == literal for n in ast.walk(node)):
                best = Def("function", f"{src.name}.{node.name}", src, node)
        return ctx.evidence(best or Def("module", src.name, src))
    return None


def near_miss(a: str, b: str) -> bool:
    """A misspelling of ``b``: one or two characters apart, the same words in another order, or
    one word more or fewer (``SHOP_TOKEN`` for ``SHOP_API_TOKEN``); a word swapped for another
    (``DATABASE_URL`` for ``DATABASE_HOST``) may well be another setting."""
    words_a, words_b = re.split(r"[._]", a.lower()), re.split(r"[._]", b.lower())
    if sorted(words_a) == sorted(words_b):
        return True
    longer, shorter = (words_a, words_b) if len(words_a) > len(words_b) else (words_b, words_a)
    if len(longer) == len(shorter) + 1 and len(shorter) >= 2 and all(w in longer for w in shorter):
        return True
    if abs(len(a) - len(b)) > 2 or min(len(a), len(b)) < 6:
        return False
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1] <= 2
