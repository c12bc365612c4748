"""API that real projects drop between releases: members named in words (``driftnames``),
``:param:`` fields under hand-written object descriptions (``driftfields``), names nothing
resolves (``driftunknown``), removed functions and decorators (``removednames``) and
deprecation notes for names already gone (``removednotes``).
"""
