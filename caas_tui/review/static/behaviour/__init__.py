"""Behaviour claims read against the code: the callable a claim says is used against what the
subject calls of the same family (``families``, ``usedcalls``), eviction and sort orders
(``orders``), immutability and copies (``mutability``), and defaults derived in words
(``derived``). Each decides only when the code read is certain; otherwise the claim stays
``unverified``.
"""
