"""``load_encoder(spec)``: the one entry point the index uses, choosing a family by spec prefix.

- blank or ``None``: the shipped model2vec model (:mod:`.static`);
- ``st:MODEL[?query_prefix=...]``: a sentence-transformers model (hub id or folder;
  optional extra ``caas-tui[transformers]``), see :mod:`.st`; ``backend=onnx-int8``
  runs it with onnxruntime, see :mod:`.onnx_int8`;
- anything else: a model2vec folder or hub id (:mod:`.static`).

Every failure is a one-line :class:`~caas_tui.errors.ModelError`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from caas_tui.index.encoders import static
from caas_tui.index.encoders.common import ST_PREFIX

if TYPE_CHECKING:
    from caas_tui.index.protocols import Encoder

Loader = Callable[[str], "Encoder"]


def _load_st(spec: str) -> Encoder:
    # imported on use, and looked up per call (tests replace it): the shipped model's
    # commands never load the sentence-transformers/onnx family's module
    from caas_tui.index.encoders import st

    return st.load_st_encoder(spec)


# Longest matching prefix wins; "" (model2vec) matches every spec.
LOADERS: dict[str, Loader] = {
    ST_PREFIX: _load_st,
    "": static.load_model2vec_encoder,
}


def loader_for(spec: str) -> Loader:
    """The loader whose prefix is the longest one ``spec`` starts with."""
    prefix = max((p for p in LOADERS if spec.startswith(p)), key=len)
    return LOADERS[prefix]


def load_encoder(spec: str | None = None) -> Encoder:
    """Return the encoder named by ``spec`` (see module docstring); raises ModelError."""
    if spec is None or not spec.strip():
        return static.load_default_encoder()
    spec = spec.strip()
    return loader_for(spec)(spec)
