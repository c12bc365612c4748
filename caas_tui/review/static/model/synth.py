"""The constructor signature a ``@dataclass`` generates, from its annotated fields
(base dataclasses' fields first). None whenever it can't be known exactly."""

from __future__ import annotations

import ast

from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.model.pysig import Param, Signature
from caas_tui.review.static.model.resolve import Def, Resolver

_DATACLASS = frozenset({"dataclass", "dataclasses.dataclass"})


def _dataclass_options(node: ast.ClassDef) -> dict[str, bool] | None:
    for deco in node.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        if dotted(target) in _DATACLASS:
            opts: dict[str, bool] = {}
            if isinstance(deco, ast.Call):
                for kw in deco.keywords:
                    if kw.arg and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, bool):
                        opts[kw.arg] = kw.value.value
            return opts
    return None


def _field_call(value: ast.expr | None) -> ast.Call | None:
    if isinstance(value, ast.Call) and (dotted(value.func) or "").rsplit(".", 1)[-1] == "field":
        return value
    return None


def _own_fields(node: ast.ClassDef, kw_only: bool) -> list[Param] | None:
    params: list[Param] = []
    kw_mode = kw_only
    for stmt in node.body:
        if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
            continue
        ann = ast.unparse(stmt.annotation)
        if "ClassVar" in ann:
            continue
        if ann.endswith("KW_ONLY"):
            kw_mode = True
            continue
        default: ast.expr | None = stmt.value
        call = _field_call(stmt.value)
        if call is not None:
            opts = {kw.arg: kw.value for kw in call.keywords if kw.arg}
            init = opts.get("init")
            if isinstance(init, ast.Constant) and init.value is False:
                continue
            if "kw_only" in opts:
                return None  # per-field keyword-only: rare, not modelled
            factory = opts.get("default_factory")
            # ``default_factory=list``: the field starts as ``list()``, not as the type ``list``
            default = opts.get("default") or (ast.copy_location(ast.Call(factory, [], []), factory)
                                              if factory is not None else None)
        params.append(Param(stmt.target.id, "kwonly" if kw_mode else "pos", default, stmt.annotation))
    return params


def dataclass_signature(cls: Def, resolver: Resolver) -> Signature | None:
    node = cls.node
    if not isinstance(node, ast.ClassDef):
        return None
    opts = _dataclass_options(node)
    if opts is None or opts.get("init") is False:
        return None
    bases, unknown = resolver.bases(cls)
    if unknown:
        return None
    inherited: list[Param] = []
    for base in bases:
        if base.kind == "external" and base.qualname in ("object", "typing.Generic", "abc.ABC"):
            continue
        if base.kind != "class":
            return None
        base_sig = dataclass_signature(base, resolver)
        if base_sig is None:
            return None
        inherited = [p for p in inherited if p.name not in {q.name for q in base_sig.params}] + list(base_sig.params)
    own = _own_fields(node, bool(opts.get("kw_only")))
    if own is None:
        return None
    names = {p.name for p in own}
    params = [p for p in inherited if p.name not in names] + own
    return Signature(cls, tuple(params), None, ("dataclass",), True)
