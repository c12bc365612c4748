"""Parameters of a tree-sitter language's declaration as a caller sees them, and whether a
call fits them: optional / default / variadic per language, named arguments where the
language has them (Kotlin, C#).

Read from the declaration's signature text, which keeps what the outline's ``Param``
does not say (TS ``b?: string``, C# ``params int[] c``, Kotlin ``vararg``); the outline's
parameters are the fallback when the signature has no parameter list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from caas_tui.ingest.treesitter import Decl

NAMED_ARGS: frozenset[str] = frozenset({"kotlin", "csharp"})
# ``name: Type`` (Go: ``name Type``) rather than Java / C#'s ``Type name``.
_COLON_TYPED = frozenset({"typescript", "javascript", "kotlin", "rust", "go"})
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_RUST_SELF = re.compile(r"^&?\s*(?:'\w+\s+)?(?:mut\s+)?self\b")
_MODIFIERS = {
    "typescript": ("public", "private", "protected", "readonly", "override"),
    "javascript": (),
    "java": ("final",),
    "kotlin": ("val", "var", "private", "public", "protected", "internal", "override", "crossinline", "noinline"),
    "csharp": ("ref", "out", "in", "this", "scoped", "readonly"),
    "go": (),
    "rust": ("mut",),
}


@dataclass(frozen=True, slots=True)
class ParamSpec:
    name: str | None  # None for a destructured pattern: positional only
    optional: bool = False
    variadic: bool = False


_GROUPED = ParamSpec("")  # Go ``a, b int``: ``a`` waits for the type of the group


def split_top(text: str, sep: str = ",") -> list[str]:
    """``text`` split at ``sep`` outside brackets and string literals."""
    out: list[str] = []
    depth, quote, cur = 0, "", []
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in "\"'`":
            quote = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>" and depth > 0:
            depth -= 1
        elif ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    out.append("".join(cur))
    return [p.strip() for p in out if p.strip()]


def _skip_balanced(text: str, i: int, open_ch: str, close_ch: str) -> int:
    depth = 0
    while i < len(text):
        if text[i] == open_ch:
            depth += 1
        elif text[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def _param_list(signature: str, name: str) -> str | None:
    """The text inside the parentheses following ``name`` (generics and ``= (`` allowed between)."""
    for m in re.finditer(rf"(?<![\w$]){re.escape(name)}(?![\w$])", signature):
        i = m.end()
        if signature[i:i + 1] in ("<", "["):
            i = _skip_balanced(signature, i, signature[i], ">" if signature[i] == "<" else "]")
        rest = re.match(r"\s*(?:=\s*(?:async\s*)?)?(?:<[^()]*>\s*)?\(", signature[i:])
        if rest is None:
            continue
        start = i + rest.end() - 1
        end = _skip_balanced(signature, start, "(", ")")
        return signature[start + 1 : end - 1]
    return None


def _strip_annotations(text: str) -> str:
    return re.sub(r"^(?:@[\w.]+(?:\([^)]*\))?\s+|\[[^\]]*\]\s*)+", "", text).strip()


def _one(text: str, language: str, go_group: list[ParamSpec]) -> ParamSpec | None:
    text = _strip_annotations(text)
    if language == "rust" and _RUST_SELF.match(text):
        return None
    default = "=" in re.sub(r"=>|==|[<>!]=", "", text.split(":", 1)[0] if language in ("go", "rust") else text)
    head = text.split("=", 1)[0].strip() if default else text
    variadic = False
    if head.startswith("..."):
        variadic, head = True, head[3:]
    words = head.split()
    mods = _MODIFIERS.get(language, ())
    if language == "kotlin" and words and words[0] == "vararg":
        variadic, words = True, words[1:]
    if language == "csharp" and words and words[0] == "params":
        variadic, words = True, words[1:]
    while words and words[0] in mods:
        words = words[1:]
    head = " ".join(words)
    if language == "csharp" and head == "__arglist":
        return ParamSpec(None, True, True)
    if language in _COLON_TYPED:
        name_part = head.split(":", 1)[0].strip() if language != "go" else head.split()[0] if head else ""
        if language == "go":
            rest = head.split(None, 1)[1] if len(head.split()) > 1 else ""
            if rest.startswith("..."):
                variadic = True
            if not rest:  # ``a, b int``: ``a`` takes the type (and variadic flag) of the group
                go_group.append(ParamSpec(name_part or None))
                return _GROUPED
        optional = name_part.endswith("?")
        name_part = name_part.rstrip("?").strip()
        name = name_part if _IDENT.fullmatch(name_part) else None
        return ParamSpec(name, optional or default, variadic)
    # Java / C#: ``Type name`` (Java varargs ``Type... name``)
    if "..." in head:
        variadic = True
    last = head.replace("...", " ").split()[-1] if head.split() else ""
    return ParamSpec(last if _IDENT.fullmatch(last) else None, default, variadic)


def is_extension(decl: Decl, language: str) -> bool:
    """A C# extension method (``static int Count(this Stack s)``): callable on its first parameter."""
    inner = _param_list(decl.signature, decl.name) if language == "csharp" else None
    return inner is not None and _strip_annotations(inner).startswith("this ")


def params_of(decl: Decl, language: str, *, on_receiver: bool = False) -> tuple[ParamSpec, ...]:
    """The declaration's parameters as a caller passes them (Rust ``self`` left out; a C#
    extension method called on its receiver without its ``this`` parameter)."""
    if on_receiver:
        return params_of(decl, language)[1:]
    inner = _param_list(decl.signature, decl.name)
    if inner is None and decl.kind == "constructor":
        inner = _param_list(decl.signature, "constructor")
    if inner is None:
        return tuple(
            ParamSpec(p.name if _IDENT.fullmatch(p.name) else None, p.optional or p.default is not None, p.variadic)
            for p in decl.params if not (language == "rust" and _RUST_SELF.match(p.name))
        )
    out: list[ParamSpec] = []
    group: list[ParamSpec] = []
    for part in split_top(inner):
        spec = _one(part, language, group)
        if spec is None:
            continue
        if spec is _GROUPED:
            continue
        if group:
            out.extend(ParamSpec(g.name, spec.optional, False) for g in group)
            group.clear()
        if language == "typescript" and spec.name == "this" and not out:
            continue  # TS ``this`` parameter: a type annotation, not an argument
        out.append(spec)
    out.extend(group)
    return tuple(out)


def call_fits(params: tuple[ParamSpec, ...], positional: int, named: tuple[str, ...], language: str) -> str | None:
    """Why a call with ``positional`` arguments and ``named`` ones does not fit, or None."""
    names = [p.name for p in params]
    if named and language in NAMED_ARGS:
        for n in named:
            if n not in names:
                return f"has no parameter named `{n}`"
    variadic = any(p.variadic for p in params)
    fixed = [p for p in params if not p.variadic]
    if positional > len(fixed) and not variadic:
        return f"takes at most {len(fixed)} argument{'s' if len(fixed) != 1 else ''}, not {positional}"
    covered = {p.name for p in fixed[:positional]} | set(named)
    missing = [p for p in fixed[positional:] if not p.optional and p.name not in covered]
    if missing:
        need = sum(1 for p in fixed if not p.optional)
        return f"needs at least {need} argument{'s' if need != 1 else ''}, not {positional + len(named)}"
    return None


def arity_text(params: tuple[ParamSpec, ...]) -> str:
    required = sum(1 for p in params if not p.optional and not p.variadic)
    most = len([p for p in params if not p.variadic])
    if any(p.variadic for p in params):
        return f"{required} or more"
    return str(required) if required == most else f"{required} to {most}"
