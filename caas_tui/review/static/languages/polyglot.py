"""Calls to the project's TS/JS, Java, Kotlin, C#, Go and Rust code, in docs: code blocks
tagged with the language and calls written inline in prose (```Inventory.addItem(item)```).

A block is parsed with the language's tree-sitter grammar; each call is resolved through
``Engine.find_symbol`` (names bound earlier in the block are followed: ``val shelf =
Shelf(4)``), then checked against every overload's parameters. A name that does not
resolve is left alone (it may belong to a library); a member a resolved project type
lacks is reported, with a did-you-mean.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from caas_tui.ingest.treesitter import analyse, grammars
from caas_tui.models import Claim, SourceFile
from caas_tui.review.claims.mentions import code_spans
from caas_tui.review.static.context import ReviewContext, Suggestion
from caas_tui.review.static.findings import Edit, Finding, bad, ok
from caas_tui.review.static.languages.tssig import (
    NAMED_ARGS,
    ParamSpec,
    arity_text,
    call_fits,
    is_extension,
    params_of,
    split_top,
)
from caas_tui.review.static.languages.tsymbols import Found, Symbols, family, universal

# Fence tags -> language (the tags docs use for these languages).
BLOCK_TAGS: dict[str, str] = {
    "ts": "typescript", "typescript": "typescript", "tsx": "typescript", "js": "javascript", "javascript": "javascript",
    "jsx": "javascript", "mjs": "javascript", "java": "java", "kotlin": "kotlin", "kt": "kotlin", "kts": "kotlin",
    "csharp": "csharp", "cs": "csharp", "c#": "csharp", "go": "go", "golang": "go", "rust": "rust", "rs": "rust",
}
_TAG = re.compile(r"code block \(([^)\s]+)")
_CALL_NODES = frozenset({"call_expression", "method_invocation", "invocation_expression"})
_NEW_NODES = frozenset({"new_expression", "object_creation_expression"})
_ARG_LISTS = frozenset({"arguments", "argument_list", "value_arguments"})
_GENERICS = re.compile(r"<[^<>()]*>")
_KT_NAMED = re.compile(r"^\s*([A-Za-z_]\w*)\s*=(?!=)")
_CS_NAMED = re.compile(r"^\s*@?([A-Za-z_]\w*)\s*:(?!:)")
_INLINE_CALL = re.compile(r"^\s*(?:new\s+)?([A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*)\s*(?:<[^()]*>)?\s*\((.*)\)\s*;?\s*$",
                          re.DOTALL)
_WRAP = {"go": ("package main\nfunc _() {\n", "}\n"), "rust": ("fn _() {\n", "}\n"),
         "java": ("class _X { void _m() {\n", "}}\n"), "csharp": ("class _X { void _M() {\n", "}}\n")}


def block_language(claim: Claim) -> str | None:
    """The tree-sitter language of a code claim's fence tag, or None."""
    if claim.kind != "code":
        return None
    m = _TAG.search(claim.context)
    return BLOCK_TAGS.get(m.group(1).lower()) if m else None


def did_you_mean(ctx: ReviewContext, wrong: str, pool: set[str]) -> Suggestion | None:
    """The reviewer's one did-you-mean, over names of tree-sitter code (no Python ``Def`` owns them)."""
    if not pool:
        return None
    return ctx.suggest(None, wrong, pool)  # type: ignore[arg-type]  # the owner is only read when no pool is given


@dataclass(frozen=True, slots=True)
class CallSite:
    callee: str  # dotted, generics and ``new`` removed, ``::`` as ``.``
    line: int  # 0-based within the block
    positional: int
    named: tuple[str, ...]
    spread: bool  # ``...xs`` / ``*xs`` / ``xs...``: the count is unknown
    construct: bool  # ``new T(...)``
    text: str


def _callee_text(node_text: str) -> str | None:
    text = node_text.strip()
    text = re.sub(r"^new\s+", "", text)
    while _GENERICS.search(text):
        text = _GENERICS.sub("", text)
    text = text.replace("::", ".").replace("?.", ".").replace("!!", "").replace(" ", "")
    return text if re.fullmatch(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*", text) else None


def _arguments(args: list[str], language: str) -> tuple[int, tuple[str, ...], bool]:
    positional, named, spread = 0, [], False
    for a in args:
        a = a.strip()
        if not a:
            continue
        if a.startswith(("...", "*")) or a.endswith("..."):
            spread = True
            continue
        named_re = _KT_NAMED if language == "kotlin" else _CS_NAMED if language == "csharp" else None
        m = named_re.match(a) if named_re is not None else None
        if m is not None:
            named.append(m.group(1))
        else:
            positional += 1
    return positional, tuple(named), spread


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _node_call(n: Node, language: str) -> CallSite | None:
    kind = n.type
    construct = kind in _NEW_NODES
    if kind == "method_invocation":
        obj, name = n.child_by_field_name("object"), n.child_by_field_name("name")
        callee_src = (_text(obj) + "." if obj is not None else "") + (_text(name) if name is not None else "")
    else:
        if not n.named_children:
            return None
        fn = (n.child_by_field_name("function") or n.child_by_field_name("constructor")
              or n.child_by_field_name("type") or n.named_children[0])
        if construct and fn.type == "new":
            fn = n.named_children[0]
        callee_src = _text(fn)
    args_node = n.child_by_field_name("arguments")
    extra = 0
    if args_node is None:
        for child in n.named_children:
            if child.type in _ARG_LISTS:
                args_node = child
            elif child.type == "call_suffix":
                for inner in child.named_children:
                    if inner.type in _ARG_LISTS:
                        args_node = inner
                    elif inner.type == "annotated_lambda":
                        extra += 1
            elif child.type == "annotated_lambda":
                extra += 1
    if args_node is None and not construct:
        return None
    callee = _callee_text(callee_src)
    if callee is None:
        return None
    args = [_text(c) for c in args_node.named_children if "comment" not in c.type] if args_node else []
    positional, named, spread = _arguments(args, language)
    return CallSite(callee, n.start_point[0], positional + extra, named, spread, construct, _text(n))


def block_calls(code: str, language: str) -> tuple[list[CallSite], dict[str, str]]:
    """Calls in a code block and the names it binds (name -> the expression it holds)."""
    parser = grammars.parser(grammars.grammar_for(language, "block"))
    if parser is None:
        return [], {}
    code = code if code.endswith("\n") else code + "\n"  # Go needs a statement's terminator
    tree = parser.parse(code.encode("utf-8", "surrogatepass"))
    wrap = _WRAP.get(language)
    if tree.root_node.has_error and wrap is not None:
        # Statements outside a function, as examples write them: try them inside one.
        wrapped = wrap[0] + code + wrap[1]
        other = parser.parse(wrapped.encode("utf-8", "surrogatepass"))
        if not other.root_node.has_error:
            code, tree = wrapped, other
    calls: list[CallSite] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type in _CALL_NODES or node.type in _NEW_NODES:
            site = _node_call(node, language)
            if site is not None:
                calls.append(site)
        stack.extend(reversed(node.children))
    found = analyse(SourceFile("block", "code", language, code, 0.0, "", len(code)))
    env = {b.name: b.value for b in found[1].bindings} if found is not None else {}
    return calls, env


class _Checker:
    def __init__(self, ctx: ReviewContext, claim: Claim, language: str | None) -> None:
        self.ctx = ctx
        self.claim = claim
        self.language = language
        self.symbols = Symbols(ctx.engine)
        self.env: dict[str, list[Found]] = {}

    def bind(self, env: dict[str, str]) -> None:
        for name, value in env.items():
            target = value.removesuffix("()")
            types = self.symbols.types(target, self.language)
            if not types:
                types = [t for fn in self.symbols.callables(target, self.language) for t in self.symbols.return_type(fn)]
            if types:
                self.env[name] = types

    def receiver(self, head: str) -> list[Found]:
        return self.env.get(head) or self.symbols.types(head, self.language)

    def check(self, site: CallSite, *, strict: bool = True) -> list[Finding]:
        parts = site.callee.split(".")
        if site.callee in self.env:
            return []  # calling a bound value (a callback)
        if len(parts) == 1:
            types = self.symbols.types(site.callee, self.language)
            if types:
                return self.construct(site, types)
            fns = [f for f in self.symbols.callables(site.callee, self.language) if f.decl.parent is None]
            return self.fit(site, site.callee, fns, strict=strict) if fns else []
        head, member = ".".join(parts[:-1]), parts[-1]
        owners = self.receiver(head) if len(parts) == 2 else []
        if not owners:
            fns = self.symbols.callables(site.callee, self.language)
            return self.fit(site, site.callee, fns, strict=strict) if fns else []
        found: list[Found] = []
        certain = True
        for owner in owners:
            got, sure = self.symbols.member(owner, member)
            found += got
            certain = certain and sure
        found = list({(f.path, f.decl.symbol, f.decl.start): f for f in found}.values())  # Rust: struct and impl
        shown = f"{owners[0].decl.name}.{member}"
        if found:
            fns = [f for f in found if f.decl.kind in ("function", "method", "constructor")]
            if not fns:
                return [ok(f"`{shown}` exists", found[0].evidence())]
            return [ok(f"`{shown}` exists", fns[0].evidence()), *self.fit(site, shown, fns, strict=strict)]
        if not certain or universal(owners[0].language, member):
            return []
        extensions = [f for f in self.symbols.callables(member, owners[0].language) if is_extension(f.decl, f.language)]
        if extensions:  # C#: ``stack.Count(2)`` may call ``static int Count(this Stack s, int n)``
            return self.fit(site, shown, extensions, strict=strict, on_receiver=True)
        pool: set[str] = set()
        for owner in owners:
            pool |= self.symbols.member_names(owner)
        rationale = f"`{owners[0].decl.name}` has no member `{member}`"
        suggestion = did_you_mean(self.ctx, member, pool)
        edit = None
        if suggestion is not None:
            rationale += f"; did you mean `{suggestion.name}`?"
            if suggestion.unambiguous:
                edit = Edit(self.claim.start_line, self.claim.end_line, member, suggestion.name)
        elif pool:
            rationale += " (it has " + ", ".join(f"`{n}`" for n in sorted(pool)[:6]) + ")"
        return [bad("contradicted", f"`{shown}` exists", rationale, owners[0].evidence(), edit=edit)]

    def construct(self, site: CallSite, types: list[Found]) -> list[Finding]:
        language = types[0].language
        if family(language) in ("go", "rust") and not site.construct:
            return []  # ``Bin(...)`` is a tuple struct or a conversion: no constructor to check
        ctors: list[Found] = []
        for t in types:
            ctors += [m for m in self.symbols.type_members(t) if m.decl.kind == "constructor"]
            if not ctors and t.decl.signature and "(" in t.decl.signature.split("{")[0] and t.decl.kind in (
                    "class", "record", "struct"):
                ctors.append(t)  # Kotlin primary constructor, Java/C# record
        name = types[0].decl.name
        head = [ok(f"`{name}` exists", types[0].evidence())]
        return head + self.fit(site, name, ctors, strict=True) if ctors else head

    def fit(
        self, site: CallSite, shown: str, fns: list[Found], *, strict: bool, on_receiver: bool = False
    ) -> list[Finding]:
        if site.spread or not fns:
            return []
        language = fns[0].language
        overloads = [params_of(f.decl, language, on_receiver=on_receiver) for f in fns]
        reasons = [call_fits(p, site.positional, site.named if family(language) in NAMED_ARGS else (), language)
                   for p in overloads]
        ev = fns[0].evidence()
        if any(r is None for r in reasons):
            return [ok(f"call to `{shown}` fits its signature", ev, aspect=("arity", "parameters"))]
        if not strict and all(r is not None and r.startswith("needs") for r in reasons):
            return []  # prose abbreviates (``f(a)`` for a two-argument call)
        named_bad = next((r for r in reasons if r is not None and r.startswith("has no parameter")), None)
        if named_bad is not None:
            wrong = named_bad.split("`")[1]
            pool = {p.name for ps in overloads for p in ps if p.name}
            sug = did_you_mean(self.ctx, wrong, pool)
            params = ", ".join(f"`{n}`" for n in _names(overloads[0]))
            rationale = f"`{shown}` {named_bad} (its parameters: {params or 'none'})"
            edit = None
            if sug is not None:
                rationale += f"; did you mean `{sug.name}`?"
                edit = Edit(self.claim.start_line, self.claim.end_line, wrong, sug.name) if sug.unambiguous else None
            return [bad("contradicted", f"`{shown}` has parameter `{wrong}`", rationale, ev, edit=edit,
                        aspect="parameters")]
        n = site.positional + len(site.named)
        if len(overloads) > 1:
            arities = " or ".join(dict.fromkeys(arity_text(p) for p in sorted(overloads, key=len)))
            rationale = f"no overload of `{shown}` takes {n} argument{'s' if n != 1 else ''} (it takes {arities})"
        else:
            rationale = f"`{shown}` {reasons[0]}"
        return [bad("contradicted", f"call to `{shown}` fits its signature", rationale, ev, aspect="arity")]


def _names(params: tuple[ParamSpec, ...]) -> list[str]:
    return [p.name for p in params if p.name]


def check_block(ctx: ReviewContext, claim: Claim, language: str) -> list[Finding]:
    """Every call in a code block of a tree-sitter language, against the project's declarations."""
    calls, env = block_calls(claim.text, language)
    checker = _Checker(ctx, claim, language)
    checker.bind(env)
    out: list[Finding] = []
    for site in calls:
        out += checker.check(site)
    return out


def inline_call(span: str) -> CallSite | None:
    """``Inventory.addItem(item)`` / ``Bin::put(sku, units)`` written in prose, as a call site."""
    m = _INLINE_CALL.match(span)
    if m is None or "..." in m.group(2):
        return None
    callee = m.group(1).replace("::", ".")
    args = split_top(m.group(2))
    named = tuple(a.split(":", 1)[0].split("=", 1)[0].strip() for a in args
                  if re.match(r"^\s*@?\w+\s*(?::(?!:)|=(?!=))", a))
    return CallSite(callee, 0, len(args) - len(named), named, False, span.lstrip().startswith("new "), span)


def check_prose(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """Calls and ``Type.member`` names written in backticks, where they name tree-sitter code."""
    out: list[Finding] = []
    checker: _Checker | None = None
    for span in code_spans(claim.text):
        site = inline_call(span)
        if site is None:
            name = span.strip().removesuffix("()").replace("::", ".")
            if not re.fullmatch(r"[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*", name):
                continue
            site = CallSite(name, 0, 0, (), True, False, span)  # a name: existence only
        checker = checker or _Checker(ctx, claim, None)
        head = site.callee.split(".", 1)[0]
        if not checker.symbols.find(site.callee) and ("." not in site.callee or not checker.symbols.types(head, None)):
            continue  # nothing of the tree-sitter languages is named so
        if ctx.resolve(site.callee, claim).found:
            continue  # a Python name: the Python checks judge it
        if span.strip().endswith("()"):
            site = CallSite(site.callee, 0, 0, (), True, False, span)  # ``f()`` abbreviates: existence only
        out += checker.check(site, strict=False)
    return out
