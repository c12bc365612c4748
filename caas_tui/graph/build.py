"""Fragments -> ``SymbolGraph``: code edges, then doc and upstream links.

Edge confidences are products of the resolution steps (see ``resolve``) and of
how a name was written in prose (a Sphinx role is surer than a bare word in a
code span). A name that could mean several definitions makes no edge at all:
a wrong edge costs a reviewer more than a missing one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from caas_tui.graph.graph import SymbolGraph
from caas_tui.graph.model import Edge, Fragment, Mention, Node, PyDef, Section
from caas_tui.graph.resolve import Project

GUESS = 0.3  # ``obj.unique_method()`` with ``obj`` of unknown type, matched by name only
_MAX_UPSTREAM_FANOUT = 25  # an upstream name used everywhere says little about any one use
# Method names of builtin containers/strings: ``d.get(...)`` is far likelier a dict than
# the project's one ``get``, so such names are never guessed from the name alone.
_BUILTIN_METHODS = frozenset(
    name for t in (dict, list, set, str, bytes, tuple, frozenset, int, float, object) for name in dir(t)
) | {"close", "read", "write", "open", "send", "run", "start", "stop", "join", "wait", "result", "cancel"}


def build_graph(fragments: Mapping[str, Fragment] | Iterable[Fragment]) -> SymbolGraph:
    frags = list(fragments.values()) if isinstance(fragments, Mapping) else list(fragments)
    project = Project(frags)
    edges = _Edges()
    ext_uses: dict[str, set[str]] = {}
    for frag in project.fragments:
        for i, d in enumerate(frag.defs):
            if project.defs.get(d.qualname, (None, None))[1] is frag:
                _code_edges(project, frag, d, edges, ext_uses)
            elif i == 0 and d.kind == "module" and frag.language != "python" and d.qualname in project.defs:
                # Another file of the same package (Java, Go, Kotlin): its imports and
                # top-level uses belong to the package node.
                _code_edges(project, frag, d, edges, ext_uses)
    for frag in frags:
        for section in frag.sections:
            if section.kind in ("doc", "api"):
                _doc_edges(project, frag, section, edges)
    _upstream_edges(project, frags, ext_uses, edges)
    return SymbolGraph(_nodes(project, frags), edges.all())


class _Edges:
    """Collects edges, keeping the surest of duplicates (same ends and kind)."""

    def __init__(self) -> None:
        self._edges: dict[tuple[str, str, str], Edge] = {}

    def add(self, src: str, dst: str, kind: str, confidence: float, path: str, line: int) -> None:
        if src == dst or confidence <= 0:
            return
        key = (src, dst, kind)
        old = self._edges.get(key)
        if old is None or confidence > old.confidence:
            self._edges[key] = Edge(src, dst, kind, round(min(1.0, confidence), 3), path, line)

    def all(self) -> list[Edge]:
        return sorted(self._edges.values(), key=lambda e: (e.src, e.kind, e.dst))


def _nodes(project: Project, frags: list[Fragment]) -> list[Node]:
    nodes = [
        Node(q, d.kind, f.path, d.start_line, d.end_line, q, f.kind) for q, (d, f) in project.defs.items()
    ]
    for f in frags:
        for s in f.sections:
            label = f"{s.symbol} (docstring)" if s.kind == "api" else s.symbol
            nodes.append(Node(s.node, s.kind, f.path, s.start_line, s.end_line, label, f.kind))
    return nodes


def _code_edges(project: Project, frag: Fragment, d: PyDef, edges: _Edges, ext_uses: dict[str, set[str]]) -> None:
    from_test = frag.kind == "test" or frag.example or d.test
    for ref in d.refs:
        val, conf = project.resolve(ref.expr, d, frag)
        if val is None and ref.call:
            guess = _guess_method(project, ref.expr)
            if guess is not None:
                val, conf = ("def", guess), GUESS
        if val is None:
            continue
        if val[0] == "ext":
            ext_uses.setdefault(d.qualname, set()).add(val[1])
            continue
        if val[0] != "def" or val[1] not in project.defs:
            continue
        target = val[1]
        if from_test and not project.is_test(target):
            edges.add(d.qualname, target, "tests", conf if ref.call else conf * 0.9, frag.path, ref.line)
        elif ref.call:
            edges.add(d.qualname, target, "calls", conf, frag.path, ref.line)
        elif project.kind(target) in ("variable", "class"):
            edges.add(d.qualname, target, "uses", conf, frag.path, ref.line)
    scope = project.file_scope.get(frag.path)
    module = scope.qualname if scope is not None and scope.qualname in project.defs else frag.module or d.qualname
    for alias, target in d.imports:
        val, conf = project.qualified(target)
        if val is None:
            continue
        if val[0] == "ext":
            ext_uses.setdefault(d.qualname, set()).add(val[1])
        elif val[0] == "def" and val[1] in project.defs:
            edges.add(module, project.module_of(val[1]), "imports", conf, frag.path, d.start_line)
            if from_test and alias != "*" and not project.is_test(val[1]) and project.kind(val[1]) != "module":
                # Importing a name into a test module is a use of it by that module's tests.
                edges.add(module, val[1], "tests", conf * 0.5, frag.path, d.start_line)
    if d.kind == "class":
        for base, conf in project.bases(d.qualname):
            edges.add(d.qualname, base, "inherits", conf, frag.path, d.start_line)
    elif d.kind == "method" and d.cls is not None and project.kind(d.cls) == "class":
        overridden = project.member(d.cls, d.short, skip_self=True)
        if overridden is not None and project.kind(overridden) == "method":
            edges.add(d.qualname, overridden, "overrides", 1.0, frag.path, d.start_line)


def _guess_method(project: Project, expr: str) -> str | None:
    """``x.frobnicate()`` with ``x`` unknown: the one project method of that name, if only one."""
    if "." not in expr:
        return None
    name = expr.rsplit(".", 1)[-1].removesuffix("()")
    if len(name) < 4 or name.startswith("__") or name in _BUILTIN_METHODS:
        return None
    candidates = [q for q in project.by_short.get(name, ()) if project.kind(q) == "method" and not project.is_test(q)]
    return candidates[0] if len(candidates) == 1 else None


# -- prose -> symbols ----------------------------------------------------------------------
_HOW = {"role": 1.0, "code": 0.9, "dotted": 0.85}


def _doc_edges(project: Project, frag: Fragment, section: Section, edges: _Edges) -> None:
    owner = section.symbol if section.kind == "api" else None
    if owner is not None and owner in project.defs:
        # A docstring documents its own definition first of all: this is the edge that
        # takes a reviewer from a docstring claim to the code right under it.
        edges.add(section.node, owner, "documents", 1.0, frag.path, section.start_line)
    for mention in section.mentions:
        found = resolve_mention(project, mention, frag, owner)
        if found is None or found[0] == owner:
            continue
        # Below the docstring -> own definition edge: that one is certain by position.
        conf = found[1] * 0.95 if owner is not None else found[1]
        edges.add(section.node, found[0], "documents", conf, frag.path, mention.line)


def resolve_mention(project: Project, mention: Mention, frag: Fragment, owner: str | None) -> tuple[str, float] | None:
    """The one project definition a mentioned name means, with a confidence; else None."""
    name, how = mention.name, mention.how
    weight = _HOW.get(how, 0.8)
    if name in project.defs:
        return name, 1.0 * weight if how == "dotted" else 1.0
    if owner is not None and owner in project.defs:
        # A docstring's names are relative to where it stands (``:meth:`flush``` in a class).
        parts = owner.split(".")
        for i in range(len(parts), 0, -1):
            q = ".".join([*parts[:i], name])
            if q in project.defs:
                return q, weight
        d, f = project.defs[owner]
        val, conf = project.resolve(name, d, f)
        if val is not None and val[0] == "def" and val[1] in project.defs:
            return val[1], conf * weight
    short = name.rsplit(".", 1)[-1]
    code_defs = [q for q in project.by_short.get(short, ()) if not project.is_test(q)]
    if "." in name:
        suffix = "." + name
        matches = _override_root([q for q in code_defs if q.endswith(suffix)], project)
        if len(matches) == 1:
            return matches[0], 0.9 * weight
        if matches:
            return None
        return _by_variable(project, name, weight) if how != "dotted" else None
    if how in ("role", "code") and len(name) >= 3:
        matches = _override_root(code_defs, project)
        if len(matches) == 1:
            return matches[0], (0.8 if len(code_defs) == 1 else 0.7) * weight
    return None


def _override_root(candidates: list[str], project: Project) -> list[str]:
    """Drop methods that override another candidate: ``on_update`` defined by a base
    class and its subclasses means the base's contract, so the name is not ambiguous."""
    if len(candidates) < 2:
        return candidates
    chosen = set(candidates)
    roots = []
    for q in candidates:
        d = project.defs[q][0]
        base = project.member(d.cls, d.short, skip_self=True) if d.cls and project.kind(d.cls) == "class" else None
        if base not in chosen:
            roots.append(q)
    return roots


def _by_variable(project: Project, name: str, weight: float) -> tuple[str, float] | None:
    """``scene.destroy`` in an example: ``scene`` is most likely a ``Scene``.

    The head is matched against class names ignoring case and underscores
    (``state_manager`` -> ``StateManager``); failing that, a last name that only
    one project method has is taken at a low confidence.
    """
    head, *rest = name.split(".")
    classes = [q for q in project.classes_by_key.get(head.replace("_", "").lower(), ()) if not project.is_test(q)]
    if len(classes) == 1:
        val: tuple[str, str] | None = ("inst", classes[0])
        conf = 1.0
        for i, tok in enumerate(rest):
            if val is None:
                break
            val, c = project.attr(val, tok, 0, more=i < len(rest) - 1)
            conf *= c
        if val is not None and val[0] == "def" and val[1] in project.defs:
            return val[1], 0.6 * conf * weight
    guess = _guess_method(project, name)
    return (guess, 0.5 * weight) if guess is not None else None


# -- upstream pages -> code using the names they describe --------------------------------------
def _upstream_edges(project: Project, frags: list[Fragment], ext_uses: dict[str, set[str]], edges: _Edges) -> None:
    """An upstream section mentioning ``World.flush`` is linked to code calling ``helios.World.flush``.

    Names match on whole dotted components: a full name or a suffix of two or
    more components; a single component only when it is distinctive
    (``xrWaitFrame``, ``begin_frame``), never a plain word like ``flush``.
    """
    index: dict[str, dict[str, bool]] = {}  # name suffix -> {user: the suffix is the full name}
    for user, names in ext_uses.items():
        for full in names:
            parts = [p.removesuffix("()") for p in full.split(".")]
            for i in range(len(parts)):
                users = index.setdefault(".".join(parts[i:]), {})
                users[user] = users.get(user, False) or i == 0
    for frag in frags:
        for section in frag.sections:
            if section.kind != "upstream":
                continue
            for mention in section.mentions:
                # A platform contract the project implements (``ManagedSystem``, ``on_update``)
                # is linked like a doc mention, a little less surely: the names are the
                # platform's, and only coincide with the project's by design.
                own = resolve_mention(project, mention, frag, None) if mention.how != "dotted" else None
                if own is not None:
                    edges.add(section.node, own[0], "mentions_upstream", own[1] * 0.8, frag.path, mention.line)
                name = mention.name
                named = index.get(name)
                if not named or ("." not in name and not _distinctive(name)):
                    continue
                if len(named) > _MAX_UPSTREAM_FANOUT:
                    continue
                base = 0.9 if "." in name else 0.5
                for user, exact in sorted(named.items()):
                    edges.add(section.node, user, "mentions_upstream", 1.0 if exact and "." in name else base, frag.path, mention.line)


def _distinctive(name: str) -> bool:
    return len(name) >= 6 and ("_" in name.strip("_") or any(c.isupper() for c in name[1:]) or any(c.isdigit() for c in name))
