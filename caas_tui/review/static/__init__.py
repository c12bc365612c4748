"""The static reviewer: checks claims against the project's own code, without a model.

``reviewer.StaticReviewer`` builds a ``context.ReviewContext`` per claim and runs the checks,
turning their ``findings`` into verdicts; ``factchecks`` runs the checks of one function's
stated facts (field entries, defaults, returns, raises). The checks live in sub-packages by
responsibility, each importing only those below it (an import-linter layers contract):
``actions`` > ``factchecks`` > ``kinds``, ``drift``, ``testevidence`` > ``blocks`` >
``outcomes`` > ``defaults``, ``specs`` > ``referents`` > ``naming``, ``codefacts``,
``languages`` > ``context``, ``findings`` > ``model`` (the project's code), ``wording`` (a
claim's words). Independent of the Claude reviewer (an import-linter contract).
"""

from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.reviewer import StaticReviewer

__all__ = ["ReviewContext", "StaticReviewer"]
