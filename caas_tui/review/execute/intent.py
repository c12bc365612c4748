"""A raise the doc means, or owes to what it sets up outside Python: when running a block raises,
whether the doc said it would (a comment ``# raises KeyError``, a sentence "This raises
`ValidationError`", "Don't ...:") or the run lacks what the doc has the reader provide (an ``export``
in a shell block, their own token, an earlier alternative that registered the same name).

Pure functions over the block's text, the doc's prose around it and the ``RaisedError`` the session
reported, so the reviewer asks them before it calls a raise a defect. The words read are the
language's and the writer's general ones, never one project's; a call the signature rejects is a
stale example whatever the prose says.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from caas_tui.review.execute.blocks import RunBlock
from caas_tui.review.execute.probejudge import CALL_REJECTED
from caas_tui.review.execute.runenv import doc_sets_variable, ellipsis_placeholder, unset_variable
from caas_tui.review.execute.runenv import sandbox_lacks as sandbox_lacks  # callers import it from here
from caas_tui.review.execute.session import BlockOutcome, RaisedError
from caas_tui.review.execute.stated import judge, unchecked_comments
from caas_tui.review.execute.statedvalues import EXC_SUFFIX, StatedRaise, comment_raise
from caas_tui.review.textutil import counted

_BLOCK_FILE = re.compile(r"^<block \d+(?::(\d+))?>$")
_NEGATED = re.compile(r"\b(?:not|never|no|without|cannot)\s+(?:\w+\s+)?$|n't\s+(?:\w+\s+)?$", re.IGNORECASE)
_ERROR_WORDS = re.compile(r"\b(?:raise[sd]?|raising|throws?|thrown|fails?|failed|failing|crash(?:es|ed)?|errors?\s+out|"
                          r"(?:is|are|gets?|get)\s+rejected|rejects?|refuses?)\b", re.IGNORECASE)
# "you get", "results in": an error only when the sentence says what fails (``KeyError``, "an error")
_OUTCOME_WORDS = re.compile(r"\b(?:(?:you(?:'ll| will)?|we) (?:get|see)|gives you|results in|produces|causes|leads to)\b",
                            re.IGNORECASE)
_FAILURE_NOUN = re.compile(r"\b(?:errors?|exceptions?|traceback|failure)\b", re.IGNORECASE)
_WARNING_START = re.compile(r"^(?:don['’]t|do not|never|avoid)\b(?!\s+(?:forget|worry|hesitate|need|miss)\b)",
                            re.IGNORECASE)
_BROKEN = re.compile(r"\b(?:does(?:n['’]t| not)|won['’]t|will not|is(?:n['’]t| not)) (?:work|allowed|valid|supported)\b|"
                     r"\bis (?:invalid|an error|wrong)\b|^(?:wrong|incorrect|bad)\s*[:(]", re.IGNORECASE)
_BACK_REFERENCE = re.compile(r"^(?:this|that|it|which|here|doing so|running (?:this|it|that)|"
                             r"the (?:above|last|previous|call|code|line|example|snippet|block))\b", re.IGNORECASE)
_SPAN = re.compile(r"(?::\w+:)?`+[~!]?([A-Za-z_][\w.]*)(?:\(\))?`+")
_BARE_EXC = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Warning)\b")
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_DIRECTIVE = re.compile(r"^\s*\.\. [\w:-]+::|^\s*:[\w-]+:")
_HEADING = re.compile(r"^\s*#{1,6}\s|^\s*([=\-~^\"'`#*+])\1{2,}\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*_(])")
_PLACEHOLDER = re.compile(r"^<[^<>]+>$|^\.\.\.$|^x{3,}$|^(?:change[-_ ]?me|replace[-_ ]?me|placeholder|todo)$|"
                          r"(?:^|[-_ ])your[-_ ]|^my[-_]?(?:api[-_]?)?(?:key|token|secret|password)$", re.IGNORECASE)
_ALREADY = re.compile(r"\balready\b|\bduplicate\b", re.IGNORECASE)
_QUOTED = re.compile(r"'([^'\n]+)'|\"([^\"\n]+)\"")
_CONNECTOR_WORDS = 3  # "For example:", "Here is how:": an intro that states nothing of its own
_NOT_A_REFUSAL = ("ImportError", "NameError", "SyntaxError", "AttributeError")


def is_placeholder(value: str) -> bool:
    """A value a reader replaces with their own (``<your-token>``, ``YOUR_API_KEY``, ``xxx``)."""
    return bool(_PLACEHOLDER.search(value.strip()))


@dataclass(frozen=True, slots=True)
class RaiseCheck:
    holds: bool  # the raised error is one the comment names (by MRO), and a stated message matches
    complete: bool  # ... and nothing the comment says was left uncompared
    note: str


@dataclass(frozen=True, slots=True)
class Announcement:
    """A sentence next to a block saying that running it fails, and the error classes it names."""

    names: tuple[str, ...]
    sentence: str
    where: Literal["before", "after"]


def _parse(text: str) -> ast.Module | None:
    try:
        tree = compile(text, "<block>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except (SyntaxError, ValueError):
        return None
    assert isinstance(tree, ast.Module)
    return tree


def block_line(err: RaisedError) -> int | None:
    """The 0-based line of the block the error came through last (``<block N:L>`` starts at line L)."""
    for f in reversed(err.frames):
        m = _BLOCK_FILE.match(f.file)
        if m:
            return int(m.group(1) or 0) + f.line - 1
    return None


def _comments(text: str) -> dict[int, str]:
    out: dict[int, str] = {}
    with contextlib.suppress(tokenize.TokenError, IndentationError, SyntaxError):
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                out[tok.start[0]] = tok.string
    return out


def stated_raise_at(text: str, line: int) -> StatedRaise | None:
    """What a comment states the statement on 0-based ``line`` raises: a comment on one of its lines,
    else one on the comment lines right above it."""
    tree = _parse(text)
    if tree is None:
        return None
    row = line + 1
    around = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n.lineno <= row <= (n.end_lineno or n.lineno)]
    if not around:
        return None
    stmt = min(around, key=lambda n: (n.end_lineno or n.lineno) - n.lineno)
    comments = _comments(text)
    lines = text.split("\n")
    rows = [row, *range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1)]
    above = stmt.lineno - 1
    while above >= 1 and lines[above - 1].strip().startswith("#"):
        rows.append(above)
        above -= 1
    for r in dict.fromkeys(rows):
        found = comment_raise(comments[r]) if r in comments else None
        if found is not None:
            return found
    return _raise_shown_below(lines, comments, stmt.end_lineno or stmt.lineno)


def _raise_shown_below(lines: Sequence[str], comments: dict[int, str], end: int) -> StatedRaise | None:
    """A raise the comment lines right under a statement show as its output (``# KeyError: 'nope'``,
    or a commented ``# Traceback (most recent call last):`` ending in the error's line)."""
    below: list[str] = []
    row = end + 1
    while row <= len(lines) and lines[row - 1].strip().startswith("#") and row in comments:
        below.append(comments[row])
        row += 1
    if not below:
        return None
    if any(c.lstrip("#").strip().startswith("Traceback (") for c in below):  # its last line is the error's
        m = re.match(r"^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)(?::\s*(.*))?$", below[-1].lstrip("#").strip())
        return StatedRaise((m.group(1).split(".")[-1],), m.group(2) or "", m.group(0)) if m else None
    return comment_raise(below[0])


def runs_after(text: str, line: int) -> bool:
    """Whether the block has code after the top-level statement holding 0-based ``line``: what a
    session that stops at the raise leaves unrun."""
    tree = _parse(text)
    return tree is not None and any(stmt.lineno > line + 1 for stmt in tree.body)


def signature_rejected(err: RaisedError) -> bool:
    """A call the callee's signature refuses: the doc's example is stale, not a demonstration."""
    return err.is_a("TypeError") and CALL_REJECTED.match(err.message) is not None


def refused_inside(err: RaisedError) -> bool:
    """A refusal the project raised on what it was given (state it may lack): not a call its signature
    rejects, nor a name the API lacks at the doc's own line."""
    return _raised_by_callee(err) and not signature_rejected(err)


def refused_stated_raise(block: RunBlock, outcome: BlockOutcome) -> tuple[str, str] | None:
    """A raise a comment states that the run met only as the signature refusing the doc's call (the
    child records any raise of the named class and goes on): ``(the callee, the error text)``."""
    for got in outcome.stated:
        m = CALL_REJECTED.match(got.value_str) if got.has_value and block.stated[got.check].kind == "raises" else None
        if m is not None:
            return m.group(1), got.value_repr
    return None


def _literal(text: str) -> tuple[bool, object]:
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def raise_as_stated(stated: StatedRaise, err: RaisedError) -> RaiseCheck:
    """Whether ``err`` is the raise the comment states: a class it names in the error's MRO, the
    stated message if one is written as printed; words after the name are a reason, not compared."""
    said = " or ".join(stated.names)
    if signature_rejected(err) or not err.is_a(*stated.names):
        return RaiseCheck(False, False, f"the comment says it raises {said}; it raises {err.text}")
    detail = " ".join(stated.detail.split())
    if not detail:
        return RaiseCheck(True, True, f"raises {err.type} as the comment says")
    message = " ".join(err.message.split())
    ok_d, lit_d = _literal(detail)
    ok_m, lit_m = _literal(message)
    if detail in (message, " ".join(err.text.split())) or (ok_d and ok_m and lit_d == lit_m):
        return RaiseCheck(True, True, f"raises {err.text} as the comment says")
    if ok_d:  # a message written as printed (``'nope'``) that the run does not print
        return RaiseCheck(False, False, f"the comment says it raises {stated.text.partition(' ')[2] or said}; "
                                        f"it raises {err.text}")
    return RaiseCheck(True, False, f"raises {err.type} as the comment says; its wording ({stated.detail!r}) "
                                   "was not compared")


def _paragraph(lines: Sequence[str], at: int, step: int) -> str:
    out: list[str] = []
    while 0 <= at < len(lines) and lines[at].strip() and not _FENCE.match(lines[at]) and not _HEADING.match(lines[at]):
        out.append(lines[at].strip())
        at += step
    return " ".join(out if step > 0 else reversed(out))


def prose_around(doc_lines: Sequence[str], start_line: int, end_line: int) -> tuple[str, str]:
    """The paragraph right before a code block (1-based code lines ``start_line..end_line``) and the
    one right after it; empty when another block or a heading comes first."""
    at = start_line - 2
    if at >= 0 and (_FENCE.match(doc_lines[at]) or _DIRECTIVE.match(doc_lines[at])):
        at -= 1
    while at >= 0 and (not doc_lines[at].strip() or _DIRECTIVE.match(doc_lines[at])):
        at -= 1
    before = _paragraph(doc_lines, at, -1)
    at = end_line
    if at < len(doc_lines) and _FENCE.match(doc_lines[at]):
        at += 1
    while at < len(doc_lines) and not doc_lines[at].strip():
        at += 1
    return before, _paragraph(doc_lines, at, 1)


def _error_sentence(sentence: str) -> bool:
    if _WARNING_START.match(sentence) or _BROKEN.search(sentence):
        return True
    says_what = bool(_named(sentence) or _FAILURE_NOUN.search(sentence))
    return any(not _NEGATED.search(sentence[: m.start()]) for m in _ERROR_WORDS.finditer(sentence)) or (
        says_what and any(not _NEGATED.search(sentence[: m.start()]) for m in _OUTCOME_WORDS.finditer(sentence)))


def _named(sentence: str) -> tuple[str, ...]:
    spans = [m.group(1).split(".")[-1] for m in _SPAN.finditer(sentence)]
    after_verb = {m.group(1).split(".")[-1] for m in re.finditer(r"(?i:raises?|throws?)\s+(?:(?i:an?)\s+)?" + _SPAN.pattern,
                                                                    sentence)}
    names = [n for n in spans if n[:1].isupper() and (EXC_SUFFIX.search(n) or n in after_verb)]
    names += _BARE_EXC.findall(_SPAN.sub(" ", sentence))
    return tuple(dict.fromkeys(names))


def announced_error(before: str, after: str) -> Announcement | None:
    """The error the prose around a block announces: the last sentence before it (its intro, "If you
    forget the key, you get a `KeyError`:", "Don't ...:") or a first sentence after it that points
    back at it ("This raises `ValidationError` ..."); an intro of the next block (ending ``:``) does not.
    An intro that is only a connector ("For example:") hands over to the sentence before it, which then
    counts only for the error classes it names."""
    sentences = _SENTENCE_END.split(before.strip()) if before.strip() else [""]
    intro = sentences[-1]
    if intro and _error_sentence(intro):
        return Announcement(_named(intro), intro, "before")
    if len(sentences) > 1 and len(intro.split()) <= _CONNECTOR_WORDS and _error_sentence(sentences[-2]):
        named = _named(sentences[-2])
        if named:
            return Announcement(named, sentences[-2], "before")
    remark = _SENTENCE_END.split(after.strip())[0] if after.strip() else ""
    if remark and _BACK_REFERENCE.match(remark) and not remark.rstrip().endswith(":") and _error_sentence(remark):
        return Announcement(_named(remark), remark, "after")
    return None


def _raised_by_callee(err: RaisedError) -> bool:
    return bool(err.frames) and _BLOCK_FILE.match(err.frames[-1].file) is None


def expected_by_prose(ann: Announcement, err: RaisedError) -> bool:
    """Whether ``err`` is the error the prose announces: a class it names (by MRO), else any error a
    callee raised on the values it was given. A call the signature rejects, a missing import or
    attribute (unless named), or an error the doc's own line raises is not what a writer demonstrates."""
    if signature_rejected(err):
        return False
    if ann.names:
        return err.is_a(*ann.names)
    return not err.is_a(*_NOT_A_REFUSAL) and _raised_by_callee(err)


def set_outside_python(err: RaisedError, doc_text: str) -> str | None:
    """Why a ``KeyError`` from ``os.environ`` is the environment's doing: the doc has the reader set
    that variable outside Python (an ``export`` or ``NAME=value`` in a shell, a sentence naming the
    environment variable), which the sandbox does not replay."""
    if not err.is_a("KeyError") or not any(f.file == "<frozen os>" or f.file.endswith("/os.py") for f in err.frames):
        return None
    ok, name = _literal(err.message)
    if not ok or not isinstance(name, str) or not name:
        return None
    if not doc_sets_variable(name, doc_text):
        return None
    return f"the doc has the reader set the environment variable {name} outside Python; the sandbox does not ({err.text})"


def _strings(text: str, upto: int | None = None) -> list[str]:
    """The string constants of a block (those on 1-based lines up to ``upto`` only, when given)."""
    tree = _parse(text)
    return [] if tree is None else [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
                                    and isinstance(n.value, str) and (upto is None or n.lineno <= upto)]


def with_placeholder(text: str, earlier: Sequence[str], err: RaisedError) -> str | None:
    """Why a project's refusal is inconclusive: the call got a placeholder a reader replaces with their
    own value (``"<your-token>"``, ``"YOUR_API_KEY"``), written in this block before the raising line
    or in an earlier block of the doc."""
    if signature_rejected(err) or err.is_a(*_NOT_A_REFUSAL) or not _raised_by_callee(err):
        return None
    line = block_line(err)
    values = [*(s for t in earlier for s in _strings(t)), *_strings(text, None if line is None else line + 1)]
    found = next((v for v in values if _PLACEHOLDER.search(v.strip())), None)
    if found is None and ellipsis_placeholder(text, None if line is None else line + 1):
        found = "..."  # ``connect(host=...)``: the reader's own value goes there
    if found is None:
        return None
    return (f"it passes a placeholder ({found!r}) a reader replaces with their own value, so the project's "
            f"refusal is inconclusive ({err.text})")


_PATH_LIKE = re.compile(r"^(?![a-z]+://)[\w.~-][\w./~-]*(?:/[\w.-]+|\.[A-Za-z]\w{0,5})$")
_FILE_WORDS = re.compile(r"\b(?:files?|paths?|director(?:y|ies)|not found|no such|does(?:n't| not) exist|missing|"
                         r"(?:cannot|can't|could not|couldn't|unable to) (?:open|read|find|load))\b", re.IGNORECASE)


def missing_in_workdir(err: RaisedError, text: str, earlier: Sequence[str]) -> str | None:
    """Why a project's error is the empty working directory's doing: it was raised over a
    ``FileNotFoundError``, or its message names a relative file the doc passes (``"conf/app.toml"``),
    which a reader has next to them and the sandbox's fresh directory does not."""
    if signature_rejected(err) or err.is_a(*_NOT_A_REFUSAL, "FileNotFoundError"):
        return None
    if any("FileNotFoundError" in mro for mro, _ in err.causes):
        return f"it was raised over a file missing in the empty working directory ({err.text})"
    if not _FILE_WORDS.search(err.message) or not _raised_by_callee(err):
        return None
    named = next((v for t in (*earlier, text) for v in _strings(t) if _PATH_LIKE.match(v) and v in err.message), None)
    if named is None:
        return None
    return f"the file it names ({named!r}) is not in the empty working directory ({err.text})"


def session_namespace(err: RaisedError) -> str | None:
    """Why an error is the session's namespace rather than the doc's: pickling a function or class a
    block defined looks it up on a ``__main__`` module that is not the blocks' namespace."""
    if err.is_a("PicklingError") or re.search(r"attribute lookup \w+ on __main__ failed|Can't pickle", err.message):
        return f"pickling what a block defined fails in the session's namespace ({err.text})"
    return None


def registered_before(err: RaisedError, text: str, earlier: Sequence[str]) -> str | None:
    """Why "already registered" is the doc's alternatives meeting in one session: an earlier block
    registered the name the error quotes, and this block registers it again (each alone would run)."""
    if not _ALREADY.search(err.message):
        return None
    quoted = [a or b for a, b in _QUOTED.findall(err.message)]
    mine = set(_strings(text))
    before = {s for t in earlier for s in _strings(t)}
    name = next((q for q in quoted if q in mine and q in before), None)
    if name is None:
        return None
    return (f"an earlier block of the doc already registered {name!r}: the two show alternatives, and in "
            f"one session the second meets the first ({err.text})")


def intended(block: RunBlock, outcome: BlockOutcome, doc_lines: Sequence[str],
             earlier: Sequence[str]) -> tuple[Literal["consistent", "unverified"], str] | None:
    """The label and rationale of a block whose raise is one the doc shows on purpose (a comment or the
    prose around the block says so) or owes to what a reader provides (a placeholder token, an earlier
    alternative); None when the raise is a defect as far as this module can tell."""
    err = outcome.error
    assert err is not None
    text = block.claim.text
    if block.stated and any(j.status == "mismatch" for j in judge(block.stated, outcome.stated)):
        return None
    line = block_line(err)
    stated = stated_raise_at(text, line) if line is not None else None
    if stated is not None and line is not None:
        check = raise_as_stated(stated, err)
        if not check.holds:
            return None
        if runs_after(text, line):
            return "unverified", f"unverified: it {check.note}; the statements after it did not run"
        # the comment stating the raise is already a stated output when it reads as one (``# -> KeyError``)
        held = any(comment_raise("# " + s.want) is not None for s in block.stated)
        others = unchecked_comments(text, block.stated) - (0 if held else 1)
        if check.complete and others <= 0:
            return "consistent", f"ran; it {check.note}"
        left = f"; {counted(others, 'other comment')} not checked" if others > 0 else ""
        return "unverified", f"unverified: it {check.note}{left}"
    before, after = prose_around(doc_lines, block.claim.start_line, block.claim.end_line)
    announced = announced_error(before, after)
    if announced is not None and expected_by_prose(announced, err):
        return "unverified", (f"unverified: it raises {err.text}, as the prose {announced.where} it says "
                              f"({announced.sentence!r}); what else the prose says was not checked")
    why = provided_by_reader(err, text, earlier, doc_lines)
    return ("unverified", f"unverified: {why}") if why else None


def provided_by_reader(err: RaisedError, text: str, earlier: Sequence[str], doc_lines: Sequence[str]) -> str | None:
    """Why a raise is the sandbox lacking what a reader's session has (their own value for a
    placeholder, one alternative rather than both, their files, their environment)."""
    return (with_placeholder(text, earlier, err) or registered_before(err, text, earlier)
            or missing_in_workdir(err, text, earlier) or session_namespace(err)
            or unset_variable(err, text, earlier, "\n".join(doc_lines)))
