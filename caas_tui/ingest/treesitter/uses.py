"""Call sites and typed local names in a tree-sitter tree, for the symbol graph.

The ``Outline`` says what a file declares; this says what its code *uses*: every call
(``inv.addItem(x)``, ``new Warehouse<>()``, ``Bin::new(3)``) as a dotted expression,
and the names whose type the code states or constructs (``const inv = new
Inventory()``, ``Warehouse<String> w``, ``s := NewStock("a")``). Expressions follow
the graph's Python conventions so one resolver reads both: ``self`` for the receiver
(``this``), ``super`` for the base, ``cls`` for Rust's ``Self``, ``()`` marking the
result of a call, ``Foo()`` an instance of ``Foo``. Nothing is resolved here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Language, Node, Query, QueryCursor, QueryError

_CALLS = frozenset({"call_expression", "method_invocation", "invocation_expression"})
_NEWS = frozenset({"new_expression", "object_creation_expression"})
_NAMES = frozenset({
    "identifier", "simple_identifier", "type_identifier", "field_identifier", "property_identifier",
    "private_property_identifier", "shorthand_property_identifier", "package_identifier", "namespace_identifier",
})
_SELF = frozenset({"this", "this_expression", "self"})
_SUPER = frozenset({"super", "super_expression", "base", "base_expression"})
# Looked through: they change nothing about which function is called.
_UNWRAP = frozenset({
    "parenthesized_expression", "non_null_expression", "await_expression", "generic_function", "generic_name",
    "generic_type", "nullable_type", "pointer_type", "reference_type", "type_annotation", "user_type",
})
# (object field, member field) of member-access nodes, per grammar.
_MEMBER_FIELDS: dict[str, tuple[str, str]] = {
    "member_expression": ("object", "property"),
    "field_access": ("object", "field"),
    "member_access_expression": ("expression", "name"),
    "selector_expression": ("operand", "field"),
    "field_expression": ("value", "field"),
    "scoped_identifier": ("path", "name"),
    "scoped_type_identifier": ("path", "name"),
    "qualified_name": ("qualifier", "name"),
    "navigation_expression": ("", ""),  # Kotlin: positional (receiver, member)
}
_DECLARATORS = frozenset({"variable_declarator", "let_declaration", "var_spec", "property_declaration"})
_ASSIGN = frozenset({"assignment_expression"})
_INFERRED = frozenset({"var", "val", "let", "dynamic", "auto", "object", "any", "unknown"})  # ``var x = ...``: no type written
# Built-in value types: never a project class, so not worth a resolution attempt.
_PRIMITIVE = frozenset({
    "int", "long", "short", "byte", "char", "boolean", "float", "double", "void", "bool", "string", "String",
    "number", "bigint", "symbol", "never", "undefined", "null", "Int", "Long", "Boolean", "Double", "Float", "Unit",
    "decimal", "uint", "ulong", "ushort", "sbyte", "error", "rune", "int8", "int16", "int32", "int64", "uint8",
    "uint16", "uint32", "uint64", "float32", "float64", "usize", "isize", "u8", "u16", "u32", "u64", "u128", "i8",
    "i16", "i32", "i64", "i128", "f32", "f64", "str", "Integer", "Object",
})
_ARRAY = re.compile(r"\[\s*\]$")


@dataclass(frozen=True, slots=True)
class Use:
    expr: str  # dotted, as written (``self.items.get``, ``Bin.new``, ``Warehouse``)
    line: int
    call: bool


@dataclass(frozen=True, slots=True)
class Binding:
    """``name`` holds what ``value`` evaluates to (``Foo()``: an instance of ``Foo``)."""

    name: str  # a local name, or ``self.attr`` for a field of the receiver
    value: str
    line: int
    declared: bool  # from a written type (surer than an initial value)


@dataclass(frozen=True, slots=True)
class FileUses:
    uses: tuple[Use, ...] = ()
    bindings: tuple[Binding, ...] = ()


def _text(n: Node | None) -> str:
    return n.text.decode("utf-8", "replace") if n is not None and n.text is not None else ""


def _line(n: Node) -> int:
    return n.start_point[0] + 1


def dotted(node: Node | None) -> str | None:
    """A callee or receiver as a dotted name; ``?`` for a part that is not a name."""
    if node is None:
        return None
    t = node.type
    if t in _SELF:
        return "self"
    if t in _SUPER:
        return "super"
    if t in _NAMES:
        word = _text(node)
        return "cls" if word == "Self" else word
    if t in _UNWRAP:
        wrapped = node.child_by_field_name("function") or node.child_by_field_name("type")
        named = wrapped or next((c for c in node.named_children if c.type not in ("type_arguments", "type_argument_list")), None)
        return dotted(named)
    if t in _MEMBER_FIELDS:
        obj_field, name_field = _MEMBER_FIELDS[t]
        obj: Node | None
        member: Node | None
        if obj_field:
            obj = node.child_by_field_name(obj_field)
            member = node.child_by_field_name(name_field)
            if obj is None and member is not None and t == "member_access_expression":
                obj = next((c for c in node.children if c.type in _SELF | _SUPER), None)  # C# ``this.X``
        else:
            kids = node.named_children
            obj, member = (kids[0], kids[-1]) if len(kids) >= 2 else (None, None)
            if member is not None and member.type == "navigation_suffix":
                member = member.named_children[-1] if member.named_children else None
        if member is None:
            return None
        head = dotted(obj) if obj is not None else None
        tail = _text(member)
        return f"{head or '?'}.{tail}" if obj is not None else tail
    if t in _CALLS:
        inner = callee(node)
        return f"{inner}()" if inner and not inner.endswith("()") else None
    if t in _NEWS:
        inner = dotted(node.child_by_field_name("constructor") or node.child_by_field_name("type"))
        return f"{inner}()" if inner else None
    return "?"


def callee(call: Node) -> str | None:
    """The dotted name a call node calls."""
    if call.type == "method_invocation":  # Java: object and name are separate fields
        name = _text(call.child_by_field_name("name"))
        obj = call.child_by_field_name("object")
        if obj is None:
            return name or None
        head = dotted(obj)
        return f"{head or '?'}.{name}"
    fn = call.child_by_field_name("function")
    if fn is None:  # Kotlin: the callee is the first child
        fn = call.named_children[0] if call.named_children else None
    return dotted(fn)


def type_value(type_text: str | None) -> str | None:
    """A written type as an instance expression: ``Warehouse<String>`` -> ``Warehouse()``.

    Arrays, tuples and function types say nothing about one object and give None.
    """
    if not type_text:
        return None
    t = type_text.strip()
    if t.isidentifier():  # the common case, without the regexes below
        if t in _INFERRED or t in _PRIMITIVE:
            return None
        return "cls()" if t == "Self" else f"{t}()"
    t = t.lstrip(":").strip()
    if not t or t.startswith(("(", "[", "{", "fn", "func")) or _ARRAY.search(t) or "=>" in t or "|" in t:
        return None
    t = re.sub(r"<.*>", "", t, flags=re.S).strip().rstrip("?!").lstrip("*&").replace("mut ", "").strip()
    t = t.replace("::", ".")
    if not re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", t):
        return None
    if t in _INFERRED or t in _PRIMITIVE:
        return None
    if t == "Self":
        t = "cls"
    return f"{t}()"


def value_of(node: Node | None) -> str | None:
    """A value worth remembering: a construction, a call's result, another name."""
    if node is None:
        return None
    while node.type in ("await_expression", "parenthesized_expression", "non_null_expression", "expression_list") \
            and node.named_children:
        node = node.named_children[0]
    if node.type in _CALLS or node.type in _NEWS or node.type in _MEMBER_FIELDS or node.type in _NAMES \
            or node.type in _SELF:
        expr = dotted(node)
        return expr if expr and "?" not in expr else None
    return None


def collect(root: Node, language: Language | None = None) -> FileUses:
    """Every call and typed name under ``root``, in source order.

    With the grammar's ``language`` the interesting nodes are found by a tree-sitter
    query (in C, several times faster than visiting every node from Python).
    """
    nodes = _matches(root, language) if language is not None else None
    if nodes is None:
        nodes = []
        stack = [root]
        while stack:
            node = stack.pop()
            if node.type in _INTERESTING:
                nodes.append(node)
            stack.extend(node.named_children)
    uses: list[Use] = []
    bindings: list[Binding] = []
    for node in nodes:
        t = node.type
        if t in _CALLS:
            expr = callee(node)
            if expr and not expr.startswith("?") and expr not in ("self", "super"):
                uses.append(Use(expr, _line(node), True))
        elif t in _NEWS:
            expr = dotted(node.child_by_field_name("constructor") or node.child_by_field_name("type"))
            if expr and "?" not in expr:
                uses.append(Use(expr, _line(node), True))
        elif t == "macro_invocation":
            uses.extend(macro_calls(node))
        elif t == "short_var_declaration":
            bindings.extend(_pairs(node.child_by_field_name("left"), node.child_by_field_name("right"), node))
        elif t in _ASSIGN:
            left = node.child_by_field_name("left")
            target = dotted(left) if left is not None else None
            value = value_of(node.child_by_field_name("right"))
            if target and value and target.startswith("self.") and target.count(".") == 1:
                bindings.append(Binding(target, value, _line(node), False))
        else:
            bindings.extend(_bindings(node))
    uses.sort(key=lambda u: u.line)
    bindings.sort(key=lambda b: b.line)
    return FileUses(tuple(uses), tuple(bindings))


_INTERESTING = _CALLS | _NEWS | _DECLARATORS | _ASSIGN | {
    "local_variable_declaration", "variable_declaration", "short_var_declaration", "macro_invocation",
}
_PATH_JOINS = frozenset({".", "::"})


def macro_calls(node: Node) -> list[Use]:
    """Calls written inside a Rust macro's arguments (``assert_eq!(b.len(), 3)``), which the
    grammar leaves as a flat token tree. The macro itself (``foo!``) is not a call of a
    function ``foo``: macros and functions live in different namespaces."""
    tree = next((c for c in node.children if c.type == "token_tree"), None)
    return _token_calls(tree) if tree is not None else []


def _token_calls(tree: Node) -> list[Use]:
    out: list[Use] = []
    path: list[str] = []
    start = 0
    joined = False  # the previous token was ``.`` or ``::``: the next name extends ``path``
    for c in tree.children:
        if c.type in ("identifier", "self") or (c.is_named and c.type in ("crate", "super")):
            word = {"self": "self", "crate": "?", "super": "?"}.get(c.type, _text(c))
            word = "cls" if word == "Self" else word
            if not (joined and path):
                path, start = [], _line(c)
            path.append(word)
            joined = False
        elif c.type in _PATH_JOINS:
            joined = True
        elif c.type == "token_tree":
            called = bool(path) and not joined and _text(c).startswith("(")
            if called:
                expr = ".".join(path)
                if not expr.startswith("?") and expr not in ("self", "super"):
                    out.append(Use(expr, start, True))
            out.extend(_token_calls(c))
            path = [f"{'.'.join(path)}()"] if called else []
            joined = False
        else:
            path, joined = [], False
    return out
# Compiled queries by grammar. Each entry keeps its ``Language`` alive and is checked by
# identity: keyed by ``id()`` alone, a grammar loaded again after ``grammars.reset()`` could
# land at a freed grammar's address and get that grammar's query, which matches nothing
# (or the wrong nodes), so calls went missing in whichever test ran after a reset.
_QUERIES: dict[int, tuple[Language, Query | None]] = {}


def _matches(root: Node, language: Language) -> list[Node] | None:
    """The interesting nodes under ``root`` by one query per grammar (None: no query possible)."""
    key = id(language)
    entry = _QUERIES.get(key)
    if entry is None or entry[0] is not language:
        kinds = sorted(k for k in _INTERESTING if language.id_for_node_kind(k, True))
        compiled: Query | None
        try:
            compiled = Query(language, "[" + " ".join(f"({k})" for k in kinds) + "] @n") if kinds else None
        except (QueryError, ValueError):
            compiled = None  # a grammar whose node names the query cannot use: walk instead
        entry = _QUERIES[key] = (language, compiled)
    query = entry[1]
    if query is None:
        return None
    return QueryCursor(query).captures(root).get("n", [])


def _bindings(node: Node) -> list[Binding]:
    t = node.type
    if t in ("local_variable_declaration", "variable_declaration") and node.child_by_field_name("type") is not None:
        # Java ``Warehouse<String> w = ...``, C# ``Ledger l = ...`` / ``var l = new Ledger()``
        typed = type_value(_text(node.child_by_field_name("type")))
        out = []
        for d in node.named_children:
            if d.type != "variable_declarator":
                continue
            name = _text(d.child_by_field_name("name") or next(iter(d.named_children), None))
            value = typed or value_of(d.child_by_field_name("value") or (d.named_children[-1] if len(d.named_children) > 1 else None))
            if name and value:
                out.append(Binding(name, value, _line(d), typed is not None))
        return out
    if t == "variable_declaration":  # Kotlin ``val x: T`` inside a property: handled by its parent
        return []
    if t == "property_declaration":  # Kotlin ``val s = Shelf(1)`` / ``val s: Shelf = ...``
        var = next((c for c in node.named_children if c.type == "variable_declaration"), None)
        if var is None:
            return []
        ident = next((c for c in var.named_children if c.type in _NAMES), None)
        typ = next((c for c in var.named_children if c.type in ("user_type", "nullable_type")), None)
        value_node = next((c for c in node.named_children if c is not var and c.type not in ("modifiers",)), None)
        typed = type_value(_text(typ)) if typ is not None else None
        value = typed or value_of(value_node)
        return [Binding(_text(ident), value, _line(node), typed is not None)] if ident is not None and value else []
    name_node = node.child_by_field_name("name") or node.child_by_field_name("pattern")
    if name_node is None and t == "variable_declarator":
        name_node = next(iter(node.named_children), None)
    if name_node is None or name_node.type not in _NAMES:
        return []
    typed = type_value(_text(node.child_by_field_name("type")))
    value_node = node.child_by_field_name("value")
    if value_node is None and t == "variable_declarator" and len(node.named_children) > 1:
        value_node = node.named_children[-1]  # C#: the initial value has no field name
    value = typed or value_of(value_node)
    return [Binding(_text(name_node), value, _line(node), typed is not None)] if value else []


def _pairs(left: Node | None, right: Node | None, at: Node) -> list[Binding]:
    """Go ``a, b := f(), g()``: name i holds value i (a single call on the right binds the first)."""
    if left is None or right is None:
        return []
    names = [c for c in left.named_children if c.type in _NAMES]
    values = right.named_children
    out = []
    for i, n in enumerate(names):
        if i < len(values):
            value = value_of(values[i])
            if value:
                out.append(Binding(_text(n), value, _line(at), False))
    return out
