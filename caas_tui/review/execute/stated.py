"""Outputs a plain Python block states in comments (``print(x)  # 12.50``, ``len(q)  # -> 2``,
a following ``# Output:`` block): which comments state one, and whether what ran matches it.

A comment is a stated output only when it says so: an arrow or a marker word, an ``# Output:``
block, or, on a ``print(...)`` or bare expression line, a comment that reads as a value. Prose
(``# show the total``) and tool directives (``# noqa``) are never compared.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import difflib
import doctest
import io
import re
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from caas_tui.review.execute.statedvalues import (
    approx_match,
    comment_raise,
    example_only,
    same_expression,
    volatile_match,
)

# a print line, a bare expression, an ``# Output:`` block, a statement a comment says raises (``# raises KeyError``)
CheckKind = Literal["output", "value", "since", "raises"]
_ARROW = re.compile(r"^(?:->|=>|→|⇒)\s*")
_COLON = re.compile(r"^(?:output|out|result|prints?|outputs?|returns?)\s*:\s*", re.IGNORECASE)
_WORD = re.compile(r"^(?:prints|gives|outputs|returns|evaluates to)\s+", re.IGNORECASE)
_BLOCK_HEAD = re.compile(r"^#\s*(?:output|out|result|prints?|outputs?)\s*:\s*(.*)$", re.IGNORECASE)
_DIRECTIVE = re.compile(r"^(?:noqa|type\s*:|pragma|doctest\s*:|fmt\s*:|pylint\s*:|mypy\s*:|isort\s*:|nosec|ruff\s*:|"
                        r"todo|fixme|xxx|note|hack)\b", re.IGNORECASE)
# a repr: ``Money('4.00')``, ``<Job 3>``, or brackets holding more than one word (``[optional]`` is prose)
_REPR_LIKE = re.compile(r"^(?:[A-Za-z_][\w.]*\(.*\)|<[^<>]*[\s\d=:][^<>]*>|[\[({](?:.*[,\d'\"=:].*)?[\])}])$")
_WORDS = re.compile(r"^[a-z][a-z' ]*$")  # lower-case words only: after an arrow, a description (``-> summary``)
_PROSE = re.compile(r"^[A-Za-z][a-z']*(?:\s+[A-Za-z][a-z']*){2,}[.!]?$")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_VOLATILE = re.compile(r"0x[0-9a-fA-F]{5,}|\b\d{1,2}:\d{2}:\d{2}\b|\b\d{4}-\d{2}-\d{2}\b| object at |\bat 0x")
_VOLATILE_CALL = re.compile(r"\b(?:random\.|uuid|secrets\.|time\.|datetime|perf_counter|monotonic|now\(|today\(|"
                            r"id\(|hash\(|getpid|urandom)")
_ASIDE = re.compile(r"^(.*?\S)(?:\s+\([^()]*\)|:\s+\S.*|\s+[-—–]\s+\S.*)$")
_SHORT_TOKENS = 4
_FLOAT_TAIL = 3  # digits beyond the stated ones that make a printed number a float's long expansion


@dataclass(frozen=True, slots=True)
class Stated:
    """One stated output of a block; lines are 0-based within the block."""

    start: int  # the checked statement's first line
    end: int  # its last line; a ``since`` check runs after it
    kind: CheckKind
    want: str
    text_line: int  # the first line holding the stated text
    text_lines: int  # how many lines hold it (an ``# Output:`` block's header and body)
    keep: str  # the text before the stated text on ``text_line`` (the code and ``# -> ``, or ``# Output:``)
    source: str  # the checked statement(s), for the names it calls
    tail: str = ""  # an aside after a trailing comment's value (``(rounded for you)``): kept, not compared


@dataclass(frozen=True, slots=True)
class StatedGot:
    """What the child saw for one check."""

    check: int
    printed: str
    has_value: bool = False
    value_str: str = ""
    value_repr: str = ""
    value_is_none: bool = False


@dataclass(frozen=True, slots=True)
class Judged:
    stated: Stated
    status: Literal["match", "mismatch", "skip"]
    got: str  # the closest of what ran, as a reader would write it
    note: str = ""


def value_like(text: str, strict: bool) -> bool:
    """Whether a comment's (or a sentence's) text reads as a value rather than prose. ``strict`` for a
    bare expression: a literal or a repr only; a print line also takes a short run of tokens with a
    number in it (``2 jobs``)."""
    if not text or _DIRECTIVE.match(text) or _PROSE.match(text):
        return False
    with contextlib.suppress(ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        ast.literal_eval(text)
        return True
    if _REPR_LIKE.match(text):
        return True
    if strict:
        return False
    if " " not in text and re.search(r"[^\w\s]", text):  # one token like a path or a URL
        return True
    return bool(re.search(r"\d", text)) and len(text.split()) <= _SHORT_TOKENS


def _with_aside(text: str, strict: bool) -> str | None:
    """The value before an aside (``94.88 EUR  (rounded for you)``, ``True: still there``), if it reads as one."""
    m = _ASIDE.match(text)
    return m.group(1) if m and value_like(m.group(1), strict) else None


def _trailing(comment: str, kind: CheckKind) -> str | None:
    """The stated text, when a trailing comment states an output."""
    body = comment[1:].strip()
    for marker, needs_value in ((_ARROW, False), (_COLON, False), (_WORD, True)):
        m = marker.match(body)
        if m:
            rest = body[m.end():].strip()
            if not rest or _PROSE.match(rest) or (marker is _ARROW and _WORDS.match(rest)):
                return None
            if not needs_value or value_like(rest, strict=False):
                return rest
            return _with_aside(rest, strict=False)
    strict = kind == "value"
    return body if value_like(body, strict) else _with_aside(body, strict)


def _comments(text: str) -> dict[int, tuple[int, str]]:
    out: dict[int, tuple[int, str]] = {}
    with contextlib.suppress(tokenize.TokenError, IndentationError, SyntaxError):
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                out[tok.start[0]] = (tok.start[1], tok.string)
    return out


def _is_print(stmt: ast.stmt) -> bool:
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "print")


def _first_line(stmt: ast.stmt) -> int:
    decorators = getattr(stmt, "decorator_list", None) or []
    return min([stmt.lineno, *(d.lineno for d in decorators)])


def plan_stated(text: str) -> tuple[Stated, ...]:
    """The stated outputs of a plain Python block, in order (none when it does not parse)."""
    try:
        tree = compile(text, "<block>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except (SyntaxError, ValueError):
        return ()
    assert isinstance(tree, ast.Module)
    lines = text.split("\n")
    comments = _comments(text)
    body = tree.body
    per_line: dict[int, int] = {}
    for stmt in body:
        for n in range(_first_line(stmt), (stmt.end_lineno or stmt.lineno) + 1):
            per_line[n] = per_line.get(n, 0) + 1
    out: list[Stated] = []
    since_from = 1
    for i, stmt in enumerate(body):
        first, last = _first_line(stmt), stmt.end_lineno or stmt.lineno
        source = "\n".join(lines[first - 1 : last])
        alone = all(per_line[n] == 1 for n in range(first, last + 1))
        found = comments.get(last)
        raised = _stated_raise(lines, comments, stmt) if alone else None
        if raised is not None:
            out.append(dataclasses.replace(raised, start=first - 1, end=last - 1, source=source))
            since_from = last + 1
            continue
        if isinstance(stmt, ast.Expr) and alone and found and lines[last - 1][: found[0]].strip():
            kind: CheckKind = "output" if _is_print(stmt) else "value"
            want = _trailing(found[1], kind)
            if want is not None:
                at = lines[last - 1].rfind(want)
                keep = lines[last - 1][:at] if at >= found[0] else lines[last - 1][: found[0]] + "# "
                tail = lines[last - 1][at + len(want):] if at >= found[0] else ""
                out.append(Stated(first - 1, last - 1, kind, want, last - 1, 1, keep, source, tail))
                since_from = last + 1
                continue
        following = _body_after(lines, last, _first_line(body[i + 1]) if i + 1 < len(body) else len(lines) + 1)
        if following is not None:
            head, want, count = following
            ran = "\n".join(lines[since_from - 1 : last])
            colon = lines[head].index(":") + 1
            first_text = lines[head][colon:].strip()
            keep = lines[head][: lines[head].index(first_text, colon)] if first_text else lines[head][:colon]
            out.append(Stated(since_from - 1, last - 1, "since", want, head, count, keep, ran))
            since_from = last + 1
    return tuple(out)


_SIMPLE = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Raise, ast.Assert, ast.Delete)


def _stated_raise(lines: Sequence[str], comments: dict[int, tuple[int, str]], stmt: ast.stmt) -> Stated | None:
    """A simple statement whose trailing comment, or the comment line right above it, states that it
    raises: checked as its own piece, so the block's later statements still run after it."""
    if not isinstance(stmt, _SIMPLE):
        return None
    last = stmt.end_lineno or stmt.lineno
    for row in (last, stmt.lineno - 1):
        found = comments.get(row)
        if found is None or (row == last and not lines[row - 1][: found[0]].strip()) or (
                row != last and lines[row - 1][: found[0]].strip()):
            continue
        said = comment_raise(found[1])
        if said is None:
            continue
        # a reason in words (``: ports stop at 65535``) is kept as an aside: not compared, so not consistent
        return Stated(0, 0, "raises", said.text, row - 1, 1, lines[row - 1][: found[0]] + "# ", "",
                      "" if _literal(said.detail)[0] else said.detail)
    return None


def raised_names(stated: Stated) -> list[str]:
    """The exception class names a ``raises`` check accepts (any of them, by MRO)."""
    said = comment_raise(stated.want)
    return list(said.names) if said else []


def _body_after(lines: Sequence[str], last: int, next_first: int) -> tuple[int, str, int] | None:
    """An ``# Output:`` block among the lines between a statement and the next one:
    ``(its header line, 0-based; the stated text; how many lines it spans)``."""
    for n in range(last, next_first - 1):  # 0-based indexes of the lines in between
        line = lines[n].strip()
        if not line:
            continue
        m = _BLOCK_HEAD.match(line)
        if m is None:
            return None
        want = [m.group(1).strip()] if m.group(1).strip() else []
        end = n + 1
        while end < next_first - 1 and lines[end].strip().startswith("#") and not _BLOCK_HEAD.match(lines[end].strip()):
            want.append(lines[end].strip()[1:].removeprefix(" "))
            end += 1
        while want and not want[-1].strip():
            want.pop()
        return (n, "\n".join(want), end - n) if want else None
    return None


def unchecked_comments(text: str, stated: Sequence[Stated]) -> int:
    """Comments of the block that are neither a stated output nor a tool directive: what they
    assert was not compared, so the block cannot be ``consistent`` on its outputs alone."""
    held = {s.text_line + k for s in stated for k in range(s.text_lines)}
    asides = sum(1 for s in stated if s.tail.strip())
    return asides + sum(1 for row, (_, comment) in _comments(text).items()
                        if row - 1 not in held and comment[1:].strip() and not _DIRECTIVE.match(comment[1:].strip()))


def pieces(text: str, stated: Sequence[Stated]) -> list[dict[str, object]]:
    """The block cut into what the child runs in order: unchecked code, then each checked statement
    (``eval`` for a bare expression) or an empty ``since`` piece after the code an ``# Output:`` block follows."""
    lines = text.split("\n")
    out: list[dict[str, object]] = []

    def run(start: int, end: int, **check: object) -> None:
        source = "\n".join(lines[start:end])
        if source.strip() or check:
            out.append({"source": source, "line": start, **check})

    cursor = 0
    for k, s in enumerate(stated):
        if s.kind == "since":
            run(cursor, s.end + 1)
            out.append({"source": "", "line": s.end + 1, "check": k, "since": True})
        else:
            run(cursor, s.start)
            how = {"raises": raised_names(s)} if s.kind == "raises" else {"eval": s.kind == "value"}
            run(s.start, s.end + 1, check=k, **how)
        cursor = s.end + 1
    run(cursor, len(lines))
    return out


def _norm(text: str) -> str:
    return " ".join(text.split())


def _literal(text: str) -> tuple[bool, object]:
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def _numbers_match(want: str, got: str) -> bool:
    """Same text around the numbers, and each number the stated one or a rounding to its decimals."""
    w_parts, g_parts = _NUMBER.split(want), _NUMBER.split(got)
    w_nums, g_nums = _NUMBER.findall(want), _NUMBER.findall(got)
    if w_parts != g_parts or len(w_nums) != len(g_nums) or not w_nums:
        return False
    for w, g in zip(w_nums, g_nums, strict=True):
        decimals = len(w.partition(".")[2]) if "." in w and "e" not in w.lower() else 0
        wf, gf = float(w), float(g)
        # ``0.91`` for ``0.9090909090909091`` abbreviates a float; ``2.68`` for ``2.675`` claims a rounding
        abbreviated = decimals and len(g.partition(".")[2]) >= decimals + _FLOAT_TAIL
        if wf != gf and not (abbreviated and abs(wf - gf) <= 0.5 * 10 ** -decimals + 1e-12):
            return False
    return True


def same(want: str, got: str) -> bool:
    """Whitespace-normalised equality, doctest's ELLIPSIS, equal literals, or a stated rounding."""
    w, g = _norm(want), _norm(got)
    if w == g:
        return True
    if "..." in w and doctest.OutputChecker().check_output(w + "\n", g + "\n", doctest.ELLIPSIS):
        return True
    ok_w, lit_w = _literal(w)
    if ok_w:
        ok_g, lit_g = _literal(g)
        if ok_g and type(lit_w) is type(lit_g) and lit_w == lit_g:
            return True
        # a str's spaces normalised too: a stated ``'94,88 €'`` cannot show the no-break space a formatter wrote
        if isinstance(lit_w, str) and _norm(lit_w) in (_norm(got), _norm(lit_g) if ok_g and isinstance(lit_g, str)
                                                         else None):
            return True
    return _numbers_match(w, g)


def _as_stated(want: str, got: str) -> str:
    """``got`` as the comment would state it: a number to the stated number of decimals."""
    w, g = want.strip(), got.strip()
    if "." in w and _NUMBER.fullmatch(w) and _NUMBER.fullmatch(g) and "e" not in w.lower():
        return f"{float(g):.{len(w.partition('.')[2])}f}"
    return got


def _candidates(stated: Stated, got: StatedGot) -> list[str]:
    printed = got.printed.rstrip("\n")
    if stated.kind != "value":
        return [printed]
    if got.has_value and not got.value_is_none:
        return [c for c in (got.value_str, got.value_repr, printed) if c]
    return [printed] if printed else []


def volatile(texts: Sequence[str], source: str) -> bool:
    """Output that varies from run to run: addresses, times, random values (in the texts or what ran)."""
    return any(_VOLATILE.search(t) for t in texts) or bool(_VOLATILE_CALL.search(source))


def _judge_raise(s: Stated, got: StatedGot) -> Judged:
    """A ``raises`` check: the child reports one only when the class matched (else the block stops
    there and the raise is judged as one); a message stated as printed must be the raised one."""
    said = comment_raise(s.want)
    assert said is not None
    if not got.has_value:
        if not said.explicit:  # ``print(type(e).__name__)  # KeyError``: a bare name may state a value
            return Judged(s, "skip", got.printed, "the comment names an error class; nothing was raised")
        return Judged(s, "mismatch", "nothing raised")
    message = said.detail if _literal(said.detail)[0] else ""
    ok_w, lit_w = _literal(message)
    ok_g, lit_g = _literal(got.value_str)
    if not message or _norm(message) == _norm(got.value_str) or (ok_w and ok_g and lit_w == lit_g):
        return Judged(s, "match", got.value_repr)
    return Judged(s, "mismatch", got.value_repr)


def judge(stated: Sequence[Stated], gots: Sequence[StatedGot]) -> list[Judged]:
    """Each stated output with what ran; a check the block never reached is left out."""
    out = []
    for got in gots:
        s = stated[got.check]
        if s.kind == "raises":
            out.append(_judge_raise(s, got))
            continue
        cands = _candidates(s, got)
        if not cands:
            if _norm(s.want) == "None":
                out.append(Judged(s, "match", "None"))
            else:  # a call returning None: the comment describes an effect, not a value
                out.append(Judged(s, "skip", "", "it returns None; the comment describes its effect"))
            continue
        closest = _as_stated(s.want, max(cands, key=lambda c: difflib.SequenceMatcher(None, _norm(s.want),
                                                                                     _norm(c)).ratio()))
        masked = [m for c in cands if (m := volatile_match(s.want, c)) is not None]
        if example_only(s.want):
            out.append(Judged(s, "skip", closest, "the comment gives an example value, not the one a run prints"))
        elif True in masked:
            out.append(Judged(s, "skip", closest, "its address, time, uuid or directory varies from run to run; "
                                                  "the rest matches"))
        elif volatile([*cands, s.want], s.source) and not (masked and not volatile((), s.source)):
            out.append(Judged(s, "skip", closest, "output varies from run to run (addresses, times, random values)"))
        elif any(same(s.want, c) or same_expression(s.want, c) or approx_match(s.want, c) for c in cands):
            out.append(Judged(s, "match", closest))
        else:
            out.append(Judged(s, "mismatch", closest))
    return out
