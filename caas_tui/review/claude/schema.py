"""What Claude must answer, how the answer is checked, and what the answers cost.

The verdict arrives as the input of a *strict* ``submit_verdict`` tool rather than as
``output_config`` JSON text. Both are supported by the installed SDK (2.14); the tool
wins because the reviewer already runs a tool loop: the answer is one more tool call
(``tool_choice`` can force it on the last turn), it comes back already parsed in
``tool_use.input``, and a malformed answer gets its correction as an ordinary
``tool_result`` with ``is_error: true`` that the model reads like any other tool error.
With ``output_config`` the final turn would have to switch from tool calls to free JSON
text, which needs a second answer path for the same loop.

``strict: true`` constrains sampling, but the schema is still checked here: a refusal,
a truncated answer or a scripted test response can bypass the grammar.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from caas_tui.errors import CaasError, ReviewError
from caas_tui.models import Claim, EvidenceSpan, Fix, VerdictLabel
from caas_tui.review.claude.tools import EngineLike, safe_path
from caas_tui.review.textutil import evidence_sha256

ANSWER_LABELS: tuple[VerdictLabel, ...] = ("consistent", "contradicted", "incomplete")
SUBMIT_ONE = "submit_verdict"
SUBMIT_MANY = "submit_verdicts"

_SPAN: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "Project-relative path exactly as shown in the evidence."},
        "start_line": {"type": "integer", "description": "First line (1-based) of the supporting span."},
        "end_line": {"type": "integer", "description": "Last line (inclusive) of the supporting span."},
    },
    "required": ["path", "start_line", "end_line"],
    "additionalProperties": False,
}
_FIX: dict[str, Any] = {
    "type": "object",
    "properties": {
        "start_line": {"type": "integer", "description": "First doc line to replace; inside the claim's lines."},
        "end_line": {"type": "integer", "description": "Last doc line to replace; inside the claim's lines."},
        "replacement": {"type": "string", "description": "The full new text of those doc lines."},
    },
    "required": ["start_line", "end_line", "replacement"],
    "additionalProperties": False,
}
_VERDICT_PROPS: dict[str, Any] = {
    "verdict": {"type": "string", "enum": list(ANSWER_LABELS)},
    "rationale": {"type": "string", "description": "Two to five sentences naming the decisive evidence."},
    "evidence": {"type": "array", "items": _SPAN},
    "fix": {"anyOf": [_FIX, {"type": "null"}]},
}

VERDICT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": _VERDICT_PROPS,
    "required": list(_VERDICT_PROPS),
    "additionalProperties": False,
}


def section_schema(refs: Sequence[str]) -> dict[str, Any]:
    """Schema for several claims answered at once; ``claim`` is one of the short refs (C1..Cn)."""
    item = {
        "type": "object",
        "properties": {"claim": {"type": "string", "enum": list(refs)}, **_VERDICT_PROPS},
        "required": ["claim", *_VERDICT_PROPS],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"verdicts": {"type": "array", "items": item}},
        "required": ["verdicts"],
        "additionalProperties": False,
    }


def submit_tool(refs: Sequence[str]) -> dict[str, Any]:
    """The strict answer tool: ``submit_verdict`` for one claim, ``submit_verdicts`` for a section."""
    if len(refs) == 1:
        return {
            "name": SUBMIT_ONE,
            "description": "Record your final verdict on the claim. Call exactly once, after gathering evidence.",
            "input_schema": VERDICT_SCHEMA,
            "strict": True,
        }
    return {
        "name": SUBMIT_MANY,
        "description": "Record your final verdicts, one item per claim (C1..Cn). Call exactly once.",
        "input_schema": section_schema(refs),
        "strict": True,
    }


# -- validation --------------------------------------------------------------------
_TYPES: dict[str, Callable[[object], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "null": lambda v: v is None,
}


def validate(value: object, schema: Mapping[str, Any], where: str = "$") -> list[str]:
    """Problems with ``value`` against the JSON-schema subset the answer schemas use.

    Hand-rolled because ``jsonschema`` is not a declared dependency and the subset
    (type, enum, properties, required, additionalProperties, items, anyOf) is small.
    """
    if "anyOf" in schema:
        options = [validate(value, option, where) for option in schema["anyOf"]]
        return [] if any(not o for o in options) else min(options, key=len)
    kind = schema.get("type")
    if kind is not None and not _TYPES[kind](value):
        return [f"{where}: expected {kind}, got {type(value).__name__}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where}: {value!r} is not one of {', '.join(map(str, schema['enum']))}"]
    problems: list[str] = []
    if isinstance(value, dict):
        props: Mapping[str, Any] = schema.get("properties", {})
        problems += [f"{where}: missing field {name!r}" for name in schema.get("required", ()) if name not in value]
        if schema.get("additionalProperties") is False:
            problems += [f"{where}: unexpected field {name!r}" for name in value if name not in props]
        for name, sub in props.items():
            if name in value:
                problems += validate(value[name], sub, f"{where}.{name}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            problems += validate(item, schema["items"], f"{where}[{i}]")
    return problems


class MalformedAnswer(ReviewError):
    """Claude's answer did not match the schema (the message lists the problems)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """One claim's validated answer, before evidence and fix are checked against the index."""

    verdict: VerdictLabel
    rationale: str
    evidence: tuple[tuple[str, int, int], ...]
    fix: tuple[int, int, str] | None


def _answer(item: Mapping[str, Any]) -> Answer:
    fix = item["fix"]
    return Answer(
        verdict=item["verdict"],
        rationale=item["rationale"].strip(),
        evidence=tuple((e["path"], e["start_line"], e["end_line"]) for e in item["evidence"]),
        fix=(fix["start_line"], fix["end_line"], fix["replacement"]) if fix is not None else None,
    )


def parse_answers(payload: object, refs: Sequence[str]) -> tuple[dict[str, Answer], list[str]]:
    """Valid answers by claim ref, and the problems (an empty list means every claim was answered)."""
    if len(refs) == 1:
        problems = validate(payload, VERDICT_SCHEMA)
        if problems:
            return {}, problems
        assert isinstance(payload, dict)
        return {refs[0]: _answer(payload)}, []
    problems = validate(payload, section_schema(refs))
    if not isinstance(payload, dict) or not isinstance(payload.get("verdicts"), list):
        return {}, problems or ["$: expected an object with a verdicts array"]
    item_schema = section_schema(refs)["properties"]["verdicts"]["items"]
    answers: dict[str, Answer] = {}
    for i, item in enumerate(payload["verdicts"]):
        # A section answer is used item by item, so one bad item costs only its claim.
        if validate(item, item_schema, f"$.verdicts[{i}]"):
            continue
        if item["claim"] in answers:
            problems.append(f"$.verdicts[{i}]: claim {item['claim']} answered twice")
            continue
        answers[item["claim"]] = _answer(item)
    missing = [r for r in refs if r not in answers]
    if missing:
        problems.append(f"no valid verdict for {', '.join(missing)}")
    return answers, problems


# -- evidence and fix checks ---------------------------------------------------------------
def resolve_evidence(engine: EngineLike, spans: Sequence[tuple[str, int, int]]) -> tuple[EvidenceSpan, ...]:
    """Keep only spans that lie on indexed chunks, clipped to them, each with a content hash.

    A span on an unindexed path, or whose lines touch no chunk of that path, is dropped:
    a citation nobody can open or keep fresh is worse than none.
    """
    kept: list[EvidenceSpan] = []
    seen: set[tuple[str, int, int]] = set()
    for raw_path, start, end in spans:
        try:
            path = safe_path(raw_path)
        except ValueError:
            continue  # absolute or escaping the root: never an indexed file
        if start < 1 or end < start:
            continue
        chunks = engine.chunks_for_path(path)
        overlapping = [c for c in chunks if c.start_line <= end and c.end_line >= start]
        # Docstrings are indexed twice (code chunk + api chunk); hash the code chunk.
        primary = [c for c in overlapping if c.kind != "api"] or overlapping
        if not primary:
            continue
        primary.sort(key=lambda c: (c.start_line, c.end_line, c.id))
        lo = max(start, min(c.start_line for c in primary))
        hi = min(end, max(c.end_line for c in primary))
        if (path, lo, hi) in seen:
            continue
        seen.add((path, lo, hi))
        # The tightest chunk holding the span names it (a method rather than its class).
        holder = min(primary, key=lambda c: (c.end_line - c.start_line, c.start_line))
        kept.append(EvidenceSpan(path, lo, hi, symbol=holder.symbol, sha256=evidence_sha256(primary)))
    return tuple(kept)


def doc_sha256(engine: EngineLike, claim: Claim) -> str | None:
    """sha256 (UTF-8) of the claim's doc lines as read now, joined by ``\\n`` (``Verdict.doc_sha256``)."""
    try:
        text = engine.read_span(claim.doc_path, claim.start_line, claim.end_line)
    except CaasError:
        return None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_fix(claim: Claim, answer: Answer) -> Fix | None:
    """The answer's fix if it only rewrites the claim's own doc lines (and the claim needs one)."""
    if answer.fix is None or answer.verdict == "consistent":
        return None
    start, end, text = answer.fix
    return Fix(start, end, text) if claim.start_line <= start <= end <= claim.end_line else None


# -- usage and cost ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Price:
    """USD per million tokens. Cache writes (5-minute TTL) bill 1.25x input, reads 0.1x."""

    input: float
    output: float


# Longest matching prefix wins. Unknown models get the most expensive tier so a
# running total never under-reports what a review costs.
PRICES: dict[str, Price] = {
    "claude-opus-4-6": Price(5.0, 25.0),
    "claude-opus-4-5": Price(5.0, 25.0),
    "claude-opus-4-1": Price(15.0, 75.0),
    "claude-opus-4-0": Price(15.0, 75.0),
    "claude-sonnet-4": Price(3.0, 15.0),
    "claude-3-7-sonnet": Price(3.0, 15.0),
    "claude-haiku-4-5": Price(1.0, 5.0),
    "claude-3-5-haiku": Price(0.8, 4.0),
}
DEFAULT_PRICE = Price(15.0, 75.0)


def price_for(model: str) -> Price:
    matches = [prefix for prefix in PRICES if model.startswith(prefix)]
    return PRICES[max(matches, key=len)] if matches else DEFAULT_PRICE


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens and estimated cost of a review so far. ``input_tokens`` excludes cached tokens."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_tokens: int = 0
    cache_read_tokens: int = 0
    requests: int = 0
    cost_usd: float = 0.0

    def describe(self) -> str:
        cached = self.cache_read_tokens + self.cache_creation_tokens
        return (
            f"{self.requests} requests, {self.input_tokens + cached:,} in ({self.cache_read_tokens:,} cached) "
            f"/ {self.output_tokens:,} out, ~${self.cost_usd:.4f}"
        )


def _tokens(usage: object, name: str) -> int:
    value = getattr(usage, name, None)
    return value if isinstance(value, int) else 0


class UsageTally:
    """A thread-safe running total; ``on_usage`` receives every new total as it accumulates."""

    def __init__(self, model: str, on_usage: Callable[[Usage], None] | None = None) -> None:
        self._price = price_for(model)
        self._on_usage = on_usage
        self._lock = threading.Lock()
        self._total = Usage()

    @property
    def total(self) -> Usage:
        with self._lock:
            return self._total

    def add(self, usage: object) -> Usage:
        """Add one response's ``usage`` (an SDK ``Usage`` or anything with the same attributes)."""
        fresh, out = _tokens(usage, "input_tokens"), _tokens(usage, "output_tokens")
        written = _tokens(usage, "cache_creation_input_tokens")
        read = _tokens(usage, "cache_read_input_tokens")
        p = self._price
        cost = (fresh * p.input + written * p.input * 1.25 + read * p.input * 0.1 + out * p.output) / 1_000_000
        with self._lock:
            t = self._total
            self._total = replace(
                t,
                input_tokens=t.input_tokens + fresh,
                output_tokens=t.output_tokens + out,
                cache_creation_tokens=t.cache_creation_tokens + written,
                cache_read_tokens=t.cache_read_tokens + read,
                requests=t.requests + 1,
                cost_usd=t.cost_usd + cost,
            )
            # Called under the lock so totals reach the callback in increasing order;
            # the callback must be quick (the TUI should just post a message).
            if self._on_usage is not None:
                self._on_usage(self._total)
            return self._total
