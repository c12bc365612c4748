"""ONNX Runtime int8 backend for sentence-transformers models (``st:...&backend=onnx-int8``).

Why: re-ranking 50 candidates with all-MiniLM-L6-v2 costs ~350 ms in torch fp32 on two
cores; the same BERT graph in onnxruntime with dynamically quantized int8 weights (per
channel) costs ~160 ms, with cosine agreement ~0.99 against fp32.

On first use the model's transformer is exported to ONNX (torch's TorchScript exporter)
and quantized (``onnxruntime.quantization.quantize_dynamic``); that step needs torch and
sentence-transformers (the ``caas-tui[transformers]`` extra). The result is cached in
:func:`cache_root`, keyed by the weights digest, max_length and the exporter versions, so
later loads need only onnxruntime and tokenizers (no torch import). Files are written
atomically (temp file + rename); a cached file that will not load is exported again once.

Only the layout Transformer -> mean Pooling (-> Normalize) is supported: pooling (mean
over the attention mask) and L2 normalisation are done here in numpy, reproducing
sentence-transformers' output (cosine ~1.0 for the fp32 graph).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import json
import logging
import os
import shutil
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from caas_tui.errors import ModelError
from caas_tui.index.encoders.common import (
    INSTALL_HINT,
    first_line,
    import_sentence_transformer,
    quiet_transformers,
    user_cache,
)
from caas_tui.index.vectors import normalize_rows

BACKEND = "onnx-int8"
RECIPE = "v1:torchscript-opset17:int8-dynamic-per-channel"  # change when the export recipe changes
_VERSIONED = ("torch", "transformers", "onnx", "onnxruntime")  # their upgrades may change the graph
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")

log = logging.getLogger(__name__)
Exporter = Callable[[Path, Path, bool], None]  # (model folder, output .onnx, quantize)


class Session(Protocol):
    """The part of ``onnxruntime.InferenceSession`` used here (tests inject fakes)."""

    def get_inputs(self) -> list[Any]: ...

    def run(self, output_names: Any, input_feed: dict[str, np.ndarray]) -> list[np.ndarray]: ...


def require_onnxruntime(spec: str) -> None:
    """Without onnxruntime: the usual one-line ModelError naming the extra."""
    try:
        import onnxruntime  # noqa: F401  (probe only; ort_session imports it for real)
    except ImportError as exc:
        raise ModelError(f"embedding model {spec!r} with backend={BACKEND} needs onnxruntime: {INSTALL_HINT}") from exc


def cache_root() -> Path:
    """The ``onnx/`` folder of :func:`~caas_tui.index.encoders.common.user_cache`."""
    return user_cache() / "onnx"


def _version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "-"


def exporter_versions() -> dict[str, str]:
    """Installed versions from package metadata: no import, so a warm cache never loads torch."""
    return {name: _version(name) for name in _VERSIONED}


def cache_path(label: str, digest: str, max_length: int, *, quantize: bool = True, root: Path | None = None,
               versions: dict[str, str] | None = None) -> Path:
    """Where the exported model for these weights, max_length and exporter versions lives."""
    key = json.dumps({"recipe": RECIPE, "digest": digest, "max_length": max_length, "quantize": quantize,
                      "versions": versions if versions is not None else exporter_versions()}, sort_keys=True)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in label)[:40] or "model"
    kind = "int8" if quantize else "fp32"
    name = f"{safe}-{digest}-L{max_length}-{hashlib.sha256(key.encode()).hexdigest()[:12]}.{kind}.onnx"
    return (root or cache_root()) / name


def _json(path: Path, kind: type = dict) -> Any:
    """The file's JSON if it is a ``kind``, else an empty one (missing or broken files alike)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return kind()
    return data if isinstance(data, kind) else kind()


def check_layout(folder: Path, spec: str, max_length: int | None = None) -> int:
    """Refuse models whose pooling this backend does not reproduce; returns the tokens per text
    (``max_length``, else the model's default, capped by its position embeddings).

    Pooling happens here, not in the graph: only Transformer -> mean Pooling (-> Normalize) is
    reproduced (a folder without ``modules.json`` gets mean pooling from sentence-transformers too).
    """
    modules = [m for m in _json(folder / "modules.json", list) if isinstance(m, dict)]
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules]
    pooling_dir = next((str(m.get("path") or "") for m, k in zip(modules, kinds, strict=True) if k == "Pooling"), "1_Pooling")
    pooling = _json(folder / pooling_dir / "config.json")
    modes = sorted(k for k, v in pooling.items() if k.startswith("pooling_mode") and v is True)
    layout_ok = not kinds or (kinds[:2] == ["Transformer", "Pooling"] and set(kinds[2:]) <= {"Normalize"})
    if not layout_ok or modes not in ([], ["pooling_mode_mean_tokens"]):
        raise ModelError(f"embedding model {spec!r}: backend={BACKEND} supports Transformer + mean pooling "
                         f"(+ Normalize) models only; use backend=torch")
    st_max = _json(folder / "sentence_bert_config.json").get("max_seq_length")
    positions = _json(folder / "config.json").get("max_position_embeddings")
    length = max_length or int(st_max or _json(folder / "tokenizer_config.json").get("model_max_length") or 512)
    return min(length, int(positions)) if positions else length


class _Tokenizer:
    """The model folder's fast tokenizer (``tokenizer.json``), padded per batch and truncated."""

    def __init__(self, folder: Path, max_length: int) -> None:
        path = folder / "tokenizer.json"
        if path.is_file():
            from tokenizers import Tokenizer

            tok = Tokenizer.from_file(str(path))
            pad = tok.padding or {}
            pad_token = pad.get("pad_token") or "[PAD]"
            pad_id = pad.get("pad_id", tok.token_to_id(pad_token) or 0)
            tok.no_padding()  # tokenizer.json may pad to a fixed length (128 for MiniLM): pad to the longest
            tok.enable_padding(pad_id=pad_id, pad_token=pad_token, pad_type_id=pad.get("pad_type_id", 0))
            tok.enable_truncation(max_length)
            self._fast: Any = tok
            self._hf: Any = None
        else:  # no tokenizer.json: the transformers tokenizer sentence-transformers would use
            from transformers import AutoTokenizer

            self._fast, self._hf = None, AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
        self.max_length = max_length

    def __call__(self, texts: list[str]) -> dict[str, np.ndarray]:
        if self._fast is not None:
            enc = self._fast.encode_batch(texts)
            return {"input_ids": np.array([e.ids for e in enc], dtype=np.int64),
                    "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64),
                    "token_type_ids": np.array([e.type_ids for e in enc], dtype=np.int64)}
        out = self._hf(texts, padding=True, truncation="longest_first", max_length=self.max_length,
                       return_tensors="np")
        return {k: np.asarray(v, dtype=np.int64) for k, v in out.items() if k in _INPUTS}


def ort_session(path: Path) -> Session:
    """A CPU onnxruntime session: all cores inside an op (like torch), ops one after another.
    Thread spinning stays on: ~15% faster on a quiet machine, though slower tails on a busy one."""
    import onnxruntime as ort

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    options = ort.SessionOptions()
    options.intra_op_num_threads = max(1, cores or 1)
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3  # errors only: its warnings would land in the TUI/CLI
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


@contextmanager
def _quiet_export() -> Iterator[None]:
    """torch warns that its TorchScript exporter is deprecated, and the quantizer logs advice to the
    root logger; neither is for the user (the export recipe is pinned by RECIPE and tested)."""
    root = logging.getLogger()
    level = root.level
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        root.setLevel(logging.ERROR)
        try:
            yield
        finally:
            root.setLevel(level)


def export_onnx(folder: Path, out: Path, quantize: bool = True) -> None:
    """Export the folder's transformer (``last_hidden_state``) to ``out``, int8 if ``quantize``."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with quiet_transformers():
        st = import_sentence_transformer()(str(folder), device="cpu", local_files_only=True)
    bert = st[0].auto_model.eval()
    names = [n for n in _INPUTS if n in inspect.signature(bert.forward).parameters]

    class LastHidden(torch.nn.Module):  # positional inputs, one tensor out: what the exporter traces
        def __init__(self, model: Any) -> None:
            super().__init__()
            self.model = model

        def forward(self, *inputs: Any) -> Any:
            return self.model(**dict(zip(names, inputs, strict=True))).last_hidden_state

    # A padded example: the traced graph then keeps the attention-mask path (an all-ones mask
    # could let transformers drop it outside tracing; the graph must serve padded batches).
    sample = st.tokenizer(["a", "a longer example sentence"], padding=True, return_tensors="pt")
    args = tuple(sample[n] if n in sample else torch.zeros_like(sample["input_ids"]) for n in names)
    work = Path(tempfile.mkdtemp(prefix=".export-", dir=out.parent))
    try:
        fp32 = work / "model.fp32.onnx"
        with _quiet_export(), torch.no_grad():
            torch.onnx.export(LastHidden(bert), args, str(fp32), input_names=names,
                              output_names=["last_hidden_state"], opset_version=17, dynamo=False,
                              dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*names, "last_hidden_state"]})
            if quantize:
                # per channel: cosine agreement with fp32 ~0.99 instead of ~0.95 per tensor, same speed
                quantize_dynamic(str(fp32), str(work / "model.onnx"), weight_type=QuantType.QInt8, per_channel=True)
            else:
                fp32.rename(work / "model.onnx")
        os.replace(work / "model.onnx", out)  # atomic: readers see no file or a whole one
    finally:
        shutil.rmtree(work, ignore_errors=True)


class OnnxEncoder:
    """A sentence-transformers model run by onnxruntime: an :class:`~caas_tui.index.protocols.Encoder`."""

    def __init__(self, session: Session, tokenizer: Callable[[list[str]], dict[str, np.ndarray]], model_id: str,
                 *, query_prefix: str = "", passage_prefix: str = "", batch_size: int = 32) -> None:
        self._session = session
        self._tokenize = tokenizer
        self._feeds = [i.name for i in session.get_inputs()]
        self.model_id = model_id
        self.dims = int(self._embed(["x"]).shape[1])  # one tiny run: the graph's last axis may be symbolic
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.batch_size = batch_size

    def _embed(self, texts: list[str]) -> np.ndarray:
        batch = self._tokenize(texts)
        hidden = self._session.run(None, {n: batch[n] if n in batch else np.zeros_like(batch["input_ids"])
                                          for n in self._feeds})[0]
        mask = batch["attention_mask"].astype(np.float32)
        summed = np.einsum("bsd,bs->bd", hidden.astype(np.float32, copy=False), mask)
        return summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)  # sentence-transformers' mean pooling

    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, self.dims), dtype=np.float32)
        prefix = self.query_prefix if query else self.passage_prefix
        batch = [prefix + t for t in texts]
        out = np.empty((len(batch), self.dims), dtype=np.float32)
        # longest first, as sentence-transformers does, so each batch pads to similar lengths
        order = sorted(range(len(batch)), key=lambda i: -len(batch[i]))
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            out[idx] = self._embed([batch[i] for i in idx])
        return normalize_rows(out)

    def __repr__(self) -> str:
        return f"OnnxEncoder({self.model_id!r}, dims={self.dims})"


_lock = threading.Lock()
_sessions: dict[str, Session] = {}  # cache file -> session, one load per process


def _session_for(path: Path, folder: Path, spec: str, quantize: bool, exporter: Exporter,
                 make_session: Callable[[Path], Session]) -> Session:
    """Load the cached model, exporting it first when missing, and once more when it will not load."""
    if path.is_file():
        try:
            return make_session(path)
        except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own types for a truncated file
            log.warning("cached ONNX model %s will not load (%s); exporting it again", path.name, first_line(exc))
            path.unlink(missing_ok=True)
    else:
        log.info("exporting %s to ONNX (%s; once, cached in %s)", folder, BACKEND, path.parent)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        exporter(folder, path, quantize)
        return make_session(path)
    except ModelError:
        raise
    except ImportError as exc:
        raise ModelError(f"embedding model {spec!r}: the first use of backend={BACKEND} exports the model "
                         f"and needs torch and sentence-transformers: {INSTALL_HINT}") from exc
    except Exception as exc:  # torch, onnx, onnxruntime and the file system all raise their own types
        raise ModelError(f"cannot export embedding model {spec!r} to ONNX: {first_line(exc)}") from exc


def load_onnx_encoder(folder: Path, *, spec: str, model_id: str, digest: str, max_length: int | None = None,
                      query_prefix: str = "", passage_prefix: str = "", batch_size: int = 32,
                      quantize: bool = True, root: Path | None = None, exporter: Exporter | None = None,
                      make_session: Callable[[Path], Session] | None = None) -> OnnxEncoder:
    """The encoder for a local sentence-transformers folder; every failure is a one-line ModelError.

    ``quantize=False`` keeps fp32 weights (for checking the export against sentence-transformers);
    ``exporter`` and ``make_session`` are the model edges tests replace.
    """
    if make_session is None:
        require_onnxruntime(spec)
    length = check_layout(folder, spec, max_length)
    path = cache_path(folder.name if folder.name != "model" else folder.parent.name, digest, length,
                      quantize=quantize, root=root)
    with _lock:
        session = _sessions.get(str(path))
        if session is None:
            session = _session_for(path, folder, spec, quantize, exporter or export_onnx, make_session or ort_session)
            _sessions[str(path)] = session
    try:
        tokenizer = _Tokenizer(folder, length)
    except Exception as exc:  # tokenizers / transformers raise their own types for a bad folder
        raise ModelError(f"cannot load the tokenizer of embedding model {spec!r}: {first_line(exc)}") from exc
    return OnnxEncoder(session, tokenizer, model_id, query_prefix=query_prefix,
                       passage_prefix=passage_prefix, batch_size=batch_size)

