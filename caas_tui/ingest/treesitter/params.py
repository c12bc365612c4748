"""A parameter list node -> ``Param``s, with each grammar's quirks read off its tree.

Not every grammar wraps a parameter in one node: tree-sitter-c-sharp leaves
``params int[] xs`` as three children of the list, and tree-sitter-kotlin puts a default
value (``= 2``) and ``vararg`` beside the parameter they belong to rather than inside it.
A TS ``b?: string`` and a default value both make a parameter optional.
"""

from __future__ import annotations

from dataclasses import replace

from tree_sitter import Node

from caas_tui.ingest.treesitter.nodes import child_of, text_of
from caas_tui.ingest.treesitter.outline import Param
from caas_tui.ingest.treesitter.specs import LangSpec

_VARIADIC_NODES = frozenset({"variadic_parameter_declaration", "spread_parameter", "rest_parameter", "rest_pattern"})
_NAME_FIELDS = frozenset({"name", "pattern", "left"})


def params_of_node(plist: Node, spec: LangSpec) -> tuple[Param, ...]:
    out: list[Param] = []
    variadic_next = default_next = False
    loose_type: str | None = None  # C# ``params int[] xs``: the type, then the name
    for i, c in enumerate(plist.children):
        if not c.is_named:
            if c.type == "params":
                variadic_next = True
            elif c.type == "=" and out:
                default_next = True
            continue
        if c.type in spec.comments or c.type in spec.annotations:
            continue
        if default_next:  # Kotlin ``b: Int = 2``: the value follows the parameter
            out[-1] = replace(out[-1], default=text_of(c), optional=True)
            default_next = False
            continue
        if c.type == "parameter_modifiers":
            variadic_next = variadic_next or "vararg" in text_of(c).split()
            continue
        field = plist.field_name_for_child(i)
        if field == "type":
            loose_type = text_of(c)
            continue
        if field == "name":
            out.append(Param(text_of(c), loose_type, None, variadic_next))
            variadic_next, loose_type = False, None
            continue
        found = _param(c)
        if variadic_next:
            found = [replace(p, variadic=True) for p in found]
            variadic_next = False
        out.extend(found)
    return tuple(out)


def _param(p: Node) -> list[Param]:
    text = text_of(p)
    if p.type == "self_parameter":
        return [Param("self", None, None, False)]
    typ = p.child_by_field_name("type")
    type_text = text_of(typ).lstrip(":").strip() or None
    if type_text is None:
        typ_child = next((c for c in p.named_children if c.type.endswith("_type") or c.type == "user_type"), None)
        type_text = text_of(typ_child) or None
    default = p.child_by_field_name("value") or p.child_by_field_name("default_value") or p.child_by_field_name("right")
    if default is None:
        default = _after_equals(p)
    variadic = p.type in _VARIADIC_NODES or "..." in text.split(":")[0] or text.startswith(("params ", "vararg "))
    optional = default is not None or p.type == "optional_parameter"
    names = [p.children[i] for i in range(p.child_count) if p.field_name_for_child(i) in _NAME_FIELDS]
    if not names:
        ident = child_of(p, "identifier") or child_of(p, "simple_identifier")
        if ident is None:
            decl = child_of(p, "variable_declarator")
            ident = decl.child_by_field_name("name") if decl else None
        names = [ident] if ident is not None else []
    if not names:
        return [Param(text, None, None, variadic)] if text else []
    value = text_of(default) or None
    return [Param(text_of(n).lstrip(".").lstrip("&").strip(), type_text, value, variadic, optional) for n in names]


def _after_equals(p: Node) -> Node | None:
    """C# ``string b = "x"`` and Kotlin's ``val n: Int = 1``: the named node after ``=``."""
    seen = False
    for c in p.children:
        if not c.is_named and c.type == "=":
            seen = True
        elif seen and c.is_named:
            return c
    return None
