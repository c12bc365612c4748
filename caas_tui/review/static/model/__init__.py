"""The project's Python code as the static reviewer sees it: modules parsed once per run
(``project``), dotted names resolved to definitions (``resolve``, with ``modgetattr`` for a
module-level ``__getattr__``), signatures (``pysig``, ``synth`` for dataclasses), the string
prefixes code adds (``prefixes``), the bindings of a doc's earlier code blocks (``scope``) and
control flow (``flow``). Knows nothing of claims or findings.
"""
