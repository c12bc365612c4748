"""A BERT WordPiece tokenizer for short ASCII texts, in plain Python.

A one-shot ``caas-tui search`` embeds one query, yet importing ``tokenizers`` and parsing
``tokenizer.json`` with it cost about a sixth of the whole command (issue 20). For ASCII
text the BERT pipeline is small enough to restate exactly: drop control characters, map
whitespace to a space, lower-case (accent stripping and CJK padding change nothing in
ASCII), split on whitespace and punctuation, then greedy longest-match WordPiece. Any
text outside that (a non-ASCII character, an added token's spelling such as ``[UNK]``)
returns ``None`` and the caller uses the real tokenizer, so both give the same ids
(tests/test_wordpiece.py compares them on every ASCII character and on real code).

:func:`facts` reads what this needs from a parsed ``tokenizer.json`` as one JSON value
(the caller keeps it under the file's stamp, as text): the vocabulary as one newline-separated
string of ``token<TAB>id`` lines sorted by token, binary-searched per word piece, so a
query needs no table of 30k entries built first. ``None`` for a tokenizer.json with any other pipeline.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

# BertNormalizer's clean_text: \t \n \r become spaces; every other control character
# (category Cc: 0x00-0x1f and 0x7f, \x0b and \x0c included) is dropped
_CLEAN = {**{c: None for c in range(0x20)}, 0x7F: None, **{ord(c): " " for c in "\t\n\r"}}
# The words of cleaned, lower-cased ASCII: BertPreTokenizer splits at whitespace and isolates
# each punctuation character (Rust's char::is_ascii_punctuation, with Unicode P*, which in
# ASCII is a subset of it): after cleaning, everything but letters, digits and the space.
_WORDS = re.compile(r"[0-9a-z]+|[^0-9a-z ]")
# max_input_chars_per_word: a longer word is one unknown token
_DEFAULT_MAX_WORD = 100
# the facts' name in the user's cache: bump it when their layout changes
FACTS_KIND = "wordpiece-lines2"
_KNOWN_MAX = 100_000  # word pieces (found or not) remembered per tokenizer


class AsciiWordPiece:
    """``tokenizer.encode(text, add_special_tokens=False).ids`` for ASCII ``text``."""

    def __init__(self, facts: str) -> None:
        """``facts``: what :func:`facts` returned. ValueError/KeyError/TypeError when it is not that."""
        head, _, blob = facts.partition("\n")
        if not blob.endswith("\n"):
            raise ValueError("not a WordPiece facts text")
        settings: dict[str, Any] = json.loads(head)
        # "\n" + one "token\tid" line per ASCII token, sorted by token, + "\n"
        self._blob = "\n" + blob
        self._prefix = str(settings["prefix"])
        self._max_word = int(settings["max_word"])
        # added tokens are matched before (or, for some, after) normalization: leave any text
        # spelling one, in any case, to the real tokenizer
        self._added = tuple(str(token).lower() for token in settings["added"])
        self._known: dict[str, int | None] = {}
        unk = self.token_id(str(settings["unk"]))
        if unk is None:
            raise ValueError("the unknown token is not in the vocabulary")
        self._unk = unk

    def token_id(self, token: str) -> int | None:
        known = self._known.get(token, -1)
        if known == -1:
            if len(self._known) >= _KNOWN_MAX:  # misses of garbage words would grow it forever
                self._known.clear()
            known = self._known[token] = self._search(token)
        return known

    def _search(self, token: str) -> int | None:
        """Binary search over the sorted lines, in place: no table is built."""
        blob = self._blob
        lo, hi = 0, len(blob) - 1  # both on a newline; a match is a line starting in between
        while lo < hi:
            start = blob.rfind("\n", lo, (lo + hi) // 2 + 1) + 1
            end = blob.find("\n", start)
            tab = blob.find("\t", start, end)
            key = blob[start:tab]
            if key == token:
                return int(blob[tab + 1:end])
            if key < token:
                lo = end
            else:
                hi = start - 1
        return None

    def ids(self, text: str) -> list[int] | None:
        """The token ids, or ``None`` when ``text`` is not one this restates exactly."""
        words = self.words(text)
        if words is None:
            return None
        out: list[int] = []
        for word in words:
            out.extend(self._pieces(word))
        return out

    def words(self, text: str) -> list[str] | None:
        """The pipeline's words of ``text`` before WordPiece (normalized, split at whitespace and
        each punctuation character), or ``None`` when ``text`` is not one this restates exactly.
        Each word tokenizes alone as it does inside the text, so a caller may tokenize each
        distinct word once (``plainstatic``: a build's chunks repeat their words)."""
        if not text.isascii():
            return None
        lowered = text.lower()
        if any(token in lowered for token in self._added):
            return None
        return _WORDS.findall(lowered.translate(_CLEAN))

    def _pieces(self, word: str) -> list[int]:
        if len(word) > self._max_word:
            return [self._unk]
        pieces: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                found = self.token_id(word[start:end] if start == 0 else self._prefix + word[start:end])
                if found is not None:
                    break
                end -= 1
            if found is None:
                return [self._unk]
            pieces.append(found)
            start = end
        return pieces


def facts(spec: Mapping[str, Any]) -> str | None:
    """What :class:`AsciiWordPiece` needs from a parsed ``tokenizer.json``, if it is the BERT
    uncased WordPiece pipeline this restates (``None`` otherwise), as text: a JSON line of
    its settings, then the vocabulary lines."""
    model = spec.get("model") or {}
    norm = spec.get("normalizer") or {}
    vocab = model.get("vocab")
    unk = model.get("unk_token")
    bert_norm = (norm.get("type") == "BertNormalizer" and norm.get("clean_text") is True
                 and norm.get("lowercase") is True and norm.get("strip_accents") in (None, True))
    if not (bert_norm and (spec.get("pre_tokenizer") or {}).get("type") == "BertPreTokenizer"
            and model.get("type") == "WordPiece" and isinstance(vocab, dict) and isinstance(unk, str) and unk in vocab):
        return None
    # only ASCII tokens can match a piece of ASCII text; whitespace never is in a WordPiece token
    lines = [f"{token}\t{index}" for token, index in sorted(vocab.items())
             if token.isascii() and isinstance(index, int)]
    if any(not token or any(c in token for c in "\t\n") for token in vocab if token.isascii()):
        return None  # tokens the line format cannot hold
    added = [t for t in spec.get("added_tokens") or () if isinstance(t, dict) and t.get("content")]
    if any(vocab.get(t["content"], t.get("id")) != t.get("id") for t in added):
        return None  # an added token renumbers a vocabulary entry: leave that to the real tokenizer
    settings = {"unk": unk, "prefix": str(model.get("continuing_subword_prefix", "##")),
                "max_word": int(model.get("max_input_chars_per_word") or _DEFAULT_MAX_WORD),
                "added": sorted({str(t["content"]) for t in added})}
    return json.dumps(settings) + "\n" + "\n".join(lines) + "\n"
