"""The static reviewer: checks claims against the project's own code, without a model.

``reviewer.StaticReviewer`` builds a ``context.ReviewContext`` per claim (``project``
reads modules, ``resolve`` finds definitions, ``pysig`` / ``synth`` give signatures) and
runs the checks (``names``, ``codeblocks``, ``factchecks`` with ``facts``, ``rettypes``,
``raisecheck``, ``prefixes``), turning ``findings`` into verdicts. Independent of the
Claude reviewer (an import-linter contract).
"""

from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.reviewer import StaticReviewer

__all__ = ["ReviewContext", "StaticReviewer"]
