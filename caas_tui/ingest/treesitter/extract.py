"""A tree-sitter tree -> ``Outline``: one walker for every grammar, driven by ``specs.py``."""

from __future__ import annotations

import re

from tree_sitter import Node

from caas_tui.ingest.treesitter import docs
from caas_tui.ingest.treesitter.imports import imports_of, is_reexport, require_of
from caas_tui.ingest.treesitter.naming import join, js_module_name, rust_module_name
from caas_tui.ingest.treesitter.nodes import child_of as _child
from caas_tui.ingest.treesitter.nodes import first_line, last_line
from caas_tui.ingest.treesitter.nodes import text_of as _text
from caas_tui.ingest.treesitter.outline import TYPE_KINDS, Decl, DeclKind, DocComment, Import, Outline, Param
from caas_tui.ingest.treesitter.params import params_of_node
from caas_tui.ingest.treesitter.specs import LangSpec

_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
_CUTS = frozenset({"function_body", "arrow_expression_clause", "block", "statement_block"})
_TYPE_SKIP = frozenset({"type_arguments", "type_parameters", "value_arguments", "arguments", "type_argument_list"})
_BASE_NAMES = frozenset({"type_identifier", "identifier", "scoped_type_identifier", "qualified_name"})
_RUST_TEST = re.compile(r"#\[\s*(?:[\w:]+::)?test\s*\]")
_SPACE = re.compile(r"\s+")
_GENERIC = re.compile(r"<.*>$", re.S)


def _bare_type(name: str) -> str:
    """``*Stock`` / ``Bin<T>`` / ``&'a mut Bin`` -> the type's own name."""
    name = _GENERIC.sub("", name.strip())
    return name.lstrip("*&").replace("mut ", "").strip().split("::")[-1].split(".")[-1].strip()


class Extractor:
    def __init__(self, spec: LangSpec, language: str, path: str) -> None:
        self.spec = spec
        self.language = language
        self.path = path
        self.imports: list[Import] = []
        self.import_spans: list[tuple[int, int]] = []  # whole statements, for the chunker
        self.module_doc: DocComment | None = None

    # -- file ----------------------------------------------------------------------------------
    def outline(self, root: Node) -> Outline:
        scope = self._scope(root)
        decls = self._items(root, scope, None, False)
        return Outline(
            self.path, self.language, scope, tuple(self.imports), tuple(decls), self.module_doc, _error_lines(root),
            tuple(self.import_spans),
        )

    def _scope(self, root: Node) -> str:
        if self.spec.module_path:
            return rust_module_name(self.path) if self.language == "rust" else js_module_name(self.path)
        for child in root.named_children:
            if child.type in self.spec.packages:
                named = [c for c in child.named_children if c.type not in self.spec.comments]
                return _SPACE.sub("", _text(named[-1])) if named else ""
        return ""

    # -- scopes --------------------------------------------------------------------------------
    def _items(self, container: Node, prefix: str, parent: str | None, in_test: bool) -> list[Decl]:
        spec = self.spec
        out: list[Decl] = []
        pending: list[Node] = []
        for child in container.named_children:
            t = child.type
            if pending and first_line(child) > last_line(pending[-1]) + 1:
                pending = []  # a blank line separates a comment from what follows
            if t in spec.comments or t in spec.attached:
                if spec.doc == "rust" and docs.is_inner_doc(_text(child)):
                    self._module_doc(child)
                    continue
                pending.append(child)
                continue
            if t in spec.packages:
                if spec.doc == "go" and pending:
                    self.module_doc = self._doc(pending, first_line(child))[0]
            elif t == "file_scoped_namespace_declaration":
                prefix = join(prefix, _SPACE.sub("", _text(child.child_by_field_name("name"))))
            elif t in spec.imports or (t == "import_declaration" and self.language == "go") or is_reexport(child):
                self._import(child)
            elif t in spec.bodies and t not in _CUTS:
                out.extend(self._items(child, prefix, parent, in_test))
            else:
                out.extend(self._item(child, prefix, parent, in_test, pending, None))
            pending = []
        return out

    def _item(
        self, node: Node, prefix: str, parent: str | None, in_test: bool, pending: list[Node], outer: Node | None
    ) -> list[Decl]:
        spec, t = self.spec, node.type
        if t in spec.wrappers:
            inner = [c for c in node.named_children if c.type in spec.decls or c.type in spec.variables
                     or c.type in spec.wrappers or c.type in spec.namespaces]
            attached = [c for c in node.named_children if c.type in spec.attached]
            out: list[Decl] = []
            for i, c in enumerate(inner):
                out.extend(self._item(c, prefix, parent, in_test, [*pending, *attached] if i == 0 else [],
                                      node if len(inner) == 1 else None))
            return out
        if t in spec.variables:
            return self._variables(node, prefix, parent, pending, outer)
        if t in ("public_field_definition", "field_definition"):
            value = node.child_by_field_name("value")
            if value is not None and value.type in _FUNCTION_VALUES:
                return [self._decl(node, "method", prefix, parent, in_test, pending, outer, fn=value)]
            return []
        if t in spec.namespaces:
            return [self._decl(node, "module", prefix, parent, in_test, pending, outer)]
        if t == "companion_object" and node.child_by_field_name("name") is None:
            body = _body(node, spec)
            return self._items(body, prefix, parent, in_test) if body is not None else []
        if t in spec.decls:
            return [self._decl(node, spec.decls[t], prefix, parent, in_test, pending, outer)]  # type: ignore[arg-type]
        if t == "import_declaration" and self.language == "go":
            self._import(node)
        return []

    def _variables(
        self, node: Node, prefix: str, parent: str | None, pending: list[Node], outer: Node | None
    ) -> list[Decl]:
        declarators = [c for c in node.named_children if c.type == "variable_declarator"]
        out: list[Decl] = []
        for d in declarators:
            value = d.child_by_field_name("value")
            if value is None:
                continue
            if value.type == "call_expression" and _text(value.child_by_field_name("function")) == "require":
                self._require(d, value)
            elif value.type in _FUNCTION_VALUES:
                span = (outer or node) if len(declarators) == 1 else d
                out.append(self._decl(d, "function", prefix, parent, False, pending, span, fn=value, sig_node=node))
        return out

    # -- one declaration -----------------------------------------------------------------------
    def _decl(
        self,
        node: Node,
        kind: DeclKind,
        prefix: str,
        parent: str | None,
        in_test: bool,
        pending: list[Node],
        outer: Node | None,
        fn: Node | None = None,
        sig_node: Node | None = None,
    ) -> Decl:
        spec = self.spec
        span = outer or node
        kind = self._refine(node, kind, parent)
        name = self._name(node, kind)
        qualifier = self._receiver(node)
        if qualifier:
            parent = join(prefix, qualifier)
            symbol = join(parent, name)
        else:
            symbol = join(prefix, name)
        decl_start = first_line(span)
        doc, start = self._doc(pending, decl_start)
        attrs = [p for p in pending if p.type in spec.attached and first_line(p) >= start]
        is_test = in_test or (self.language == "rust" and any(_RUST_TEST.search(_text(a)) for a in attrs))
        if self.language == "rust" and kind == "module":
            is_test = is_test or any("cfg(test)" in _SPACE.sub("", _text(a)) for a in attrs)
        members: list[Decl] = []
        if kind in TYPE_KINDS:
            body = _body(node, spec)
            if body is not None:
                members = self._items(body, symbol, symbol if kind != "module" else None, is_test)
        target = fn or node
        return Decl(
            kind=kind,
            name=name,
            symbol=symbol,
            parent=parent,
            start=start,
            end=last_line(span),
            decl_start=decl_start,
            signature=self._signature(sig_node or node, fn),
            params=self._params(target),
            returns=self._returns(target) if kind not in TYPE_KINDS else None,
            bases=self._bases(node),
            doc=doc,
            is_test=is_test,
            members=tuple(members),
        )

    def _refine(self, node: Node, kind: DeclKind, parent: str | None) -> DeclKind:
        if self.language == "kotlin" and node.type == "class_declaration":
            words = {c.type for c in node.children if not c.is_named}
            if "interface" in words:
                return "interface"
            mods = _text(node.child_by_field_name("modifiers") or _child(node, "modifiers"))
            if "enum" in words or re.search(r"\benum\b", mods):
                return "enum"
        if self.language == "go" and node.type == "type_spec":
            inner = node.child_by_field_name("type")
            return {"struct_type": "struct", "interface_type": "interface"}.get(inner.type if inner else "", "type")  # type: ignore[return-value]
        if kind == "method" and _text(node.child_by_field_name("name")) == "constructor":
            return "constructor"
        if kind == "function" and parent is not None:
            return "method"
        return kind

    def _name(self, node: Node, kind: DeclKind) -> str:
        if node.type == "impl_item":
            return _bare_type(_text(node.child_by_field_name("type")))
        if node.type == "secondary_constructor":
            return "constructor"
        name = node.child_by_field_name("name")
        if name is None:
            var = _child(node, "variable_declaration")  # Kotlin ``val items: T``
            name = _child(var or node, "identifier") or _child(node, "type_identifier")
        return _SPACE.sub("", _text(name)) or "<anonymous>"

    def _receiver(self, node: Node) -> str | None:
        """Go method receivers and Kotlin extension receivers qualify the function."""
        if self.language == "go" and node.type == "method_declaration":
            recv = node.child_by_field_name("receiver")
            params = [c for c in recv.named_children if c.type == "parameter_declaration"] if recv else []
            if params:
                return _bare_type(_text(params[0].child_by_field_name("type")))
        if self.language == "kotlin" and node.type == "function_declaration":
            for c in node.children:
                if c.type in ("user_type", "nullable_type", "receiver_type"):
                    return _bare_type(_text(c))
                if node.field_name_for_child(node.children.index(c)) == "name":
                    break
        return None

    def _doc(self, pending: list[Node], decl_start: int) -> tuple[DocComment | None, int]:
        """The doc comment among the comments/attributes right above a declaration, and where
        the declaration's span starts (its doc comment and attributes included)."""
        style = self.spec.doc
        start = decl_start
        comments: list[Node] = []
        for node in reversed(pending):
            if node.type in self.spec.attached:
                if comments:
                    break
                start = first_line(node)
                continue
            text = _text(node)
            if not docs.is_doc(text, style):
                if not comments and style != "go" and node.type in self.spec.comments:
                    # A plain comment between the doc and its declaration (`//@Immutable`, an
                    # eslint or istanbul directive) leaves the doc attached, as javadoc, tsc and
                    # rustdoc read it; Go's doc is the comment group itself.
                    continue
                break
            comments.insert(0, node)
            start = first_line(node)
            if style == "jsdoc" or text.startswith("/*"):
                break  # one block comment is the doc; an earlier one is something else
        if not comments:
            return None, start
        raw = "\n".join(_text(c) for c in comments)
        text = docs.clean(raw, style)
        if not text:
            return None, start
        return DocComment(text, raw, first_line(comments[0]), last_line(comments[-1])), start

    def _module_doc(self, node: Node) -> None:
        prev = self.module_doc
        raw = (prev.raw + "\n" if prev else "") + _text(node)
        self.module_doc = DocComment(
            docs.clean(raw, self.spec.doc), raw, prev.start if prev else first_line(node), last_line(node)
        )

    # -- signature, parameters, bases ------------------------------------------------------------
    def _signature(self, node: Node, fn: Node | None) -> str:
        if self.language == "go" and node.type == "type_spec":
            inner = node.child_by_field_name("type")
            kw = {"struct_type": "struct", "interface_type": "interface"}.get(inner.type if inner else "")
            return f"type {_text(node.child_by_field_name('name'))} {kw or _text(inner).split(chr(10))[0]}"
        cut_node = _body(fn or node, self.spec)
        end = cut_node.start_byte if cut_node is not None else node.end_byte
        skip: list[tuple[int, int]] = []
        stack = list(node.children)
        while stack:
            c = stack.pop()
            if c.start_byte >= end:
                continue
            if c.type in self.spec.annotations or c.type in self.spec.comments:
                skip.append((c.start_byte, c.end_byte))
            elif c.child_count and c.start_byte < end:
                stack.extend(c.children)
        data = node.text or b""
        base = node.start_byte
        parts, pos = [], base
        for s, e in sorted(skip):
            parts.append(data[pos - base : max(pos, s) - base])
            pos = max(pos, e)
        parts.append(data[pos - base : end - base])
        sig = _SPACE.sub(" ", b"".join(parts).decode("utf-8", "replace")).strip()
        return sig.rstrip(";{=").rstrip() if sig.endswith((";", "{", "=")) else sig

    def _params(self, node: Node) -> tuple[Param, ...]:
        plist = node.child_by_field_name("parameters") or next(
            (c for c in node.named_children if c.type in self.spec.params), None
        )
        if plist is None:
            ctor = _child(node, "primary_constructor")
            plist = next((c for c in ctor.named_children if c.type in self.spec.params), None) if ctor else None
        return params_of_node(plist, self.spec) if plist is not None else ()

    def _returns(self, node: Node) -> str | None:
        for field in ("return_type", "returns", "result", "type"):
            r = node.child_by_field_name(field)
            if r is not None:
                return _text(r).lstrip(":").strip() or None
        if self.language == "kotlin":
            seen_params = False
            for c in node.named_children:
                if c.type == "function_value_parameters":
                    seen_params = True
                elif seen_params and (c.type.endswith("_type") or c.type == "user_type"):
                    return _text(c)
        return None

    def _bases(self, node: Node) -> tuple[str, ...]:
        if node.type == "impl_item":
            trait = node.child_by_field_name("trait")
            return (_bare_type(_text(trait)),) if trait is not None else ()
        clauses = [c for c in node.named_children if c.type in self.spec.heritage]
        out: list[str] = []
        stack = list(reversed(clauses))
        while stack:
            c = stack.pop()
            if c.type in _TYPE_SKIP:
                continue
            if c.type in _BASE_NAMES:
                out.append(_text(c))
                continue
            stack.extend(reversed(c.named_children))
        return tuple(dict.fromkeys(out))

    # -- imports -------------------------------------------------------------------------------
    def _import(self, node: Node) -> None:
        self.imports.extend(imports_of(node, self.spec, self.language))
        self.import_spans.append((first_line(node), last_line(node)))

    def _require(self, declarator: Node, call: Node) -> None:
        found = require_of(declarator, call)
        if found is not None:
            self.imports.append(found)


def _body(node: Node, spec: LangSpec) -> Node | None:
    body = node.child_by_field_name("body")
    if body is not None:
        return body
    return next((c for c in node.named_children if c.type in spec.bodies or c.type in _CUTS), None)


def _error_lines(root: Node) -> int:
    if not root.has_error:
        return 0
    lines: set[int] = set()
    stack = [root]
    while stack:
        n = stack.pop()
        if n.is_error or n.is_missing:
            lines.update(range(first_line(n), last_line(n) + 1))
        elif n.has_error:
            stack.extend(n.children)
    return len(lines)
