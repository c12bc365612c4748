"""The tree-sitter languages (TS/JS, Java, Kotlin, C#, Go, Rust): declarations as the reviewer
looks them up (``tsymbols``), parameters and whether a call fits them (``tssig``), calls in
docs (``polyglot``) and doc comments against their own declaration (``doccomments``).
"""
