"""A Whoosh segment writer that does less per posting, for the lexical build's hot loop.

Whoosh's ``SegmentWriter`` puts every posting (one per term and document) into one
list and sorts all of them at commit; it then looks up each posting's field length
on disk, one seek and read per posting. On the stdlib (26k chunks, 1.1M postings)
the sort and the lookups were ~35% of the commit (CPU 9.2-11.8 s -> 7.9-9.9 s,
then 5.2-5.8 s without zlib; feeding unchanged). Here postings are grouped by
field and term as they arrive, so only the distinct terms (~110k) are sorted, and the
field lengths are read once per field into memory.

A document's frequency-only fields can come as term counts made elsewhere
(:meth:`FastSegmentWriter.add_chunk`: a build's chunking worker counts them), and each
term's postings are written to its posting blocks a block at a time instead of one
call chain per posting. The postings written are the same (tests/test_coldidx_whoosh.py).
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Callable, Iterator, Mapping
from pickle import dumps
from typing import Any

from whoosh.codec.whoosh3 import COMPRESSION_MIN_SIZE, WHOOSH3_HEADER_MAGIC, W3Codec, W3PostingsWriter, W3TermInfo
from whoosh.system import pack_int, pack_uint, pack_ushort
from whoosh.util.numeric import length_to_byte
from whoosh.writing import PostingPool, SegmentWriter

# Above this many buffered postings the pool hands over to Whoosh's own, which spills
# sorted runs to disk: memory stays bounded on a corpus far bigger than the stdlib.
MAX_POSTINGS = 2_500_000

Posting = tuple[str, bytes, int, float, bytes | None]  # field, term, docnum, weight, value
Entry = tuple[int, float, bytes | None]  # one posting of a known field and term: docnum, weight, value
TermCounts = Mapping[bytes, int]  # a field's terms (UTF-8) and how often each occurs in one document

_PACKED = [pack_uint(n) for n in range(256)]  # a Frequency posting's value, for the common counts


class TermPool:
    """Whoosh's posting-pool interface (``add``, ``iter_postings``, ``cleanup``) over
    posting lists keyed by field, then term. A list stays in docnum order without
    sorting: the writer numbers documents in the order it adds them, and merged-in
    segments (``add_reader``) take numbers after every document added before them."""

    def __init__(self, spill: Callable[[], PostingPool]) -> None:
        self._fields: dict[str, dict[bytes, list[Entry]]] = {}
        self._count = 0
        self._make_spill = spill
        self._spill: PostingPool | None = None

    @property
    def spilled(self) -> bool:
        return self._spill is not None

    def add(self, item: Posting) -> None:
        if self._spill is not None:
            self._spill.add(item)
            return
        fieldname, btext, docnum, weight, value = item
        terms = self._fields.get(fieldname)
        if terms is None:
            terms = self._fields[fieldname] = {}
        found = terms.get(btext)
        if found is None:
            terms[btext] = [(docnum, weight, value)]
        else:
            found.append((docnum, weight, value))
        self._count += 1
        if self._count > MAX_POSTINGS:
            self._hand_over()

    def add_counts(self, fieldname: str, docnum: int, counts: TermCounts, boost: float) -> None:
        """The postings of one document's frequency-only field: what ``Frequency.word_values``
        yields for its terms (weight ``count * boost``, value ``pack_uint(count)``)."""
        if self._spill is not None:
            for btext, n in counts.items():
                self._spill.add((fieldname, btext, docnum, n * boost, _PACKED[n] if n < 256 else pack_uint(n)))
            return
        terms = self._fields.get(fieldname)
        if terms is None:
            terms = self._fields[fieldname] = {}
        get = terms.get
        for btext, n in counts.items():
            entry = (docnum, n * boost, _PACKED[n] if n < 256 else pack_uint(n))
            found = get(btext)
            if found is None:
                terms[btext] = [entry]
            else:
                found.append(entry)
        self._count += len(counts)
        if self._count > MAX_POSTINGS:
            self._hand_over()

    def _hand_over(self) -> None:
        spill = self._make_spill()
        for item in self.iter_postings():
            spill.add(item)
        self._fields.clear()
        self._spill = spill

    def runs(self) -> Iterator[tuple[str, Iterator[tuple[bytes, list[Entry]]]]]:
        """Per field in name order, its terms in byte order with their postings (not spilled only)."""
        for fieldname in sorted(self._fields):
            terms = self._fields[fieldname]
            yield fieldname, ((btext, terms[btext]) for btext in sorted(terms))

    def iter_postings(self) -> Iterator[Posting]:
        if self._spill is not None:
            return iter(self._spill.iter_postings())
        return ((fieldname, btext, docnum, weight, value) for fieldname, terms in self.runs()
                for btext, entries in terms for docnum, weight, value in entries)

    def cleanup(self) -> None:
        self._fields.clear()
        if self._spill is not None:
            self._spill.cleanup()


class _MemoryLengths:
    """The per-document reader's field lengths, read once per field (Whoosh's own
    accessor seeks and reads the column file for every posting)."""

    def __init__(self, reader: Any, doc_count: int) -> None:
        self._reader = reader
        self._doc_count = doc_count

    def doc_field_length_reader(self, fieldname: str, default: int = 0) -> Callable[[int], int]:
        get = self._reader.doc_field_length_reader(fieldname, default)
        # every document of the segment has a row: the writer numbers added and merged-in ones alike
        return [get(docnum) for docnum in range(self._doc_count)].__getitem__


class FastSegmentWriter(SegmentWriter):
    """``SegmentWriter`` with a :class:`TermPool`, in-memory field lengths and posting
    blocks left uncompressed: zlib was a third of the rest of the commit, and queries
    read uncompressed blocks as fast or faster (same answers; the stdlib's lexical
    index grows from 25 to 38 MB). Whoosh's reader honours each block's own flag, so
    an index written compressed still opens."""

    def __init__(self, ix: Any, *, limitmb: int, **kwargs: Any) -> None:
        kwargs.setdefault("codec", W3Codec(compression=0))
        super().__init__(ix, limitmb=limitmb, **kwargs)
        tempstorage, segment = self._tempstorage, self.newsegment
        self.pool: TermPool = TermPool(lambda: PostingPool(tempstorage, segment, limitmb=limitmb))  # type: ignore[assignment]

    def add_chunk(self, fields: Mapping[str, str], counts: Mapping[str, TermCounts]) -> None:
        """``add_document(**fields)`` (no boosts), with the postings of each field in ``counts``
        given as its term counts. Only for fields whose own ``index`` makes ``Frequency``
        postings of those counts, unboosted per document (the caller's ``CodeText`` fields)."""
        self._check_state()
        schema, pool, perdoc, docnum = self.schema, self.pool, self.perdocwriter, self.docnum
        perdoc.start_doc(docnum)
        try:
            for fieldname in sorted(fields):
                value = fields[fieldname]
                if value is None:
                    continue
                field = schema[fieldname]
                if field.separate_spelling() or field.vector:
                    raise ValueError(f"field {fieldname!r}: spelling and vectors take add_document")
                length = 0
                found = counts.get(fieldname)
                if found is not None:
                    pool.add_counts(fieldname, docnum, found, field.format.field_boost)
                    if field.scorable:
                        length = sum(found.values())
                elif field.indexed:
                    scorable = field.scorable
                    for tbytes, freq, weight, vbytes in field.index(value):
                        if scorable:
                            length += freq
                        pool.add((fieldname, tbytes, docnum, weight * 1.0, vbytes))  # add_document's float weight
                perdoc.add_field(fieldname, field, value if field.stored else None, length)
                if field.column_type:
                    perdoc.add_column_value(fieldname, field.column_type, field.to_column_value(value))
        except ValueError:
            perdoc.cancel_doc()
            raise
        perdoc.finish_doc()
        self._added = True
        self.docnum += 1

    def _flush_segment(self) -> None:
        self.perdocwriter.close()
        pdr = self.per_document_reader() if self.codec.length_stats else None
        lengths = _MemoryLengths(pdr, self.docnum) if pdr is not None else None
        if self.pool.spilled:
            self.fieldwriter.add_postings(self.schema, lengths, self.pool.iter_postings())
        else:
            self._write_runs(lengths)
        self.fieldwriter.close()
        if pdr is not None:
            pdr.close()

    def _write_runs(self, lengths: _MemoryLengths | None) -> None:
        """``FieldWriter.add_postings`` of the pool, a term's postings at a time."""
        writer = self.fieldwriter
        for fieldname, terms in self.pool.runs():
            writer.start_field(fieldname, self.schema[fieldname])
            length_of = lengths.doc_field_length_reader(fieldname) if lengths is not None else (lambda _d: 0)
            postings = writer._postwriter
            small = _SMALL_TERMS and type(postings) is W3PostingsWriter
            limit = postings._blocklimit if small else 0
            for btext, entries in terms:
                if len(entries) <= limit:
                    _write_small_term(writer, btext, entries, length_of)
                    continue
                writer.start_term(btext)
                _add_entries(writer._postwriter, entries, length_of)
                writer.finish_term()
            writer.finish_field()


# Most terms (108k of the stdlib's 109k; 64k have one posting) fill one posting block: their
# block, term info and term-table row are written in one pass, not through the posting
# writer's per-term calls (tests/test_coldidx_whoosh.py compares the files byte for byte).
_SMALL_TERMS = True


def _write_small_term(writer: Any, btext: bytes, entries: list[Entry], length_of: Callable[[int], int | None]) -> None:
    """``start_term``, ``add_posting`` of each entry and ``finish_term`` of a term whose
    postings fit one block of Whoosh's own posting writer: the same bytes."""
    postings = writer._postwriter
    postfile = postings._postfile
    start = postfile.tell()
    ids = [e[0] for e in entries]
    given = [e[1] for e in entries]
    weights = array("f", given)
    top = max(given)
    top = top if top > 0 else 0  # the block's running maximum starts at 0
    known = [n for n in map(length_of, ids) if n]
    low, high = (min(known), max(known)) if known else (None, 0)
    # the block (_write_block(last=True)), its minified ids, weights and values
    deltas, base = [], 0
    for n in ids:
        deltas.append(n - base)
        base = n
    if all(w == 1.0 for w in weights):
        mini_weights: Any = None
    elif all(w == weights[0] for w in weights):
        mini_weights = weights[0]
    else:
        mini_weights = tuple(weights)
    values = [e[2] for e in entries if e[2]]
    fixed = writer._fieldobj.format.fixed_value_size()
    mini_values: Any = tuple(values) if fixed is None or fixed < 0 else None if fixed == 0 else b"".join(values)
    data = dumps((tuple(deltas), mini_weights, mini_values), 2)
    comp = postings._compression if len(data) >= COMPRESSION_MIN_SIZE else 0
    if comp:
        data = zlib.compress(data, comp)
    info = dumps((len(ids), ids[-1], top, comp, length_to_byte(low), length_to_byte(high)), 2)
    block = WHOOSH3_HEADER_MAGIC + pack_int(-(len(info) + len(data))) + info + data  # one write, the same bytes
    postfile.write(block)
    terminfo = W3TermInfo(weight=sum(weights), df=len(ids), minlength=low, maxlength=high, maxweight=top,
                          minid=ids[0], maxid=ids[-1])
    terminfo.set_extent(start, len(block))
    writer._tindex.add(pack_ushort(writer._fieldid) + btext, terminfo.to_bytes())


def _add_entries(postings: Any, entries: list[Entry], length_of: Callable[[int], int | None]) -> None:
    """``add_posting`` of each entry, in order: a block's worth of arrays and statistics at a
    time for Whoosh's own posting writer (blocks start, and are written, where it would)."""
    if type(postings) is not W3PostingsWriter:
        for docnum, weight, value in entries:
            postings.add_posting(docnum, weight, value or b"", length_of(docnum))
        return
    limit = postings._blocklimit
    for start in range(0, len(entries), limit):
        part = entries[start : start + limit]
        if len(postings._ids) >= limit:
            postings._write_block()
        ids = [e[0] for e in part]
        weights = [e[1] for e in part]
        postings._ids.extend(ids)
        postings._weights.extend(weights)
        top = max(weights)
        if top > postings._maxweight:
            postings._maxweight = top
        postings._values.extend([e[2] for e in part if e[2]])
        known = [n for n in map(length_of, ids) if n]
        if known:
            low, high = min(known), max(known)
            if postings._minlength is None or low < postings._minlength:
                postings._minlength = low
            if high > postings._maxlength:
                postings._maxlength = high
