"""The Whoosh searcher reads its compound segment in place (issue 20): its sub-files hold no
copy of the segment, read exactly what Whoosh's own ``BufferFile`` reads, and searches
through the mapped storage rank exactly as through Whoosh's plain ``FileStorage``."""

from __future__ import annotations

import mmap
import pickle
import random
from array import array
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path

import pytest
from whoosh import index as whoosh_index
from whoosh.filedb.structfile import BufferFile, StructFile
from whoosh.util.varints import varint

from caas_tui.index.lexical import WhooshLexical
from caas_tui.index.whoosh_lazy import mapped_storage_class
from caas_tui.models import Chunk, Kind

WORDS = ["socket", "timeout", "retry", "backoff", "parse", "config", "decode", "json", "queue", "lock", "thread", "http", "header", "cookie", "path", "join", "split", "read", "write", "cache", "token", "stream", "buffer", "flush", "close", "open"]


def _chunks(seed: int, n: int) -> list[Chunk]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        kind: Kind = ("code", "test", "doc")[i % 3]
        words = [rng.choice(WORDS) for _ in range(rng.randint(3, 40))]
        name = f"{rng.choice(WORDS)}_{rng.choice(WORDS)}"
        text = f"def {name}(self):\n    " + " ".join(words)
        out.append(Chunk(id=f"c{seed}-{i}", kind=kind, path=f"src/m{i % 7}/{name}.py", start_line=1,
                         end_line=2, symbol=f"m{i % 7}.{name}", text=text, mtime=0.0, sha256="0" * 64))
    return out


@pytest.fixture()
def built(tmp_path: Path) -> Iterator[Path]:
    """Two commits (two segments unless merged) and a delete: the reader sees deleted docs too."""
    directory = tmp_path / "lexical"
    index = WhooshLexical.create(directory)
    index.add(_chunks(1, 300))
    index.commit()
    index.add(_chunks(2, 120))
    index.delete([f"c1-{i}" for i in range(0, 300, 11)])
    index.commit()
    index.close()
    yield directory


def _struct_files(root: object, depth: int = 4) -> list[StructFile]:
    """The StructFiles reachable from a reader through attributes (and lists, dicts) of its objects."""
    found: dict[int, StructFile] = {}
    seen: set[int] = set()
    todo = [(root, 0)]
    while todo:
        obj, d = todo.pop()
        if id(obj) in seen or d > depth:
            continue
        seen.add(id(obj))
        if isinstance(obj, StructFile):
            found[id(obj)] = obj
        if isinstance(obj, (list, tuple)):
            todo.extend((x, d + 1) for x in obj)
        elif isinstance(obj, dict):
            todo.extend((x, d + 1) for x in obj.values())
        elif hasattr(obj, "__dict__") and not isinstance(obj, type):
            todo.extend((x, d + 1) for x in vars(obj).values())
    return list(found.values())


def test_searcher_sub_files_hold_no_copy_of_the_segment(built: Path) -> None:
    index = WhooshLexical.open(built)
    try:
        files = _struct_files(index._searcher.reader())  # noqa: SLF001  # the searcher's own files
        assert files, "no files found under the reader: the walk is broken"
        copies = [f for f in files if isinstance(f.file, BytesIO)]
        assert not copies, f"sub-files copied into memory: {copies}"
        assert any(isinstance(f.file, mmap.mmap) for f in files)
    finally:
        index.close()


def test_results_equal_plain_storage(built: Path) -> None:
    mapped = WhooshLexical.open(built)
    plain = WhooshLexical(whoosh_index.open_dir(str(built)), built)  # Whoosh's own mmap + BytesIO path
    try:
        assert mapped.doc_count() == plain.doc_count()
        rng = random.Random(7)
        queries = [" ".join(rng.sample(WORDS, rng.randint(1, 3))) for _ in range(40)]
        queries += ["m3.socket_timeout", "src/m2", "no_such_word_here", "dec"]
        kind_sets: tuple[list[Kind] | None, ...] = (None, ["code"], ["doc", "test"])
        for q in queries:
            for kinds in kind_sets:
                for prefix_last in (False, True):
                    got = mapped.search(q, 25, kinds, prefix_last=prefix_last)
                    assert got == plain.search(q, 25, kinds, prefix_last=prefix_last), (q, kinds, prefix_last)
    finally:
        mapped.close()
        plain.close()


@pytest.mark.parametrize("offset", [0, 1, 4095, 4096, 5000])
def test_mapped_sub_file_reads_as_buffer_file(tmp_path: Path, offset: int) -> None:
    """The same calls on the same bytes give the same answers (unaligned offsets included)."""
    body = (varint(300) + b"\x00\x00\x01\x02" + pickle.dumps({"a": [1, 2]}) + b"line one\nline two\n"
            + array("i", range(50)).tobytes() + bytes(range(256)) * 20)
    (tmp_path / "s.seg").write_bytes(b"x" * offset + body + b"TRAILER")
    segment = mapped_storage_class()(str(tmp_path), readonly=True).open_file("s.seg")
    try:
        mapped = segment.subset(offset, len(body))  # as CompoundStorage opens a sub-file
        assert isinstance(mapped.file, mmap.mmap)
        plain = BufferFile(memoryview(body))
        for f in (mapped, plain):
            assert f.read_varint() == 300
        assert mapped.read_int() == plain.read_int()
        assert mapped.read_pickle() == plain.read_pickle() == {"a": [1, 2]}
        assert mapped.tell() == plain.tell()
        assert mapped.read(9) == plain.read(9)
        assert mapped.get(3, 20) == plain.get(3, 20)
        assert mapped.tell() == plain.tell()  # get does not move the position
        assert mapped.get_array(0, "B", 30) == plain.get_array(0, "B", 30)
        assert mapped.seek(-10, 2) == len(body) - 10
        plain.seek(-10, 2)
        assert mapped.read() == plain.read() == body[-10:]  # nothing past the sub-file (no TRAILER)
        assert mapped.read(5) == plain.read(5) == b""
        mapped.seek(4)
        plain.seek(4)
        mapped.seek(3, 1)
        plain.seek(3, 1)
        assert mapped.tell() == plain.tell() == 7
        assert mapped.get(len(body) - 4, 100) == plain.get(len(body) - 4, 100)
        mapped.close()
        plain.close()
    finally:
        segment.close()
