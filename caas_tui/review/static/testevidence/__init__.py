"""The project's own tests as evidence: what they say a function does (``testfacts``: asserted
literal calls; ``testruns``: each call's outcome, raises E or returns, with its input and the
test's name; ``testinputs``: repeated keys in literal input), the outcome a claim states under
its condition (``statedoutcomes``), and the claims judged against them (``testchecks``,
``testoutcomes``).
"""
