"""What a call gives back or raises in the stated case: the value stated for a missing case
(``retfallback``), why ``None`` cannot come back (``retnone``, ``missingnone``), raise claims
(``raiseclaims``) and the HTTP statuses a raise claim names (``statuswords``).
"""
