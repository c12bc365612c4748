"""Project classes a tutorial names in plain words: "the client", "each session", "a
retry policy" for ``Client``, ``Session``, ``RetryPolicy``. Only a determiner followed by
the words of exactly one project class's name counts, and only as the subject of checks
that also need a parameter the sentence names (defaults, retries): never for existence."""

from __future__ import annotations

import ast
import re
import sys
import weakref

from caas_tui.models import Claim
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.wording.words import same_word, stem

_DETERMINER = re.compile(r"\b(?:the|a|an|each|every|this|that|your|its)\s+((?:[a-z][a-z0-9]*\s+){0,2}[a-z][a-z0-9]*)",
                         re.IGNORECASE)
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|\d+")
_CLASSES: weakref.WeakKeyDictionary[ReviewContext, dict[str, list[Def]]] = weakref.WeakKeyDictionary()


def _words(name: str) -> str:
    return " ".join(w.lower() for w in _CAMEL.findall(name))


def _class_index(ctx: ReviewContext) -> dict[str, list[Def]]:
    if ctx not in _CLASSES:
        index: dict[str, list[Def]] = {}
        for src in ctx.project.all_modules():
            if src.tree is None:
                continue
            for node in src.tree.body:
                if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    index.setdefault(_words(node.name), []).append(Def("class", f"{src.name}.{node.name}", src, node))
        _CLASSES[ctx] = index
    return _CLASSES[ctx]


def noun_subjects(ctx: ReviewContext, claim: Claim) -> list[tuple[int, Def]]:
    """(offset, class) for each plain-words mention of exactly one project class."""
    if claim.kind == "code":
        return []
    index = _class_index(ctx)
    prose = re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), claim.text)
    out: list[tuple[int, Def]] = []
    for m in _DETERMINER.finditer(prose):
        words = m.group(1).lower().split()
        for n in range(len(words), 0, -1):  # the longest class name the words spell
            phrase = " ".join(words[:n])
            for candidate in (phrase, phrase[:-1] if phrase.endswith("s") else None):
                found = index.get(candidate) if candidate else None
                if found and len(found) == 1:
                    out.append((m.start(1), found[0]))
                    break
            else:
                continue
            break
    return out


def word_classes(ctx: ReviewContext, text: str) -> list[Def]:
    """Project classes whose leading name word the text uses in any form ("a failing call
    is retried" -> ``RetryPolicy``); only names of two words or more, whose first word is
    not a generic one, so "the base" is not ``BaseModel``."""
    words = {stem(w) for w in re.findall(r"[A-Za-z]{4,}", re.sub(r"(`+)(.+?)\1", " ", text))}
    out: list[Def] = []
    for name, defs in _class_index(ctx).items():
        parts = name.split()
        if len(parts) < 2 or len(defs) != 1 or parts[0] in _GENERIC_LEAD or len(parts[0]) < 4:
            continue
        lead = stem(parts[0])
        if any(same_word(lead, w) for w in words):
            out.append(defs[0])
    return out


_GENERIC_LEAD = frozenset({"base", "abstract", "default", "simple", "basic", "generic", "custom", "main", "core",
                           "test", "mock", "fake", "dummy", "mixin", "meta", "type", "data", "file", "text", "user"})


def class_for_variable(ctx: ReviewContext, name: str) -> Def | None:
    """The one project class a lower-case variable is named after by convention, for prose
    that calls methods on an instance no code block bound (``session.close()`` for
    ``Session``, ``policy.delay(2)`` or ``retry_policy.delay(2)`` for ``RetryPolicy``):
    the whole name spelled by one class first, else the trailing words of exactly one."""
    if not re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*", name) or len(name) < 3:
        return None
    if name in sys.stdlib_module_names:
        return None  # ``json.dumps(...)``, ``time.sleep(1)``: a module, not an instance of ``JSON``
    phrase = name.replace("_", " ")
    index = {words: [d for d in defs if d.module is not None and d.module.name not in ctx.project.test_modules]
             for words, defs in _class_index(ctx).items()}
    exact = index.get(phrase, [])
    if exact:
        return exact[0] if len(exact) == 1 else None
    tails = [d for words, defs in index.items() if words.endswith(" " + phrase) for d in defs]
    return tails[0] if len(tails) == 1 else None
