"""Claims as queries: the definitions a claim names, searched over evidence kinds.

A documentation claim ("`Scene.destroy` removes the entity at once") names the code
it is about and describes behaviour. Two rules, measured with the claims of both
findings manifests (``bench/findings.py --claims``):

- :func:`claim_request`: a claim is searched by its words, the names it mentions
  and, for a docstring, the symbol that owns it, over code, tests and upstream pages
  only (docs are what is checked, not proof).
- :func:`claim_pins` (``RankPolicy.claims``): a *sentence* query (four words or
  more) that names symbols puts those definitions on top, called names first
  (``scene.spawn(...)``), at most ``MAX_DEFS``, never a module preamble; a name
  matching many definitions pins none. ``pinning.pin_exact`` answers the rest.

Also tried and dropped: putting each named definition's callees and tests (one
graph hop) right after it cost 0.05-0.20 recall@5 on both manifests: they push the
channels' own finds out of the top 5 (``expand=True`` adds them after the top k).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from caas_tui.limits import MAX_QUERY_CHARS
from caas_tui.models import Chunk, Claim, Kind
from caas_tui.retrieve.fusion import Fused
from caas_tui.retrieve.pinning import looks_like_identifier
from caas_tui.retrieve.request import SearchRequest
from caas_tui.retrieve.symbols import SymbolTable

MIN_WORDS = 4
MAX_DEFS = 3  # definitions pinned: the rest of the top is left to the channels
MAX_MATCHES = 2  # a name that matches more definitions than this says little
_TICKED = re.compile(r"`+([^`]+)`+")
_CHAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_CALL = re.compile(r"(?<![\w.])([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\(")
_NOT_NAMES = frozenset({"print", "len", "range", "list", "dict", "set", "tuple", "str", "int", "float", "isinstance",
                        "super", "type", "open", "sorted", "sum", "min", "max", "any", "all", "zip", "enumerate"})
# A claim is checked against code, tests and upstream pages; docs and docstrings are
# what gets checked, not proof (the same rule as graph expansion).
EVIDENCE_KINDS: tuple[Kind, ...] = ("code", "test", "upstream")
_CODE_DOC = (".py", ".pyi", ".js", ".ts", ".java", ".go", ".rs", ".kt", ".cs", ".c", ".cc", ".cpp", ".h")


def claim_text(claim: Claim) -> str:
    """The query for a claim: its words, then the names it mentions that its words do not
    spell out, then (for a docstring) the symbol that owns it: a docstring talks about
    its owner without naming it."""
    owner = [claim.section] if claim.section and claim.doc_path.endswith(_CODE_DOC) else []
    extra = [s for s in (*owner, *claim.symbols) if s not in claim.text]
    return " ".join([*(f"`{s}`" for s in extra[:1] if owner), " ".join(claim.text.split()),
                     *(f"`{s}`" for s in extra[1 if owner else 0:])])


def claim_request(claim: Claim, k: int = 10) -> SearchRequest:
    """The search that gathers a claim's evidence: :func:`claim_text` over evidence kinds."""
    return SearchRequest(claim_text(claim)[:MAX_QUERY_CHARS], k, kinds=EVIDENCE_KINDS)


def named_symbols(query: str) -> list[str]:
    """Names a sentence query mentions, the likeliest subjects first: what it calls
    (``scene.spawn(...)``: a claim about code is usually about the call), then the
    first identifier chain of each backticked span, then unticked words shaped like
    code. Empty for short queries (``pinning.pin_exact`` answers those)."""
    if len(query.split()) < MIN_WORDS:
        return []
    called: list[str] = []
    named: list[str] = []
    for m in _CALL.finditer(query):
        if m.group(1) not in called and m.group(1) not in _NOT_NAMES:
            called.append(m.group(1))
    for span in _TICKED.findall(query):
        chain = _CHAIN.search(span.lstrip("~!."))
        if chain:
            named.append(chain.group(0))
    rest = _TICKED.sub(" ", query)
    named += [w for m in _CHAIN.finditer(rest) if looks_like_identifier(w := m.group(0).rstrip("."))]
    out: list[str] = []
    for name in (*called, *named):
        if name not in out:
            out.append(name)
    return out


def _resolve(symbols: SymbolTable, name: str, kinds: Sequence[Kind]) -> list[Chunk]:
    """Definitions ``name`` means (module preambles left out: a package name is not the
    subject). A dotted name whose head is a variable (``scene.spawn``) is tried as its
    class (``Scene.spawn``: instances are named after their class), then as shorter
    suffixes."""
    parts = name.split(".")
    tries = []
    for start in range(len(parts)):
        rest = parts[start:]
        if start > 0 and rest[0][:1].islower():
            tries.append(".".join([parts[start - 1][:1].upper() + parts[start - 1][1:], *rest]))
        tries.append(".".join(rest))
    if len(parts) > 1 and parts[0][:1].islower():
        tries.insert(0, ".".join([parts[0][:1].upper() + parts[0][1:], *parts[1:]]))
    for candidate in tries:
        found = [c for c in symbols.find(candidate, kinds, exact_only=True)
                 if c.kind == "code" and c.signature]  # no signature: a module preamble
        if found:
            return found if len(found) <= MAX_MATCHES else []
    return []


def claim_pins(
    query: str, fused: list[Fused], symbols: SymbolTable, kinds: Sequence[Kind]
) -> tuple[list[Fused], set[str]]:
    """``fused`` with the definitions a sentence query names moved to the top (at most
    ``MAX_DEFS``, called names first), and the ids moved; ``(fused, set())`` when it names
    none that resolve, so ``pinning.pin_exact`` can have its say."""
    head: list[str] = []
    for name in named_symbols(query):
        if len(head) >= MAX_DEFS:
            break
        head.extend(c.id for c in _resolve(symbols, name, kinds)[: MAX_DEFS - len(head)] if c.id not in head)
    if not head:
        return fused, set()
    top = fused[0].score if fused else 1.0
    by_id = {f.id: f for f in fused}
    moved = set(head)
    return [by_id.get(cid) or Fused(cid, top, {}) for cid in head] + [f for f in fused if f.id not in moved], moved
