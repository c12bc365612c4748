"""Mutation audit of the static reviewer's ``consistent`` label (a script, issue 14).

    python bench/mutations.py [--root PROJECT ...] [--json] [--list]

A ``consistent`` label promises that everything checkable in the claim was checked and held.
This audit tests the promise where no manifest can: it takes every claim the static reviewer
labels ``consistent`` in a dev project's docs (README, ``docs/``, the package's docstrings),
makes each FALSE against the code with mechanical mutations generated from the project's own
facts (exception classes, parameters, classes, sibling callables), re-reviews the doc with just
that claim's text replaced, and counts the mutated claim's label:

- flagged (contradicted / incomplete): the check saw the change;
- unverified: honest, the claim is no longer called checked;
- consistent: an over-claim, a coverage hole (the reviewer called something checked it did not check).

Mutation kinds: ``exception`` (a stated exception swapped for an unrelated project or builtin
one), ``none-raise`` ("returns None" <-> "raises KeyError"), ``number-x2`` / ``number-plus1`` /
``unit`` (a stated number, or ms <-> s), ``param-swap`` (a parameter name for another parameter
of the same callable), ``return-type`` (a stated return class for another project class),
``negate`` (never/always, is/is not, does/does not, can/cannot), ``result-swap`` (a stated
``True``/``False`` result for the other), ``method-move`` (``C.m`` on a
sibling class that lacks ``m``), ``callable-swap`` (a callable for a sibling with another
signature). Rates are reported per kind and per doc form (prose, field, code, table, role).

A generated mutation can leave a claim true (a number in an example sentence, a swapped
exception the code also raises): an over-claim is a candidate hole, read its rationale.
Only the dev projects are audited; held-out projects are refused (their per-claim output
must never be printed). Results go to ``bench/results/mutations.json``.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import json
import re
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims.docstrings import parse_field
from caas_tui.review.claims.extract import DOC_EXTS, extract_claims_counted
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.reviewer import context_for
from caas_tui.review.textutil import read_text

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results" / "mutations.json"
DEV = ("sample_project", "demo_projects/pipekit", "demo_projects/toolbelt", "demo_projects/moneta")
FLAGS = ("contradicted", "incomplete")
SEVERITY = ("contradicted", "incomplete", "unverified", "stale", "consistent")
BUILTIN_EXCS = ("ValueError", "TypeError", "KeyError", "RuntimeError", "LookupError", "OSError")


# -- the project's facts, read with ``ast`` (independent of the reviewer under audit) -------------
@dataclass
class ClassFacts:
    name: str
    module: str
    bases: tuple[str, ...]
    members: dict[str, tuple[str, ...]] = field(default_factory=dict)  # method -> parameter names
    attrs: set[str] = field(default_factory=set)


@dataclass
class Facts:
    classes: dict[str, ClassFacts] = field(default_factory=dict)
    functions: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)  # name -> (module, params)

    def ancestors(self, name: str) -> set[str]:
        seen: set[str] = set()
        todo = [name]
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            cls = self.classes.get(n)
            if cls is not None:
                todo += list(cls.bases)
            else:
                obj = getattr(builtins, n, None)
                if isinstance(obj, type):
                    seen |= {k.__name__ for k in obj.__mro__}
        return seen

    def is_exception(self, name: str) -> bool:
        return "BaseException" in self.ancestors(name)

    def related(self, a: str, b: str) -> bool:
        return a in self.ancestors(b) or b in self.ancestors(a)

    def exceptions(self) -> list[str]:
        return sorted(n for n in self.classes if self.is_exception(n))

    def plain_classes(self) -> list[str]:
        return sorted(n for n in self.classes if not self.is_exception(n))

    def params_of(self, name: str) -> tuple[str, ...] | None:
        """Parameters of a function, a class's constructor or ``C.m``."""
        if "." in name:
            owner, _, member = name.rpartition(".")
            cls = self.classes.get(owner.rsplit(".", 1)[-1])
            return cls.members.get(member) if cls else None
        if name in self.functions:
            return self.functions[name][1]
        cls = self.classes.get(name)
        return cls.members.get("__init__") if cls else None


def _params(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    a = fn.args
    names = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    return tuple(n for n in names if n not in ("self", "cls"))


def read_facts(root: Path) -> Facts:
    facts = Facts()
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(("tests/", "upstream/", "docs/")) or "/tests/" in rel:
            continue
        try:
            tree = ast.parse(read_text(path))
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
                facts.functions.setdefault(node.name, (rel, _params(node)))
            elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                bases = tuple(b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                              if isinstance(b, (ast.Name, ast.Attribute)))
                cls = facts.classes.setdefault(node.name, ClassFacts(node.name, rel, bases))
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        cls.members[item.name] = _params(item)
                    elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        cls.attrs.add(item.target.id)
                    elif isinstance(item, ast.Assign):
                        cls.attrs |= {t.id for t in item.targets if isinstance(t, ast.Name)}
    return facts


# -- mutations --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mutation:
    kind: str
    old: str  # a regex matched in the claim's doc lines (first match replaced)
    new: str
    said: str  # "KeyError -> ValueError"
    at: int | None = None  # with it, ``old`` is the literal text at this offset of the span

    def apply(self, span: str) -> str:
        if self.at is not None:
            return span[: self.at] + self.new + span[self.at + len(self.old):]
        return re.sub(self.old, lambda _m: self.new, span, count=1)


def _word(name: str) -> str:
    return rf"(?<![\w.]){re.escape(name)}(?![\w])"


_IDENT = re.compile(r"(?<![\w])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_BACKTICKED = re.compile(r"`+~?([A-Za-z_][\w.]*)(?:\(\))?`+")
_NUMBER = re.compile(r"(?<![\w.\-])(\d+(?:\.\d+)?)(?![\w.]|\.\d)")
_STANDARD = re.compile(r"\b(?:ISO|RFC|PEP|IEEE|ECMA|IEC|BCP|UTF|UCS|ANSI|X|CP|Windows)[- ]?$")
_MS = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(\s*)(ms|milliseconds?)\b")
_SEC = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(\s*)(s|secs?|seconds?)\b")
_RETURNS_NONE = re.compile(r"\breturns?\s+(`*)None\1")
_TRUTH = re.compile(r"(?<![\w.])(`*)(True|False)\1(?![\w.])")
_RAISES_EXC = re.compile(r"\braises?\s+(?::(?:py:)?exc:)?(`+)~?[\w.]*(?:Error|Exception)\1")
_NEGATIONS = ((r"\bnever\b", "always"), (r"\balways\b", "never"), (r"\bis not\b", "is"), (r"\bdoes not\b", "does"),
              (r"\bcannot\b", "can"), (r"\bare not\b", "are"), (r"\bis\b", "is not"), (r"\bare\b", "are not"))
_RESULT_LINE = re.compile(r"^\s*(?!>>>|\.\.\.)\S|#\s*(?:->|→|=>|==|returns?\b)")


def doc_form(claim: Claim, span: str) -> str:
    if claim.kind == "code":
        return "code"
    if claim.kind == "field":
        return "field"
    if span.lstrip().startswith("|"):
        return "table"
    if re.search(r":[\w:]+:`", claim.text):
        return "role"
    return "prose"


def _numbers_in(claim: Claim, span: str) -> Iterator[tuple[str, int]]:
    """(number, offset in the span) of stated numbers: in prose any; in a code block
    only on a result line (doctest output, ``# -> 3``), so an example's argument stays."""
    if claim.kind != "code":
        # a number inside an inline example call (```Shape(radius=0.5)```) is an argument, not a statement
        spans = [m.span() for m in re.finditer(r"(`+)[^`]*\(.*?\1", span)]
        for m in _NUMBER.finditer(span):
            # "ISO 4217", "RFC 4180": the name of a standard, not a quantity the code has
            if _STANDARD.search(span[: m.start()]):
                continue
            if not any(a <= m.start() < b for a, b in spans):
                yield m.group(1), m.start(1)
        return
    lines = span.splitlines(keepends=True)
    offset = 0
    for i, line in enumerate(lines):
        prev = lines[i - 1].lstrip() if i else ""
        is_output = prev.startswith((">>>", "...")) and not line.lstrip().startswith((">>>", "...")) and bool(line.strip())
        comment = line.find("#")
        for m in _NUMBER.finditer(line):
            if is_output or (comment >= 0 and m.start() > comment and _RESULT_LINE.search(line[comment:])):
                yield m.group(1), offset + m.start(1)
        offset += len(line)


def _number_mutations(claim: Claim, span: str) -> list[Mutation]:
    out: list[Mutation] = []
    for text, at in _numbers_in(claim, span):
        value = float(text)
        is_int = "." not in text
        doubled = str(int(value * 2) if is_int else value * 2) if value else "1"
        out.append(Mutation("number-x2", text, doubled, f"{text} -> {doubled}", at))
        if is_int:
            out.append(Mutation("number-plus1", text, str(int(value) + 1), f"{text} -> {int(value) + 1}", at))
        break  # the first stated number
    for pat, unit in ((_MS, "s"), (_SEC, "ms")):
        m = pat.search(span) if claim.kind != "code" else None
        if m is not None:
            word = len(m.group(3)) > 2
            new = f"{m.group(1)}{m.group(2)}{('seconds' if unit == 's' else 'milliseconds') if word else unit}"
            out.append(Mutation("unit", re.escape(m.group(0)) + r"\b", new, f"{m.group(0)} -> {new}"))
            break
    return out


def _unrelated(facts: Facts, name: str, pool: Sequence[str], present: set[str]) -> str | None:
    return next((c for c in pool if c != name and c not in present and not facts.related(c, name)), None)


def mutations(claim: Claim, span: str, facts: Facts) -> list[Mutation]:
    text = claim.text
    idents = {m.group(0).rsplit(".", 1)[-1] for m in _IDENT.finditer(text)}
    dotted = {m.group(0) for m in _IDENT.finditer(text)}
    out: list[Mutation] = []
    # exception swapped for an unrelated one (project first, then builtin)
    excs = [n for n in sorted(idents) if n in facts.classes and facts.is_exception(n)
            or isinstance(getattr(builtins, n, None), type) and issubclass(getattr(builtins, n), BaseException)]
    for exc in excs[:1]:
        pool = [*facts.exceptions(), *BUILTIN_EXCS] if exc in facts.classes else [*BUILTIN_EXCS, *facts.exceptions()]
        new = _unrelated(facts, exc, pool, idents)
        if new:
            out.append(Mutation("exception", _word(exc), new, f"{exc} -> {new}"))
    # returns None <-> raises KeyError
    if claim.kind != "code":
        m = _RETURNS_NONE.search(span)
        if m:
            out.append(Mutation("none-raise", re.escape(m.group(0)), f"raises {m.group(1)}KeyError{m.group(1)}",
                                "returns None -> raises KeyError"))
        m = _RAISES_EXC.search(span)
        if m:
            out.append(Mutation("none-raise", re.escape(m.group(0)), f"returns {m.group(1)}None{m.group(1)}",
                                f"{m.group(0)} -> returns None"))
        # a stated truth value of a result: ``True`` <-> ``False``
        returns = re.search(r"\b(?:returns?|yields?)\b", text, re.IGNORECASE) is not None \
            or (claim.kind == "field" and re.match(r"\s*(?::returns?:|Returns?\b)", text) is not None)
        m = _TRUTH.search(span) if returns else None
        if m:
            new = "False" if m.group(2) == "True" else "True"
            out.append(Mutation("result-swap", re.escape(m.group(0)), f"{m.group(1)}{new}{m.group(1)}",
                                f"{m.group(2)} -> {new}"))
    out += _number_mutations(claim, span)
    # a parameter name for another parameter of the same callable
    fact = parse_field(text) if claim.kind == "field" else None
    named_params = set(_BACKTICKED.findall(text)) | set(re.findall(r"\b(\w+)\s*=", text))
    if fact is not None and fact.name and fact.role in ("param", "type"):
        named_params.add(fact.name.strip().lstrip("*"))
    owners = sorted({n for n in dotted if facts.params_of(n)}
                    | ({claim.section.rsplit(".", 1)[-1]} if claim.section and facts.params_of(claim.section.rsplit(".", 1)[-1]) else set())
                    | ({claim.section.split(".", 1)[-1]} if claim.section and facts.params_of(claim.section.split(".", 1)[-1]) else set()))
    for owner in owners:
        params = facts.params_of(owner) or ()
        hit = next((p for p in params if p in named_params), None)
        other = next((p for p in params if p != hit and p not in idents), None)
        if hit and other:
            out.append(Mutation("param-swap", _word(hit), other, f"{owner}({hit}) -> {other}"))
            break
    # a stated return class for another project class
    if re.search(r"\b(?:returns?|rtype|yields?)\b|->|Returns", text) or (fact is not None and fact.role in ("returns", "rtype")):
        plain = facts.plain_classes()
        for cls in sorted(n for n in idents if n in facts.classes and not facts.is_exception(n)):
            new = _unrelated(facts, cls, plain, idents)
            if new:
                out.append(Mutation("return-type", _word(cls), new, f"{cls} -> {new}"))
                break
    # negation
    if claim.kind != "code":
        for pat, new in _NEGATIONS:
            m = re.search(pat, span)
            if m:
                out.append(Mutation("negate", pat, new, f"{m.group(0)} -> {new}"))
                break
    # ``C.m`` on a sibling class that lacks ``m``
    for name in sorted(dotted):
        owner, _, member = name.rpartition(".")
        cls = facts.classes.get(owner.rsplit(".", 1)[-1]) if owner else None
        if cls is None or member not in cls.members or member.startswith("_"):
            continue
        siblings = sorted(c for c in facts.plain_classes() if c != cls.name and member not in facts.classes[c].members
                          and member not in facts.classes[c].attrs)
        siblings.sort(key=lambda c: facts.classes[c].module != cls.module)
        if siblings:
            old_owner = owner.rsplit(".", 1)[-1]
            out.append(Mutation("method-move", _word(f"{old_owner}.{member}"), f"{siblings[0]}.{member}",
                                f"{old_owner}.{member} -> {siblings[0]}.{member}"))
            break
    # a callable for a sibling with another signature
    for name in sorted(set(_BACKTICKED.findall(text)) | set(re.findall(r"([A-Za-z_][\w.]*)\(", text))):
        short = name.rsplit(".", 1)[-1]
        swap = _sibling_callable(facts, name, short)
        if swap:
            out.append(Mutation("callable-swap", _word(short) + r"(?=\(|`)", swap, f"{short} -> {swap}"))
            break
    return out


def _sibling_callable(facts: Facts, name: str, short: str) -> str | None:
    owner = name.rpartition(".")[0].rsplit(".", 1)[-1]
    cls = facts.classes.get(owner) if owner else None
    if cls is not None and short in cls.members:
        mine = cls.members[short]
        return next((m for m in sorted(cls.members) if m != short and not m.startswith("_") and cls.members[m] != mine), None)
    if short in facts.functions:
        module, mine = facts.functions[short]
        return next((f for f, (mod, ps) in sorted(facts.functions.items()) if f != short and mod == module and ps != mine),
                    None)
    return None


# -- reviewing a doc as text ---------------------------------------------------------------------
def review_text(engine: Engine, doc: str, text: str, targets: Sequence[int] | None = None) -> list[tuple[Claim, Verdict]]:
    """Claims of ``text`` (as ``doc``) and their static verdicts; with ``targets`` (line numbers),
    only the claims covering them, judged after the earlier code blocks (the names they bind)."""
    claims, _ = extract_claims_counted(doc, text)
    if targets is not None:
        want = [i for i, c in enumerate(claims) if any(c.start_line <= t <= c.end_line for t in targets)]
        if not want:
            return []
        judged = [c for i, c in enumerate(claims) if i in want or (c.kind == "code" and i < max(want))]
    else:
        judged = claims
    ctx = context_for(engine)
    ctx.use_doc_text(doc, text)
    reviewer = StaticReviewer()
    pairs = [(c, reviewer.review_one(ctx, c)) for c in judged]
    if targets is None:
        return pairs
    keep = {claims[i].id for i in want}
    return [(c, v) for c, v in pairs if c.id in keep]


def project_docs(root: Path) -> list[str]:
    docs = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or rel.startswith(("upstream/", "tests/", ".")) or "/tests/" in rel:
            continue
        if path.suffix in DOC_EXTS and rel != "FINDINGS.toml" or path.suffix == ".py":
            docs.append(rel)
    return docs


def _label(pairs: Sequence[tuple[Claim, Verdict]]) -> str:
    labels = {v.verdict for _, v in pairs}
    return next((lab for lab in SEVERITY if lab in labels), "no-claim")


def _outcome(label: str) -> str:
    return "flagged" if label in FLAGS else label if label in ("unverified", "consistent") else "other"


def audit(root: Path, index_dir: Path) -> dict[str, Any]:
    facts = read_facts(root)
    engine = Engine.open(root, index_dir=index_dir)
    rows: list[dict[str, Any]] = []
    originals = 0
    try:
        for doc in project_docs(root):
            text = read_text(root / doc)
            lines = text.split("\n")
            for claim, verdict in review_text(engine, doc, text):
                if verdict.verdict != "consistent":
                    continue
                originals += 1
                span = "\n".join(lines[claim.start_line - 1: claim.end_line])
                form = doc_form(claim, span)
                for mut in mutations(claim, span, facts):
                    new_span = mut.apply(span)
                    if new_span == span:
                        continue
                    mutated = "\n".join([*lines[: claim.start_line - 1], *new_span.split("\n"), *lines[claim.end_line:]])
                    pairs = review_text(engine, doc, mutated, range(claim.start_line, claim.end_line + 1))
                    label = _label(pairs)
                    rows.append({
                        "doc": doc, "line": claim.start_line, "form": form, "kind": mut.kind, "mutation": mut.said,
                        "outcome": _outcome(label), "label": label, "claim": claim.text[:200],
                        "rationale": " | ".join(v.rationale for _, v in pairs)[:300],
                    })
    finally:
        engine.close()
    return {"project": root.name, "consistent_claims": originals, "mutations": rows}


def summary(rows: Sequence[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    groups: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        groups[r[key]][r["outcome"]] += 1
        groups["all"][r["outcome"]] += 1
    out = []
    for name in sorted(groups, key=lambda g: (g == "all", g)):
        c = groups[name]
        n = sum(c.values())
        out.append({key: name, "n": n, "flagged": c["flagged"], "unverified": c["unverified"],
                    "consistent": c["consistent"], "other": c["other"] + c["no-claim"],
                    "overclaim_rate": round(c["consistent"] / n, 4) if n else None})
    return out


def table(rows: Sequence[dict[str, Any]], key: str) -> str:
    out = [f"| {key} | mutations | flagged | unverified | consistent (over-claim) | other |", "|---|---|---|---|---|---|"]
    for r in summary(rows, key):
        rate = "-" if r["overclaim_rate"] is None else f"{100 * r['overclaim_rate']:.0f}%"
        out.append(f"| {r[key]} | {r['n']} | {r['flagged']} | {r['unverified']} | {r['consistent']} ({rate}) | {r['other']} |")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--root", type=Path, action="append", help="dev project root(s) (default: all four)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--list", action="store_true", help="also list every over-claim")
    ap.add_argument("--out", type=Path, default=RESULTS, help="results file")
    args = ap.parse_args(argv)
    dev = {(REPO / d).resolve() for d in DEV}
    roots = [r.resolve() for r in args.root] if args.root else sorted(dev)
    refused = [r for r in roots if r not in dev]
    if refused:
        print(f"refused (not a dev project, its per-claim output stays unseen): {', '.join(map(str, refused))}",
              file=sys.stderr)
        return 2
    results = []
    for root in roots:
        with tempfile.TemporaryDirectory(prefix="caas-bench-mutations-") as tmp:
            results.append(audit(root, Path(tmp)))
    every = [r for res in results for r in res["mutations"]]
    payload = {"results": results, "by_kind": summary(every, "kind"), "by_form": summary(every, "form")}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(payload, indent=2))
        return 0
    print("consistent claims audited: " + ", ".join(f"{r['project']} {r['consistent_claims']}" for r in results))
    print(table(every, "kind"))
    print()
    print(table(every, "form"))
    if args.list:
        for r in every:
            if r["outcome"] == "consistent":
                print(f"- {r['doc']}:{r['line']} [{r['kind']}/{r['form']}] {r['mutation']}: {r['claim'][:120]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
