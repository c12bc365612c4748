"""Claims against what the code builds on: the upstream page a claim names or sits under
(``upstream``), rules that conflict by their words (``specwords``, ``specpolarity``),
numberings (``specmaps``), the Python platform behaviour the code relies on
(``platformrules``) and a wrapper's defaults against the library it wraps (``wrapdefaults``).
"""
