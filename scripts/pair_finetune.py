"""Step 3 of the default dense model: fine-tune the static model on docstring -> code pairs.

Steps 1-2 (``make_default_model.py``, ``train_static_model.py``) teach the static
model to reproduce the teacher transformer's embedding of each text *on its own*.
Mean-pooled token vectors cannot copy a transformer exactly, and what the index
needs is narrower: a docstring-like sentence must land next to the code it
describes, whose words are mostly identifiers and keywords. This step trains
exactly that, on pairs mined from the same offline corpus (never the stdlib, never
``sample_project/``): the first sentence of each docstring and the code chunk of
the function or class it documented, with the docstring blanked (the benchmark's
setting, and what a doc claim meets in a real index).

Loss: symmetric in-batch InfoNCE over cosine similarities (every other pair's code
in the batch is a negative for a query, and the other way round), on the token
vectors themselves (the model stays a plain model2vec mean of token vectors, so
encode speed does not change). Large batches (1,024) give more negatives per step.

Overfitting guard: whole packages are held out (about 10% of pairs, chosen by a
hash of the package name, so the split is stable when the corpus grows) and
training stops when MRR@10 of their docstrings against their code (plus their
undocumented code as distractors) stops improving; the best epoch is kept.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import torch
    from model2vec import StaticModel


class CorpusItem(Protocol):
    category: str
    text: str
    package: str
    source: str


@dataclass(frozen=True)
class Pair:
    """A docstring's first sentence and the code chunk of the symbol it documented."""

    query: str
    code: str
    package: str
    source: str  # path:qualified symbol


@dataclass(frozen=True)
class PairSplit:
    train: list[Pair]
    val: list[Pair]
    val_distractors: list[str]  # undocumented code of the held-out packages

    def report(self) -> dict[str, Any]:
        return {"train_pairs": len(self.train), "val_pairs": len(self.val),
                "val_distractors": len(self.val_distractors),
                "val_packages": sorted({p.package for p in self.val})}


def docstring_pairs(items: Iterable[CorpusItem]) -> tuple[list[Pair], list[CorpusItem]]:
    """Pair each docstring sentence with its symbol's code chunk; also return unpaired code.

    A symbol split into several windows (a long function) pairs with its first
    window, the one holding the signature.
    """
    items = list(items)
    code: dict[str, CorpusItem] = {}
    for item in items:
        if item.category == "code":
            code.setdefault(item.source, item)
    pairs: list[Pair] = []
    used: set[str] = set()
    for item in items:
        if item.category == "sentence" and item.source in code and item.source not in used:
            used.add(item.source)
            pairs.append(Pair(item.text, code[item.source].text, item.package, item.source))
    unpaired = [c for src, c in code.items() if src not in used]
    return pairs, unpaired


def _held_out(package: str, buckets: int) -> bool:
    return zlib.crc32(package.encode()) % buckets == 0


def split_pairs(pairs: Sequence[Pair], unpaired: Sequence[CorpusItem], *, val_share: float = 0.1) -> PairSplit:
    """Hold out whole packages (by name hash) for validation.

    Falls back to holding out single pairs (by source hash) when the package split
    leaves either side empty, e.g. on a one-package corpus.
    """
    buckets = max(2, round(1 / val_share))
    val = [p for p in pairs if _held_out(p.package, buckets)]
    train = [p for p in pairs if not _held_out(p.package, buckets)]
    if val and train:
        packages = {p.package for p in val}
        distractors = [c.text for c in unpaired if c.package in packages]
        return PairSplit(train, val, distractors)
    val = [p for p in pairs if _held_out(p.source, buckets)]
    train = [p for p in pairs if not _held_out(p.source, buckets)]
    return PairSplit(train, val, [])


def _token_lists(model: StaticModel, texts: Sequence[str], max_tokens: int) -> list[list[int]]:
    # model2vec's own tokenization (unknown tokens dropped), truncated like its encode().
    return [ids[:max_tokens] for ids in model.tokenize(list(texts))]


def mrr_at_10(queries: torch.Tensor, docs: torch.Tensor) -> float:
    """MRR@10 where query i's answer is doc i (rows L2-normalised; extra docs are distractors)."""
    import torch

    top = (queries @ docs.T).topk(min(10, docs.shape[0]), dim=1).indices
    hits = top == torch.arange(queries.shape[0])[:, None]
    ranks = hits.float().argmax(dim=1) + 1
    return float((hits.any(dim=1).float() / ranks).mean())


def finetune_pairs(model: StaticModel, split: PairSplit, *, batch_size: int = 1024, lr: float = 3e-3,
                   temperature: float = 0.05, max_epochs: int = 30, patience: int = 5, max_tokens: int = 512,
                   seed: int = 0, log: Callable[[str], None] = print) -> tuple[StaticModel, dict[str, Any]]:
    """Fine-tune ``model``'s token vectors on ``split.train``; return the best-on-validation model."""
    import numpy as np
    import torch
    from model2vec import StaticModel
    from torch import nn

    if getattr(model, "weights", None) is not None or getattr(model, "token_mapping", None) is not None:
        raise SystemExit("pair fine-tuning supports plain mean-pooled models only (no SIF weights, no token mapping)")
    keep = [p for p in split.train if p.query.strip() and p.code.strip()]
    if len(keep) < 2 or not split.val:
        raise SystemExit(f"pair fine-tuning needs >= 2 training pairs and a validation split "
                         f"(got {len(keep)} and {len(split.val)})")
    started = time.perf_counter()
    rng = random.Random(seed)
    train_q = _token_lists(model, [p.query for p in keep], max_tokens)
    train_d = _token_lists(model, [p.code for p in keep], max_tokens)
    val_q = _token_lists(model, [p.query for p in split.val], max_tokens)
    val_d = _token_lists(model, [p.code for p in split.val] + split.val_distractors, max_tokens)
    start = torch.from_numpy(np.asarray(model.embedding, dtype=np.float32).copy())
    bag = nn.EmbeddingBag.from_pretrained(start, freeze=False, mode="mean")

    def embed(lists: Sequence[list[int]]) -> torch.Tensor:
        lists = [ids or [0] for ids in lists]  # an all-unknown text embeds as the pad row
        flat = torch.tensor([t for ids in lists for t in ids], dtype=torch.long)
        offsets = torch.tensor(np.concatenate([[0], np.cumsum([len(ids) for ids in lists])[:-1]]), dtype=torch.long)
        return nn.functional.normalize(bag(flat, offsets), dim=-1)

    def validate() -> float:
        with torch.no_grad():
            docs = torch.cat([embed(val_d[i:i + 4096]) for i in range(0, len(val_d), 4096)])
            return mrr_at_10(embed(val_q), docs)

    size = min(batch_size, len(keep))
    optimizer = torch.optim.Adam(bag.parameters(), lr=lr)
    initial = best = validate()
    best_weights, best_epoch, waited, epochs = bag.weight.detach().clone(), -1, 0, 0
    log(f"pairs: {len(keep)} train / {len(split.val)} validation; validation MRR@10 before: {initial:.4f}")
    for epoch in range(max_epochs):
        epochs = epoch + 1
        order = list(range(len(keep)))
        rng.shuffle(order)
        total = 0.0
        for i in range(0, len(order), size):
            batch = order[i:i + size]
            if len(batch) < 2:
                continue
            q, d = embed([train_q[j] for j in batch]), embed([train_d[j] for j in batch])
            logits = q @ d.T / temperature
            labels = torch.arange(len(batch))
            loss = (nn.functional.cross_entropy(logits, labels) + nn.functional.cross_entropy(logits.T, labels)) / 2
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        score = validate()
        log(f"pair epoch {epoch}: train loss {total:.2f}, validation MRR@10 {score:.4f}")
        if score > best + 1e-4:
            best, best_weights, best_epoch, waited = score, bag.weight.detach().clone(), epoch, 0
        else:
            waited += 1
            if waited >= patience:
                break
    tuned = StaticModel(vectors=best_weights.numpy(), tokenizer=model.tokenizer, config=dict(model.config),
                        normalize=True)
    report = {**split.report(), "batch_size": size, "lr": lr, "temperature": temperature, "epochs_run": epochs,
              "best_epoch": best_epoch, "val_mrr_before": round(initial, 4), "val_mrr_after": round(best, 4),
              "seconds": round(time.perf_counter() - started, 1)}
    return tuned, report
