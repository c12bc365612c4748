"""The reader's setup a doc shows outside Python, replayed into the sandbox in document order.

A reader who follows a guide has run its shell ``export NAME=value`` lines and saved the files it
shows under a name ("save this as `app.toml`:", a fence titled ``title="app.toml"``, an reST
``:caption: app.toml``) before running the Python that comes after; the sandbox starts clean. Only
what the doc shows is replayed, as it shows it: a value that expands something (``$HOME``,
`` `cmd` ``) or is a placeholder the reader fills in (``<your-token>``) is not invented, and a file
name is kept inside the run's working directory (no absolute path, no ``..``).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from caas_tui.review.claims.blocks import Block
from caas_tui.review.claims.extract import blocks_for
from caas_tui.review.execute.blocks import DOCTEST_LANGS, PYTHON_LANGS, SHELL_LANGS, RunBlock
from caas_tui.review.execute.intent import is_placeholder
from caas_tui.review.execute.runenv import SANDBOX_VARIABLES
from caas_tui.review.textutil import split_lines

StepKind = Literal["env", "unset", "file"]
_LANG = re.compile(r"^code block \(([^)\s]+)")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PROMPT = re.compile(r"^\s*(?:\$|%|>|PS[^>]*>)\s+")
_PROMPTED = frozenset({"console", "shell-session", "shellsession", "doscon"})  # lines without a prompt are output
_PS_ENV = re.compile(r"^\$env:([A-Za-z_]\w*)\s*=\s*(?:\"([^\"$`]*)\"|'([^']*)'|(\S+))\s*$", re.IGNORECASE)
_FENCE = re.compile(r"^\s*(?:`{3,}|~{3,})\s*(.*)$")
_TITLE = re.compile(r"""\b(?:title|filename|file|name)\s*=\s*["']?([^"'\s}]+)""", re.IGNORECASE)
_LANG_FILE = re.compile(r"^[\w+-]+:(\S+)$")  # ```python:app.py
_OPTION = re.compile(r"^\s+:([\w-]+):\s*(.*)$")
_DIRECTIVE = re.compile(r"^\s*\.\. [\w:-]+::")
_BACKTICKED = re.compile(r"`+([^`\s]+)`+")
_ENV_CAPTION = re.compile(r"\benv(?:ironment)?[\s-]+var(?:iable)?s?\b|\benvironment\b", re.IGNORECASE)
_ASSIGNMENT = re.compile(r"^\s*(?:export\s+)?[A-Za-z_]\w*=")
_ALONE = re.compile(r"(?:#{1,6}\s+)?(?:\*\*|\*|`+)?([^`*\s:]+?)(?:\*\*|\*|`+)?:?")
_IN_FILE = re.compile(r"\b(?:in|into|to|of)\s+`", re.IGNORECASE)
# the words a caption uses to say the block below is a file's content, not a command or an output
_CAPTION_CUE = re.compile(r"\b(?:save[sd]?|saving|writes?|writing|written|creat(?:e|es|ed|ing)|put|place|add|adding|"
                          r"stores?|named|called|files?|contents?|containing|contains|looks? like|with|this|following)\b",
                          re.IGNORECASE)
# what a shown file is named like: a data or config format, or a dotfile (``.env``)
_FILE_EXTS = frozenset({"toml", "yaml", "yml", "json", "jsonl", "ndjson", "ini", "cfg", "conf", "env", "txt", "csv",
                        "tsv", "xml", "properties", "py", "sql", "html", "md", "rst", "sh", "lock"})
_FILE_NAME = re.compile(r"^(?:[\w-][\w.-]*/)*(?:[\w-][\w.-]*\.([A-Za-z0-9]{1,12})|\.[A-Za-z][\w.-]*)$")


@dataclass(frozen=True, slots=True)
class SetupStep:
    line: int  # 1-based doc line the step is shown at
    kind: StepKind
    name: str  # a variable, or a file path relative to the working directory
    value: str = ""  # the variable's value or the file's text


@dataclass(frozen=True, slots=True)
class DocSetup:
    steps: tuple[SetupStep, ...]
    not_replayed: tuple[tuple[str, str], ...]  # (variable, why its value was not replayed)

    def variables(self, upto: int) -> frozenset[str]:
        """The variables the replay has set by doc line ``upto``."""
        live: set[str] = set()
        for s in self.steps:
            if s.line <= upto and s.kind in ("env", "unset"):
                (live.add if s.kind == "env" else live.discard)(s.name)
        return frozenset(live)

    def files(self, upto: int | None = None) -> frozenset[str]:
        """The files the replay has written (by doc line ``upto``)."""
        return frozenset(s.name for s in self.steps if s.kind == "file" and (upto is None or s.line <= upto))


def safe_name(name: str, lang: str = "") -> bool:
    """A file name the replay may write: relative, no ``..``, named like a file (``lang``'s own extension too)."""
    m = _FILE_NAME.match(name)
    if m is None or ".." in name.split("/") or name.startswith(("/", "~")):
        return False
    ext = (m.group(1) or "").lower()
    return not ext or ext in _FILE_EXTS or ext == lang.lower()


def _opener(lines: Sequence[str], start: int) -> tuple[int, str, dict[str, str]]:
    """The 0-based line opening the block starting at 1-based ``start``, its info string (Markdown) and
    its options (reST): walks up over blank lines and ``:option:`` lines."""
    i = start - 2
    while i >= 0 and not lines[i].strip():
        i -= 1
    options: dict[str, str] = {}
    while i >= 0 and (m := _OPTION.match(lines[i])):
        options[m.group(1).lower()] = m.group(2).strip()
        i -= 1
    if i < 0:
        return 0, "", options
    fence = _FENCE.match(lines[i])
    return i, fence.group(1).strip() if fence else "", options


def _caption(lines: Sequence[str], opener: int) -> str:
    """The paragraph right above the block's opener (an reST ``::`` paragraph is the opener itself)."""
    text = lines[opener] if 0 <= opener < len(lines) else ""
    out: list[str] = []
    if text.rstrip().endswith("::") and not _DIRECTIVE.match(text):
        i = opener
    else:
        i = opener - 1
        while i >= 0 and not lines[i].strip():
            i -= 1
    while i >= 0 and lines[i].strip() and not _FENCE.match(lines[i]) and not _DIRECTIVE.match(lines[i]):
        out.append(lines[i].strip())
        i -= 1
    return " ".join(reversed(out))


def _fits(name: str, lang: str, text: str) -> bool:
    """Whether a block can be the content of the file a caption names: Python only as a ``.py`` file,
    shell commands only as a script or a dotfile, a session with prompts never (it is a transcript)."""
    ext = name.rsplit(".", 1)[-1].lower() if "." in name.lstrip(".") else ""
    if lang in DOCTEST_LANGS or text.lstrip().startswith((">>>", "$ ")):
        return False
    if lang in PYTHON_LANGS:
        return ext == "py"
    if lang in SHELL_LANGS:
        return ext in ("sh", "env") or name.startswith(".")
    return True


def _named_file(block: Block, lines: Sequence[str], lang: str) -> str | None:
    """The file name the doc gives the block: in the fence's info string, an reST caption, or the
    caption above it ("save this as `app.toml`:", "with this `config.yaml`", "In `app.toml`:"), whose
    last sentence names one file and says the block is its content."""
    opener, info, options = _opener(lines, block.start)
    for m in (_TITLE.search(info), _LANG_FILE.match(info.split()[0]) if info else None):
        if m and safe_name(m.group(1), lang):
            return m.group(1)
    caption = options.get("caption", "").strip("`* ")
    if caption and safe_name(caption, lang):
        return caption
    para = _caption(lines, opener)
    last = re.split(r"(?<=[.!?])\s+", para)[-1].strip() if para else ""
    alone = _ALONE.fullmatch(last)  # a heading or a bold line that is the file's name and nothing else
    if alone and safe_name(alone.group(1), lang) and _fits(alone.group(1), lang, block.text or ""):
        return alone.group(1)
    names = {n for n in _BACKTICKED.findall(last) if safe_name(n, lang)}
    if len(names) != 1:
        return None
    name = names.pop()
    colon = last.rstrip(":").rstrip() != last
    # "In `app.toml`:" or "`app.toml`:" alone need the colon; a cue ("save", "this", "with") says it anyway
    cued = _CAPTION_CUE.search(last) or (colon and (_IN_FILE.search(last) or _BACKTICKED.fullmatch(last.rstrip(": "))))
    return name if cued and _fits(name, lang, block.text or "") else None


def _commands(line: str) -> list[list[str]]:
    """A shell line's simple commands as word lists (``a=1 && export b`` -> two)."""
    lex = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lex.whitespace_split = True
    out: list[list[str]] = [[]]
    try:
        for tok in lex:
            if tok and set(tok) <= set(";&|"):
                out.append([])
            else:
                out[-1].append(tok)
    except ValueError:  # an unclosed quote: nothing a reader's shell would run either
        return []
    return [c for c in out if c]


class _Shell:
    """The exports of the doc's shell lines, in order."""

    def __init__(self) -> None:
        self.steps: list[SetupStep] = []
        self.skipped: dict[str, str] = {}
        self.assigned: dict[str, str] = {}  # ``NAME=value`` alone: a shell variable, exported by ``export NAME``

    def value(self, line: int, name: str, value: str, raw: str) -> None:
        if not _NAME.match(name) or name in SANDBOX_VARIABLES:
            return
        if "$" in raw or "`" in raw or re.search(r"%\w+%", raw):
            self.skipped[name] = f"its value expands the reader's shell ({raw.strip()})"
        elif is_placeholder(value):
            self.skipped[name] = f"its value is a placeholder the reader fills in ({value!r})"
        else:
            self.steps.append(SetupStep(line, "env", name, value))
            self.skipped.pop(name, None)

    def line(self, no: int, text: str) -> None:
        ps = _PS_ENV.match(text.strip())
        if ps:
            value = next(v for v in ps.groups()[1:] if v is not None)
            self.value(no, ps.group(1), value, value)
            return
        for words in _commands(text):
            head, args = words[0], words[1:]
            if head in ("export", "set") and args:
                for arg in args:
                    name, eq, value = arg.partition("=")
                    if eq:
                        self.value(no, name, value, self._raw(text, name))
                    elif head == "export" and name in self.assigned:
                        self.value(no, name, self.assigned[name], self.assigned[name])
            elif head == "setenv" and len(args) >= 1:
                self.value(no, args[0], " ".join(args[1:]), self._raw(text, args[0]))
            elif head == "unset":
                self.steps += [SetupStep(no, "unset", a) for a in args if _NAME.match(a)]
            elif all("=" in w and _NAME.match(w.partition("=")[0]) for w in words):
                self.assigned.update(w.partition("=")[::2] for w in words)  # ``A=b cmd`` is no export: not here

    @staticmethod
    def _raw(text: str, name: str) -> str:
        """What the line writes after ``NAME=`` (or ``setenv NAME``), before the shell reads it."""
        m = re.search(rf"(?<![\w$]){re.escape(name)}(?=[=\s])", text)
        return text[m.end():] if m else text


def _lang(block: Block) -> str:
    m = _LANG.match(block.context)
    return m.group(1).lower() if m else ""


def doc_setup(doc_path: str, doc_text: str) -> DocSetup:
    """The environment and files the doc has the reader set up outside Python, in document order."""
    lines = split_lines(doc_text)
    shell = _Shell()
    files: list[SetupStep] = []
    for block in blocks_for(doc_path, doc_text):
        if block.kind != "code" or not block.text:
            continue
        lang = _lang(block)
        name = _named_file(block, lines, lang)
        if name is not None:
            files.append(SetupStep(block.start, "file", name, block.text + "\n"))
            continue
        body = block.text.split("\n")
        if lang not in PYTHON_LANGS and _ENV_CAPTION.search(_caption(lines, _opener(lines, block.start)[0])) and all(
                _ASSIGNMENT.match(b) for b in body if b.strip() and not b.lstrip().startswith("#")):
            # "Set these environment variables:" over ``NAME=value`` lines: what the reader exports
            for k, text in enumerate(body):
                if _ASSIGNMENT.match(text):
                    shell.line(block.start + k, "export " + re.sub(r"^\s*export\s+", "", text))
            continue
        prompted = lang in _PROMPTED or (not lang and any(_PROMPT.match(b) for b in body))
        if lang not in SHELL_LANGS and not prompted:
            continue
        for k, text in enumerate(body):
            m = _PROMPT.match(text)
            if prompted and m is None:
                continue  # printed output
            shell.line(block.start + k, text[m.end():] if m else text)
    steps = sorted([*shell.steps, *files], key=lambda s: s.line)
    return DocSetup(tuple(steps), tuple(shell.skipped.items()))


def attach(plan: Sequence[RunBlock], setup: DocSetup) -> dict[int, dict[str, object]]:
    """Per runnable block (by plan index), the steps to replay just before it: each step goes with
    the first block that runs after the doc shows it."""
    out: dict[int, dict[str, object]] = {}
    left = list(setup.steps)
    for i, block in enumerate(plan):
        if block.mode == "skip":
            continue
        due = [s for s in left if s.line <= block.claim.start_line]
        if not due:
            continue
        left = left[len(due):]
        out[i] = {"steps": [[s.kind, s.name, s.value] for s in due]}
    return out
