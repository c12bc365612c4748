"""Raise claims ("raises X when ...", ``:raises X:``, "never raises X") against what the
function and the project code it calls can raise, and against a body that handles the
stated condition by returning or clamping instead."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.operators import operator_subject
from caas_tui.review.static.codefacts.raisecheck import (
    IMPLICIT,
    Reach,
    bases_known,
    clamps,
    is_subclass,
    judge,
    open_ended,
    raised_itself,
    reach,
    stated_exception,
)
from caas_tui.review.static.codefacts.raiseguards import (
    GuardedRaise,
    condition_stems,
    failing_verbs,
    guarded_raises,
    operation_stems,
    raise_on_condition,
)
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.flow import (
    handles_without_raising,
    own_raise_outside_try,
    raise_guards,
    swallowing_handler,
    translating_handlers,
)
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.outcomes.classraises import check_class_raises
from caas_tui.review.static.outcomes.fallsback import FALLS_BACK, no_fallback
from caas_tui.review.static.outcomes.missingwords import MISSING
from caas_tui.review.static.outcomes.neverraises import check_never, check_never_any
from caas_tui.review.static.outcomes.opraises import omitted_failure
from caas_tui.review.static.outcomes.raisepolarity import condition_words_read, guard_text, raise_polarity
from caas_tui.review.static.outcomes.retfallback import Fallback, code_fallback
from caas_tui.review.static.outcomes.stdraises import stdlib_raise
from caas_tui.review.static.referents.ctorclaims import about_construction
from caas_tui.review.static.referents.subjects import owner_of, subject_of
from caas_tui.review.static.wording.facts import stated_raises
from caas_tui.review.static.wording.words import same_word, stem

_NEGATED = re.compile(r"(?:\bnever|\bnot|n't|\bnor|\bwithout)\s+(?:\w+\s+)?$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.;](?:\s|$)")
_CONDITION = re.compile(r"\b(?:if|when|whenever|unless|for|on|while|once|after|before|with)\b", re.IGNORECASE)
# "raises" with nothing after it that names an exception or a condition.
_BARE_RAISE = re.compile(r"(?:raises?|throws?)\s*(?:$|,?\s*(?:even|at\s+all|anything|any\s+exception|an\s+exception)\b)",
                         re.IGNORECASE)


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def _condition_params(ctx: ReviewContext, fn: Def, condition: str) -> set[str]:
    sig = ctx.signature(fn)
    if sig is None or not condition:
        return set()
    names = {p.name for p in sig.params if p.name not in ("self", "cls")}
    return {n for n in names if re.search(rf"(?<![\w.]){re.escape(n)}(?!\w)", condition)}


def stated_raise_claims(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[tuple[Def, str, bool, str]]:
    """(subject, exception, negated, condition text)."""
    if fact is not None:
        if fact.role == "raises" and fact.name and subject is not None:
            return [(subject, fact.name, False, cond) for cond in entry_conditions(fact.desc)]
        return []
    out: list[tuple[Def, str, bool, str]] = []
    for m in re.finditer(r"\b(?:raises?|throws?)\b", claim.text, re.IGNORECASE):
        operator = operator_subject(ctx, claim, m.start())
        subj = operator[0] if operator is not None else subject_of(ctx, claim, m.start())
        owner, lead = _parameter_phrase(ctx, claim, m.start()) if operator is None else (None, "")
        if subj is None or (owner is not None and subj.node is not owner.node):
            subj, lead = (subj, "") if subj is not None else (owner, lead)
        if subj is None:
            continue
        rest = claim.text[m.start():m.start() + 160]
        end = _SENTENCE_END.search(rest)
        rest = rest[: end.start()] if end else rest
        negated = bool(_NEGATED.search(claim.text[max(0, m.start() - 30):m.start()]))
        names = stated_raises(rest)[:1]
        rest += _leading_clause(claim.text[:m.start()])
        if lead:
            rest += f" (if {lead})"
        if operator is not None and operator[1]:
            rest += f" (when {operator[1]})"  # ``a / 0``: the operand is the condition
        if not names and negated and _BARE_RAISE.match(rest) and not _CONDITION.search(claim.text[:m.start()]):
            names = [""]  # "never raises." / "does not raise, even ...": nothing may escape it
        out += [(subj, name, negated, rest) for name in names]
    return out


# "Also raised when the rate has expired.": a further sentence of a Raises entry that states
# another condition for the same exception.
_FURTHER = re.compile(r"^(?:also|likewise|or|and|as\s+well)\b|\b(?:raised|thrown)\b", re.IGNORECASE)


def entry_conditions(desc: str) -> list[str]:
    """The conditions a Raises entry states: its first sentence, and each later sentence that
    raises the same exception under a condition of its own."""
    sentences = [s.strip() for s in re.split(r"(?<=[.;])\s+(?=[A-Z])", desc.strip()) if s.strip()]
    if len(sentences) < 2:
        return [desc]
    further = [s for s in sentences[1:] if _FURTHER.search(s) and _CONDITION.search(s)]
    if not further:
        return [desc]
    rest = [s for s in sentences[1:] if s not in further]
    return [" ".join([sentences[0], *rest]), *further]


def _parameter_phrase(ctx: ReviewContext, claim: Claim, offset: int) -> tuple[Def | None, str]:
    """(the docstring's owner, the phrase) for "a list of ``ratios`` that are all zero raises
    ...": the words before the verb, in its sentence, name a parameter of the owner and no
    callable. The phrase is the condition."""
    owner = owner_of(ctx, claim)
    if owner is None or owner.kind != "function":
        return None, ""
    phrase = re.split(r"[.;](?:\s|$)|,\s+(?:and|but)\s+", claim.text[:offset])[-1].strip()
    sig = ctx.signature(owner)
    if not phrase or sig is None or _NEGATED.search(phrase):
        return None, ""
    words = {stem(w) for w in re.findall(r"[A-Za-z_]\w*", phrase)}
    if not any(stem(p.name) in words for p in sig.params if p.name not in ("self", "cls")):
        return None, ""
    return owner, phrase


# "If the key is absent, `S.get` raises ...", "Removing an absent key, `S.drop` raises ...":
# the clause before the subject states the condition.
_LEAD = re.compile(r"^(?P<lead>[^;]*?\b(?:if|when|whenever|unless|for|on|once|after|before|with|\w+ing)\b[^;]*),\s+[^,;]*$",
                   re.IGNORECASE)


# "Asking for an entry that has expired raises ...": a gerund subject is the condition.
_GERUND = re.compile(r"^\s*(?P<lead>(?!\w*thing\b)[A-Za-z]\w*ing\b[^;]*?)\s*$", re.IGNORECASE)


def _leading_clause(before: str) -> str:
    sentence = re.split(r"[.;](?:\s|$)", before)[-1]
    m = _LEAD.match(sentence) or _GERUND.match(sentence)
    return f" ({m.group('lead').strip()})" if m else ""


def check_raises(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[Finding]:
    findings: list[Finding] = []
    for subj, name, negated, condition in stated_raise_claims(ctx, claim, fact, subject):
        if subj.kind == "class":
            if not about_construction(ctx, claim, subj, field=fact is not None):
                # "`Client` raises `ClientError` ...": about its methods, not its constructor
                stated = stated_exception(ctx, name, claim) if name and not negated else None
                findings += check_class_raises(ctx, subj, stated, name) if stated is not None else []
                continue
            init = ctx.resolver.member(subj, "__init__")
            if not (init.found and init.target is not None and init.target.kind == "function"):
                continue
            subj = init.target
        if subj.kind != "function":
            continue
        if not name:
            findings += check_never_any(ctx, subj, _label(subj))
            continue
        exc = stated_exception(ctx, name, claim)
        if exc is None:
            continue
        label = _label(subj)
        if negated:
            findings += check_never(ctx, subj, exc, name, label)
            continue
        result, reached = judge(ctx, subj, exc)
        ev = [ctx.evidence(subj)] + [ctx.evidence(d) for d in reached.evidence[:2]]
        check = f"`{label}` raises `{name}`"
        swallowed = swallowing_handler(subj, _catching(ctx, exc))
        if swallowed is not None:
            findings.append(bad("contradicted", check, f"`{label}` catches `{swallowed}` (which covers `{name}`) around "
                                "everything it runs and does not raise it again", *ev, aspect="raises"))
            continue
        translated = _translated(ctx, subj, exc)
        if translated is not None:
            caught, instead = translated
            findings.append(bad("contradicted", check, f"`{label}` catches `{caught}` (which covers `{name}`) around "
                                f"everything it runs and raises `{instead}` instead", *ev, aspect="raises"))
            continue
        other = _raised_instead(ctx, subj, exc, reached, condition) if result is None else None
        if other is not None:
            findings.append(bad("contradicted", check, f"`{label}` raises `{other.short}` on that condition, and "
                                f"`{other.short}` is not a `{exc.short}` (nor derived from it)",
                                *ev, ctx.evidence(other), aspect="raises"))
            continue
        first = no_fallback(ctx, subj, exc) if result and FALLS_BACK.search(condition) else None
        if first is not None:
            findings.append(bad("contradicted", f"`{label}` falls back before raising `{name}`",
                                f"nothing in `{label}` or the code it calls looks at what `{_label(first.fn)}` tests "
                                f"before it raises `{first.exc.short}` (line {first.line}), and no `try` catches it: "
                                "nothing falls back first", *ev, ctx.evidence(first.fn), aspect="raises"))
            continue
        std = stdlib_raise(ctx, subj, exc, condition, _condition_params(ctx, subj, condition))
        if std is not None:  # what a division by zero or a dict lookup raises on that condition
            why = f"`{label}` never raises `{name}`: {std[1]}" if result is False else std[1]
            findings.append(ok(check, *ev, aspect="raises") if std[0] else
                            bad("contradicted", check, why, *ev, aspect="raises"))
            continue
        on_condition = _on_condition(ctx, subj, exc, name, condition, reached) if result is not False else None
        if on_condition is not None and not on_condition[0]:
            first = on_condition[1]
            findings.append(bad("contradicted", check, f"on that condition `{_label(first.fn)}` raises "
                                f"`{first.exc.short}` (line {first.line}), which is not a `{exc.short}` (nor derived "
                                "from it)", *ev, ctx.evidence(first.fn), aspect="raises"))
            continue
        if result is None and not reached.opaque and exc.qualname not in IMPLICIT and not open_ended(ctx, subj) \
                and not _related_raised(ctx, reached, exc):
            # Calls leave the project, so a builtin exception may come from there -- unless
            # the body visibly deals with the stated condition another way.
            how = handles_without_raising(subj, _condition_params(ctx, subj, condition))
            fallback = _missing_fallback(ctx, subj, exc, reached, condition) if how is None else None
            if fallback is not None:
                findings.append(bad("contradicted", check, f"`{label}` does not raise `{name}` {fallback.case}: "
                                    f"it returns its fallback {fallback.source} instead, and nothing it runs "
                                    "raises that exception", *ev, aspect="raises"))
                continue
            if how is not None:
                instead = "it clamps the value with `min`/`max`" if how == "clamps" else \
                    "it returns (or substitutes a value) on that condition"
                findings.append(bad("contradicted", check, f"`{label}` does not raise `{name}` there: {instead}, and "
                                    "no `raise` in it or the project code it calls names that exception", *ev,
                                    aspect="raises"))
            continue
        if result is None:
            continue
        if result and on_condition is None:
            omitted = omitted_failure(ctx, claim, subj, exc, condition)
            if omitted is not None:
                findings.append(bad("incomplete", check, omitted[0], *ev, ctx.evidence(omitted[1]), aspect="raises"))
                continue
        if result:
            polarity = raise_polarity(ctx, subj, exc, condition, reached)
            if polarity is not None and polarity.status == "contradicts" and polarity.stated and polarity.guard:
                findings.append(bad("contradicted", check, f"`{label}` raises `{name}` only when "
                                    f"{guard_text(polarity.guard)} (the guard on line {polarity.guard.line}: "
                                    f"`{polarity.guard.source}`), never when {polarity.stated.text}",
                                    *ev, aspect="raises"))
                continue
            # "raises X when <condition>": that X can be raised is checked; the condition only
            # when the guards of the raise say the same of what it states (or, for a condition
            # no literal is read from, when an own ``raise X`` is guarded by a name the
            # condition uses: "for a missing ``key``" over ``if key not in self._data``).
            aspects: tuple[str, ...] = ("raises",)
            if polarity is not None:
                conditioned = polarity.status != "agrees"
                if not conditioned and condition_words_read(claim, polarity.read):
                    aspects = ("raises", "effect")  # "if the client is closed": that very state was read
            else:
                conditioned = bool(_CONDITION.search(condition)) and on_condition is None \
                    and not _guard_matches(ctx, subj, exc, condition)
            findings.append(ok(check, *ev, aspect="names" if conditioned else aspects))
            continue
        raised = ", ".join(f"`{q.rsplit('.', 1)[-1]}`" for q in reached.raised)
        instead = f"it raises {raised}" if raised else "nothing it runs raises anything"
        if not raised and clamps(subj):
            instead += "; it clamps the value with `min`/`max` instead"
        findings.append(bad("contradicted", check, f"`{label}` never raises `{name}` ({instead})", *ev, aspect="raises"))
    return findings


def _on_condition(ctx: ReviewContext, fn: Def, exc: Def, name: str, condition: str,
                  reached: Reach) -> tuple[bool, GuardedRaise] | None:
    """(agrees, the raise) when the stated condition points at the guard of one exception
    class in ``fn`` or the project code it calls: agrees when that class is ``exc`` or derives
    from it; no answer when the classes are related the other way or a base is unknown."""
    # a callable the caller passes in (a clock, a hook) is the caller's code, not what the entry
    # promises about this function; a raise or a dispatch that cannot be placed leaves no answer
    if not _CONDITION.search(condition) or reached.unplaced:
        return None
    raises = guarded_raises(ctx, fn)
    if not raises:
        return None
    # "if A, or B": each alternative is a condition the exception is promised for
    answers: list[tuple[bool, GuardedRaise]] = []
    operations = operation_stems(ctx, fn)
    for part in re.split(r"\bor\b|;", condition):
        if any(same_word(w, op) for w in failing_verbs(part) for op in operations):
            continue  # "if it cannot be converted": whatever that call raises, not one guard's class
        target = raise_on_condition(ctx, raises, condition_stems(part, name, fn))
        if not target:
            continue
        first = target[0]
        if is_subclass(ctx, first.exc, exc):
            answers.append((True, first))
        elif not is_subclass(ctx, exc, first.exc) and (first.exc.kind != "class" or bases_known(ctx, first.exc)):
            answers.append((False, first))
    return next((a for a in answers if not a[0]), answers[0] if answers else None)


def _catching(ctx: ReviewContext, exc: Def) -> Callable[[str], bool]:
    """Whether an ``except`` clause naming a type catches ``exc``."""
    def catches(handler_type: str) -> bool:
        caught = stated_exception(ctx, handler_type)
        return caught is not None and is_subclass(ctx, exc, caught)
    return catches


def _missing_fallback(ctx: ReviewContext, fn: Def, exc: Def, reached: Reach, condition: str) -> Fallback | None:
    """"raises ``KeyError`` if the key is missing" over a body that hands back a fallback
    for that case instead (``return d.get(key, default)``, a search loop's final
    ``return None``: ``retfallback.code_fallback``), with no ``[]`` lookup or ``raise``
    anywhere in reach."""
    if exc.qualname not in ("KeyError", "LookupError") or reached.subscripts or reached.raised \
            or not MISSING.search(condition) or fn.node is None or any(isinstance(n, ast.Raise) for n in ast.walk(fn.node)):
        return None
    return code_fallback(ctx, fn)


def _guard_matches(ctx: ReviewContext, fn: Def, exc: Def, condition: str) -> bool:
    """The stated condition can be the one an own ``raise`` of ``exc`` depends on: the
    function raises it itself, and the condition names no parameter its guards ignore
    ("if `timeout` is negative" over ``if retries < 0: raise ...`` is another condition)."""
    if not raised_itself(ctx, reach(ctx, fn), exc):
        return False
    params = _condition_params(ctx, fn, condition)
    if not params:
        return True
    guards = raise_guards(fn, {exc.short} | {d.short for d in ctx.subclasses(exc)})
    return any(not g or g & params for g in guards)  # an unguarded raise happens whatever the condition


def _raised_instead(ctx: ReviewContext, fn: Def, exc: Def, reached: Reach, condition: str) -> Def | None:
    """The project exception ``fn`` raises itself under a guard that reads a parameter the
    stated condition names, when it is not ``exc`` (its bases all resolved) and ``fn``
    raises ``exc`` nowhere itself: what the caller gets on that condition instead."""
    params = _condition_params(ctx, fn, condition) if _CONDITION.search(condition) else set()
    if not params or exc.qualname in reached.own:
        return None
    found: list[Def] = []
    for qual in sorted(reached.own):
        other = reached.raised[qual]
        if other.kind != "class" or not other.is_project or is_subclass(ctx, other, exc) or not bases_known(ctx, other):
            continue
        guards = raise_guards(fn, {other.short})
        if guards and all(g & params for g in guards):
            found.append(other)
    return found[0] if len(found) == 1 else None


def _translated(ctx: ReviewContext, fn: Def, exc: Def) -> tuple[str, str] | None:
    """(caught, raised instead) when every call of ``fn`` is inside a ``try`` whose handler
    for ``exc`` (or a base of it) raises an exception that is not ``exc``."""
    handlers = translating_handlers(fn)
    if not handlers or fn.module is None or own_raise_outside_try(fn, {exc.short}) is not None:
        return None
    for handler, raised in handlers:
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type] if handler.type else []
        for t in types:
            name = dotted(t)
            caught = stated_exception(ctx, name) if name else None
            if caught is None or not is_subclass(ctx, exc, caught):
                continue
            new = stated_exception(ctx, raised)
            if new is None or is_subclass(ctx, new, exc):
                return None  # it raises the stated exception (or a kind of it) after all
            return name or "", raised.rsplit(".", 1)[-1]
    return None


def _related_raised(ctx: ReviewContext, reached: object, exc: Def) -> bool:
    """Something in reach raises a superclass of ``exc`` (``raise LookupError`` for a stated ``KeyError``)."""
    raised = getattr(reached, "raised", {})
    return any(is_subclass(ctx, exc, r) for r in raised.values())
