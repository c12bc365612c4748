"""Dense text encoders behind :class:`~caas_tui.index.protocols.Encoder`, one module per family.

``common`` holds what the families share; ``registry`` picks a family by spec prefix.
``HashingEncoder`` (a deterministic fake for tests and benches) is imported on first use
(PEP 562): its patterns are compiled only where it is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from caas_tui.index.encoders.common import weights_digest
from caas_tui.index.encoders.registry import LOADERS, load_encoder
from caas_tui.index.encoders.static import DEFAULT_MODEL_NAME, Model2VecEncoder, default_model_dir
from caas_tui.lazy import lazy_exports

if TYPE_CHECKING:
    from caas_tui.index.encoders.hashing import HashingEncoder

__all__ = [
    "DEFAULT_MODEL_NAME",
    "LOADERS",
    "HashingEncoder",
    "Model2VecEncoder",
    "default_model_dir",
    "load_encoder",
    "weights_digest",
]


__getattr__ = lazy_exports(__name__, {"HashingEncoder": "caas_tui.index.encoders.hashing"}, globals())
