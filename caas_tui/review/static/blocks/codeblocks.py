"""Check a doc's code block against the project: imports, attribute and method names
(through the types of names the block assigns), call arguments, and string literals
passed to functions that already prefix them.

Evaluation is a forward walk over the block with a tiny environment
(name -> module / class / instance / function). Anything it can't type stays unknown
and is never judged.
"""

from __future__ import annotations

import ast
import builtins
import textwrap
import warnings

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import doctest_source, dotted
from caas_tui.review.static.blocks.barecalls import module_binding
from caas_tui.review.static.codefacts.coroutines import awaited_sync, unawaited_async
from caas_tui.review.static.codefacts.rettypes import annotation_kinds
from caas_tui.review.static.context import ReviewContext, Val
from caas_tui.review.static.findings import Edit, Finding, bad, ok
from caas_tui.review.static.model.prefixes import dataclass_fields
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.model.scope import bound_names
from caas_tui.review.static.naming.names import check_call_args, missing_finding

_ELEMENT_BASES = frozenset({"list", "List", "Iterator", "Iterable", "Sequence", "set", "Set", "frozenset",
                            "Generator", "Collection", "tuple", "Tuple", "typing.List", "typing.Iterator"})


def parse_block(code: str) -> ast.Module | None:
    parsed = parse_block_source(code)
    return parsed[0] if parsed is not None else None


def parse_block_source(code: str) -> tuple[ast.Module, list[str]] | None:
    """The block's module and the source lines it was parsed from (prompts stripped, dedented)."""
    source = doctest_source(code)
    for attempt in (source, textwrap.dedent(source)):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return ast.parse(attempt), attempt.split("\n")
        except (SyntaxError, ValueError, RecursionError):
            continue
    return None


class _Block:
    def __init__(self, ctx: ReviewContext, claim: Claim, env: dict[str, Val | None]) -> None:
        self.ctx = ctx
        self.claim = claim
        self.env = env
        self.findings: list[Finding] = []
        self.local: set[str] = set()  # every name the block binds anywhere (never read as the package's)
        self.source: list[str] = []

    def line(self, node: ast.AST) -> tuple[int, int]:
        n = self.claim.start_line + getattr(node, "lineno", 1) - 1
        return n, n

    # -- statements ----------------------------------------------------------------------
    def run(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.stmt(stmt)

    def stmt(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                self.import_module(alias.name, alias.asname)
        elif isinstance(stmt, ast.ImportFrom):
            self.import_from(stmt)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            val = self.value(stmt.value) if stmt.value is not None else None
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                self.bind(t, val)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            it = self.value(stmt.iter)
            self.bind(stmt.target, self.element(stmt.iter, it))
            self.run(stmt.body + stmt.orelse)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                self.value(item.context_expr)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, None)
            self.run(stmt.body)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            # ``@post_dump(pass_many=True)`` and ``class S(Schema, metaclass=M)`` are calls and names too
            for expr in stmt.decorator_list:
                self.value(expr)
            if isinstance(stmt, ast.ClassDef):
                for expr in [*stmt.bases, *(k.value for k in stmt.keywords)]:
                    self.value(expr)
            self.env[stmt.name] = None
            saved = dict(self.env)
            if not isinstance(stmt, ast.ClassDef):
                for arg in ast.walk(stmt.args):
                    if isinstance(arg, ast.arg):
                        self.env[arg.arg] = None
            self.run(stmt.body)
            self.env = saved
        else:
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.stmt):
                    self.stmt(child)
                elif isinstance(child, ast.expr):
                    self.value(child)
                elif isinstance(child, ast.ExceptHandler):
                    if child.name:
                        self.env[child.name] = None
                    self.run(child.body)

    def bind(self, target: ast.expr, val: Val | None) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = val
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self.bind(elt, None)

    # -- imports -------------------------------------------------------------------------
    def import_module(self, name: str, asname: str | None) -> None:
        project = self.ctx.project
        bind_as = asname or name.split(".")[0]
        if not project.is_project(name):
            self.env[bind_as] = None
            return
        res = self.ctx.resolve(name)
        if res.status == "missing" and res.owner is not None and res.member is not None:
            self.findings.append(missing_finding(self.ctx, self.claim, name, res.owner, res.member, "(no such module)"))
            self.env[bind_as] = None
            return
        if res.found and res.target is not None and res.target.kind == "module":
            self.findings.append(ok(f"module `{name}` exists", self.ctx.evidence(res.target)))
        target_name = name if asname else name.split(".")[0]
        self.env[bind_as] = Val("module", self.ctx.resolver.module_def(target_name)) if project.has_module(target_name) else None

    def import_from(self, stmt: ast.ImportFrom) -> None:
        mod = stmt.module or ""
        if stmt.level or not self.ctx.project.is_project(mod):
            for alias in stmt.names:
                self.env[alias.asname or alias.name] = None
            return
        if not self.ctx.project.has_module(mod):
            res = self.ctx.resolve(mod)
            if res.status == "missing" and res.owner is not None and res.member is not None:
                self.findings.append(missing_finding(self.ctx, self.claim, mod, res.owner, res.member, "(no such module)"))
            for alias in stmt.names:
                self.env[alias.asname or alias.name] = None
            return
        owner = self.ctx.resolver.module_def(mod)
        for alias in stmt.names:
            if alias.name == "*":
                continue
            res = self.ctx.resolver.member(owner, alias.name)
            bound = alias.asname or alias.name
            if res.status == "missing":
                self.findings.append(missing_finding(self.ctx, self.claim, f"{mod}.{alias.name}", owner, alias.name,
                                                     f"(cannot import it from `{mod}`)"))
                self.env[bound] = None
            elif res.found and res.target is not None:
                self.findings.append(ok(f"`{mod}.{alias.name}` exists", self.ctx.evidence(res.target)))
                self.env[bound] = self.as_val(res.target, via_instance=False)
            else:
                self.env[bound] = None

    # -- expressions ---------------------------------------------------------------------
    def as_val(self, target: Def, *, via_instance: bool) -> Val | None:
        if target.kind == "module":
            return Val("module", target)
        if target.kind == "class":
            return Val("class", target)
        if target.kind == "function":
            sig = self.ctx.signature(target)
            if sig is not None and ("property" in sig.decorators or "cached_property" in sig.decorators):
                return self.instance_of(target, target.node.returns if isinstance(target.node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None)
            return Val("function", target, bound=via_instance)
        if target.kind == "attribute":
            ann = getattr(target.node, "annotation", None)
            return self.instance_of(target, ann) if ann is not None else None
        return None

    def instance_of(self, where: Def, annotation: ast.expr | None) -> Val | None:
        kinds = annotation_kinds(self.ctx, where, annotation) if annotation is not None else None
        classes = [k[6:] for k in kinds or () if k.startswith("class:")]
        if kinds is None or len(classes) != 1 or not kinds <= {f"class:{classes[0]}", "None"}:
            return None
        res = self.ctx.resolve(classes[0])
        if res.found and res.target is not None and res.target.kind == "class":
            return Val("instance", res.target, exact=False)
        return None

    def element(self, expr: ast.expr, _val: Val | None) -> Val | None:
        """The element type of ``for x in obj.items()`` when the callee's annotation says."""
        if not isinstance(expr, ast.Call):
            return None
        fval = self.peek(expr.func)
        if fval is None or fval.kind != "function" or not isinstance(fval.defn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        ann = fval.defn.node.returns
        if isinstance(ann, ast.Subscript) and (dotted(ann.value) or "") in _ELEMENT_BASES:
            arg = ann.slice.elts[0] if isinstance(ann.slice, ast.Tuple) and ann.slice.elts else ann.slice
            return self.instance_of(fval.defn, arg)
        return None

    def peek(self, expr: ast.expr) -> Val | None:
        """The value of ``expr`` without reporting anything (already reported once)."""
        saved = self.findings
        self.findings = []
        try:
            return self.value(expr)
        finally:
            self.findings = saved

    def value(self, expr: ast.expr | None) -> Val | None:
        if expr is None:
            return None
        if isinstance(expr, ast.Name):
            if expr.id in self.env:
                return self.env[expr.id]
            return self.implicit(expr.id)
        if isinstance(expr, (ast.Await, ast.Attribute, ast.Subscript)):
            self.await_style(expr)
        if isinstance(expr, ast.Attribute):
            base = self.value(expr.value)
            return self.attribute(base, expr) if base is not None else None
        if isinstance(expr, ast.Call):
            return self.call(expr)
        for child in ast.iter_child_nodes(expr):
            if isinstance(child, ast.expr):
                self.value(child)
            elif isinstance(child, ast.comprehension):
                self.value(child.iter)
                self.bind(child.target, None)
                for cond in child.ifs:
                    self.value(cond)
        return None

    def await_style(self, expr: ast.expr) -> None:
        """``await f(...)`` of a plain function; ``f(...).attr`` / ``f(...)[i]`` of an ``async def``."""
        inner = expr.value if isinstance(expr, (ast.Await, ast.Attribute, ast.Subscript)) else None
        if not isinstance(inner, ast.Call):
            return
        fval = self.peek(inner.func)
        if fval is None or fval.kind != "function" or not fval.defn.is_project:
            return
        if isinstance(expr, ast.Await):
            found = awaited_sync(self.ctx, fval.defn)
        else:
            used = f"`.{expr.attr}`" if isinstance(expr, ast.Attribute) else "items to index"
            found = unawaited_async(self.ctx, fval.defn, used)
        if found is not None:
            self.findings.append(found)

    def implicit(self, name: str) -> Val | None:
        """A name the block uses without importing it: what the package exports under it, or
        the project's only class of that name (in a docstring: a class in the module's scope)."""
        if self.claim.doc_path.endswith((".py", ".pyi")):
            if not name[:1].isupper():
                # A doctest runs in its module's globals: a bare function name is the module's own.
                own = module_binding(self.ctx, self.claim, name) if name not in self.local else None
                return self.as_val(own, via_instance=False) if own is not None and own.kind == "function" else None
            res = self.ctx.resolve(name, self.claim)
            target = res.target if res.found and not res.ambiguous else None
            return Val("class", target) if target is not None and target.kind == "class" and target.is_project else None
        if name in self.local or hasattr(builtins, name) or self.ctx.maybe_stdlib(name):
            return None
        # A guide's bare ``pre_load`` is the name the package exports; a bare class, the project's only one.
        export = self.ctx.resolver.exported(name)
        if export is not None:
            return self.as_val(export, via_instance=False)
        if not name[:1].isupper():
            return None
        classes = self.ctx.resolver.classes_named(name)
        return Val("class", classes[0]) if len(classes) == 1 else None

    def attribute(self, base: Val, expr: ast.Attribute) -> Val | None:
        res = self.ctx.resolver.member(base.defn, expr.attr)
        shown = f"{base.defn.short}.{expr.attr}"
        if res.status == "missing" and res.owner is not None:
            if base.kind == "instance" and not base.exact and self.ctx.any_subclass_has(base.defn, expr.attr):
                return None  # typed from an annotation: the object may be the subclass that has it
            where = "" if base.kind != "instance" else f"(`{dotted(expr.value) or 'the object'}` is an instance of `{base.defn.short}`)"
            self.findings.append(missing_finding(self.ctx, self.claim, shown, res.owner, expr.attr, where))
            return None
        if not res.found or res.target is None:
            return None
        if res.target.is_project:
            self.findings.append(ok(f"`{shown}` exists", self.ctx.evidence(res.target)))
        if base.kind == "instance" and not base.exact and base.defn.kind == "class" and any(
            expr.attr in self.ctx.resolver.class_bindings(sub) for sub in self.ctx.subclasses(base.defn)
        ):
            return None  # a subclass overrides it: which signature applies is unknown
        return self.as_val(res.target, via_instance=base.kind == "instance")

    def call(self, expr: ast.Call) -> Val | None:
        fval = self.value(expr.func)
        for arg in [*expr.args, *(k.value for k in expr.keywords)]:
            self.value(arg.value if isinstance(arg, ast.Starred) else arg)
        if fval is None or fval.kind not in ("class", "function") or not fval.defn.is_project:
            return None
        if self.spaced(expr):
            return None  # ``MAIN (implicit)``: a diagram or output that happens to parse, not a call
        span = self.line(expr)
        self.findings += check_call_args(self.ctx, self.claim, expr, fval.defn,
                                         on_instance=fval.bound, strict=True, line=span)
        self.prefixed_literals(expr, fval)
        if fval.kind == "class":
            return Val("instance", fval.defn)
        node = fval.defn.node
        returns = node.returns if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        return self.instance_of(fval.defn, returns)

    def spaced(self, expr: ast.Call) -> bool:
        """Whitespace between the callee and its ``(``, which Python code almost never has."""
        end_line, end_col = expr.func.end_lineno, expr.func.end_col_offset
        if end_line is None or end_col is None or not 0 < end_line <= len(self.source):
            return False
        rest = self.source[end_line - 1][end_col:]
        return rest[:1] in (" ", "\t") and rest.lstrip().startswith("(")

    def prefixed_literals(self, expr: ast.Call, fval: Val) -> None:
        """``uri_for("res://a")`` or ``ResourceUri(path="res://a")`` when the code already
        puts ``res://`` in front of that value (in the function, or when the object renders)."""
        target = fval.defn
        pre = dict(self.ctx.prefixes_of(target))
        if target.kind == "class":
            init = self.ctx.resolver.member(target, "__init__")
            if init.found and init.target is not None and init.target.kind == "function" and init.target.is_project:
                for name, added in self.ctx.prefixes_of(init.target).items():
                    pre.setdefault(name, added)
        if not pre:
            return
        sig = self.ctx.call_signature(target, on_instance=fval.bound)
        if sig is not None:
            names = [p.name for p in sig.positional]
        else:
            names = dataclass_fields(target) if target.kind == "class" else []
        bound: list[tuple[str, ast.expr]] = list(zip(names, expr.args, strict=False))
        bound += [(k.arg, k.value) for k in expr.keywords if k.arg]
        label = target.qualname.rsplit(".", 2)[-2] + "." + target.short if target.owner else target.short
        for pname, arg in bound:
            prefix = pre.get(pname)
            if not (prefix and isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith(prefix)):
                continue
            first, last = self.line(arg)
            lines = self.ctx.doc_lines(self.claim.doc_path)
            raw = lines[first - 1] if 0 < first <= len(lines) else ""
            edit = None
            for quote in ('"', "'"):
                if f"{quote}{arg.value}{quote}" in raw:
                    edit = Edit(first, last, f"{quote}{arg.value}{quote}", f"{quote}{arg.value[len(prefix):]}{quote}", unique=True)
                    break
            self.findings.append(bad(
                "contradicted", f"`{label}` argument `{pname}` is given without the prefix it adds",
                f"`{label}` already puts {prefix!r} in front of `{pname}`; passing {arg.value!r} writes {prefix!r} twice",
                self.ctx.evidence(target), edit=edit,
            ))


def all_bound(tree: ast.Module) -> set[str]:
    """Names bound anywhere in ``tree``: definitions, arguments, assignments, imports."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name.split(".")[0]) for a in node.names)
    return out


def check_code(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    parsed = parse_block_source(claim.text)
    if parsed is None:
        return []
    tree, source = parsed
    # Names bound by earlier blocks of the same doc stay bound (``scene`` from step 1).
    block = _Block(ctx, claim, ctx.doc_env(claim.doc_path, claim.section))
    block.local = all_bound(tree)
    block.source = source
    block.run(tree.body)
    ctx.set_doc_env(claim.doc_path, claim.section, block.env, bound_names(tree))
    return block.findings
