"""Run a doc's code in a sandbox and turn failures into evidence (reviewer ``execute``).

    ExecuteReviewer(python=None, limits=Limits()).review(claims, engine) -> list[Verdict]
    outcome_of(verdict) -> ExecutionView | None
    pick_python(root, configured) -> PythonChoice
"""

from caas_tui.review.execute.outcome import ExecutionView, outcome_of
from caas_tui.review.execute.pythons import PythonChoice, pick_python
from caas_tui.review.execute.reviewer import REVIEWER, ExecuteReviewer
from caas_tui.review.execute.sandbox import Limits

__all__ = ["REVIEWER", "ExecuteReviewer", "ExecutionView", "Limits", "PythonChoice", "outcome_of", "pick_python"]
