"""The project's own tests as evidence: what they say a function does (``testfacts``) and the
claims judged against them (``testchecks``).
"""
