"""The shipped model loads without the hub client and embeds exactly as ``from_pretrained`` does."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from caas_tui.index.encoders import load_encoder
from caas_tui.index.encoders.common import camel_words
from caas_tui.index.encoders.static import default_model_dir

TEXTS = ["def parse_config(path): return toml.load(path)", "HTTPServer request handler", "", "zz " * 3000]


def test_direct_load_matches_from_pretrained() -> None:
    from model2vec import StaticModel

    ref = StaticModel.from_pretrained(str(default_model_dir()))
    encoder = load_encoder(None)
    ours = encoder.encode(TEXTS)
    # the shipped encoder splits camelCase words before the model sees the text (issues 17, 21)
    raw = ref.encode([camel_words(t) for t in TEXTS], normalize=False, use_multiprocessing=False).astype(np.float32)
    norms = np.linalg.norm(raw, axis=1, keepdims=True)
    expected = np.divide(raw, norms, out=np.zeros_like(raw), where=norms > 0)
    np.testing.assert_array_equal(ours, expected)
    assert encoder.dims == ref.dim


def test_default_encoder_is_lazy_and_hub_free() -> None:
    code = (
        "import sys\n"
        "from caas_tui.index.encoders import load_encoder\n"
        "enc = load_encoder(None)\n"
        "assert 'model2vec' not in sys.modules, 'loaded before the first encode'\n"
        "assert enc.encode(['parse config']).shape == (1, enc.dims)\n"
        "assert 'huggingface_hub' not in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
