"""The static reviewer: offline, deterministic, precision first.

It resolves every name a claim mentions and checks what it can prove from the code:
existence, parameter names, arity, defaults, return types, raised exceptions and
string prefixes the code builds. It judges no prose it cannot check: a claim with no
checkable API fact is ``unverified``.
"""

from __future__ import annotations

import logging
import re
import threading
import weakref
from collections.abc import Sequence

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.base import ReviewProgress
from caas_tui.review.claims.mentions import code_spans
from caas_tui.review.claims.tense import HISTORY_CUE, past_reason, speaks_of_past
from caas_tui.review.static.actions.behaviour import check_calls, check_retries
from caas_tui.review.static.actions.countloops import check_loop_counts
from caas_tui.review.static.actions.flagclaims import check_flag_conditions
from caas_tui.review.static.actions.timing import check_immediacy
from caas_tui.review.static.actions.yieldshape import check_loop_shapes
from caas_tui.review.static.behaviour.derived import check_derived_defaults
from caas_tui.review.static.behaviour.mutability import check_mutability
from caas_tui.review.static.behaviour.orders import check_orders
from caas_tui.review.static.behaviour.queues import check_take_order
from caas_tui.review.static.behaviour.usedcalls import check_used_calls
from caas_tui.review.static.blocks.barecalls import check_bare_calls
from caas_tui.review.static.blocks.blockresults import check_block_results
from caas_tui.review.static.blocks.codeblocks import check_code
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.defaults.attrdefaults import check_attribute_defaults
from caas_tui.review.static.defaults.counts import check_counts
from caas_tui.review.static.defaults.members import check_members
from caas_tui.review.static.defaults.sectiondefaults import check_section_defaults
from caas_tui.review.static.defaults.sigspans import check_signature_spans
from caas_tui.review.static.defaults.tabledefaults import check_table_defaults
from caas_tui.review.static.defaults.unlessdefaults import check_unless_defaults
from caas_tui.review.static.drift.driftfields import check_description_fields
from caas_tui.review.static.drift.driftnames import check_stdlib_named, check_worded_members
from caas_tui.review.static.drift.driftunknown import check_unresolved, check_unresolved_imports
from caas_tui.review.static.drift.removednames import check_unbound_api_names
from caas_tui.review.static.drift.removednotes import check_removed_notes
from caas_tui.review.static.factchecks import check_facts
from caas_tui.review.static.findings import REVIEWER, Edit, Finding, bad, verdict_for
from caas_tui.review.static.kinds.argkinds import check_arg_kinds
from caas_tui.review.static.kinds.bounds import check_stated_bounds
from caas_tui.review.static.kinds.callstyle import check_call_style
from caas_tui.review.static.kinds.forwardtypes import check_forwarded_types
from caas_tui.review.static.kinds.isclaims import check_is_a, check_raised_bases
from caas_tui.review.static.kinds.ranges import check_table_ranges
from caas_tui.review.static.kinds.takes import check_takes
from caas_tui.review.static.languages.doccomments import check_doc_comment, source_language
from caas_tui.review.static.languages.polyglot import block_language, check_block, check_prose
from caas_tui.review.static.naming.callability import check_uncallable
from caas_tui.review.static.naming.names import check_inline_calls, check_mentions
from caas_tui.review.static.naming.prosenames import check_named_members, check_undefined_roles
from caas_tui.review.static.naming.settingnames import check_setting_names, shell_block
from caas_tui.review.static.outcomes.missingnone import check_missing_none
from caas_tui.review.static.outcomes.quietclaims import check_clamped_raise, check_quiet_handling
from caas_tui.review.static.outcomes.retfallback import check_missing_fallback
from caas_tui.review.static.outcomes.statuswords import check_status_words
from caas_tui.review.static.outcomes.tableraises import check_table_raises
from caas_tui.review.static.specs.platformrules import check_platform_rules
from caas_tui.review.static.specs.specmaps import check_numberings
from caas_tui.review.static.specs.upstream import check_upstream
from caas_tui.review.static.specs.wrapdefaults import check_wrapped_defaults
from caas_tui.review.static.subjects import inherited_findings, noted
from caas_tui.review.static.testevidence.testchecks import check_tests

log = logging.getLogger(__name__)
_QUOTED = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'")
_HISTORY_DOCS = re.compile(r"(?:^|/)(?:changelog|changes|history|news|release[-_ ]?notes?|whatsnew)[^/]*$", re.IGNORECASE)
_FOREIGN = re.compile(r"code block \((?!python|py\b|pycon|python3|ipython|doctest|default)([\w+-]+)", re.IGNORECASE)


def judged_at_all(claim: Claim) -> bool:
    """False for claims the static checks must leave alone."""
    if _HISTORY_DOCS.search(claim.doc_path):
        return False
    if claim.kind == "code":
        # the paragraph introducing a block ("Before:", "The deprecated way:") and its language
        return not (_FOREIGN.search(claim.context) or speaks_of_past(claim.context.split("code block", 1)[-1]))
    return historical(claim) is None


def historical(claim: Claim) -> str | None:
    """Why a prose claim is about the API's past or future (its own words, the paragraph
    it opens with, or the version note it sits in), or None."""
    paragraph = claim.context.split("\n\n", 1)[-1]
    if HISTORY_CUE.match(paragraph.lstrip("*_#> ")):
        return past_reason(paragraph) or past_reason(claim.text, claim.context)
    return past_reason(claim.text, claim.context)


def check_doubled_prefix(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """A literal like ``res://res://a`` where the code's builder already adds ``res://``."""
    if claim.kind == "code":
        haystacks = [claim.text]
    else:
        haystacks = code_spans(claim.text) + [m.group(0) for m in _QUOTED.finditer(claim.text)]
    findings: list[Finding] = []
    done: set[str] = set()
    for fn, param, prefix in ctx.prefix_builders():
        doubled = prefix + prefix
        if prefix in done or not any(doubled in h for h in haystacks):
            continue
        done.add(prefix)
        label = fn.short
        findings.append(bad(
            "contradicted", f"values built with {prefix!r} carry it once",
            f"`{label}` already prepends {prefix!r} to `{param}`; {doubled!r} repeats the prefix",
            ctx.evidence(fn), edit=Edit(claim.start_line, claim.end_line, doubled, prefix),
        ))
    return findings


# Parsed code and derived facts per engine, reused while the indexed code is unchanged
# (reviewing 50 docs must not parse the project 50 times).
_CONTEXTS: weakref.WeakKeyDictionary[Engine, tuple[frozenset[tuple[str, str]], ReviewContext]] = weakref.WeakKeyDictionary()
_CONTEXTS_LOCK = threading.Lock()


def _code_fingerprint(engine: Engine) -> frozenset[tuple[str, str]]:
    return frozenset((c.path, c.file_sha256) for c in engine.chunks() if c.language == "python")


def context_for(engine: Engine) -> ReviewContext:
    fingerprint = _code_fingerprint(engine)
    cached = _CONTEXTS.get(engine)
    if cached is not None and cached[0] == fingerprint:
        ctx = cached[1]
    else:
        ctx = ReviewContext(engine)
        _CONTEXTS[engine] = (fingerprint, ctx)
    ctx.begin_run()
    return ctx


class StaticReviewer:
    """``Reviewer`` implementation. Reviews are serialised (the shared context is not
    thread-safe); each is fast."""

    name = REVIEWER

    def review(
        self, claims: Sequence[Claim], engine: Engine, *, progress: ReviewProgress | None = None
    ) -> list[Verdict]:
        with _CONTEXTS_LOCK:
            ctx = context_for(engine)
            verdicts: list[Verdict] = []
            total = len(claims)
            for i, claim in enumerate(claims):
                verdicts.append(self.review_one(ctx, claim))
                if progress is not None:
                    progress(i + 1, total, claim.doc_path)
            return verdicts

    def review_one(self, ctx: ReviewContext, claim: Claim) -> Verdict:
        binding = None
        try:
            findings = self.findings(ctx, claim)
            if claim.kind == "prose" and judged_at_all(claim) and source_language(claim.doc_path) is None:
                # "It returns ...": the subject its context names, re-read by the same checks
                findings, binding = inherited_findings(ctx, claim, findings, self.findings)
        except Exception as exc:
            log.exception("static review of %s:%s failed", claim.doc_path, claim.start_line)
            return Verdict(claim.id, "unverified", REVIEWER, f"static check failed: {type(exc).__name__}: {exc}")
        if not findings and claim.kind != "code" and not _HISTORY_DOCS.search(claim.doc_path):
            reason = historical(claim)
            if reason is not None:
                return Verdict(claim.id, "unverified", REVIEWER, reason)
        return noted(verdict_for(claim, findings, ctx.doc_lines(claim.doc_path)), binding)

    @staticmethod
    def findings(ctx: ReviewContext, claim: Claim) -> list[Finding]:
        out: list[Finding] = []
        language = block_language(claim)
        if language is not None:  # a TS/JS, Java, Kotlin, C#, Go or Rust block: that language's checks
            past = _HISTORY_DOCS.search(claim.doc_path) or speaks_of_past(claim.context.split("code block", 1)[-1])
            return [] if past else check_block(ctx, claim, language)
        if claim.kind == "code" and shell_block(claim):
            return [] if _HISTORY_DOCS.search(claim.doc_path) else check_setting_names(ctx, claim)
        if not judged_at_all(claim):
            return out if _HISTORY_DOCS.search(claim.doc_path) else check_removed_notes(ctx, claim)
        if source_language(claim.doc_path) is not None:
            return check_doc_comment(ctx, claim)  # the doc comments of such a source file
        if claim.kind == "code":
            out += check_code(ctx, claim)
            out += check_block_results(ctx, claim)
            out += check_arg_kinds(ctx, claim)
            out += check_tests(ctx, claim, None, None)
            out += check_unbound_api_names(ctx, claim)
            out += check_unresolved_imports(ctx, claim)
        else:
            out += check_mentions(ctx, claim)
            out += check_inline_calls(ctx, claim)
            out += check_signature_spans(ctx, claim)
            out += check_uncallable(ctx, claim)
            out += check_takes(ctx, claim)
            out += check_setting_names(ctx, claim)
            out += check_call_style(ctx, claim)
            out += check_bare_calls(ctx, claim)
            out += check_named_members(ctx, claim)
            out += check_worded_members(ctx, claim)
            out += check_stdlib_named(ctx, claim)
            out += check_description_fields(ctx, claim)
            out += check_unbound_api_names(ctx, claim)
            out += check_unresolved(ctx, claim)
            out += check_undefined_roles(ctx, claim)
            out += check_facts(ctx, claim)
            out += check_section_defaults(ctx, claim)
            out += check_attribute_defaults(ctx, claim)
            out += check_table_defaults(ctx, claim)
            out += check_table_raises(ctx, claim)
            out += check_table_ranges(ctx, claim)
            out += check_stated_bounds(ctx, claim)
            out += check_unless_defaults(ctx, claim)
            out += check_calls(ctx, claim)
            out += check_retries(ctx, claim)
            out += check_counts(ctx, claim)
            out += check_loop_counts(ctx, claim)
            out += check_members(ctx, claim)
            out += check_is_a(ctx, claim)
            out += check_raised_bases(ctx, claim)
            out += check_forwarded_types(ctx, claim)
            out += check_flag_conditions(ctx, claim)
            out += check_missing_fallback(ctx, claim)
            out += check_missing_none(ctx, claim)
            out += check_quiet_handling(ctx, claim)
            out += check_clamped_raise(ctx, claim)
            out += check_loop_shapes(ctx, claim)
            out += check_immediacy(ctx, claim)
            out += check_platform_rules(ctx, claim)
            out += check_used_calls(ctx, claim)
            out += check_orders(ctx, claim)
            out += check_take_order(ctx, claim)
            out += check_mutability(ctx, claim)
            out += check_derived_defaults(ctx, claim)
            out += check_status_words(claim)
            out += check_upstream(ctx, claim)
            out += check_wrapped_defaults(ctx, claim)
            out += check_numberings(ctx, claim)
            out += check_prose(ctx, claim)
        out += check_doubled_prefix(ctx, claim)
        return out
