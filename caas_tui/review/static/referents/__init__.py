"""Whom a sentence is about when it names no callable itself: a docstring's owner or the
symbol a reference heading names (``subjects``), what the doc's section is about
(``sectionnames``), and whether a claim about a class is about constructing it
(``ctorclaims``).
"""
