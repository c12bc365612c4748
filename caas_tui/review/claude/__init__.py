"""The Claude reviewer: the only code in ``caas_tui`` that imports ``anthropic``.

``reviewer`` runs the conversation, ``tools`` serves the model's search tools against
the engine, ``schema`` validates its answers and prices its usage. Importing this
package loads ``anthropic``: ``caas_tui.review`` never does (``select`` imports it
lazily). Independent of the static reviewer (an import-linter contract).
"""

from caas_tui.review.claude.reviewer import CANCELLED, DEFAULT_MODEL, MALFORMED, ClaudeReviewer
from caas_tui.review.claude.schema import Usage, UsageTally, price_for

__all__ = ["CANCELLED", "DEFAULT_MODEL", "MALFORMED", "ClaudeReviewer", "Usage", "UsageTally", "price_for"]
