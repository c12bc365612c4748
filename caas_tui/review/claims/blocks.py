"""The parsers' common output: blocks of doc lines, and prose split into sentences."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise


@dataclass(frozen=True, slots=True)
class Line:
    no: int  # 1-based line number in the doc
    text: str  # content with list/quote markers and block indentation removed


@dataclass(frozen=True, slots=True)
class Block:
    kind: str  # prose | code | field
    lines: tuple[Line, ...]
    section: str | None  # heading path or owning Python symbol
    text: str | None = None  # code/field: the claim text; prose: split into sentences
    context: str = ""  # the paragraph around it

    @property
    def start(self) -> int:
        return self.lines[0].no

    @property
    def end(self) -> int:
        return self.lines[-1].no


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    start: int
    end: int


# Words whose final dot never ends a sentence.
_ABBREV = frozenset(
    {"e.g.", "i.e.", "etc.", "vs.", "cf.", "viz.", "approx.", "incl.", "resp.", "al.", "fig.", "no.", "dr.",
     "mr.", "mrs.", "ms.", "st.", "eq.", "sec.", "ch.", "vol.", "ca.", "a.k.a."}
)
_TICK_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_OPENERS = set("\"'([*`:_<") | {"“", "‘"}
_CLOSERS = set("\"')]*_”’")


def _protected(text: str) -> list[bool]:
    """True for characters inside code spans, where nothing splits a sentence."""
    mask = [False] * len(text)
    for m in _TICK_SPAN.finditer(text):
        for i in range(m.start(), m.end()):
            mask[i] = True
    return mask


def _ends_sentence(text: str, i: int) -> int | None:
    """If the punctuation at ``i`` ends a sentence, the index just past it (and closers)."""
    j = i + 1
    while j < len(text) and text[j] in ".!?":
        j += 1
    while j < len(text) and text[j] in _CLOSERS:
        j += 1
    if j >= len(text):
        return j
    if not text[j].isspace():
        return None  # ``pkg.mod``, ``1.5``, ``e.g.x``
    k = j
    while k < len(text) and text[k].isspace():
        k += 1
    if k >= len(text):
        return j
    nxt = text[k]
    if not (nxt.isupper() or nxt.isdigit() or nxt in _OPENERS):
        return None
    if text[i] == ".":
        start = i
        while start > 0 and not text[start - 1].isspace():
            start -= 1
        word = text[start : i + 1].lower().lstrip("(\"'*_")
        if word in _ABBREV or re.fullmatch(r"[a-z]\.", word) or re.fullmatch(r"(?:[a-z]\.){2,}", word):
            return None
    return j


def split_sentences(lines: tuple[Line, ...] | list[Line]) -> list[Sentence]:
    """Sentences of a paragraph with exact 1-based line spans."""
    if not lines:
        return []
    text = "\n".join(line.text for line in lines)
    line_of: list[int] = []
    for line in lines:
        line_of.extend([line.no] * (len(line.text) + 1))
    mask = _protected(text)
    cuts: list[int] = [0]
    for i, ch in enumerate(text):
        if ch in ".!?" and not mask[i] and (i == 0 or text[i - 1] not in ".!?"):
            end = _ends_sentence(text, i)
            if end is not None and end < len(text):
                cuts.append(end)
    cuts.append(len(text))
    out: list[Sentence] = []
    for a, b in pairwise(cuts):
        piece = text[a:b]
        stripped = piece.strip()
        if not stripped or not any(c.isalnum() for c in stripped):
            continue
        lead = a + (len(piece) - len(piece.lstrip()))
        tail = a + len(piece.rstrip()) - 1
        out.append(Sentence(" ".join(stripped.split()), line_of[lead], line_of[tail]))
    return out
