"""Claim extraction: doc and docstring text -> ``Claim``s with exact line spans.

``extract`` picks the parser by extension (``markdown``, ``rst``, ``docstrings``), each
yielding ``blocks``; ``mentions`` finds the code names a claim talks about.
"""

from caas_tui.review.claims.extract import (
    DOC_EXTS,
    MARKDOWN_EXTS,
    PYTHON_EXTS,
    RST_EXTS,
    claim_id,
    doc_language,
    extract_claims,
)
from caas_tui.review.claims.mentions import Mention, code_block_names, find_mentions, symbols_and_spans

__all__ = [
    "DOC_EXTS", "MARKDOWN_EXTS", "PYTHON_EXTS", "RST_EXTS", "Mention", "claim_id", "code_block_names", "doc_language",
    "extract_claims", "find_mentions", "symbols_and_spans",
]
