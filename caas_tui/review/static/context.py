"""Per-run state shared by the static checks: resolver, evidence spans, signatures,
"did you mean" suggestions and the project's string-prefix builders."""

from __future__ import annotations

import ast
import difflib
import re
from dataclasses import dataclass

from caas_tui.errors import CaasError
from caas_tui.models import Claim, EvidenceSpan
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims.docstrings import scope_defs
from caas_tui.review.claims.extract import extract_claims
from caas_tui.review.static.model.prefixes import field_prefixes, function_prefixes
from caas_tui.review.static.model.project import Project
from caas_tui.review.static.model.pysig import Signature, signature
from caas_tui.review.static.model.resolve import UNKNOWN, Def, Resolution, Resolver
from caas_tui.review.static.model.scope import DocScopes
from caas_tui.review.static.model.synth import dataclass_signature
from caas_tui.review.textutil import read_text, split_lines

# Names so common in the stdlib that a doc using them may mean the stdlib one.
_STDLIB_CLASS_NAMES = frozenset(
    {"Path", "PurePath", "Enum", "Thread", "Lock", "Event", "Queue", "Logger", "Decimal", "Fraction", "datetime",
     "date", "time", "timedelta", "Counter", "OrderedDict", "defaultdict", "deque", "Mapping", "Sequence",
     "Iterator", "Iterable", "Any", "Protocol", "Process", "Popen", "Random", "Template", "UUID", "Future",
     "Task", "Executor", "Handler", "Formatter", "ArgumentParser", "Namespace", "Request", "Response", "Session"}
)


@dataclass(frozen=True)
class Val:
    """What a name in a doc's code stands for."""

    kind: str  # module | class | instance | function
    defn: Def
    bound: bool = False  # a function reached through an instance
    exact: bool = True  # False when typed from an annotation: the object may be a subclass


def _definition_of(val: Val) -> tuple[str, str] | None:
    """A module, class or function a doc name stands for (an import); None for an object."""
    return None if val.kind == "instance" or val.bound else (val.kind, val.defn.qualname)


@dataclass(frozen=True)
class Suggestion:
    name: str
    unambiguous: bool


class ReviewContext:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.project = Project(engine)
        self.resolver = Resolver(self.project)
        self._sigs: dict[int, Signature | None] = {}
        self._doc_lines: dict[str, list[str]] = {}
        self._doc_claims: dict[str, list[Claim]] = {}
        self._prefix_builders: list[tuple[Def, str, str]] | None = None
        self._envs: DocScopes[Val] = DocScopes(_definition_of)
        self._subclasses: dict[int, list[Def]] | None = None
        self._prefixes: dict[int, dict[str, str]] = {}
        self._owners: dict[str, Def | None] = {}
        self._docstrings: dict[str, list[tuple[int, int, Def]]] = {}

    def begin_run(self) -> None:
        """Forget per-review state (doc text, names bound by code blocks); code facts stay."""
        self._doc_lines.clear()
        self._doc_claims.clear()
        self._envs.clear()

    def use_doc_text(self, path: str, text: str) -> None:
        """Judge ``path`` as ``text`` until the next run: a doc edited but not saved (the
        mutation audit re-reviews one doc with one claim changed)."""
        self._doc_lines[path] = split_lines(text)
        self._doc_claims.pop(path, None)

    def doc_claims(self, path: str) -> list[Claim]:
        """Every claim of the doc under review (a field entry's siblings in its section)."""
        if path not in self._doc_claims:
            self._doc_claims[path] = extract_claims(path, "\n".join(self.doc_lines(path)))
        return self._doc_claims[path]

    # -- the names a doc's code blocks have bound so far ---------------------------------
    @staticmethod
    def _env_key(claim_doc: str, section: str | None) -> str:
        # A Markdown/reST doc is one narrative; each docstring's examples stand alone.
        return f"{claim_doc}::{section}" if claim_doc.endswith((".py", ".pyi")) else claim_doc

    def doc_env(self, doc_path: str, section: str | None) -> dict[str, Val | None]:
        return self._envs.visible(self._env_key(doc_path, section), section)

    def set_doc_env(
        self, doc_path: str, section: str | None, env: dict[str, Val | None], bound: set[str] | None = None
    ) -> None:
        """``bound``: the names the block itself bound (see ``scope.DocScopes``)."""
        self._envs.record(self._env_key(doc_path, section), section, env, bound)

    # -- names ---------------------------------------------------------------------------
    def resolve(self, name: str, claim: Claim | None = None) -> Resolution:
        """A name as the claim's doc means it. A Markdown/reST doc speaks about the whole
        project; a docstring speaks from inside its module (its class's members, the
        module's own names and imports), or names things fully qualified."""
        if claim is None or not claim.doc_path.endswith((".py", ".pyi")):
            return self.resolver.resolve(name)
        src = self.project.module_for_path(claim.doc_path)
        if src is None or src.tree is None:
            return UNKNOWN
        parts = name.split(".")
        owner = self._docstring_class(claim.section)
        if owner is not None:
            res = self.resolver.member(owner, parts[0])
            if res.found and res.target is not None:
                return self.resolver.walk(res.target, parts[1:])
        if parts[0] in src.bindings:
            return self.resolver.resolve_in(src, name)
        for i in range(len(parts), 0, -1):
            if self.project.has_module(".".join(parts[:i])):
                return self.resolver.walk(self.resolver.module_def(".".join(parts[:i])), parts[i:])
        res = self.resolver.resolve_in(src, name)  # builtins and star imports
        return res if res.found else UNKNOWN

    def docstring_owner(self, path: str, line: int) -> Def | None:
        """The function or class whose docstring holds ``line`` of module ``path``."""
        if path not in self._docstrings:
            spans: list[tuple[int, int, Def]] = []
            src = self.project.module_for_path(path)
            if src is not None and src.tree is not None:
                stack: list[tuple[list[ast.stmt], str, Def | None]] = [(src.tree.body, src.name, None)]
                while stack:
                    body, scope, owner = stack.pop()
                    for node in scope_defs(body):
                        kind = "class" if isinstance(node, ast.ClassDef) else "function"
                        d = Def(kind, f"{scope}.{node.name}", src, node, owner)
                        first = node.body[0] if node.body else None
                        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                            spans.append((first.lineno, first.end_lineno or first.lineno, d))
                        if isinstance(node, ast.ClassDef):
                            stack.append((node.body, d.qualname, d))
            self._docstrings[path] = spans
        for start, end, d in self._docstrings[path]:
            if start <= line <= end:
                return d
        return None

    def _docstring_class(self, section: str | None) -> Def | None:
        if not section:
            return None
        if section not in self._owners:
            res = self.resolver.resolve(section)
            target = res.target if res.found else None
            if target is not None and target.kind == "function":
                target = target.owner
            self._owners[section] = target if target is not None and target.kind == "class" else None
        return self._owners[section]

    def maybe_stdlib(self, name: str) -> bool:
        return name.split(".")[0] in _STDLIB_CLASS_NAMES

    def suggest(self, owner: Def, wrong: str, pool: set[str] | None = None) -> Suggestion | None:
        return self.nearest(wrong, pool if pool is not None else self.resolver.member_names(owner))

    def nearest(self, wrong: str, names: set[str]) -> Suggestion | None:
        """The name in ``names`` most like ``wrong`` (a near-miss spelling or the same words)."""
        names = {n for n in names if not (n.startswith("__") and n.endswith("__"))}
        if wrong.startswith("_") is False:
            names = {n for n in names if not n.startswith("_")} or names
        scored = sorted(((self._similarity(wrong, n), n) for n in names), reverse=True)
        scored = [(s, n) for s, n in scored if s >= 0.6]
        if not scored:
            return None
        best_score, best = scored[0]
        clear = len(scored) == 1 or best_score - scored[1][0] >= 0.1
        return Suggestion(best, clear)

    @staticmethod
    def _similarity(a: str, b: str) -> float:
        ratio = difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio()
        ta, tb = set(re.split(r"_+", a.lower())) - {""}, set(re.split(r"_+", b.lower())) - {""}
        overlap = len(ta & tb) / max(len(tb), 1) if tb else 0.0
        # find_entity_by_tag vs find_by_tag: every word of the real name is in the wrong one.
        return max(ratio, 0.85 * overlap if len(ta & tb) >= 2 else 0.0)

    # -- signatures ----------------------------------------------------------------------
    def signature(self, fn: Def) -> Signature | None:
        key = id(fn.node)
        if key not in self._sigs:
            self._sigs[key] = signature(fn)
        return self._sigs[key]

    def call_signature(self, target: Def, *, on_instance: bool) -> Signature | None:
        """The signature a call sees: a class -> its ``__init__`` (bound); a method called
        on an instance or a classmethod -> first parameter dropped."""
        if target.kind == "class":
            res = self.resolver.member(target, "__init__")
            init = res.target if res.found else None
            if init is not None and init.kind == "external" and id(target.node) not in self._sigs:
                self._sigs[id(target.node)] = dataclass_signature(target, self.resolver)
            if init is not None and init.kind == "external":
                return self._sigs[id(target.node)]
            if init is None or init.kind != "function":
                return None
            sig = self.signature(init)
            return sig.bound() if sig else None
        if target.kind != "function":
            return None
        sig = self.signature(target)
        if sig is None:
            return None
        if on_instance or sig.kind == "class":
            return sig.bound()
        return sig

    # -- evidence ------------------------------------------------------------------------
    def evidence(self, defn: Def, note: str | None = None) -> EvidenceSpan | None:
        src = defn.module
        if src is None:
            return None
        if defn.kind == "module" or defn.node is None:
            start, end = 1, min(len(src.lines), 40) or 1
            for chunk in self.engine.chunks_for_path(src.path):
                if chunk.kind == "code":
                    start, end = chunk.start_line, chunk.end_line
                    break
        else:
            start, end = src.span(defn.node)
            if isinstance(defn.node, ast.ClassDef):
                # The class header chunk (up to its first method) is the evidence unit the index has.
                for chunk in self.engine.chunks_for_path(src.path):
                    if chunk.kind == "code" and chunk.symbol == defn.qualname and chunk.start_line == start:
                        end = chunk.end_line
                        break
        return EvidenceSpan(src.path, start, end, defn.qualname, src.span_hash(start, end), note)

    # -- docs ----------------------------------------------------------------------------
    def doc_lines(self, path: str) -> list[str]:
        if path not in self._doc_lines:
            try:
                self._doc_lines[path] = split_lines(read_text(self.engine.resolve_path(path)))
            except CaasError:
                self._doc_lines[path] = []
        return self._doc_lines[path]

    # -- class hierarchy -----------------------------------------------------------------
    def subclasses(self, cls: Def) -> list[Def]:
        """Every project class deriving (directly or not) from ``cls``."""
        if self._subclasses is None:
            direct: dict[int, list[Def]] = {}
            for src in self.project.all_modules():
                assert src.tree is not None
                stack: list[tuple[list[ast.stmt], str]] = [(src.tree.body, src.name)]
                while stack:
                    body, scope = stack.pop()
                    for node in body:
                        if isinstance(node, ast.ClassDef):
                            d = Def("class", f"{scope}.{node.name}", src, node)
                            for base in self.resolver.bases(d)[0]:
                                if base.node is not None:
                                    direct.setdefault(id(base.node), []).append(d)
                            stack.append((node.body, d.qualname))
            self._subclasses = direct
        out: list[Def] = []
        todo = list(self._subclasses.get(id(cls.node), []))
        seen: set[int] = set()
        while todo:
            d = todo.pop()
            if id(d.node) in seen:
                continue
            seen.add(id(d.node))
            out.append(d)
            todo.extend(self._subclasses.get(id(d.node), []))
        return out

    def any_subclass_has(self, cls: Def, name: str) -> bool:
        return any(self.resolver.member(sub, name).status != "missing" for sub in self.subclasses(cls))

    # -- string builders -----------------------------------------------------------------
    def prefix_builders(self) -> list[tuple[Def, str, str]]:
        """(function or class, parameter or field, prefix) for every project builder."""
        if self._prefix_builders is None:
            out: list[tuple[Def, str, str]] = []
            for src in self.project.all_modules():
                assert src.tree is not None
                stack: list[tuple[list[ast.stmt], str, Def | None]] = [(src.tree.body, src.name, None)]
                while stack:
                    body, scope, owner = stack.pop()
                    for node in body:
                        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                            d = Def("function", f"{scope}.{node.name}", src, node, owner)
                        elif isinstance(node, ast.ClassDef):
                            d = Def("class", f"{scope}.{node.name}", src, node, owner)
                            stack.append((node.body, d.qualname, d))
                        else:
                            continue
                        out.extend((d, name, prefix) for name, prefix in self.prefixes_of(d).items())
            self._prefix_builders = out
        return self._prefix_builders

    def prefixes_of(self, target: Def) -> dict[str, str]:
        """Parameter (function) or field (class) -> the literal the code puts in front of it."""
        key = id(target.node)
        if key not in self._prefixes:
            if target.kind == "class":
                self._prefixes[key] = field_prefixes(target, self.resolver)
            elif target.kind == "function":
                self._prefixes[key] = function_prefixes(target, self.resolver)
            else:
                self._prefixes[key] = {}
        return self._prefixes[key]
