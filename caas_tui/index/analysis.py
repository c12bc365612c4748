"""A code-aware Whoosh analyzer: identifiers split into words, whole names kept.

The same analyzer runs at index and query time, so ``remove_body``, "remove body"
and "removes bodies" all meet on the terms ``remov`` + ``bodi``, while the whole
identifier (``remove_body``) and dotted suffixes (``scene.remove_body``) are extra,
unstemmed terms that let an exact name outrank a scatter of its words.

Everything here is a module-level class or function: Whoosh pickles the analyzer
into the index, and pickle stores classes by qualified name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from whoosh.analysis import Analyzer, Token
from whoosh.lang.porter import stem as porter_stem

# A raw token: a word, optionally dotted (``pkg.mod.Class.meth``). A dot must be
# followed by a word character, so a sentence-ending period is not swallowed.
TOKEN_RE = re.compile(r"\w+(?:\.\w+)*")
# The same tokens for an ASCII text (nearly every chunk of code), found ~40% faster: ``\w`` of an
# ASCII character is the same class in both modes.
_ASCII_TOKENS = re.compile(TOKEN_RE.pattern, re.ASCII).findall
_TOKENS = TOKEN_RE.findall


def raw_tokens(value: str) -> list[str]:
    """``TOKEN_RE.findall(value)``."""
    return (_ASCII_TOKENS if value.isascii() else _TOKENS)(value)

# camelCase / PascalCase parts; digits stay attached to the letters before them
# (``vec3``, ``int8``, ``parseJSON2Data`` -> parse, JSON2, Data); an upper-case run
# followed by a capitalised word is an acronym (``HTTPServer`` -> HTTP, Server).
_CAMEL_RE = re.compile(r"[A-Z]+\d*(?=[A-Z][a-z])|[A-Z]?[a-z]+\d*|[A-Z]+\d*|\d+")

# English prose words only: programming words ("return", "self", "not") carry signal.
STOP_WORDS: frozenset[str] = frozenset(
    """a an the and or of to in on at by for with from as is are was were be been being
    it its this that these those which there their than then into onto also such can may
    will would should could has have had do does did so we you they he she our your his
    her them me my eg ie""".split()  # noqa: SIM905 - a word list reads better as prose
)

MIN_PART = 2  # single letters (``x``, ``i``) are noise as terms of their own
MAX_RAW = 128  # longer "words" are data (base64, hashes), not names
MAX_SEGMENTS = 8  # dotted suffixes kept per raw token: bounds the term count

# One expanded term: (text, position offset from the raw token's first position,
# whether it is a whole identifier / dotted name rather than a word part).
Expansion = tuple[tuple[tuple[str, int, bool], ...], int]
# Raw tokens (and stems) remembered per cache. A cache is emptied when full, so a cap below a
# corpus's distinct-token count makes the build re-analyze most tokens: at 100k, the 498k-chunk
# scale corpus (356k distinct raw tokens) spent 1.3-1.8x the CPU in `terms_text`. 400k costs
# about 160 MB when full, in the process that analyzes (the chunking worker, for tantivy).
CACHE_MAX = 400_000

# Stems of word parts: one part (``remove``) recurs in many raw tokens (``remove_body``,
# ``removeItem``), each a miss of the per-token cache; Porter's stemmer is pure Python.
_stems: dict[str, str] = {}


def _stem(word: str) -> str:
    found = _stems.get(word)
    if found is None:
        if len(_stems) >= CACHE_MAX:
            _stems.clear()
        found = _stems[word] = porter_stem(word)
    return found


def _split_segment(segment: str) -> list[str]:
    """Split one dot-free name on underscores and case changes (not lowercased)."""
    parts: list[str] = []
    for piece in segment.split("_"):
        if not piece:
            continue
        if piece.isascii():
            parts.extend(_CAMEL_RE.findall(piece))
        else:
            # Case rules for non-ASCII scripts are beyond a regex: keep the piece whole.
            parts.append(piece)
    return parts


def split_identifier(token: str) -> list[str]:
    """Lower-cased word parts of an identifier or dotted name, in order.

    >>> split_identifier("xrkit.scene.Scene.remove_body")
    ['xrkit', 'scene', 'scene', 'remove', 'body']
    >>> split_identifier("HTTPServer"), split_identifier("parseJSON2Data")
    (['http', 'server'], ['parse', 'json2', 'data'])

    Single letters are kept (``get_x`` -> get, x); no stemming or stop words.
    """
    return [p.lower() for seg in token.split(".") for p in _split_segment(seg)]


class CodeAnalyzer(Analyzer):
    """Tokenize text and code: split identifiers, keep whole names, stem word parts.

    For each raw token the output is, at consecutive positions, its word parts
    (lower-cased, stop words and single letters dropped, alphabetic parts
    Porter-stemmed), plus unstemmed extras at the position of the first part:
    each compound segment whole (``remove_body``, ``httpserver``) and each dotted
    suffix of two or more segments (``scene.remove_body``). Positions stay
    phrase-friendly: "remove body" is a phrase inside ``Scene.remove_body``.
    """

    def __init__(
        self, stem: bool = True, stoplist: frozenset[str] = STOP_WORDS, dotted: int = MAX_SEGMENTS
    ) -> None:
        self.stem = stem
        self.stoplist = frozenset(stoplist)
        self.dotted = dotted  # longest dotted suffix kept, in segments (< 2: none)
        self._cache: dict[str, Expansion] = {}
        self._joined: dict[str, str] = {}  # raw token -> its terms, space-separated (``terms_text``)

    # The expansion cache is process-local: keep it out of the pickled schema and
    # out of equality (Whoosh compares schemas when opening and merging).
    def __getstate__(self) -> dict[str, Any]:
        return {"stem": self.stem, "stoplist": self.stoplist, "dotted": self.dotted}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.stem = state.get("stem", True)
        self.stoplist = frozenset(state.get("stoplist", STOP_WORDS))
        self.dotted = state.get("dotted", MAX_SEGMENTS)
        self._cache = {}
        self._joined = {}

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and self.stem == other.stem
            and self.stoplist == other.stoplist
            and self.dotted == other.dotted
        )

    __hash__ = None  # type: ignore[assignment]  # mutable cache: never a dict key

    def __repr__(self) -> str:
        return f"{type(self).__name__}(stem={self.stem!r}, dotted={self.dotted!r})"

    def expand(self, raw: str) -> Expansion:
        """Terms for one raw token: ``((text, pos_offset, is_whole), ...), width``."""
        hit = self._cache.get(raw)
        if hit is not None:
            return hit
        result = self._expand(raw)
        if len(self._cache) >= CACHE_MAX:
            self._cache.clear()
        self._cache[raw] = result
        return result

    def _expand(self, raw: str) -> Expansion:
        if len(raw) > MAX_RAW:
            return (), 0
        out: list[tuple[str, int, bool]] = []
        segments = raw.split(".")
        pos = 0
        for seg in segments:
            parts = _split_segment(seg)
            seg_first = pos
            for part in parts:
                low = part.lower()
                if len(low) < MIN_PART or low in self.stoplist:
                    continue
                if self.stem and low.isalpha():
                    low = _stem(low)
                out.append((low, pos, False))
                pos += 1
            if len(parts) > 1:
                whole = seg.strip("_").lower()
                out.append((whole, seg_first, True))
                if pos == seg_first:  # every part was dropped: the whole takes a slot
                    pos += 1
        # "e.g" / "i.e" are abbreviations, not names: no dotted term for them.
        if len(segments) > 1 and self.dotted > 1 and any(len(s) > 1 for s in segments):
            low_segs = [s.lower() for s in segments[-self.dotted :]]
            for i in range(len(low_segs) - 2, -1, -1):
                out.append((".".join(low_segs[i:]), 0, True))
            pos = max(pos, 1)
        return tuple(out), pos

    def term_counts(self, value: str) -> dict[str, int]:
        """How often each term of ``value`` occurs, as ``__call__`` would yield them (same
        terms, first-seen order) without a Token per term: the Whoosh writer's hot loop
        for fields that store frequencies only (``CodeText``)."""
        # Each distinct raw token is expanded once, times its count: the first-seen order of
        # terms is unchanged, since a repeated token's terms were all seen at its first occurrence.
        expand = self.expand
        counts: dict[str, int] = {}
        get = counts.get
        for raw, n in Counter(raw_tokens(value)).items():
            for text, _offset, _whole in expand(raw)[0]:
                counts[text] = get(text, 0) + n
        return counts

    def terms_text(self, value: str) -> str:
        """Every term of ``value`` in token order, space-separated: what a whitespace
        tokenizer (tantivy's) reads back as exactly the terms ``__call__`` yields."""
        joined = self._joined
        parts: list[str] = []
        for raw in raw_tokens(value):
            text = joined.get(raw)
            if text is None:
                if len(joined) >= CACHE_MAX:
                    joined.clear()
                text = joined[raw] = " ".join(term for term, _offset, _whole in self.expand(raw)[0])
            if text:
                parts.append(text)
        return " ".join(parts)

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: Any,
    ) -> Iterator[Token]:
        # One Token object yielded over and over, as Whoosh's own tokenizers do:
        # consumers copy attributes, never hold the object.
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        if not tokenize:
            t.text = value.lower()
            if keeporiginal:  # Token takes any attribute (its **kwargs); whoosh declares only some
                t.original = value  # type: ignore[attr-defined]
            if positions:
                t.pos = start_pos
            if chars:
                t.startchar, t.endchar = start_char, start_char + len(value)
            yield t
            return
        expand = self.expand
        pos = start_pos
        for match in TOKEN_RE.finditer(value):
            raw = match.group(0)
            terms, width = expand(raw)
            if not terms:
                continue
            if keeporiginal:
                t.original = raw  # type: ignore[attr-defined]
            if chars:
                t.startchar, t.endchar = start_char + match.start(), start_char + match.end()
            for text, offset, _whole in terms:
                t.text = text
                t.boost = 1.0
                t.stopped = False
                if positions:
                    t.pos = pos + offset
                yield t
            pos += width


def code_analyzer() -> CodeAnalyzer:
    """The analyzer used for every text field of the lexical index."""
    return CodeAnalyzer()
