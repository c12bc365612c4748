"""Form-coverage matrix for behaviour claims read against the code (issue 14).

Four ideas, each a claim's checkable assertion compared with what the code does:

- a callable the claim says is used (``re.fullmatch``, ``time.time``, ``shutil.copy2``, "the
  wall clock") against what the subject and the project code it calls actually call of the
  same family;
- orders and policies (least recently used vs oldest insertion, newest vs oldest first);
- immutability and copies (frozen with a mutable field, "returns a copy", "in place");
- defaults derived in words ("defaults to the class name" vs ``type(self).__name__.lower()``).

Every cell is one defect and its correct twin in one form (prose with inline code, reST roles,
Google / NumPy / Sphinx fields, a plain docstring sentence, class and module docstrings, a
Markdown table). A defect must be flagged (``contradicted`` or ``incomplete``); its twin must
not be. Each side's code is its own module (``vault/c_<cell>_<d|t>.py``) with the names
suffixed (``{N}``: ``D0``/``T0``), so a claim names one side only. The project (a small
artifact vault) is written from the issue's specification, not from a demo manifest.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer

from .conftest import write

HELPERS = '''
import re
import time


def probe(pattern: str, text: str) -> bool:
    return re.search(pattern, text) is not None


def probe_full(pattern: str, text: str) -> bool:
    return re.fullmatch(pattern, text) is not None


def clock() -> float:
    return time.monotonic()


def wall() -> float:
    return time.time()
'''


@dataclass(frozen=True)
class Cell:
    id: str
    form: str  # md | rst | table | google | numpy | sphinx | docprose | class | module
    idea: str  # family | order | immutable | derived
    claim: str  # the doc text; ``{N}`` is the side's suffix
    defect: str  # the defect side's module; ``{N}`` suffix, ``{DOC}`` where the docstring goes
    twin: str  # the twin side's module (same shape)
    key: str = ""  # a substring that picks the claim out of its module's claims (docstring forms)
    words: tuple[str, str] = ("", "")  # ``{W}`` / ``{w}``: a plain class name per side, for claims in words


def _fn(name: str, params: str, body: str, *, imports: str = "", doc: bool = True) -> str:
    head = f"{imports}\n\n\n" if imports else ""
    docline = "    {DOC}\n" if doc else ""
    return f"{head}def {name}{{N}}({params}):\n{docline}" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"


_OD = "from collections import OrderedDict"


def _box(get_body: str, *, doc_on: str = "class", cls: str = "Box") -> str:
    cdoc = "    {DOC}\n\n" if doc_on == "class" else ""
    pdoc = "        {DOC}\n" if doc_on == "put" else ""
    return (f"{_OD}\n\n\nclass {cls}{{N}}:\n{cdoc}"
            "    def __init__(self, size: int = 8) -> None:\n"
            "        self._size = size\n        self._data: OrderedDict[str, bytes] = OrderedDict()\n\n"
            "    def get(self, key: str) -> bytes:\n" + textwrap.indent(textwrap.dedent(get_body).strip("\n"), " " * 8)
            + "\n\n    def put(self, key: str, value: bytes) -> None:\n" + pdoc
            + "        self._data[key] = value\n        if len(self._data) > self._size:\n"
            "            self._data.popitem(last=False)\n")


_LRU_GET = "self._data.move_to_end(key)\nreturn self._data[key]"
_FIFO_GET = "return self._data[key]"


def _dictbox(get_body: str) -> str:
    return ("class Bag{N}:\n    def __init__(self) -> None:\n        self._items: dict[str, int] = {}\n\n"
            "    def get(self, key: str) -> int:\n" + textwrap.indent(textwrap.dedent(get_body).strip("\n"), " " * 8)
            + "\n\n    def put(self, key: str, value: int) -> None:\n        self._items[key] = value\n"
            "        if len(self._items) > 4:\n            del self._items[next(iter(self._items))]\n")


def _frozen(fields: str, *, frozen: bool = True, doc: bool = False, extra_import: str = "") -> str:
    deco = "@dataclass(frozen=True)" if frozen else "@dataclass"
    d = "    {DOC}\n\n" if doc else ""
    imp = "from dataclasses import dataclass, field" + (f"\n{extra_import}" if extra_import else "")
    return f"{imp}\n\n\n{deco}\nclass Grant{{N}}:\n{d}" + textwrap.indent(textwrap.dedent(fields).strip("\n"), "    ") + "\n"


def _holder(attr: str, ret: str, *, doc: bool = True, method: str = "rows") -> str:
    d = "        {DOC}\n" if doc else ""
    return (f"class Ledger{{N}}:\n    def __init__(self) -> None:\n        self.{attr} = []\n\n"
            f"    def {method}(self):\n{d}        return {ret}\n")


def _stage(expr: str, *, doc_on: str = "", param: str = "name") -> str:
    cdoc = "    {DOC}\n\n" if doc_on == "class" else ""
    idoc = "        {DOC}\n" if doc_on == "init" else ""
    return (f"class Stage{{N}}:\n{cdoc}    def __init__(self, {param}: str | None = None) -> None:\n{idoc}"
            f"        self.{param} = {param} or {expr}\n")


def _labelled(expr: str) -> str:
    return ("from pathlib import Path\n\n\n"
            "def load{N}(path: str, label: str | None = None) -> str:\n    {DOC}\n"
            f"    if label is None:\n        label = {expr}\n    return label\n")


C = Cell
CELLS: list[Cell] = [
    # -- a callable of a family the claim names --------------------------------------------------------
    C("re-md", "md", "family", "`match_whole{N}(pattern, text)` uses `re.fullmatch`: the whole text must match.",
      _fn("match_whole", "pattern, text", "return re.search(pattern, text) is not None", imports="import re", doc=False),
      _fn("match_whole", "pattern, text", "return re.fullmatch(pattern, text) is not None", imports="import re",
          doc=False)),
    C("re-rst-alias", "rst", "family", ":func:`match_head{N}` is a thin wrapper around :func:`re.match`.",
      _fn("match_head", "pattern, text", "return _re.search(pattern, text)", imports="import re as _re", doc=False),
      _fn("match_head", "pattern, text", "return _re.match(pattern, text)", imports="import re as _re", doc=False)),
    C("re-google", "google", "family", "Args:\n    pattern: a regular expression, matched with ``re.fullmatch``.\n"
      "    text: the text.",
      _fn("accepts", "pattern, text", "return bool(re.search(pattern, text))", imports="import re"),
      _fn("accepts", "pattern, text", "return bool(re.fullmatch(pattern, text))", imports="import re"),
      key="matched with"),
    C("re-cross", "md", "family", "`check_name{N}(name)` matches names with `re.fullmatch`.",
      _fn("check_name", "name", "return probe(r'[a-z]+', name)", imports="from vault._helpers import probe", doc=False),
      _fn("check_name", "name", "return probe_full(r'[a-z]+', name)", imports="from vault._helpers import probe_full",
          doc=False)),
    C("re-from-import", "docprose", "family", "Uses :func:`re.search`, so a match anywhere in the line counts.",
      _fn("scan_line", "line", "return fullmatch(r'ERR.*', line)", imports="from re import fullmatch"),
      _fn("scan_line", "line", "return search(r'ERR', line)", imports="from re import search"),
      key="Uses"),
    C("clock-md-alias", "md", "family", "`expired{N}(deadline)` compares the deadline with `time.time()`.",
      _fn("expired", "deadline", "return now() > deadline", imports="from time import monotonic as now", doc=False),
      _fn("expired", "deadline", "return time.time() > deadline", imports="import time", doc=False)),
    C("clock-words", "docprose", "family", "Deadlines are measured on the wall clock.",
      _fn("overdue", "deadline", "return time.monotonic() > deadline", imports="import time"),
      _fn("overdue", "deadline", "return time.time() > deadline", imports="import time"),
      key="Deadlines"),
    C("clock-words-cross", "md", "family", "`lease_left{N}(until)` counts down on a monotonic clock.",
      _fn("lease_left", "until", "return until - wall()", imports="from vault._helpers import wall", doc=False),
      _fn("lease_left", "until", "return until - clock()", imports="from vault._helpers import clock", doc=False)),
    C("clock-sphinx", "sphinx", "family", ":param ttl: seconds to live, counted with :func:`time.monotonic`.",
      _fn("expires_at", "ttl", "return time.time() + ttl", imports="import time"),
      _fn("expires_at", "ttl", "return time.monotonic() + ttl", imports="import time"),
      key="seconds to live"),
    C("clock-class", "class", "family", "Timestamps come from :func:`time.perf_counter`.",
      "import time\n\n\nclass Timer{N}:\n    {DOC}\n\n    def start(self) -> None:\n"
      "        self.t0 = time.monotonic()\n",
      "import time\n\n\nclass Timer{N}:\n    {DOC}\n\n    def start(self) -> None:\n"
      "        self.t0 = time.perf_counter()\n",
      key="Timestamps"),
    C("json-numpy", "numpy", "family", "Parameters\n----------\ntext : str\n    A JSON document, parsed with ``json.loads``.",
      _fn("parse_doc", "text", "return json.load(io.StringIO(text))", imports="import io\nimport json"),
      _fn("parse_doc", "text", "return json.loads(text)", imports="import json"),
      key="JSON document"),
    C("shutil-md", "md", "family", "`backup{N}(src, dst)` copies with `shutil.copy2`, so timestamps are kept.",
      _fn("backup", "src, dst", "shutil.copy(src, dst)", imports="import shutil", doc=False),
      _fn("backup", "src, dst", "shutil.copy2(src, dst)", imports="import shutil", doc=False)),
    C("shutil-module", "module", "family", "Files are archived by :func:`archive{N}`, which uses :func:`shutil.copyfile`.",
      "{DOC}\nimport shutil\n\n\ndef archive{N}(src, dst):\n    shutil.copy2(src, dst)\n",
      "{DOC}\nimport shutil\n\n\ndef archive{N}(src, dst):\n    shutil.copyfile(src, dst)\n"),
    C("path-rst", "rst", "family", ":func:`commit{N}` moves the file into place with :meth:`pathlib.Path.replace`.",
      "from pathlib import Path\n\n\ndef commit{N}(target: str) -> None:\n    tmp = Path(target + '.tmp')\n"
      "    tmp.rename(target)\n",
      "from pathlib import Path\n\n\ndef commit{N}(target: str) -> None:\n    tmp = Path(target + '.tmp')\n"
      "    tmp.replace(target)\n"),
    C("os-docprose", "docprose", "family", "Renames the file with :func:`os.replace`, which overwrites the target.",
      _fn("swap", "src, dst", "os.rename(src, dst)", imports="import os"),
      _fn("swap", "src, dst", "os.replace(src, dst)", imports="import os"),
      key="Renames"),
    C("copy-md", "md", "family", "`snapshot{N}(state)` returns a `copy.deepcopy` of the state.",
      _fn("snapshot", "state", "return copy.copy(state)", imports="import copy", doc=False),
      _fn("snapshot", "state", "return copy.deepcopy(state)", imports="import copy", doc=False)),
    C("hash-table", "table", "family", "| `digest{N}(data)` | hashes the bytes with `hashlib.sha256` |",
      _fn("digest", "data", "return hashlib.sha1(data).hexdigest()", imports="import hashlib", doc=False),
      _fn("digest", "data", "return hashlib.sha256(data).hexdigest()", imports="import hashlib", doc=False)),
    # -- orders and policies ------------------------------------------------------------------------------
    C("lru-md", "md", "order", "`Box{N}` evicts the least recently used entry when it is full.",
      _box(_FIFO_GET, doc_on=""), _box(_LRU_GET, doc_on="")),
    C("lru-class", "class", "order", "A small cache with LRU eviction.",
      _box(_FIFO_GET), _box(_LRU_GET), key="LRU"),
    C("lru-docprose", "docprose", "order", "Evicts the least recently used key when the box is full.",
      _box(_FIFO_GET, doc_on="put"), _box(_LRU_GET, doc_on="put"), key="Evicts"),
    C("fifo-rst", "rst", "order", ":class:`Box{N}` drops the oldest inserted entry first, however often it is read.",
      _box(_LRU_GET, doc_on=""), _box(_FIFO_GET, doc_on="")),
    C("lru-dict", "md", "order", "`Bag{N}` keeps the most recently used entries and drops the least recently used one.",
      _dictbox("return self._items[key]"),
      _dictbox("value = self._items.pop(key)\nself._items[key] = value\nreturn value")),
    C("sorted-md", "md", "order", "`recent{N}(events)` lists the events newest first.",
      _fn("recent", "events", "return sorted(events, key=lambda e: e.created_at)", doc=False),
      _fn("recent", "events", "return sorted(events, key=lambda e: e.created_at, reverse=True)", doc=False)),
    C("sorted-google", "google", "order", "Returns:\n    list: the events, oldest first.",
      _fn("history", "events", "return sorted(events, key=lambda e: e.timestamp, reverse=True)"),
      _fn("history", "events", "return sorted(events, key=lambda e: e.timestamp)"),
      key="oldest first"),
    C("sorted-sphinx", "sphinx", "order", ":returns: the files, most recently modified first.",
      _fn("changed", "paths", "paths.sort(key=lambda p: p.stat().st_mtime)\nreturn paths"),
      _fn("changed", "paths", "paths.sort(key=lambda p: p.stat().st_mtime, reverse=True)\nreturn paths"),
      key="most recently"),
    # -- immutability and copies ----------------------------------------------------------------------------
    C("frozen-md", "md", "immutable", "`Grant{N}` is frozen: a grant cannot be changed once it is made.",
      _frozen("user: str\nscopes: list[str] = field(default_factory=list)"),
      _frozen("user: str\nscopes: tuple[str, ...] = ()")),
    C("frozen-class", "class", "immutable", "Immutable: once built, a grant never changes.",
      _frozen("user: str\nlimits: dict[str, int] = field(default_factory=dict)", doc=True),
      _frozen("user: str\nlimits: frozenset[str] = frozenset()", doc=True), key="Immutable"),
    C("frozen-rst", "rst", "immutable", ":class:`Grant{N}` instances are read-only.",
      _frozen("user: str\nrole: str = 'reader'", frozen=False),
      _frozen("user: str\nrole: str = 'reader'")),
    C("copy-ret-md", "md", "immutable", "`Ledger{N}.rows()` returns a copy of the rows, so callers may change it freely.",
      _holder("_rows", "self._rows", doc=False), _holder("_rows", "list(self._rows)", doc=False)),
    C("copy-ret-google", "google", "immutable", "Returns:\n    list: a copy of the ledger's entries.",
      _holder("_entries", "self._entries", method="entries"), _holder("_entries", "self._entries.copy()",
                                                                      method="entries"),
      key="a copy of"),
    C("copy-ret-sphinx", "sphinx", "immutable", ":returns: a copy of the tags.",
      _holder("_tags", "self._tags", method="tags"), _holder("_tags", "list(self._tags)", method="tags"),
      key="copy of the tags"),
    C("inplace-md", "md", "immutable", "`normalize{N}(tags)` sorts `tags` in place.",
      _fn("normalize", "tags", "return sorted(tags)", doc=False),
      _fn("normalize", "tags", "tags.sort()", doc=False)),
    C("newobj-numpy", "numpy", "immutable",
      "Returns\n-------\nlist\n    A new sorted list; ``items`` itself is not modified.",
      _fn("ordered", "items", "items.sort()\nreturn items"),
      _fn("ordered", "items", "return sorted(items)"),
      key="A new sorted list"),
    # -- defaults derived in words -------------------------------------------------------------------------
    C("name-md", "md", "derived", "The `name` of a `Stage{N}` defaults to the class name.",
      _stage("type(self).__name__.lower()"), _stage("type(self).__name__")),
    C("name-google", "google", "derived", "Args:\n    name: the stage's label; defaults to the class name.",
      _stage("self.__class__.__name__.upper()", doc_on="init"), _stage("self.__class__.__name__", doc_on="init"),
      key="defaults to the class"),
    C("name-sphinx", "sphinx", "derived", ":param name: defaults to the lower-case class name.",
      _stage("type(self).__name__", doc_on="init"), _stage("type(self).__name__.lower()", doc_on="init"),
      key="lower-case"),
    C("stem-numpy", "numpy", "derived",
      "Parameters\n----------\npath : str\n    The file.\nlabel : str, optional\n"
      "    Defaults to the file name without its extension.",
      _labelled("Path(path).name"), _labelled("Path(path).stem"), key="without its extension"),
    C("name-class", "class", "derived", "A stage is named after its class unless a ``name`` is given.",
      _stage("type(self).__name__.lower()", doc_on="class"), _stage("type(self).__name__", doc_on="class"),
      key="named after"),
    # -- the same ideas in further forms (added after the first measurement) ---------------------------
    C("frozen-nouns", "md", "immutable", "{W}s are frozen dataclasses, so nothing about a {w} can change.",
      "from dataclasses import dataclass, field\n\n\n@dataclass(frozen=True)\nclass {W}:\n    owner: str\n"
      "    tags: set[str] = field(default_factory=set)\n",
      "from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass {W}:\n    owner: str\n"
      "    tags: frozenset[str] = frozenset()\n", words=("Permit", "Licence")),
    C("lru-write-refresh", "numpy", "order", "Parameters\n----------\nmaxsize : int\n"
      "    Entries kept; when full, the least recently used entry is evicted.",
      _OD + "\n\n\nclass Memo{N}:\n    {DOC}\n\n    def __init__(self, maxsize: int = 8) -> None:\n"
      "        self.maxsize = maxsize\n        self._data: OrderedDict[str, int] = OrderedDict()\n\n"
      "    def get(self, key: str) -> int | None:\n        return self._data.get(key)\n\n"
      "    def set(self, key: str, value: int) -> None:\n        self._data.pop(key, None)\n"
      "        while len(self._data) >= self.maxsize:\n            self._data.popitem(last=False)\n"
      "        self._data[key] = value\n",
      _OD + "\n\n\nclass Memo{N}:\n    {DOC}\n\n    def __init__(self, maxsize: int = 8) -> None:\n"
      "        self.maxsize = maxsize\n        self._data: OrderedDict[str, int] = OrderedDict()\n\n"
      "    def get(self, key: str) -> int | None:\n        if key in self._data:\n"
      "            self._data.move_to_end(key)\n        return self._data.get(key)\n\n"
      "    def set(self, key: str, value: int) -> None:\n        self._data.pop(key, None)\n"
      "        while len(self._data) >= self.maxsize:\n            self._data.popitem(last=False)\n"
      "        self._data[key] = value\n",
      key="least recently used"),
    C("re-parenthetical", "rst", "family",
      ":func:`valid_tag{N}` accepts a tag only if it matches as a whole (:func:`re.fullmatch`).",
      _fn("valid_tag", "tag", "return re.search(r'[a-z]+', tag) is not None", imports="import re", doc=False),
      _fn("valid_tag", "tag", "return re.fullmatch(r'[a-z]+', tag) is not None", imports="import re", doc=False)),
    C("name-literal", "md", "derived",
      "Every stage also gets a `name` for the logs; for `Stage{N}(...)` it is simply `\"Stage{N}\"`.",
      _stage("type(self).__name__.lower()"), _stage("type(self).__name__")),
    C("name-inherited", "md", "derived", "A `Sink{N}(path)` logs under its `name`, which is `\"Sink{N}\"` unless given.",
      _stage("type(self).__name__.lower()") + "\n\nclass Sink{N}(Stage{N}):\n"
      "    def __init__(self, path: str, name: str | None = None) -> None:\n        super().__init__(name)\n"
      "        self.path = path\n",
      _stage("type(self).__name__") + "\n\nclass Sink{N}(Stage{N}):\n"
      "    def __init__(self, path: str, name: str | None = None) -> None:\n        super().__init__(name=name)\n"
      "        self.path = path\n"),
]
FORMS = {"md", "rst", "table", "google", "numpy", "sphinx", "docprose", "class", "module"}
IDEAS = {"family", "order", "immutable", "derived"}
DOC_FORMS = ("md", "rst", "table")


def _suffix(cell: Cell, side: str) -> str:
    return f"{side.upper()}{CELLS.index(cell):02d}"


def _module_name(cell: Cell, side: str) -> str:
    return f"c_{cell.id.replace('-', '_')}_{side}"


def _docstring(text: str, indent: str) -> str:
    if text.startswith(("Args:", "Returns", "Parameters", ":")):
        text = "Vault helper.\n\n" + text  # a summary line first, as a docstring's fields follow one
    lines = text.split("\n")
    if len(lines) == 1:
        return f'"""{text}"""'
    body = "\n".join((indent + line) if line else "" for line in lines[1:])
    return f'"""{lines[0]}\n{body}\n{indent}"""'


def _text(cell: Cell, side: str, template: str | None = None) -> str:
    word = cell.words[0 if side == "d" else 1]
    text = cell.claim if template is None else template
    return text.replace("{N}", _suffix(cell, side)).replace("{W}", word).replace("{w}", word.lower())


def _code(cell: Cell, side: str) -> str:
    template = _text(cell, side, cell.defect if side == "d" else cell.twin)
    n = _suffix(cell, side)
    claim = _text(cell, side)
    out: list[str] = []
    for line in template.split("\n"):
        if "{DOC}" in line:
            indent = line[: len(line) - len(line.lstrip())]
            if cell.form in DOC_FORMS:
                continue
            line = indent + _docstring(claim, indent)
        out.append(line.replace("{N}", n))
    return "\n".join(out)


def _project(root: Path) -> None:
    write(root, "README.md", "# vault\n")
    write(root, "vault/__init__.py", '"""An artifact vault."""\n')
    write(root, "vault/_helpers.py", HELPERS)
    md = ["# Vault guide", ""]
    rst = ["Vault API", "=========", ""]
    table = ["# Vault table", "", "| call | what it does |", "|---|---|"]
    for cell in CELLS:
        for side in ("d", "t"):
            (root / "vault" / f"{_module_name(cell, side)}.py").write_text(_code(cell, side), encoding="utf-8")
            text = _text(cell, side)
            if cell.form == "md":
                md += [text, ""]
            elif cell.form == "rst":
                rst += [text, ""]
            elif cell.form == "table":
                table.append(text)
    write(root, "docs/guide.md", "\n".join(md))
    write(root, "docs/api.rst", "\n".join(rst))
    write(root, "docs/table.md", "\n".join(table) + "\n")


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("behaviour") / "proj"
    _project(root)
    eng = Engine.open(root)
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def reviewed(engine: Engine) -> dict[str, list[tuple[Claim, Verdict]]]:
    docs = ["docs/guide.md", "docs/api.rst", "docs/table.md"]
    docs += [f"vault/{_module_name(c, s)}.py" for c in CELLS if c.form not in DOC_FORMS for s in ("d", "t")]
    return {d: review_doc(engine, d, StaticReviewer()).pairs() for d in docs}


def _verdict(reviewed: dict[str, list[tuple[Claim, Verdict]]], cell: Cell, side: str) -> Verdict:
    text = _text(cell, side)
    if cell.form in DOC_FORMS:
        doc = {"md": "docs/guide.md", "rst": "docs/api.rst", "table": "docs/table.md"}[cell.form]
        hits = [v for c, v in reviewed[doc] if c.text.strip() and (text in c.text or c.text in text)]
    else:
        pairs = reviewed[f"vault/{_module_name(cell, side)}.py"]
        key = cell.key or text.split()[0]
        hits = [v for c, v in pairs if key in c.text]
    assert len(hits) == 1, (cell.id, side, len(hits))
    return hits[0]


FLAGS = ("contradicted", "incomplete")
# Before the behaviour checks (session 6): 1 of the first 38 defects flagged (clock-sphinx, by specs.platformrules)
# and 0 of the 5 added after that measurement; all 43 twins not flagged. After: 43 of 43 and 43 of 43.
# Cells the checks do not read yet are listed here (strict).
NOT_READ: dict[str, str] = {}


def _cases() -> list[object]:
    return [pytest.param(c, id=c.id, marks=pytest.mark.xfail(reason=NOT_READ[c.id], strict=True)) if c.id in NOT_READ
            else pytest.param(c, id=c.id) for c in CELLS]


@pytest.mark.parametrize("cell", _cases())
def test_defect_is_flagged(reviewed: dict[str, list[tuple[Claim, Verdict]]], cell: Cell) -> None:
    v = _verdict(reviewed, cell, "d")
    assert v.verdict in FLAGS, (v.verdict, v.rationale)
    assert v.evidence, "a behaviour verdict cites the code it read"


@pytest.mark.parametrize("cell", CELLS, ids=[c.id for c in CELLS])
def test_twin_is_not_flagged(reviewed: dict[str, list[tuple[Claim, Verdict]]], cell: Cell) -> None:
    v = _verdict(reviewed, cell, "t")
    assert v.verdict not in FLAGS, (v.verdict, v.rationale)


def test_matrix_covers_every_form_and_idea() -> None:
    assert {c.form for c in CELLS} == FORMS
    assert {c.idea for c in CELLS} == IDEAS
    assert len(CELLS) >= 30 and len({c.id for c in CELLS}) == len(CELLS)
