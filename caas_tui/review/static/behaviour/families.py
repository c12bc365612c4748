"""Families of standard-library callables that do the same job in different ways, one table.

A claim that names one member ("matched with :func:`re.fullmatch`") is wrong when the code
calls another member of its family and none of its group: ``re.search`` finds a match
anywhere, ``re.fullmatch`` only the whole string. Members of one group are the same
behaviour under another name (``time.time`` / ``time.time_ns``; ``os.rename`` /
``Path.rename``), so either holds. Names are canonical (``re.search``, ``pathlib.Path.replace``),
as the resolver gives them for the code's own imports and aliases (``from time import
monotonic as now``).

Methods called on an object are read for the receivers ``RECEIVERS`` names: a local or
module name made by ``pathlib.Path(...)`` or ``re.compile(...)``, or a parameter annotated
``Path``.
"""

from __future__ import annotations

# family -> groups; a group is a tuple of interchangeable canonical names.
FAMILIES: dict[str, tuple[tuple[str, ...], ...]] = {
    "regular-expression match": (("re.search",), ("re.match",), ("re.fullmatch",)),
    "clock": (("time.time", "time.time_ns", "datetime.datetime.now", "datetime.datetime.utcnow",
               "datetime.datetime.today"),
              ("time.monotonic", "time.monotonic_ns"), ("time.perf_counter", "time.perf_counter_ns"),
              ("time.process_time", "time.process_time_ns"), ("time.thread_time", "time.thread_time_ns")),
    "JSON reading": (("json.load",), ("json.loads",)),
    "JSON writing": (("json.dump",), ("json.dumps",)),
    "pickle reading": (("pickle.load",), ("pickle.loads",)),
    "pickle writing": (("pickle.dump",), ("pickle.dumps",)),
    "file copy": (("shutil.copy",), ("shutil.copy2",), ("shutil.copyfile",), ("shutil.copyfileobj",)),
    "rename": (("os.rename", "pathlib.Path.rename"), ("os.replace", "pathlib.Path.replace"), ("shutil.move",)),
    "object copy": (("copy.copy",), ("copy.deepcopy",)),
    "hash": tuple((f"hashlib.{h}",) for h in ("md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3_224",
                                               "sha3_256", "sha3_384", "sha3_512", "blake2b", "blake2s")),
    "subprocess": (("subprocess.run",), ("subprocess.call",), ("subprocess.check_call",),
                   ("subprocess.check_output",), ("subprocess.Popen",)),
    "temporary file": (("tempfile.mkstemp",), ("tempfile.mkdtemp",), ("tempfile.NamedTemporaryFile",),
                       ("tempfile.TemporaryFile",), ("tempfile.TemporaryDirectory",), ("tempfile.SpooledTemporaryFile",)),
    "compression": (("gzip.compress", "gzip.open", "gzip.GzipFile"), ("bz2.compress", "bz2.open", "bz2.BZ2File"),
                    ("lzma.compress", "lzma.open", "lzma.LZMAFile"), ("zlib.compress", "zlib.compressobj")),
    "base64 encoding": (("base64.b64encode", "base64.standard_b64encode"), ("base64.urlsafe_b64encode",),
                        ("base64.b32encode",), ("base64.b16encode",), ("base64.b85encode",), ("base64.a85encode",)),
    "base64 decoding": (("base64.b64decode", "base64.standard_b64decode"), ("base64.urlsafe_b64decode",),
                        ("base64.b32decode",), ("base64.b16decode",), ("base64.b85decode",), ("base64.a85decode",)),
    "URL quoting": (("urllib.parse.quote",), ("urllib.parse.quote_plus",)),
    "URL unquoting": (("urllib.parse.unquote",), ("urllib.parse.unquote_plus",)),
    "glob match": (("fnmatch.fnmatch",), ("fnmatch.fnmatchcase",)),
    "bisection": (("bisect.bisect_left",), ("bisect.bisect_right", "bisect.bisect")),
    "sorted insertion": (("bisect.insort_left",), ("bisect.insort_right", "bisect.insort")),
    "heap selection": (("heapq.nlargest",), ("heapq.nsmallest",)),
    "lock": (("threading.Lock",), ("threading.RLock",)),
    "absolute path": (("os.path.realpath", "pathlib.Path.resolve"), ("os.path.abspath", "pathlib.Path.absolute")),
    "sleep": (("time.sleep",), ("asyncio.sleep",)),
    "random bytes": (("os.urandom", "secrets.token_bytes"), ("random.randbytes",)),
    "random choice": (("secrets.choice", "random.SystemRandom.choice"), ("random.choice",)),
}
# Constructors whose result's methods are family members: ``Path(p).rename``, ``re.compile(p).search``.
RECEIVERS: dict[str, str] = {"pathlib.Path": "pathlib.Path", "pathlib.PurePath": "pathlib.Path", "re.compile": "re"}

# Words that name a group without naming a callable: "on the wall clock", "a monotonic clock".
# (pattern, family, the groups the words allow)
WORDS: tuple[tuple[str, str, tuple[int, ...]], ...] = (
    (r"wall[- ]clock|system\s+clock|unix\s+(?:time|timestamp)|(?:seconds\s+)?since\s+the\s+epoch", "clock", (0,)),
    (r"monotonic(?:\s+clock|ally)?|steady\s+clock", "clock", (1, 2)),
    (r"performance\s+counter|high[- ]resolution\s+(?:clock|timer|counter)", "clock", (2,)),
    (r"(?:cpu|processor|process)\s+time", "clock", (3,)),
)

_FAMILY_OF: dict[str, tuple[str, int]] = {
    name: (family, i) for family, groups in FAMILIES.items() for i, group in enumerate(groups) for name in group
}
# Short names of members (``search``, ``rename``): what a call on an unknown object may be.
SHORT_NAMES: frozenset[str] = frozenset(name.rsplit(".", 1)[-1] for name in _FAMILY_OF)


def family_of(name: str) -> tuple[str, int] | None:
    """(family, group index) of a canonical callable name, or None."""
    return _FAMILY_OF.get(name)


def members(family: str) -> tuple[tuple[str, ...], ...]:
    return FAMILIES[family]
