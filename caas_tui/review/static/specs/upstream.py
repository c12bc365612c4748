"""Claims about a platform's or framework's behaviour against the upstream page they name
(``upstream/`` pages, indexed as kind ``upstream``).

A claim *names* a page when it links to it, uses every word of its title, or uses a proper
name the page introduces itself with ("Helios"). Within such pages, the sentence sharing
the most content words with the claim (at least three, and a good share of both) is the
one the claim restates. Two disagreements are reported, both with that sentence quoted as
evidence: the page limits what the claim states without limit ("only from primitive
geometry", "never", "unless") while the claim states it flatly (no condition, negation,
hedge or "must" of its own): ``incomplete``; or they state a quantity of the same kind
(time, count, ratio) and no reading of the page's matches the claim's: ``contradicted``.
The page and the claim may also give one subject opposite properties, or list one set's
members differently (``specwords``): ``contradicted``. Agreement proves nothing: the
sentence goes with the claim as evidence and its behaviour stays unchecked.
"""

from __future__ import annotations

import math
import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

from caas_tui.models import Claim, EvidenceSpan
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad
from caas_tui.review.static.specs.specpolarity import excluded, negated, requirement
from caas_tui.review.static.specs.specwords import (
    Conflict,
    defined,
    distinctive,
    forbidden,
    listed,
    literal_opposite,
    no_such,
    opposite,
    quantifier,
    unit_word,
)
from caas_tui.review.static.wording.units import Quantity, quantities
from caas_tui.review.static.wording.words import STOPWORDS, content_stems, same_word, stem
from caas_tui.review.textutil import span_sha256, split_lines

# Not inside a hyphenated compound: "read-only instances", "a no-op" limit nothing.
_LIMIT = re.compile(r"(?<!-)\b(?:only|solely|exclusively|unless|except|never|not|no|cannot|nothing|none)\b(?!-)|n't\b",
                    re.IGNORECASE)
# The claim already carries a condition, a limit, a negation or a hedge of its own.
_QUALIFIED = re.compile(
    r"\b(?:only|solely|unless|except|never|not|no|cannot|nothing|none|if|when|whenever|while|must|need|needs|"
    r"required?|requires|provided|may|might|can|could|some|certain|typically|usually|often|generally|most|"
    r"depending|either|whether|until)\b|n't\b",
    re.IGNORECASE,
)
_CODE = re.compile(r"(`+)([^`]+)\1|:[\w:-]+:`([^`]*)`")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z*_`(\[])")
_MARKUP = re.compile(r"^\s*(?:#+\s*|[-*+]\s+|\d+[.)]\s+|>\s*)")
_MIN_SHARED = 3


@dataclass(frozen=True, slots=True)
class Sentence:
    path: str
    start_line: int
    end_line: int
    text: str
    stems: frozenset[str]


@dataclass(frozen=True, slots=True)
class Page:
    path: str
    title: frozenset[str]  # content stems of the page's first heading
    names: frozenset[str]  # proper names the page's opening uses ("Helios")
    sentences: tuple[Sentence, ...]
    lines: tuple[str, ...]


def _sentences(path: str, lines: list[str]) -> list[Sentence]:
    out: list[Sentence] = []
    para: list[tuple[int, str]] = []

    def flush() -> None:
        if not para:
            return
        text = " ".join(t for _, t in para)
        first = para[0][0]
        offsets: list[int] = []
        pos = 0
        for _, t in para:
            offsets.append(pos)
            pos += len(t) + 1
        start = 0
        for piece in [*_SENTENCE_END.split(text)]:
            idx = text.find(piece, start)
            start = idx + len(piece)
            lo = max(i for i, off in enumerate(offsets) if off <= max(idx, 0))
            hi = max(i for i, off in enumerate(offsets) if off <= max(start - 1, 0))
            stems = content_stems(_CODE.sub(lambda m: m.group(2) or m.group(3) or "", piece))
            if stems:  # short ones too ("There is no backslash escape."): best_sentence needs three shared words
                out.append(Sentence(path, first + lo, first + hi, piece.strip(), frozenset(stems)))
        para.clear()

    fence = False
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith(("```", "~~~")):
            fence = not fence
            flush()
            continue
        if fence or not line or line.startswith(("|", "#", "<!--")) or set(line) <= set("=-~^*"):
            flush()
            continue
        if _MARKUP.match(raw) and para:
            flush()
        para.append((n, _MARKUP.sub("", line)))
    flush()
    return out


def _page(path: str, text: str) -> Page:
    lines = split_lines(text)
    title_line = next((ln for ln in lines if ln.strip()), "")
    title = content_stems(title_line.lstrip("#= ")) if title_line.lstrip().startswith("#") else set()
    # Proper names: capitalised past a sentence's first word and never written in lower case
    # on the page ("Helios", "Acme"); those in the title or the opening lines name the page.
    capitalised: set[str] = set()
    lower: set[str] = set()
    for line in lines:
        for sentence in _SENTENCE_END.split(line.strip(" *_>#")):
            words = re.findall(r"[A-Za-z][A-Za-z0-9]+", sentence)
            capitalised |= {w for w in words[1:] if w[0].isupper()}
            lower |= {w for w in words if w.islower()}
    proper = {w for w in capitalised if w.lower() not in lower and w.lower() not in STOPWORDS}
    opening = set(re.findall(r"[A-Za-z][A-Za-z0-9]+", " ".join(lines[:8])))
    names = proper & opening
    title_words = re.findall(r"[A-Za-z][A-Za-z0-9]*", title_line.lstrip("#= "))
    # Acronyms and numbered names in the title name the page on their own ("RFC 9110", "HTTP").
    names |= {w for w in title_words if len(w) >= 2 and (w.isupper() or any(ch.isdigit() for ch in w))}
    return Page(path, frozenset(title), frozenset(names), tuple(_sentences(path, lines)), tuple(lines))


_PAGES: weakref.WeakKeyDictionary[ReviewContext, tuple[frozenset[tuple[str, str]], list[Page]]] = \
    weakref.WeakKeyDictionary()


def pages(ctx: ReviewContext) -> list[Page]:
    """Every upstream page of the project, parsed once while the pages are unchanged."""
    chunks = [c for c in ctx.engine.chunks() if c.kind == "upstream"]
    key = frozenset((c.path, c.file_sha256) for c in chunks)
    cached = _PAGES.get(ctx)
    if cached is not None and cached[0] == key:
        return cached[1]
    out = [_page(path, "\n".join(ctx.doc_lines(path))) for path in sorted({c.path for c in chunks})]
    _PAGES[ctx] = (key, [p for p in out if p.lines])
    return _PAGES[ctx][1]


def names_page(claim: Claim, page: Page) -> bool:
    """The claim, its paragraph or the headings it sits under name the page: a link, its
    title's words (most of a longer title, with the headings), its file name, or a proper
    name or acronym the page introduces itself with ("CSV" under "Read the CSV export")."""
    text = claim.text
    paragraph = claim.context.rsplit("\n\n", 1)[-1] if claim.context else text
    if PurePosixPath(page.path).name in paragraph:
        return True  # a link to the page, in the sentence or its paragraph
    words = {stem(w) for w in re.findall(r"[A-Za-z][A-Za-z0-9]+", text)}
    title = {t for t in page.title if t not in _META}
    if title and all(any(same_word(t, w) for w in words) for t in title):
        return True
    file_words = content_stems(PurePosixPath(page.path).stem.replace("-", " ").replace("_", " ")) - _META
    if file_words and all(any(same_word(t, w) for w in words) for t in file_words):
        return True
    heading = _heading(claim)
    with_heading = words | {stem(w) for w in re.findall(r"[A-Za-z][A-Za-z0-9]+", heading)}
    if len(title) >= 2 and sum(any(same_word(t, w) for w in with_heading) for t in title) * 2 >= len(title):
        return True
    return bool(page.names & set(re.findall(r"[A-Za-z][A-Za-z0-9]+", paragraph + " " + heading)))


# Words of a page title that say what kind of page it is, not what it is about.
_META = frozenset(stem(w) for w in (
    "excerpt", "excerpts", "reference", "overview", "introduction", "guide", "documentation", "manual",
    "notes", "summary", "specification", "page"))


def _named_in_sentence(text: str, page: Page) -> bool:
    """The sentence itself links to the page or uses a proper name it introduces itself with."""
    return PurePosixPath(page.path).name in text or bool(page.names & set(re.findall(r"[A-Za-z][A-Za-z0-9]+", text)))


def _heading(claim: Claim) -> str:
    """The headings a doc claim sits under (``Guide > Read the CSV export``); none for a docstring."""
    if claim.doc_path.endswith((".py", ".pyi")) or not claim.context or "\n\n" not in claim.context:
        return ""
    return claim.context.split("\n\n", 1)[0]


def _prose(text: str) -> str:
    return _CODE.sub(lambda m: m.group(2) or m.group(3) or "", text)


def _shared(a: frozenset[str] | set[str], b: frozenset[str]) -> set[str]:
    return {x for x in a if any(same_word(x, y) for y in b)}


def best_sentence(claim_stems: set[str], candidates: list[Sentence]) -> Sentence | None:
    """The sentence the claim restates: most shared content words, at least three, and at
    least half of the smaller side."""
    scored: list[tuple[int, float, Sentence]] = []
    for s in candidates:
        shared = _shared(claim_stems, s.stems)
        if len(shared) < _MIN_SHARED or len(shared) < 0.5 * min(len(claim_stems), len(s.stems)):
            continue
        scored.append((len(shared), len(shared) / len(claim_stems | s.stems), s))
    if not scored:
        return None
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    if len(scored) > 1 and scored[1][:2] == scored[0][:2] and scored[1][2].text != scored[0][2].text:
        return None  # two sentences fit equally well: which one the claim restates is unknown
    return scored[0][2]


def _limits_shared(text: str, shared: set[str]) -> bool:
    """A limit word of the page bears on what the claim says: one of the words the claim
    shares with it follows within five words ("only from primitive **geometry**")."""
    for m in _LIMIT.finditer(text):
        after = content_stems(" ".join(text[m.end():].split()[:5]))
        if any(same_word(a, b) for a in after for b in shared):
            return True
    return False


def _same_quantity(a: Quantity, b: Quantity) -> bool:
    if math.isclose(a.base, b.base, rel_tol=1e-6):
        return True
    # "64 KiB" and "65536 bytes": a size prefix may be read as a power of 1024 (which one a
    # page means is its own convention, so either reading agrees)
    return a.family == b.family == "size" and math.isclose(_binary(a), _binary(b), rel_tol=1e-6)


def _binary(q: Quantity) -> float:
    power = {"k": 1, "m": 2, "g": 3}.get(q.unit.lower()[:1], 0) if q.unit.lower() not in ("b", "byte", "bytes") else 0
    return q.number * 1024 ** power


_COUNTED = re.compile(r"(?<![\w.,/-])(\d+(?:\.\d+)?)\s+([A-Za-z]{3,})\b")
_CODE_NUMBER = re.compile(r"\b(?:status(?:\s+code)?|code|HTTP|error)\s+(\d{3})\b|\b(\d{3})\s+(?:status|response|error)\b",
                          re.IGNORECASE)


def _counted(text: str) -> dict[str, set[str]]:
    """Noun stem -> the numbers written before it ("100 requests"), plus status codes."""
    out: dict[str, set[str]] = {}
    for m in _COUNTED.finditer(text):
        if m.group(2).lower() not in STOPWORDS:
            out.setdefault(stem(m.group(2)), set()).add(m.group(1))
    for m in _CODE_NUMBER.finditer(text):
        out.setdefault("status", set()).add(m.group(1) or m.group(2))
    return out


def _counted_disagreement(claim: str, upstream: str) -> tuple[str, str, str] | None:
    """The claim and the page put different numbers on the same noun (unhedged on both sides)."""
    mine, theirs = _counted(claim), _counted(upstream)
    for noun in sorted(set(mine) & set(theirs)):
        if not mine[noun] & theirs[noun] and len(mine[noun]) == 1 and len(theirs[noun]) == 1:
            a, b = next(iter(mine[noun])), next(iter(theirs[noun]))
            if _hedged(claim, a) or _hedged(upstream, b):
                continue
            return a, b, noun if noun != "status" else "(status code)"
    return None


_HEDGE = re.compile(r"(?:at\s+least|at\s+most|up\s+to|more\s+than|less\s+than|fewer\s+than|over|under|about|"
                    r"around|roughly|e\.g\.|such\s+as|like|between|or|and)\s+$", re.IGNORECASE)


def _hedged(text: str, number: str) -> bool:
    """A bound, an example or one of several: not the value itself."""
    i = text.find(number)
    return i >= 0 and bool(_HEDGE.search(text[max(0, i - 20):i]))


def _evidence(page: Page, s: Sentence) -> EvidenceSpan:
    return EvidenceSpan(s.path, s.start_line, s.end_line, None, span_sha256(page.lines, s.start_line, s.end_line))


def check_upstream(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind != "prose" or claim.doc_path.startswith("upstream/"):
        return []
    others = [p for p in pages(ctx) if p.path != claim.doc_path]
    # A docstring describes its own code, which the other checks hold it to; a distinctive code
    # literal it shares with a page (``P1M``) is about the same thing, wherever the claim sits.
    literal_pages = [p for p in others if _shares_literal(claim.text, p)]
    if claim.doc_path.endswith((".py", ".pyi")):
        # ... unless its own sentence names the page ("A Tidewire session expires ..."): then it
        # restates the platform's rule, as a guide's sentence would.
        named = [p for p in others if _named_in_sentence(claim.text, p)]
    else:
        named = [p for p in others if names_page(claim, p)]
    if not named:
        return _literal_conflicts(claim, literal_pages, literal_only=True)
    prose = _prose(claim.text)
    stems = content_stems(prose)
    best = best_sentence(stems, [s for p in named for s in p.sentences])
    if best is None:
        return _literal_conflicts(claim, named)
    page = next(p for p in named if p.path == best.path)
    quote = _quote(best)
    ours = quantities(prose)
    theirs = quantities(best.text)
    counted = _counted_disagreement(prose, best.text)
    if counted is not None:
        mine_n, theirs_n, noun = counted
        return [bad("contradicted", f"{mine_n} {noun} agrees with `{best.path}`",
                    f"`{best.path}` (line {best.start_line}) says {theirs_n} {noun}, not {mine_n}: “{quote}”",
                    _evidence(page, best), aspect="value")]
    families = {q.family for q in ours} & {q.family for q in theirs}
    for family in sorted(families):
        mine = [q for q in ours if q.family == family]
        other = [q for q in theirs if q.family == family]
        if not any(_same_quantity(a, b) for a in mine for b in other):
            return [bad("contradicted", f"{mine[0].text} agrees with `{best.path}`",
                        f"`{best.path}` (line {best.start_line}) says {other[0].text}, not {mine[0].text}: “{quote}”",
                        _evidence(page, best), aspect="value")]
    conflict = opposite(prose, _prose(best.text)) or listed(claim.text, best.text) \
        or unit_word(claim.text, best.text) or quantifier(claim.text, best.text) or excluded(_prose(claim.text), best.text) \
        or negated(_prose(claim.text), _prose(best.text)) or requirement(prose, _prose(best.text))
    if conflict is not None:
        return [_conflict_finding(page, best, conflict)]
    scanned = _literal_conflicts(claim, named)
    if scanned:
        return scanned
    if _limits_shared(_prose(best.text), _shared(stems, best.stems)) and not _QUALIFIED.search(prose):
        return [bad("incomplete", f"the claim keeps the limits `{best.path}` states",
                    f"`{best.path}` (line {best.start_line}) limits this, the doc states it without limit: “{quote}”",
                    _evidence(page, best), aspect="behaviour")]
    # A claim naming code is judged on that code; a claim about the platform alone shows the passage.
    return [] if claim.symbols else [_unchecked(page, best)]


# How each kind of conflict reads in a rationale: "`rfc.md` (line 3) <this>: “quote”".
_SAID: dict[str, Callable[[Conflict], str]] = {
    "opposite": lambda c: f"calls it {c.theirs}, not {c.ours}",
    "defined": lambda c: f"says {c.theirs}, not {c.ours.split(' is ', 1)[1]}",  # "`P1M` is one month, not one minute"
    "quantifier": lambda c: f"asks for {c.theirs}, not {c.ours}",
    "unit": lambda c: f"gives it in {c.theirs}, not {c.ours}",
    "forbidden": lambda c: f"rules it out ({c.theirs})",
    "none": lambda c: f"says there is no {c.ours}",
    "requirement": lambda c: f"makes it {c.theirs}, the doc makes it {c.ours}",
    "negated": lambda c: f"states the opposite: the doc {c.ours} its rule",
    "excluded": lambda c: f"lists {c.ours} in one set with {c.theirs}, the doc sets it apart",
    "subset": lambda c: f"gives {c.theirs}; the doc leaves some out ({c.ours})",
}


def _conflict_finding(page: Page, s: Sentence, conflict: Conflict) -> Finding:
    said = _SAID.get(conflict.kind, lambda c: f"lists {c.theirs}, which does not include {c.ours}")(conflict)
    status = "incomplete" if conflict.kind == "subset" else "contradicted"
    return bad(status, f"{conflict.ours} agrees with `{s.path}`",
               f"`{s.path}` (line {s.start_line}) {said}: “{_quote(s)}”", _evidence(page, s), aspect="behaviour")


def _literal_conflicts(claim: Claim, named: list[Page], *, literal_only: bool = False) -> list[Finding]:
    """Sentences of the named pages about the same code literal, or (``literal_only`` aside)
    saying there is no such thing or ruling out what the claim says happens: each of these
    names its own subject, so any sentence of the page may be the one (not just the best match)."""
    for page in named:
        for s in page.sentences:
            conflict = literal_opposite(claim.text, s.text) or defined(claim.text, s.text)
            if conflict is None and not literal_only:
                conflict = no_such(claim.text, s.text) or forbidden(claim.text, s.text)
            if conflict is not None:
                return [_conflict_finding(page, s, conflict)]
    return []


def _shares_literal(text: str, page: Page) -> bool:
    ours = {m.group(2).strip() for m in _CODE.finditer(text) if m.group(2) and distinctive(m.group(2).strip())}
    return bool(ours) and any(f"`{lit}`" in line for lit in ours for line in page.lines)


def _quote(s: Sentence) -> str:
    return s.text if len(s.text) <= 160 else s.text[:157] + "..."


def _unchecked(page: Page, s: Sentence) -> Finding:
    """Agreement proves nothing: the passage goes with the claim as evidence, the behaviour stays unchecked."""
    return Finding("unchecked", f"agrees with `{s.path}`", f"compare `{s.path}` (line {s.start_line}): “{_quote(s)}”",
                   (_evidence(page, s),), None, ("behaviour",))

