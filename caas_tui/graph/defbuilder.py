"""The facts of one definition while a file is read, frozen into a ``PyDef`` at the end.

One builder for both fact extractors (``pyfacts`` for Python, ``tsfacts`` for the
tree-sitter languages), so a definition is gathered the same way whatever its language.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from caas_tui.graph.model import PyDef, Ref, Typed


@dataclass(eq=False)  # compared by identity: two builders with equal facts are still two defs
class DefBuilder:
    qualname: str
    kind: str
    start: int
    end: int
    cls: str | None = None
    bases: list[str] = field(default_factory=list)
    attrs: dict[str, Typed] = field(default_factory=dict)
    locals: dict[str, Typed] = field(default_factory=dict)
    params: list[str] = field(default_factory=list)  # un-annotated parameter names (pytest fixtures)
    returns: str | None = None
    fixture: bool = False
    imports: list[tuple[str, str]] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)
    test: bool = False

    def freeze(self) -> PyDef:
        return PyDef(
            self.qualname, self.kind, self.start, self.end, self.cls, tuple(self.bases),
            tuple(self.attrs.values()), tuple(self.locals.values()), tuple(self.params), self.returns,
            self.fixture, tuple(self.imports), tuple(self.refs), self.test,
        )
