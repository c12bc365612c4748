"""Per-language node-type tables: which tree-sitter nodes are declarations, and of what kind.

The extractor (``extract.py``) is shared; what differs between grammars lives here.
Node types were read off the pinned grammar versions (see pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

DocStyle = Literal["jsdoc", "xml", "go", "rust"]


@dataclass(frozen=True, slots=True)
class LangSpec:
    decls: Mapping[str, str]  # node type -> DeclKind (refined in extract for a few grammars)
    bodies: frozenset[str]  # node types holding a declaration's members / statements
    wrappers: frozenset[str]  # looked through; their span belongs to the declaration inside
    namespaces: frozenset[str]  # push their name onto the scope (C# namespace, Rust mod)
    packages: frozenset[str]  # file-level package declaration
    imports: frozenset[str]
    comments: frozenset[str]
    attached: frozenset[str]  # preceding siblings that belong to the next declaration
    annotations: frozenset[str]  # removed from signatures (they stay in the span)
    params: frozenset[str]  # parameter-list node types
    heritage: frozenset[str]  # extends / implements clauses
    doc: DocStyle
    module_path: bool = False  # scope from the file path (TS/JS, Rust) rather than a package line
    variables: frozenset[str] = field(default_factory=frozenset)  # const f = () => ...


_JS_DECLS = {
    "class_declaration": "class",
    "abstract_class_declaration": "class",
    "class": "class",
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "method_definition": "method",
    "method_signature": "method",
    "abstract_method_signature": "method",
    "function_signature": "function",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "type_alias_declaration": "type",
    "internal_module": "module",
    "module": "module",
}
_JS_BODIES = frozenset({"class_body", "interface_body", "statement_block", "enum_body", "object_type"})
_JS = {
    "bodies": _JS_BODIES,
    "wrappers": frozenset({"export_statement", "ambient_declaration", "expression_statement"}),
    "namespaces": frozenset(),
    "packages": frozenset(),
    "imports": frozenset({"import_statement"}),
    "comments": frozenset({"comment"}),
    "attached": frozenset({"decorator"}),
    "annotations": frozenset({"decorator"}),
    "params": frozenset({"formal_parameters"}),
    "heritage": frozenset({"class_heritage", "extends_clause", "implements_clause", "extends_type_clause"}),
    "doc": "jsdoc",
    "module_path": True,
    "variables": frozenset({"lexical_declaration", "variable_declaration"}),
}

SPECS: dict[str, LangSpec] = {
    "typescript": LangSpec(decls=_JS_DECLS, **_JS),  # type: ignore[arg-type]
    "javascript": LangSpec(decls=_JS_DECLS, **_JS),  # type: ignore[arg-type]
    "java": LangSpec(
        decls={
            "class_declaration": "class",
            "interface_declaration": "interface",
            "annotation_type_declaration": "interface",
            "enum_declaration": "enum",
            "record_declaration": "record",
            "method_declaration": "method",
            "constructor_declaration": "constructor",
            "compact_constructor_declaration": "constructor",
        },
        bodies=frozenset({"class_body", "interface_body", "enum_body", "annotation_type_body", "block",
                          "constructor_body", "enum_body_declarations"}),
        wrappers=frozenset(),
        namespaces=frozenset(),
        packages=frozenset({"package_declaration"}),
        imports=frozenset({"import_declaration"}),
        comments=frozenset({"block_comment", "line_comment"}),
        attached=frozenset(),
        annotations=frozenset({"annotation", "marker_annotation"}),
        params=frozenset({"formal_parameters"}),
        heritage=frozenset({"superclass", "super_interfaces", "extends_interfaces"}),
        doc="jsdoc",
    ),
    "kotlin": LangSpec(
        decls={
            "class_declaration": "class",
            "object_declaration": "object",
            "companion_object": "object",
            "function_declaration": "function",
            "property_declaration": "property",
            "secondary_constructor": "constructor",
            "type_alias": "type",
        },
        bodies=frozenset({"class_body", "enum_class_body", "function_body", "block"}),
        wrappers=frozenset(),
        namespaces=frozenset(),
        packages=frozenset({"package_header"}),
        imports=frozenset({"import", "import_header"}),
        comments=frozenset({"block_comment", "line_comment"}),
        # At the top level the grammar reads `@Suppress("X")` on its own line above `public fun`
        # as an annotation of the expression `("X")`: it belongs to the declaration below.
        attached=frozenset({"annotated_expression"}),
        annotations=frozenset({"annotation"}),
        params=frozenset({"function_value_parameters", "class_parameters"}),
        heritage=frozenset({"delegation_specifiers", "delegation_specifier"}),
        doc="jsdoc",
    ),
    "csharp": LangSpec(
        decls={
            "class_declaration": "class",
            "interface_declaration": "interface",
            "enum_declaration": "enum",
            "struct_declaration": "struct",
            "record_declaration": "record",
            "record_struct_declaration": "record",
            "method_declaration": "method",
            "constructor_declaration": "constructor",
            "property_declaration": "property",
            "delegate_declaration": "type",
            "operator_declaration": "method",
            "indexer_declaration": "property",
            "event_declaration": "property",
            "local_function_statement": "function",
        },
        bodies=frozenset({"declaration_list", "enum_member_declaration_list", "block", "accessor_list"}),
        wrappers=frozenset(),
        namespaces=frozenset({"namespace_declaration", "file_scoped_namespace_declaration"}),
        packages=frozenset(),
        imports=frozenset({"using_directive"}),
        comments=frozenset({"comment"}),
        attached=frozenset(),
        annotations=frozenset({"attribute_list"}),
        params=frozenset({"parameter_list"}),
        heritage=frozenset({"base_list"}),
        doc="xml",
    ),
    "go": LangSpec(
        decls={
            "function_declaration": "function",
            "method_declaration": "method",
            "type_spec": "type",
            "type_alias": "type",
        },
        bodies=frozenset({"block"}),
        wrappers=frozenset({"type_declaration"}),
        namespaces=frozenset(),
        packages=frozenset({"package_clause"}),
        imports=frozenset({"import_spec"}),
        comments=frozenset({"comment"}),
        attached=frozenset(),
        annotations=frozenset(),
        params=frozenset({"parameter_list"}),
        heritage=frozenset(),
        doc="go",
    ),
    "rust": LangSpec(
        decls={
            "struct_item": "struct",
            "enum_item": "enum",
            "union_item": "struct",
            "trait_item": "trait",
            "impl_item": "impl",
            "function_item": "function",
            "function_signature_item": "function",
            "type_item": "type",
            "macro_definition": "function",
        },
        bodies=frozenset({"declaration_list", "block", "field_declaration_list", "enum_variant_list"}),
        wrappers=frozenset(),
        namespaces=frozenset({"mod_item"}),
        packages=frozenset(),
        imports=frozenset({"use_declaration"}),
        comments=frozenset({"line_comment", "block_comment"}),
        attached=frozenset({"attribute_item"}),
        annotations=frozenset({"attribute_item"}),
        params=frozenset({"parameters"}),
        heritage=frozenset(),
        doc="rust",
        module_path=True,
    ),
}
