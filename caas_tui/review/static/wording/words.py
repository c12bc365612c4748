"""Comparing prose by its words: a crude stemmer (``redirects`` ~ ``redirect``,
``verification`` ~ ``verify``), and the content words of a sentence."""

from __future__ import annotations

import re

_SUFFIXES = (("ications", ""), ("ication", ""), ("ations", ""), ("ation", ""), ("ies", "y"), ("ied", "y"),
             ("ing", ""), ("ed", ""), ("es", ""), ("s", ""))
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]{2,}")
_STOP = (
    "the and for with that this these those from into onto are was were been being has have had its it's their "
    "there then than them they you your our can may might will would should could also each any all some such "
    "which what when where while who whom whose how why not but nor yet per via use used uses using call calls "
    "called does did doing done get gets set sets one two more most less least very just like same other another "
    "here about above below over under again once only even still both either neither own"
)
STOPWORDS = frozenset(_STOP.split(" "))


def stem(word: str) -> str:
    w = word.lower()
    for suffix, repl in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            return w[: len(w) - len(suffix)] + repl
    return w


def same_word(a: str, b: str) -> bool:
    """Stems of one word: equal, or one a prefix (of at least 4 letters) of the other."""
    short, long = sorted((a, b), key=len)
    return short == long or (len(short) >= 4 and long.startswith(short))


def content_stems(text: str) -> set[str]:
    """Stems of the words that carry meaning (no stop words; code spans count as words)."""
    return {stem(w) for w in _WORD.findall(text.replace("_", " ")) if w.lower() not in STOPWORDS}
