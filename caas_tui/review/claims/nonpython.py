"""Dotted words in docs that are not Python names: file names (``app.py``, ``markdown.pl``),
and strings the doc uses as data (an endpoint ``'admin.index'``, an entry-point group
``[babel.extractors]``, a logger name). A reviewer may say such a word exists when it
resolves, but its absence from the code is no contradiction."""

from __future__ import annotations

import re

# Extensions of files a doc may name; the last segment of ``name.ext``.
FILE_EXTS = frozenset(
    {"py", "pyi", "pyc", "pyx", "pxd", "ipynb", "md", "rst", "txt", "toml", "json", "yaml", "yml", "cfg", "ini",
     "conf", "env", "html", "htm", "xml", "js", "mjs", "cjs", "ts", "jsx", "tsx", "css", "scss", "less", "png", "svg",
     "jpg", "jpeg", "gif", "ico", "csv", "tsv", "lock", "sh", "bash", "bat", "ps1", "zip", "gz", "tgz", "bz2", "xz",
     "tar", "whl", "egg", "exe", "dll", "so", "dylib", "log", "pdf", "pl", "pm", "rb", "php", "java", "kt", "go",
     "rs", "c", "h", "cc", "cpp", "hpp", "mo", "po", "pot", "db", "sqlite", "sqlite3", "j2", "jinja", "jinja2",
     "mako", "tmpl", "tpl", "wsgi", "com", "org", "net", "io", "dev"}
)
# A noun in front of the name that says what kind of non-Python thing it is.
_CLASSIFIER = re.compile(
    r"\b(?:entry[ -]?points?(?:\s+group)?|endpoints?|loggers?|logger\s+name|url|route|files?|file\s*names?"
    r"|directory|directories|folders?|environment\s+variables?|env\s+var(?:iable)?s?|settings?|config(?:uration)?"
    r"\s+(?:key|option|value)s?|headers?|templates?|tables?|(?:starts?|starting|begins?|beginning)\s+with"
    r"|prefix(?:ed)?(?:\s+with)?)\s*[\"'`]*$",
    re.IGNORECASE,
)
# The same nouns after the name: "the ``pyramid.includes`` setting", "``x.y`` configuration value".
_CLASSIFIER_AFTER = re.compile(
    r"^[\"'`]*\s*(?:(?:configuration|config|ini|environment)\s+)?(?:file\s+)?(?:settings?|options?|keys?|values?"
    r"|environment\s+variables?|entry[ -]?points?|endpoints?|loggers?|(?:template\s+)?(?:filters?|tags?|tests?))\b",
    re.IGNORECASE,
)
_SPAN_AT = re.compile(r"(`+)[^`]*\1|\S+")


def looks_like_file(name: str) -> bool:
    """``app.py``, ``setup.cfg``, ``markdown.pl``: a file name, by its last segment."""
    head, dot, ext = name.rpartition(".")
    return bool(dot and head) and ext.lower() in FILE_EXTS


def classified_as_non_python(text: str, start: int) -> bool:
    """"the entry point group ``x.y``", "the endpoint ``x.y``": a name the sentence calls data."""
    if start > 0 and _CLASSIFIER.search(text[:start].rstrip()):
        return True
    if start < 0:
        return False
    span = _SPAN_AT.match(text, start)
    return span is not None and bool(_CLASSIFIER_AFTER.match(text[span.end():].lstrip()))


def written_as_data(name: str, doc_text: str, *, quoted: bool = True) -> bool:
    """The doc itself writes ``name`` as data: a config section header (``[babel.extractors]``),
    an ini line (``pyramid.includes = ...``) or, with ``quoted``, a string literal
    (``url_for('admin.index')``)."""
    n = re.escape(name)
    # ``[section]`` headers and ``name = value`` lines of an ini file (a key, whatever it is in Python)
    pattern = rf"^\s*\[{n}\]\s*$|^\s*{n}\s*=(?!=)" + (rf"|[\"']{n}[\"']" if quoted else "")
    return bool(re.search(pattern, doc_text, re.MULTILINE))


def not_a_python_name(name: str, text: str, start: int, doc_text: str = "", *, qualified: bool = False) -> bool:
    """True when a dotted word is better read as a file name or a data string than as a symbol.
    ``qualified`` (it starts with a project package): a quoted ``'pkg.mod.fn'`` may be an import
    path (``mock.patch``, ``import_module``), so quotes alone do not make it data."""
    return looks_like_file(name) or classified_as_non_python(text, start) \
        or written_as_data(name, doc_text, quoted=not qualified)
