"""Checkable statements inside claim text: stated defaults, return types and raised
exceptions. Pure text work; matching them against code happens in ``checks``.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass

_V = r"(:[\w:]+:`[^`]+`|``[^`]+``|`[^`]+`|\"[^\"\n]*\"|'[^'\n]*'|[-+]?[\w.:/+-]*\w|[-+]?\d[\w.+-]*)"
_DEFAULT_PATTERNS = (
    # "defaults to the value of `TTL`": the constant is the stated default
    re.compile(r"\bdefaults?\s+(?:value\s+)?(?:to|is|of|=|:)\s*(?:the\s+value\s+of\s+)?" + _V, re.IGNORECASE),
    re.compile(r"[(\[]\s*default(?:s)?\s*(?:is\s+|to\s+|[:=]\s*)?" + _V + r"\s*[)\]]", re.IGNORECASE),
    re.compile(r"\bdefault(?:\s+value)?\s+(?:is|of)\s+" + _V, re.IGNORECASE),
    re.compile(r"(?:^|,\s*|[.;]\s+)default[:=\s]\s*" + _V, re.IGNORECASE),  # NumPy "int, default 10"; "Default: 30"
    re.compile(r"(``[^`]+``|`[^`]+`)\s+by\s+default\b", re.IGNORECASE),
    re.compile(r"\bby\s+default,?\s+" + _V, re.IGNORECASE),  # NumPy: "optional, by default 1e-5"
    # "if omitted, ``"strict"`` is used": what stands in for a missing argument is its default
    re.compile(r"\b(?:if|when)\s+(?:it\s+is\s+|they\s+are\s+)?(?:omitted|left\s+out|not\s+(?:given|set|passed|specified))"
               r",?\s+" + _V + r"\s+(?:is|are)\s+(?:used|assumed|taken)\b", re.IGNORECASE),
)
# PEP 8 spells a module constant in capitals (``TTL_SECONDS``, ``MAX_RETRIES``): a name, not a word.
CONSTANT_NAME = re.compile(r"_*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|_*[A-Z]{2,}[0-9]*")
_KWARG_SPAN = re.compile(r"(?<!`)(`{1,2})\s*([A-Za-z_]\w*)\s*=\s*([^`]+?)\s*\1(?!`)")
_TYPE_WORDS = {
    "list": "list", "lists": "list", "tuple": "tuple", "tuples": "tuple", "dict": "dict", "dictionary": "dict",
    "mapping": None, "set": "set", "frozenset": "frozenset", "str": "str", "string": "str", "int": "int",
    "integer": "int", "float": "float", "bool": "bool", "boolean": "bool", "bytes": "bytes", "none": "None",
    "nothing": "None", "iterator": "iterator", "generator": "iterator", "true": "bool", "false": "bool",
    "function": "callable", "callable": "callable", "decorator": "callable", "closure": "callable",
}
# "the set of" is as often a mathematical set as a Python one: only these read as a type after "the".
_CONTAINERS = frozenset({"list", "tuple", "dict", "dictionary"})
_RETURNS = re.compile(
    r"\b(?:returns?|yields?)\s+(?:back\s+)?(?:either\s+)?(?P<art>an?\s+|the\s+)?"
    r"(?:new\s+|empty\s+|sorted\s+|fresh\s+|plain\s+|single\s+)?"
    # "returns the chosen :class:`Variant`": any one word before a class written as a role or capitalised span
    r"(?:[a-z]+\s+(?=:(?:py:)?(?:class|obj):`|``?~?[A-Z]))?"
    r"(:[\w:]+:`[^`]+`|``[^`]+``|`[^`]+`|[A-Za-z_][\w\[\], .|]*)",
    re.IGNORECASE,
)
_MORE_VALUES = re.compile(
    r"\s*,?\s+(?:and|or|plus)\s+(?:an?\b|the\b|its\b|their\b|`|\d|None\b|True\b|False\b|"
    + "|".join(rf"{w}\b" for w in _TYPE_WORDS) + ")",
    re.IGNORECASE,
)
_RAISES = re.compile(r"\b(?i:raises?|throws?)\s+(?:(?i:an?)\s+)?(``[^`]+``|`[^`]+`|:(?:py:)?(?:exc|class|obj):`[^`]+`|[A-Z]\w*(?:\.\w+)*)")


_ROLE = re.compile(r":[\w:]+:`~?(?:[^`<]*<)?~?([A-Za-z_][\w.]*?)(?:\(\))?>?`")


@dataclass(frozen=True, slots=True)
class StatedValue:
    text: str  # the token as written (without backticks)
    value: object  # parsed Python value, or the raw text when it isn't a literal
    literal: bool  # True when ``value`` came from a Python literal
    start: int  # offset in the claim text (for locating the token)
    param: str | None = None  # from ``name=value`` spans
    symbol: bool = False  # written as a reST role (``:class:`Option```): a name, not a literal


def _strip_ticks(token: str) -> str:
    return token.strip("`").strip()


def parse_value(token: str) -> tuple[object, bool]:
    text = _strip_ticks(token)
    lowered = text.lower()
    if lowered in ("true", "false", "none"):
        return {"true": True, "false": False, "none": None}[lowered], True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.literal_eval(text), True
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return text, False


_TELLS_TO_SET = re.compile(r"\b(?:set|setting|pass|passing|use|using|specify|provide|override|change|give)\s+"
                           r"(?:[\w-]+\s+){0,2}$", re.IGNORECASE)


def stated_defaults(text: str) -> list[StatedValue]:
    """``defaults to 1e-3``, ``(default: 10)``, ```x` by default``, ```tol=1e-3```."""
    out: list[StatedValue] = []
    for pattern in _DEFAULT_PATTERNS:
        for m in pattern.finditer(text):
            token = m.group(1)
            role = _ROLE.fullmatch(token)
            if role is not None:
                if not any(v.start == m.start(1) for v in out):
                    out.append(StatedValue(role.group(1), role.group(1), False, m.start(1), symbol=True))
                continue
            cleaned = _strip_ticks(token).rstrip(".,;:)")
            if not cleaned or cleaned.lower() in ("the", "a", "an", "this", "that", "it", "whatever", "none of"):
                continue
            value, literal = parse_value(cleaned if not token.startswith("`") else _strip_ticks(token))
            if any(v.start == m.start(1) for v in out):
                continue
            if not literal and not token.startswith("`"):
                if CONSTANT_NAME.fullmatch(cleaned):  # NumPy "float, default TTL_SECONDS": a name
                    out.append(StatedValue(cleaned, cleaned, False, m.start(1), symbol=True))
                continue  # "the default is to raise": a plain word is no value
            out.append(StatedValue(_strip_ticks(token) if token.startswith("`") else cleaned, value, literal, m.start(1)))
    # ```tolerance=1e-3``` states a default only where the sentence talks about defaults
    # (elsewhere it is an example value: "pass ``total=None`` for an open-ended bar").
    for m in (_KWARG_SPAN.finditer(text) if re.search(r"\bdefault", text, re.IGNORECASE) else ()):
        if _TELLS_TO_SET.search(text[max(0, m.start() - 40):m.start()]):
            continue  # "set ``unknown=None`` ... to make this the default": advice, not the default
        value, literal = parse_value(m.group(3))
        if literal:
            out.append(StatedValue(m.group(3).strip(), value, True, m.start(3), param=m.group(2)))
    for m in _EMPTY_DEFAULT.finditer(text):
        if not any(v.start == m.start(1) for v in out):
            out.append(StatedValue(m.group(0).split(None, 2)[-1], _EMPTY[m.group("kind").lower()](), True, m.start(1)))
    return sorted(out, key=lambda v: v.start)


# "defaults to an empty list", "the default is an empty dict": a literal said in words
_EMPTY: dict[str, type] = {"list": list, "dict": dict, "dictionary": dict, "mapping": dict, "set": set,
                           "tuple": tuple, "string": str, "str": str}
_EMPTY_DEFAULT = re.compile(
    r"\b(?:defaults?\s+to|default\s+(?:is|value\s+is)|by\s+default\s+(?:is|it\s+is))\s+(an?\s+empty\s+"
    r"(?P<kind>list|dict|dictionary|mapping|set|tuple|string|str))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class StatedType:
    kind: str | None  # list, tuple, dict, set, str, int, float, bool, bytes, None, iterator; None: a name
    name: str | None  # a class name written in backticks/roles (``Entity``)
    start: int
    element: str | None = None  # "a list of `Item` objects": the element class written in code or a role


def type_from_text(text: str) -> StatedType | None:
    """``list of str`` -> list; ``List[Entity]`` -> list; ```Entity``` -> name Entity."""
    raw = text.strip().rstrip(".,;:")
    role = re.match(r":\w+:`~?([^`]+)`", raw)
    if role:
        raw = role.group(1)
        if re.fullmatch(r"[A-Za-z_]\w*(?:\.\w+)*\.[A-Z]\w*", raw):
            return StatedType(None, raw, 0)  # :class:`pkg.mod.Cls`: a dotted class name
    if raw.startswith("`"):
        inner = _strip_ticks(raw)
        if inner in ("True", "False"):
            return StatedType("bool", None, 0)
        if inner == "None":
            return StatedType("None", None, 0)
        head = re.match(r"~?([A-Za-z_][\w.]*)", inner)
        if not head:
            return None
        word = head.group(1)
        kind = _TYPE_WORDS.get(word.lower()) if word in ("list", "tuple", "dict", "set", "frozenset", "str", "int", "float", "bool", "bytes") else None
        if kind is None and word in ("List", "Tuple", "Dict", "Set", "FrozenSet"):
            kind = word.lower()
        return StatedType(kind, None if kind else word, 0)
    word = re.match(r"[A-Za-z_][\w.]*", raw)
    if not word:
        return None
    w = word.group(0)
    if w.lower() in _TYPE_WORDS and w not in ("None",) or w == "None":
        kind = _TYPE_WORDS.get(w.lower())
        return StatedType(kind, None, 0) if kind else None
    if w in ("List", "Tuple", "Dict", "Set", "FrozenSet"):
        return StatedType(w.lower(), None, 0)
    if w in ("Iterator", "Generator", "Iterable"):
        return StatedType("iterator", None, 0)
    if w[0].isupper() and len(raw.split()) == 1:
        return StatedType(None, w.split("[")[0], 0)
    return None


_COUNT = re.compile(r"\b(?:returns?|yields?)\s+(?:back\s+)?(?:the|a)\s+(?:total\s+)?(?:number|count)\s+of\b", re.IGNORECASE)
_WHETHER = re.compile(r"\breturns?\s+whether\b", re.IGNORECASE)
# "returns the grid", "returns itself", "returns its id", "returns `self`": some value, whatever its type
_VALUE_RETURN = re.compile(
    r"\b(?<!will\s)(?<!to\s)returns\s+(?:back\s+)?(?P<obj>itself\b|self\b|(?:the|a|an|its|their|this|that|each|one|some|all)\s+(?=[A-Za-z`:])"
    r"|``(?!None``)[^`]+``|`(?!None`)[^`]+`|:\w+:`|True\b|False\b|-?\d)",
    re.IGNORECASE,
)


# "returns the connection to the pool": hands something back somewhere, not a result
_GIVES_BACK = re.compile(r"(?:[`\w'-]+\s+){0,4}?(?:to|into)\s+(?:the|its|their|a|an)\s+\w+", re.IGNORECASE)


def stated_value_returns(text: str) -> list[int]:
    """Offsets of the object of every "returns <a value>" in ``text`` (not "returns None",
    "returns nothing", "returns when ...", "returns early", "returns it to the pool"; only
    the verb's ``returns`` form, whose subject is the sentence's callable)."""
    return [m.start("obj") for m in _VALUE_RETURN.finditer(text) if not _GIVES_BACK.match(text, m.start("obj"))]
# "returns the first entity carrying `tag`, or `None`": the result may be None.
_OR_NONE = re.compile(
    r"\b(?:returns?|yields?)\b[^.;:]*?,\s+or\s+(?::data:`None`|``None``|`None`|None\b)(?!\s*(?:and|or|never)\b)",
    re.IGNORECASE,
)


def stated_optional(text: str) -> int | None:
    """Offset of the ``returns`` of a "returns X, or None" statement, or None."""
    m = _OR_NONE.search(text)
    return m.start() if m else None


_CLASS_SPAN = r"(?::(?:py:)?(?:class|obj):`~?(?:[^`<]*<)?(?P<role>[\w.]+)>?`|(?P<ticks>`+)~?(?P<code>[A-Z][\w.]*)(?P=ticks))"
_ELEMENT = re.compile(rf"\s+(?:of|over)\s+(?:\w+\s+){{0,2}}?{_CLASS_SPAN}")
_VALUE = re.compile(rf"\s+(?:mapping|from|of)\s+[^.;:]*?\bto\s+(?:\w+\s+){{0,2}}?{_CLASS_SPAN}")


def stated_element(kind: str | None, after: str) -> str | None:
    """The element class a container return names right after its type ("a list of `Item`
    objects", "an iterator over :class:`Row`", "a dict mapping names to `Tag`")."""
    pattern = _VALUE if kind == "dict" else _ELEMENT if kind in ("list", "tuple", "set", "frozenset", "iterator") else None
    m = pattern.match(after) if pattern is not None else None
    return (m.group("role") or m.group("code")) if m else None


def stated_returns(text: str) -> list[StatedType]:
    out: list[StatedType] = [StatedType("int", None, m.start()) for m in _COUNT.finditer(text)]
    out += [StatedType("bool", None, m.start()) for m in _WHETHER.finditer(text)]
    for m in _RETURNS.finditer(text):
        token = m.group(2)
        if not token.startswith(("`", ":")):
            word = re.match(r"[A-Za-z_]\w*", token)
            token = word.group(0) if word else token
            if token.lower() not in _TYPE_WORDS:
                continue  # "returns the entity": a description, not a type
            if (m.group("art") or "").lower().startswith("the") and not (
                token.lower() in _CONTAINERS and re.match(r"\s+of\s+\w", text[m.start(2) + len(token):])
            ):
                continue  # "returns the list": which list, not what type ("the list of jobs" is still a list)
        after = text[m.start(2) + len(token):]
        if _MORE_VALUES.match(after):
            continue  # "returns a list and the ids" / "a list or None": several values, or a union
        st = type_from_text(token)
        if st is not None:
            out.append(StatedType(st.kind, st.name, m.start(2), stated_element(st.kind, after)))
    return out


def stated_raises(text: str) -> list[str]:
    out: list[str] = []
    for m in _RAISES.finditer(text):
        token = m.group(1)
        role = re.match(r":(?:py:)?(?:exc|class|obj):`~?([^`]+)`", token)
        name = role.group(1) if role else _strip_ticks(token)
        name = name.lstrip("~").removesuffix("()")
        if re.fullmatch(r"[A-Za-z_][\w.]*", name) and (name.endswith(("Error", "Exception", "Warning", "Exit", "Interrupt")) or "." in name or name[0].isupper()):
            out.append(name)
    return out
