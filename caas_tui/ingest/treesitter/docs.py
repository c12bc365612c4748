"""Doc comments: which comments document a declaration, and their text without markers."""

from __future__ import annotations

import re

from caas_tui.ingest.treesitter.specs import DocStyle

_XML_PARAM = re.compile(r'<(param|typeparam)\s+name\s*=\s*"([^"]*)"\s*>', re.I)
_XML_RETURNS = re.compile(r"<returns\s*>", re.I)
_XML_EXCEPTION = re.compile(r'<exception\s+cref\s*=\s*"([^"]*)"\s*>', re.I)
_XML_REF = re.compile(r'<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword)\s*=\s*"([^"]*)"\s*/>', re.I)
_XML_TAG = re.compile(r"</?[A-Za-z][^>]*>")


def is_doc(text: str, style: DocStyle) -> bool:
    """Whether one comment, as written, is a doc comment in ``style``."""
    if style == "jsdoc":
        return text.startswith("/**") and not text.startswith("/**/")
    if style == "xml":
        return text.startswith("///") and not text.startswith("////")
    if style == "rust":
        return (text.startswith("///") and not text.startswith("////")) or (
            text.startswith("/**") and not text.startswith("/**/")
        )
    return text.startswith("//")  # go: any line comment directly above


def is_inner_doc(text: str) -> bool:
    """Rust ``//!`` / ``/*! */``: documents the enclosing module, not the next item."""
    return text.startswith(("//!", "/*!"))


def clean(raw: str, style: DocStyle) -> str:
    """The comment's prose: markers and leading stars removed, common indent kept out."""
    lines = raw.split("\n")
    out: list[str] = []
    if raw.lstrip().startswith("/*"):
        body = raw.strip()
        body = re.sub(r"^/\*[*!]?", "", body)
        body = re.sub(r"\*/$", "", body)
        for line in body.split("\n"):
            s = line.strip()
            if s.startswith("*"):
                s = s[1:]
                s = s[1:] if s.startswith(" ") else s
            out.append(s.rstrip())
    else:
        for line in lines:
            s = line.strip()
            for marker in ("///", "//!", "//"):
                if s.startswith(marker):
                    s = s[len(marker):]
                    break
            out.append(s[1:] if s.startswith(" ") else s)
    text = "\n".join(out).strip("\n")
    return _xml(text) if style == "xml" else text.strip()


def _xml(text: str) -> str:
    """C# XML doc tags rendered in the ``@param`` vocabulary the other languages use."""
    text = _XML_PARAM.sub(lambda m: f"@{m.group(1)} {m.group(2)} ", text)
    text = _XML_RETURNS.sub("@returns ", text)
    text = _XML_EXCEPTION.sub(lambda m: f"@throws {m.group(1)} ", text)
    text = _XML_REF.sub(lambda m: m.group(1), text)
    text = _XML_TAG.sub("", text)
    lines = [re.sub(r"[ \t]+", " ", ln).strip() for ln in text.split("\n")]
    return "\n".join(ln for ln in lines if ln)
