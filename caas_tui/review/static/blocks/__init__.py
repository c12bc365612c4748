"""A doc's code blocks against the project: imports, attribute and method names and call
arguments (``codeblocks``), a bare call in prose judged as a block's (``barecalls``), and
result comments and doctest output (``blockresults``).
"""
