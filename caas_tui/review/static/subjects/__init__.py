"""Subjects a sentence inherits from its context when it names no API itself
(``bridge``: the pronoun or description in its subject slot; ``sources``: the earlier
sentence, code block, directive, heading or docstring owner that may supply it;
``binding``: the strict one-candidate binding and the re-read it feeds the checks)."""

from caas_tui.review.static.subjects.binding import Binding, bind_subject, inherited_findings, noted

__all__ = ["Binding", "bind_subject", "inherited_findings", "noted"]
