"""Claims as queries: the definitions a claim names, searched over evidence kinds.

A documentation claim ("`Scene.destroy` removes the entity at once") names the code
it is about and describes behaviour. The rules, measured with the claims of both
findings manifests (``bench/findings.py --claims``):

- :func:`claim_request`: a claim is searched by its words, the names it mentions
  and, for a docstring, the symbol that owns it, over code, tests and upstream pages
  only (docs are what is checked, not proof). Its kinds name ``test``, so the priors
  leave tests at full weight (``RankPolicy.kinds_ask_for_tests``): a claim's proof is
  often a test.
- :func:`claim_pins` (``RankPolicy.claims``): a *sentence* query (four words or
  more) or any query that calls something (``ball.get_component(X)``) puts the
  definitions it names on top, called names first (``scene.spawn(...)``), at most
  ``MAX_DEFS``, never a module preamble; a named class brings its ``__init__``
  (``Box(width=...)`` is answered by the constructor); a name matching many
  definitions pins none. ``pinning.pin_exact`` answers the rest.
- what a code claim's calls assert (``retrieve/claimcalls.py``): an outer call passing
  keywords is pinned before the block's other calls (``CollisionBuilder(padding=0.01)``
  asserts a signature; ``spawn("p", Shape(radius=1))`` stays about ``spawn``), and an
  object the claim shows (``>>> h`` echoes ``Headers.__repr__``; ``print(u)``, ``str(u)``:
  ``__str__``) brings that method after its class.
- then one candidate the pins hand work to (``MAX_CALLEES``): a test that makes one of
  the claim's keyword calls with the same keywords (the test of that very use), else a
  callee called by bare name or through ``self`` in the caller's class (``Session.get``
  -> ``self.request``; ``request`` -> ``self._send_once``), or code or a test that calls
  at least ``MIN_SHARED`` of the names a code-block claim uses (the test that builds the
  long form a tutorial spells out). Only candidates the channels found qualify.
- a sentence that names nothing but states a default and a value ("out of the box the
  bucket refills one token every 100 ms") gets the constructor of its best candidate's
  class, when that signature sets defaults, right after that candidate.

Also tried and dropped: putting each named definition's callees and tests (one
graph hop, found or not) right after it cost 0.05-0.20 recall@5 on both manifests:
they push the channels' own finds out of the top 5 (``expand=True`` adds them after
the top k); two callees instead of one, four pinned definitions instead of three,
and pinning in fused order instead of mention order gained nothing or lost.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from caas_tui.limits import MAX_QUERY_CHARS
from caas_tui.models import Chunk, Claim, Kind
from caas_tui.retrieve.claimcalls import keyword_calls, makes_same_call, shown_objects
from caas_tui.retrieve.fusion import Fused
from caas_tui.retrieve.pinning import constructors, looks_like_identifier
from caas_tui.retrieve.priors import called_names
from caas_tui.retrieve.request import SearchRequest
from caas_tui.retrieve.symbols import SymbolTable

MIN_WORDS = 4
MAX_DEFS = 3  # definitions pinned: the rest of the top is left to the channels
MAX_MATCHES = 2  # a name that matches more definitions than this says little
MAX_CALLEES = 1
MIN_SHARED = 3  # names of the claim a candidate must call to count as using them together
DELEGATE_WINDOW = 50  # candidates looked at  # candidates a pinned definition calls, moved right after the pins
_TICKED = re.compile(r"`+([^`]+)`+")
_CHAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_CALL = re.compile(r"(?<![\w.])([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\(")
_BARE_CALL = re.compile(r"(?<![\w.])([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_SELF_CALL = re.compile(r"\b(?:self|cls)\.([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_NOT_NAMES = frozenset({"print", "len", "range", "list", "dict", "set", "tuple", "str", "int", "float", "isinstance",
                        "super", "type", "open", "sorted", "sum", "min", "max", "any", "all", "zip", "enumerate"})
# A claim is checked against code, tests and upstream pages; docs and docstrings are
# what gets checked, not proof (the same rule as graph expansion).
EVIDENCE_KINDS: tuple[Kind, ...] = ("code", "test", "upstream")
# A sentence that states a default ("out of the box ... every 100 ms"): defaults live in a
# constructor's signature. A value must be stated too, so "Return the default encoding" is not one.
_STATES_DEFAULT = re.compile(r"\b(?:by default|defaults?\b|defaulted|out of the box|unless (?:told|set|given)|"
                             r"if (?:omitted|not given|unset))", re.IGNORECASE)
_STATES_VALUE = re.compile(r"\d|\b(?:True|False|None)\b|['\"]")
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
    code. Empty for short queries that call nothing (``pinning.pin_exact`` answers those)."""
    return [name for name, _ in _named(query)]


def _named(query: str, keywords_first: bool = True) -> list[tuple[str, bool]]:
    """:func:`named_symbols` with, for each name, whether the query calls it."""
    called: list[str] = []
    for m in _CALL.finditer(query):
        if m.group(1) not in called and m.group(1) not in _NOT_NAMES:
            called.append(m.group(1))
    if len(query.split()) < MIN_WORDS and not called:
        return []
    named: list[str] = []
    for span in _TICKED.findall(query):
        chain = _CHAIN.search(span.lstrip("~!."))
        if chain:
            named.append(chain.group(0))
    rest = _TICKED.sub(" ", query)
    named += [w for m in _CHAIN.finditer(rest) if looks_like_identifier(w := m.group(0).rstrip("."))]
    if keywords_first:  # a call passing keywords asserts a signature: the likeliest subject of a block
        with_keywords = {name for name, _ in keyword_calls(query, outermost=True)}
        called.sort(key=lambda name: name not in with_keywords)  # stable: mention order otherwise
    out: list[tuple[str, bool]] = [(name, True) for name in called]
    for name in named:
        if name not in called and all(name != n for n, _ in out):
            out.append((name, False))
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
    query: str,
    fused: list[Fused],
    symbols: SymbolTable,
    kinds: Sequence[Kind],
    *,
    chunk_of: Callable[[str], Chunk | None] | None = None,
    callees: int = MAX_CALLEES,
    with_constructors: bool = True,
    calls: bool = True,
    defaults: bool = True,
) -> tuple[list[Fused], set[str]]:
    """``fused`` with the definitions a sentence query names moved to the top (at most
    ``MAX_DEFS``, called names first, those passing keywords before the rest; a named class
    brings its constructor, and the ``__repr__``/``__str__`` of an object the claim shows), then
    up to ``callees`` candidates they delegate to or that use the named code together
    (:func:`_delegates`), and the ids moved; ``(fused, set())`` when it names none that
    resolve, so ``pinning.pin_exact`` can have its say (a claim stating a default then gets the
    constructor of its best candidate's class after that candidate: :func:`_default_setter`).
    ``calls``: read the claim's calls (``retrieve/claimcalls.py``) for the order, the shown
    objects and the test that makes the same call."""
    head: list[str] = []
    named = _named(query, keywords_first=calls)
    for name, _called in named:
        if len(head) >= MAX_DEFS:
            break
        for chunk in _resolve(symbols, name, kinds)[: MAX_DEFS - len(head)]:
            extra = constructors(symbols, chunk) if with_constructors else []
            head.extend(c.id for c in (chunk, *extra) if c.id not in head)
    if calls:
        head = _with_shown(query, head, symbols, kinds)
    if not head:
        if defaults and chunk_of is not None and len(query.split()) >= MIN_WORDS:
            return _default_setter(query, fused, symbols, chunk_of), set()
        return fused, set()
    if callees and chunk_of is not None:
        same = keyword_calls(query, outermost=True) if calls else ()
        head += _delegates(head, fused, chunk_of, callees, {n.rsplit(".", 1)[-1] for n, _ in named}, same)
    top = fused[0].score if fused else 1.0
    by_id = {f.id: f for f in fused}
    moved = set(head)
    return [by_id.get(cid) or Fused(cid, top, {}) for cid in head] + [f for f in fused if f.id not in moved], moved


def _with_shown(query: str, head: list[str], symbols: SymbolTable, kinds: Sequence[Kind]) -> list[str]:
    """``head`` with, after each class's entries, the method that renders an object of it the claim
    shows (``>>> h = Headers(...)``, ``>>> h`` shows ``Headers.__repr__``)."""
    out = list(head)
    for callee, dunder in shown_objects(query):
        for cls in _resolve(symbols, callee, kinds):
            if not (cls.signature or "").startswith("class "):
                continue
            found = [c.id for c in symbols.find(f"{cls.symbol}.{dunder}", ("code",), exact_only=True)]
            if not found or found[0] in out:
                continue
            at = out.index(cls.id) + 1 if cls.id in out else len(out)
            ctors = {c.id for c in constructors(symbols, cls)}
            while at < len(out) and out[at] in ctors:
                at += 1
            out.insert(at, found[0])
    return out


def _default_setter(query: str, fused: list[Fused], symbols: SymbolTable,
                    chunk_of: Callable[[str], Chunk | None]) -> list[Fused]:
    """For a sentence that states a default value and names nothing: the constructor of the best
    candidate's class, when its signature sets defaults, moved to just after that candidate
    (``TokenBucket._refill`` first, then ``TokenBucket.__init__(rate=DEFAULT_RATE, ...)``)."""
    if not (fused and _STATES_DEFAULT.search(query) and _STATES_VALUE.search(query)):
        return fused
    top = chunk_of(fused[0].id)
    if top is None or top.kind != "code" or not top.signature or not top.symbol:
        return fused
    owner = top.symbol if top.signature.startswith("class ") else top.parent
    if not owner:
        return fused
    inits = [c for c in symbols.find(f"{owner}.__init__", ("code",), exact_only=True)
             if c.id != top.id and "=" in (c.signature or "")]
    if not inits:
        return fused
    init = inits[0].id
    by_id = {f.id: f for f in fused}
    moved = Fused(init, fused[0].score, by_id[init].ranks if init in by_id else {})
    return [fused[0], moved, *(f for f in fused[1:] if f.id != init)]


def _delegates(
    head: list[str], fused: list[Fused], chunk_of: Callable[[str], Chunk | None], limit: int, named: set[str],
    same: tuple[tuple[str, frozenset[str]], ...] = (),
) -> list[str]:
    """Candidates (at most ``limit``) that the pinned definitions hand work to, or that use what the
    claim names together. A method that delegates to a helper is proven by that helper (a callee
    counts when called by bare name or, through ``self``/``cls``, in the caller's class); code or a
    test that calls several of the names a code-block claim uses (``named``: short names) shows
    what they add up to, the more the likelier; a test that makes one of the claim's keyword calls
    with the same keywords (``same``) is the test of that very use and comes first. Only what the
    channels found qualifies (a callee that shares no words with the claim is rarely its
    evidence); then most names shared, then fused order."""
    bare: set[str] = set()
    own: set[tuple[str | None, str]] = set()  # (class, method) called through self/cls
    for cid in head:
        chunk = chunk_of(cid)
        if chunk is None or not chunk.symbol:
            continue
        bare |= {m.group(1) for m in _BARE_CALL.finditer(chunk.text)} - {chunk.symbol.rsplit(".", 1)[-1]}
        cls = chunk.parent if chunk.signature and not chunk.signature.startswith("class ") else chunk.symbol
        own |= {(cls, m.group(1)) for m in _SELF_CALL.finditer(chunk.text)}
    picked: list[tuple[bool, int, int, str]] = []
    for position, item in enumerate(fused[:DELEGATE_WINDOW]):
        chunk = chunk_of(item.id)
        if item.id in head or chunk is None or chunk.kind not in ("code", "test") or not chunk.signature \
                or not chunk.symbol:
            continue
        short = chunk.symbol.rsplit(".", 1)[-1]
        shared = len(called_names(chunk.text) & named)
        callee = chunk.kind == "code" and (short in bare or (chunk.parent, short) in own)
        same_call = chunk.kind == "test" and makes_same_call(chunk.text, same)
        if callee or shared >= MIN_SHARED or same_call:
            picked.append((not same_call, -shared if shared >= MIN_SHARED else 0, position, item.id))
    return [cid for *_, cid in sorted(picked)[:limit]]
