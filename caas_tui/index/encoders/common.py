"""Helpers every encoder family shares: error lines, offline loads, model-folder digests, word splitting.

Kept apart from the families so none of them imports another's internals.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from caas_tui.errors import ModelError
from caas_tui.index.analysis import split_identifier

WEIGHTS_GLOB = "*.safetensors"
INSTALL_HINT = "pip install 'caas-tui[transformers]'"
ST_PREFIX = "st:"  # a sentence-transformers spec (encoders/st.py); here so the registry can name it unimported


def first_line(exc: BaseException) -> str:
    """``Type: first non-blank line`` of an exception, for one-line ModelErrors."""
    for line in str(exc).splitlines():
        if line.strip():
            return f"{type(exc).__name__}: {line.strip()[:200]}"
    return type(exc).__name__


def looks_like_path(spec: str) -> bool:
    """True for a spec that can only be a folder path, not a hub id."""
    # Hub ids are "name" or "org/name"; anything else that doesn't exist is a typo'd
    # path, and passing it on would make the loaders silently try the hub.
    return (
        spec.startswith((".", "~"))
        or "\\" in spec
        or spec.count("/") > 1
        or Path(spec).is_absolute()
    )


CACHE_ENV = "CAAS_TUI_CACHE"  # replaces $XDG_CACHE_HOME/caas-tui


def user_cache() -> Path:
    """The one folder caas-tui writes outside a project (model facts, ONNX exports):
    ``$CAAS_TUI_CACHE``, else ``$XDG_CACHE_HOME/caas-tui``, else ``~/.cache/caas-tui``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "caas-tui"


def _cache_file() -> Path:
    return user_cache() / "model-facts.json"


def stamp_cached(kind: str, files: Sequence[Path], compute: Callable[[], Any]) -> Any:
    """``compute()`` (a JSON value derived from ``files``' bytes), remembered in the user's
    cache directory under the files' stamps (inode, size, mtime, ctime:
    :func:`caas_tui.index.integrity.stamp`) and reused while they all still match.

    For facts about a model folder that cost a one-shot command a tenth of its time (the
    weights' digest, the tokenizer's vocabulary statistics). Files changed in the last
    moments are not cached (``integrity.settled``); an unreadable or unwritable cache only
    means computing again. OSError from reading ``files`` propagates.
    """
    from caas_tui.index.integrity import settled, stamp

    raw = [stamp(path) for path in files]
    stamps = [[str(path.resolve()), *st] for path, st in zip(files, raw, strict=True)]
    where = f"{kind}:{stamps[0][0] if stamps else ''}"  # one entry per file and kind: a new model replaces it
    cache = _cache_file()
    try:
        known = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    if not isinstance(known, dict):
        known = {}
    entry = known.get(where)
    if isinstance(entry, dict) and entry.get("stamps") == stamps and "value" in entry:
        return entry["value"]
    value = compute()
    if [stamp(path) for path in files] == raw and all(settled(st) for st in raw):
        known[where] = {"stamps": stamps, "value": value}
        tmp = cache.with_name(f".{cache.name}.{os.getpid()}.tmp")
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(known), encoding="utf-8")
            os.replace(tmp, cache)
        except OSError:
            tmp.unlink(missing_ok=True)
    return value


def stamp_cached_text(kind: str, path: Path, compute: Callable[[], str | None]) -> str | None:
    """:func:`stamp_cached` for a large text derived from one file (the tokenizer's vocabulary
    as lines): kept in a file of its own, ``<cache>/<kind>-<hash of path>.txt``, a header line
    of the stamps and the text as is, so reading it back parses no JSON string of it and
    the small facts file stays small. ``None`` (nothing to keep) is remembered too.
    """
    from caas_tui.index.integrity import settled, stamp

    raw = stamp(path)
    header = json.dumps({"kind": kind, "stamps": [str(path.resolve()), *raw]})
    cache = user_cache() / f"{kind}-{hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]}.txt"
    try:
        first, sep, rest = cache.read_text(encoding="utf-8").partition("\n")
        if sep and first == header:
            return None if rest == _NO_TEXT else rest[1:]
    except (OSError, UnicodeDecodeError):
        pass
    value = compute()
    if stamp(path) == raw and settled(raw) and (value is None or not value.startswith(_NO_TEXT)):
        tmp = cache.with_name(f".{cache.name}.{os.getpid()}.tmp")
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(f"{header}\n{_NO_TEXT if value is None else ' ' + value}", encoding="utf-8")
            os.replace(tmp, cache)
        except OSError:
            tmp.unlink(missing_ok=True)
    return value


_NO_TEXT = "-"  # after the header: compute() returned None (a kept text is written after one space)


def weights_digest(folder: Path, spec: str | None = None) -> str:
    """First 12 hex digits of sha256 over the folder's ``*.safetensors`` files.

    A folder has one weights file in practice, so this is that file's sha256. Only
    the top level and one below are searched (model2vec and sentence-transformers
    layouts), so pointing at a big tree by mistake stays cheap. Hashing the shipped
    model's 15 MB was a tenth of a one-shot search: the digest is :func:`stamp_cached`.
    """
    name = f"embedding model {spec or str(folder)!r}"
    files = sorted([*folder.glob(WEIGHTS_GLOB), *folder.glob(f"*/{WEIGHTS_GLOB}")])
    if not files:
        raise ModelError(f"{name}: no model weights (*.safetensors) in {folder}")

    def digest() -> str:
        hasher = hashlib.sha256()
        for path in files:
            with path.open("rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    hasher.update(block)
        return hasher.hexdigest()[:12]

    try:
        return str(stamp_cached("sha256", files, digest))
    except OSError as exc:
        raise ModelError(f"{name}: cannot read {exc.filename} ({exc.strerror})") from exc


# A camelCase name: an ASCII alphanumeric run starting with a lower-case letter, not glued to
# other (any script) letters or digits, with a case change inside (``aB``, ``a1B``, ``aBCd``).
# Underscores and dots end it: WordPiece already splits on them (``get_userName`` -> user name).
# PascalCase names (``OrderedDict``, ``HTTPServer``) stay whole: splitting them too lost
# 0.006-0.023 hybrid MRR@10 against camelCase alone on stdlib, rxjs, java.base and date-fns.
_WORD_RE = re.compile(
    r"(?<![^\W_])(?=[a-z])(?=[A-Za-z0-9]*(?:[a-z0-9][A-Z]|[A-Z][A-Z][a-z]))[A-Za-z0-9]+(?![^\W_])"
)
CAMEL_WORDS_TAG = "camel1"  # in the model id of an encoder that splits: bump when the split changes


@lru_cache(maxsize=65536)
def _camel_parts(word: str) -> str:
    return " ".join(split_identifier(word))


def camel_words(text: str) -> str:
    """``text`` with each camelCase identifier replaced by its words.

    A WordPiece vocabulary learnt on prose cuts ``toPromise`` into ``top ##rom ##ise``;
    ``to promise`` embeds as the words it means. Replacing beat keeping the identifier
    next to its words (fewer tokens under the model's max_length, less noise; measured
    on stdlib, rxjs, date-fns and java.base). Words come out lower-cased (the split of the
    lexical analyzer, :func:`~caas_tui.index.analysis.split_identifier`): for the uncased
    tokenizers this is for, that changes nothing. Other text is returned as is.

    >>> camel_words("HTTPServer.toPromise(getX2, createHTTPServer, vec3)")
    'HTTPServer.to promise(get x2, create http server, vec3)'
    """
    return _WORD_RE.sub(lambda m: _camel_parts(m[0]), text)


@contextmanager
def hub_offline() -> Iterator[None]:
    """Forbid hub access while loading a local folder, then restore the old setting.

    huggingface_hub reads ``HF_HUB_OFFLINE`` once at import, so the cached constant
    is flipped too. Process-wide for the duration of the load.
    """
    from huggingface_hub import constants  # a model2vec dependency

    old_env = os.environ.get("HF_HUB_OFFLINE")
    old_const = constants.HF_HUB_OFFLINE
    os.environ["HF_HUB_OFFLINE"] = "1"
    constants.HF_HUB_OFFLINE = True
    try:
        yield
    finally:
        constants.HF_HUB_OFFLINE = old_const
        if old_env is None:
            os.environ.pop("HF_HUB_OFFLINE", None)
        else:
            os.environ["HF_HUB_OFFLINE"] = old_env


@contextmanager
def quiet_transformers() -> Iterator[None]:
    """No load report or progress bar from transformers while loading (they land in the TUI/CLI)."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:
        yield
        return
    verbosity, bars = hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        hf_logging.set_verbosity(verbosity)
        if bars:
            hf_logging.enable_progress_bar()


def import_sentence_transformer() -> Any:
    """The ``SentenceTransformer`` class; ImportError naming the extra when it is not installed."""
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise ImportError(f"sentence-transformers is not installed ({INSTALL_HINT})") from exc
    return SentenceTransformer
