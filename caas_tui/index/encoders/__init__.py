"""Dense text encoders behind :class:`~caas_tui.index.protocols.Encoder`, one module per family.

``common`` holds what the families share; ``registry`` picks a family by spec prefix.
"""

from caas_tui.index.encoders.common import weights_digest
from caas_tui.index.encoders.hashing import HashingEncoder
from caas_tui.index.encoders.registry import LOADERS, load_encoder
from caas_tui.index.encoders.static import DEFAULT_MODEL_NAME, Model2VecEncoder, default_model_dir

__all__ = [
    "DEFAULT_MODEL_NAME",
    "LOADERS",
    "HashingEncoder",
    "Model2VecEncoder",
    "default_model_dir",
    "load_encoder",
    "weights_digest",
]
