"""The Claude reviewer: each claim (or section) goes through a tool loop against the index.

One claim's failure (API error, refusal, malformed answer) becomes an ``unverified``
verdict whose rationale says why; the review as a whole never stops for one claim.
The API key is read from the environment by the SDK only and is scrubbed from every
message this module produces.
"""

from __future__ import annotations

import logging
import os
import random
import re
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any

import anthropic

from caas_tui.errors import CaasError, ReviewError
from caas_tui.models import Claim, Verdict
from caas_tui.review.claude.client import client_for
from caas_tui.review.claude.schema import (
    Answer,
    Usage,
    UsageTally,
    check_fix,
    doc_sha256,
    parse_answers,
    resolve_evidence,
    submit_tool,
)
from caas_tui.review.claude.tools import (
    SYSTEM_PROMPT,
    EngineLike,
    ToolBox,
    gather_evidence,
    render_request,
    tool_definitions,
)

if TYPE_CHECKING:  # the engine is only needed for typing; fakes satisfy EngineLike
    from caas_tui.config import Config
    from caas_tui.retrieve.engine import Engine

log = logging.getLogger(__name__)

DEFAULT_MODEL = "claude-sonnet-4-6"
MALFORMED = "malformed answer from Claude"
CANCELLED = "review cancelled before this claim was checked"
SECTION_BATCH = 8  # most claims answered in one conversation when batch_sections is on
_RETRY_STATUS = frozenset({429, 529})
_FATAL_STATUS = frozenset({401, 402, 403, 404})  # every later request would fail the same way
_KEY_SHAPE = re.compile(r"sk-ant-[A-Za-z0-9_\-]+")

ReviewProgress = Callable[[int, int, str], None]  # same shape as caas_tui.review.base.ReviewProgress


class _Fatal(ReviewError):
    """An API error no other claim can get past (bad key, unknown model): stop sending."""


class _Cancelled(CaasError):
    pass


class ClaudeReviewer:
    """Reviews claims with Claude; satisfies :class:`caas_tui.review.base.Reviewer`."""

    name = "claude"
    doc_context = False  # each claim carries its own surrounding text: no earlier claims needed

    def __init__(
        self,
        client: anthropic.Anthropic | anthropic.AnthropicBedrock | anthropic.AnthropicVertex | None = None,
        *,
        model: str = DEFAULT_MODEL,
        max_turns: int = 8,
        concurrency: int = 4,
        timeout: float = 60.0,
        on_usage: Callable[[Usage], None] | None = None,
        max_retries: int = 4,
        retry_base: float = 1.0,
        retry_cap: float = 30.0,
        sleep: Callable[[float], None] | None = None,
        max_tokens: int = 4096,
        batch_sections: bool = False,
        rerank: bool = False,
    ) -> None:
        if client is None:
            _require_key()
            client = anthropic.Anthropic()  # the SDK reads ANTHROPIC_API_KEY itself
        # Our own retry loop (observable, cancellable, one-line errors) replaces the SDK's.
        self._client = client.with_options(max_retries=0, timeout=timeout)
        self.model = model
        self.max_turns = max(1, max_turns)
        self.concurrency = max(1, concurrency)
        self.timeout = timeout
        self.on_usage = on_usage
        self.max_retries = max(0, max_retries)
        self.retry_base = retry_base
        self.retry_cap = retry_cap
        self._sleep = sleep  # None: wait on the cancel event, so cancelling cuts a backoff short
        self.max_tokens = max_tokens
        self.batch_sections = batch_sections
        self.rerank = rerank  # evidence searches re-ranked by the MiniLM transformer (optional extra)
        self.last_usage = Usage()

    @classmethod
    def from_env(cls, cfg: Config, **kwargs: Any) -> ClaudeReviewer:
        """A reviewer for ``cfg``'s provider, base URL, model, token budget and concurrency;
        raises ReviewError when the provider has no credentials (or its SDK extra is missing)."""
        kwargs.setdefault("model", cfg.review_model)
        kwargs.setdefault("concurrency", cfg.review_concurrency)
        kwargs.setdefault("rerank", cfg.review_rerank)
        kwargs.setdefault("max_tokens", cfg.review_max_tokens)
        return cls(client_for(cfg), **kwargs)

    # -- the Reviewer protocol ------------------------------------------------------
    def review(
        self,
        claims: Sequence[Claim],
        engine: Engine | EngineLike,
        *,
        progress: ReviewProgress | None = None,
        cancel: threading.Event | None = None,
    ) -> list[Verdict]:
        """One verdict per claim, in claim order, reviewed ``concurrency`` at a time.

        ``progress(done, total, message)`` is called from this thread as claims finish;
        ``on_usage`` from worker threads as responses arrive. After ``cancel`` is set,
        claims not yet sent come back ``unverified`` with rationale :data:`CANCELLED`.
        """
        tally = UsageTally(self.model, self.on_usage)
        units = self._units(claims)
        results: list[Verdict | None] = [None] * len(claims)
        stop = cancel or threading.Event()
        fatal: list[str] = []  # set once by the first fatal error; read by every worker
        done = 0
        workers = min(self.concurrency, max(1, len(units)))
        # At most `workers` units in flight; the next is sent only after one finishes, so a
        # cancel set from the progress callback stops every claim not yet sent.
        pending = iter(units)
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="claude") as pool:
            running: dict[Future[list[Verdict]], list[int]] = {}

            def submit_next() -> None:
                unit = next(pending, None)
                if unit is not None:
                    running[pool.submit(self._guarded, [claims[i] for i in unit], engine, tally, stop, fatal)] = unit

            for _ in range(workers):
                submit_next()
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    unit = running.pop(future)
                    for i, verdict in zip(unit, future.result(), strict=True):
                        results[i] = verdict
                    done += len(unit)
                    self.last_usage = tally.total
                    if progress is not None:
                        claim, last = claims[unit[-1]], results[unit[-1]]
                        assert last is not None
                        progress(done, len(claims), f"{claim.doc_path}:{claim.start_line} {last.verdict}")
                    submit_next()
        self.last_usage = tally.total
        return [v for v in results if v is not None]

    def review_claim(
        self, claim: Claim, engine: Engine | EngineLike, *, cancel: threading.Event | None = None
    ) -> Verdict:
        return self.review_section([claim], engine, cancel=cancel)[0]

    def review_section(
        self,
        claims: Sequence[Claim],
        engine: Engine | EngineLike,
        *,
        cancel: threading.Event | None = None,
        tally: UsageTally | None = None,
    ) -> list[Verdict]:
        """Review claims together in one conversation (shared evidence, one answer)."""
        if not claims:
            return []
        tally = tally or UsageTally(self.model, self.on_usage)
        verdicts = self._guarded(list(claims), engine, tally, cancel or threading.Event(), [])
        self.last_usage = tally.total
        return verdicts

    def _units(self, claims: Sequence[Claim]) -> list[list[int]]:
        if not self.batch_sections:
            return [[i] for i in range(len(claims))]
        groups: dict[tuple[str, str | None], list[int]] = {}
        for i, claim in enumerate(claims):
            groups.setdefault((claim.doc_path, claim.section), []).append(i)
        # A long section is split: one bad answer should cost few claims, and long answers truncate.
        return [g[n : n + SECTION_BATCH] for g in groups.values() for n in range(0, len(g), SECTION_BATCH)]

    def _guarded(
        self, claims: list[Claim], engine: EngineLike, tally: UsageTally, cancel: threading.Event, fatal: list[str]
    ) -> list[Verdict]:
        if cancel.is_set():
            return [self._unverified(c, CANCELLED) for c in claims]
        if fatal:
            return [self._unverified(c, fatal[0]) for c in claims]
        try:
            return self._review_unit(claims, engine, tally, cancel)
        except _Cancelled:
            return [self._unverified(c, CANCELLED) for c in claims]
        except _Fatal as exc:
            fatal.append(str(exc))
            return [self._unverified(c, str(exc)) for c in claims]
        except CaasError as exc:
            return [self._unverified(c, _one_line(self._scrub(str(exc)))) for c in claims]
        except Exception as exc:  # noqa: BLE001 - a bug on one claim must not lose a paid-for review
            log.exception("Claude review of %s failed", claims[0].id)
            why = _one_line(self._scrub(f"internal error: {type(exc).__name__}: {exc}"))
            return [self._unverified(c, why) for c in claims]

    # -- one conversation -----------------------------------------------------------
    def _review_unit(
        self, claims: list[Claim], engine: EngineLike, tally: UsageTally, cancel: threading.Event
    ) -> list[Verdict]:
        refs = [f"C{n}" for n in range(1, len(claims) + 1)]
        hits, notes, rerank_checks = gather_evidence(engine, claims, rerank=self.rerank)
        submit = submit_tool(refs)
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": [{"type": "text", "text": SYSTEM_PROMPT, "cache_control": {"type": "ephemeral"}}],
            "tools": tool_definitions(submit),
        }
        messages: list[dict[str, Any]] = [{"role": "user", "content": render_request(claims, refs, hits, notes)}]
        box = ToolBox(engine, rerank=self.rerank)
        checks: list[str] = [f"hybrid search: {len(hits)} hits", *rerank_checks]
        answers: dict[str, Answer] = {}
        corrected = False
        limit, turns = self.max_turns, 0
        while True:
            if cancel.is_set():
                raise _Cancelled(CANCELLED)
            # Free choice among tools until the last turn, which must be the answer.
            forced = turns >= limit - 1
            choice = {"type": "tool", "name": submit["name"]} if forced else {"type": "any"}
            response = self._create({**params, "tool_choice": choice, "messages": messages}, cancel)
            tally.add(response.usage)
            turns += 1
            if response.stop_reason == "refusal":
                why = "Claude declined to review this claim (refusal)"
                return self._settle(claims, refs, answers, engine, checks, why)
            if response.stop_reason in ("max_tokens", "model_context_window_exceeded"):
                why = f"Claude's answer was cut off ({response.stop_reason}) before a verdict was given"
                return self._settle(claims, refs, answers, engine, checks, why)
            uses = [b for b in response.content if b.type == "tool_use"]
            submitted = [u for u in uses if u.name == submit["name"]]
            problems = ["no verdict: the answer tool was not called"] if not uses else []
            if submitted:
                got, problems = parse_answers(submitted[-1].input, refs)
                answers.update(got)
                if not problems:
                    return self._settle(claims, refs, answers, engine, checks, "")
            if problems:
                if corrected:
                    return self._settle(claims, refs, answers, engine, checks, MALFORMED)
                corrected = True
                limit = max(limit, turns + 1)  # the corrective retry always gets its turn
            if turns >= limit:
                return self._settle(claims, refs, answers, engine, checks, f"no verdict after {turns} turns")
            if cancel.is_set():
                raise _Cancelled(CANCELLED)
            content = [b.to_dict() for b in response.content]
            if content:
                messages.append({"role": "assistant", "content": content})
            messages.append({"role": "user", "content": self._results(uses, submit["name"], problems, box, checks)})

    def _results(
        self, uses: list[Any], submit: str, problems: list[str], box: ToolBox, checks: list[str]
    ) -> list[dict[str, Any]]:
        """One tool_result per tool_use (the API requires it), plus a nudge if no tool was used."""
        fix_it = f"Call {submit} again with a corrected, complete answer. Problems: " + "; ".join(problems[:8])
        results: list[dict[str, Any]] = []
        for use in uses:
            if use.name == submit:
                results.append({"type": "tool_result", "tool_use_id": use.id, "content": fix_it, "is_error": True})
                continue
            outcome = box.run(use.name, use.input)
            checks.append(outcome.check)
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": use.id, "content": outcome.content}
            if outcome.is_error:
                block["is_error"] = True
            results.append(block)
        if not uses:
            results.append({"type": "text", "text": fix_it})
        return results

    def _settle(
        self,
        claims: list[Claim],
        refs: list[str],
        answers: dict[str, Answer],
        engine: EngineLike,
        checks: list[str],
        missing_reason: str,
    ) -> list[Verdict]:
        """Verdicts for answered claims; ``unverified`` with ``missing_reason`` for the rest."""
        out: list[Verdict] = []
        for ref, claim in zip(refs, claims, strict=True):
            answer = answers.get(ref)
            if answer is None:
                out.append(self._unverified(claim, missing_reason, tuple(checks)))
                continue
            out.append(
                Verdict(
                    claim_id=claim.id,
                    verdict=answer.verdict,
                    reviewer=self.name,
                    rationale=self._scrub(answer.rationale) or "(no rationale given)",
                    evidence=resolve_evidence(engine, answer.evidence),
                    fix=check_fix(claim, answer),
                    model=self.model,
                    doc_sha256=doc_sha256(engine, claim),
                    checks=tuple(checks),
                )
            )
        return out

    def _unverified(self, claim: Claim, why: str, checks: tuple[str, ...] = ()) -> Verdict:
        return Verdict(claim.id, "unverified", self.name, why, model=self.model, checks=checks)

    # -- the API call with retries ---------------------------------------------------
    def _create(self, params: dict[str, Any], cancel: threading.Event) -> Any:
        attempt = 0
        while True:
            retry_after: float | None = None
            try:
                return self._client.messages.create(**params)
            except anthropic.APIStatusError as exc:
                code = exc.status_code
                why = _status_reason(exc)
                if code in _FATAL_STATUS:
                    raise _Fatal(self._scrub(why)) from None
                if code not in _RETRY_STATUS and code < 500:
                    raise ReviewError(self._scrub(why)) from None
                retry_after = _retry_after(exc)
            except anthropic.APITimeoutError:
                why = f"Claude API request timed out ({self.timeout:g}s)"
            except anthropic.APIConnectionError:
                why = "cannot reach the Claude API (connection error)"
            except anthropic.AnthropicError as exc:
                raise ReviewError(self._scrub(f"Claude API error: {type(exc).__name__}")) from None
            if attempt >= self.max_retries:
                raise ReviewError(self._scrub(f"{why}; gave up after {attempt + 1} attempts"))
            delay = min(self.retry_cap, self.retry_base * 2**attempt) * random.uniform(0.5, 1.0)
            if retry_after is not None:
                delay = max(delay, min(retry_after, self.retry_cap))
            log.info("%s; retrying in %.1fs (attempt %d of %d)", why, delay, attempt + 2, self.max_retries + 1)
            if self._sleep is not None:
                self._sleep(delay)
            elif cancel.wait(delay):
                raise _Cancelled(CANCELLED)
            if cancel.is_set():
                raise _Cancelled(CANCELLED)
            attempt += 1

    def _scrub(self, text: str) -> str:
        """Remove any API key from text bound for a verdict, a log or an exception."""
        for secret in (os.environ.get("ANTHROPIC_API_KEY"), getattr(self._client, "api_key", None)):
            if secret and len(secret) >= 8:
                text = text.replace(secret, "[redacted]")
        return _KEY_SHAPE.sub("[redacted]", text)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _require_key() -> None:
    if not os.environ.get("ANTHROPIC_API_KEY", "").strip():
        raise ReviewError("ANTHROPIC_API_KEY is not set")


def _status_reason(exc: anthropic.APIStatusError) -> str:
    code = exc.status_code
    if code == 429:
        return "Claude API rate limit (HTTP 429)"
    if code == 529:
        return "Claude API overloaded (HTTP 529)"
    if code >= 500:
        return f"Claude API server error (HTTP {code})"
    if code == 401:
        return "Claude API rejected the API key (HTTP 401)"
    detail = _one_line(exc.api_message or "")  # API text may span lines; errors are one line
    detail = detail if len(detail) <= 200 else detail[:199] + "…"
    return f"Claude API error (HTTP {code})" + (f": {detail}" if detail else "")


def _retry_after(exc: anthropic.APIStatusError) -> float | None:
    try:
        return float(exc.response.headers.get("retry-after", ""))
    except ValueError:
        return None


__all__ = ["CANCELLED", "DEFAULT_MODEL", "MALFORMED", "ClaudeReviewer", "Usage"]
