"""Docs -> claims: sentences (``prose``), code blocks (``code``) and docstring field
entries (``field``), each with an exact 1-based line span and a stable id.

The id hashes the doc path, the whitespace-normalised text and how many times that
same text occurred earlier in the doc, so it survives edits elsewhere in the file.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import PurePosixPath

from caas_tui.limits import MAX_CLAIMS_PER_DOC
from caas_tui.models import Claim
from caas_tui.review.claims.blocks import Block, split_sentences
from caas_tui.review.claims.doccomments import source_blocks, source_language
from caas_tui.review.claims.docstrings import parse_field, python_blocks
from caas_tui.review.claims.markdown import markdown_blocks
from caas_tui.review.claims.mentions import code_block_names, symbols_and_spans, unique
from caas_tui.review.claims.rst import rst_blocks
from caas_tui.review.textutil import normalise_ws

MARKDOWN_EXTS = frozenset({".md", ".markdown", ".mdown", ".txt"})
RST_EXTS = frozenset({".rst", ".rest"})
PYTHON_EXTS = frozenset({".py", ".pyi"})
DOC_EXTS = MARKDOWN_EXTS | RST_EXTS
_CONTEXT_CHARS = 1500


def claim_id(doc_path: str, text: str, occurrence: int) -> str:
    key = f"{doc_path}\0{normalise_ws(text)}\0{occurrence}"
    return hashlib.sha1(key.encode("utf-8", "surrogatepass"), usedforsecurity=False).hexdigest()[:16]


def doc_language(path: str) -> str | None:
    """``markdown``, ``rst``, ``python`` or ``source`` (another code language's doc comments)
    for a path claims can be read from, else None."""
    ext = PurePosixPath(path).suffix.lower()
    if ext in MARKDOWN_EXTS:
        return "markdown"
    if ext in RST_EXTS:
        return "rst"
    if ext in PYTHON_EXTS:
        return "python"
    if source_language(path) is not None:
        return "source"
    return None


def blocks_for(path: str, text: str) -> list[Block]:
    language = doc_language(path)
    if language == "rst":
        return rst_blocks(text)
    if language == "python":
        return python_blocks(path, text)
    if language == "source":
        return source_blocks(path, text)
    # Markdown, plain text and anything unknown: the Markdown scanner copes with prose.
    return markdown_blocks(text)


def _context(block: Block) -> str:
    ctx = block.context[:_CONTEXT_CHARS]
    return f"{block.section}\n\n{ctx}" if block.section else ctx


def extract_claims(path: str, text: str) -> list[Claim]:
    """Every claim of a Markdown, reST or Python file, in document order: the first
    ``MAX_CLAIMS_PER_DOC`` of them (``extract_claims_counted`` says how many there were)."""
    return extract_claims_counted(path, text)[0]


def claims_limit_warning(path: str, found: int) -> str | None:
    """The one line every front end shows for a doc over the claims-per-doc limit."""
    if found <= MAX_CLAIMS_PER_DOC:
        return None
    return (f"{path}: {found} claims, over the limit of {MAX_CLAIMS_PER_DOC} per doc: "
            f"the last {found - MAX_CLAIMS_PER_DOC} were dropped, not reviewed")


def extract_claims_counted(path: str, text: str) -> tuple[list[Claim], int]:
    """The claims ``extract_claims`` returns, and how many the doc had before the limit.
    The cap sits here, under every caller (CLI, app, MCP, staleness, patch), so all of them
    see the same claims and ids."""
    drafts: list[tuple[int, int, str, str, Block]] = []  # start, end, text, kind, block
    for block in blocks_for(path, text):
        if block.kind == "prose":
            for sent in split_sentences(block.lines):
                drafts.append((sent.start, sent.end, sent.text, "prose", block))
        elif block.text and block.text.strip():
            drafts.append((block.start, block.end, block.text, block.kind, block))
    drafts.sort(key=lambda d: (d[0], d[1]))
    found = len(drafts)
    del drafts[MAX_CLAIMS_PER_DOC:]
    seen: Counter[str] = Counter()
    claims: list[Claim] = []
    for start, end, body, kind, block in drafts:
        norm = normalise_ws(body)
        occurrence = seen[norm]
        seen[norm] += 1
        if kind == "code":
            symbols = tuple(code_block_names(body))
            spans: tuple[str, ...] = (body,)
        else:
            symbols, spans = symbols_and_spans(body)
            if kind == "field":
                fact = parse_field(body)
                if fact and fact.role == "raises" and fact.name:
                    symbols = tuple(unique([fact.name, *symbols]))
        claims.append(
            Claim(
                id=claim_id(path, body, occurrence),
                doc_path=path,
                start_line=start,
                end_line=end,
                text=body,
                kind=kind,
                symbols=symbols,
                code_spans=spans,
                section=block.section,
                context=_context(block),
            )
        )
    return claims, found
