"""The drift report: how old the index is, what changed since, what went stale, which
docs drift from their code. Read-only: nothing here writes the index or the verdicts.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from caas_tui.config import Config
from caas_tui.errors import IndexStoreError
from caas_tui.index.manifest import SCHEMA_VERSION, Manifest, read_manifest
from caas_tui.live.changedates import change_dates
from caas_tui.live.drift import Drift, doc_mentions, drift_paths, find_drift
from caas_tui.retrieve.engine import Engine
from caas_tui.review.decisions import StaleVerdict, stale_verdicts
from caas_tui.sources import discover


@dataclass(frozen=True, slots=True)
class ChangedFile:
    path: str
    change: str  # added | changed | removed | skipped
    reason: str = ""  # why the indexer skipped it (``skipped`` only)


@dataclass(frozen=True, slots=True)
class StatusReport:
    root: str
    indexed_at: float  # epoch seconds of the last index write
    index_age_s: float
    changed_files: tuple[ChangedFile, ...]
    stale: tuple[StaleVerdict, ...]
    drift: tuple[Drift, ...]
    dates_from: str  # "git" | "mtime"
    skipped: tuple[ChangedFile, ...] = ()  # files the indexer skips (binary, over the cap): not changes

    def to_json(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "index_age_s": round(self.index_age_s, 1),
            "indexed_at": iso(self.indexed_at),
            "changed_files": [{"path": c.path, "change": c.change} for c in self.changed_files]
            + [{"path": c.path, "change": c.change, "reason": c.reason} for c in self.skipped],
            "stale_verdicts": [s.to_json() for s in self.stale],
            "drift": [
                {
                    "doc": d.doc,
                    "line": d.line,
                    "symbol": d.symbol,
                    "symbol_path": d.symbol_path,
                    "symbol_changed": iso(d.symbol_changed),
                    "doc_changed": iso(d.doc_changed),
                }
                for d in self.drift
            ],
            "dates_from": self.dates_from,
        }


def iso(ts: float) -> str:
    """UTC, second precision: ``2024-05-01T12:00:00Z``."""
    return datetime.fromtimestamp(ts, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def usable_manifest(cfg: Config) -> Manifest:
    """The index manifest if the index can be read as it is; IndexStoreError otherwise.

    Opening a missing or half-built index would rebuild it, and status never writes.
    """
    directory = cfg.caas_dir / "index"
    manifest = read_manifest(directory)
    if manifest is None:
        raise IndexStoreError(f"no index at {directory}; run `caas-tui index --root {cfg.root}` first")
    if manifest.schema != SCHEMA_VERSION:
        raise IndexStoreError(f"{directory}: index is schema v{manifest.schema}; run `caas-tui index` to rebuild it")
    if manifest.state != "clean":
        raise IndexStoreError(f"{directory}: index was left incomplete by an interrupted build; run `caas-tui index`")
    return manifest


def changed_since_index(cfg: Config, manifest: Manifest) -> list[ChangedFile]:
    """discover() against the manifest; a new mtime alone (a touch, a checkout) is no change.
    A file the last index skipped (binary, over the size cap) is ``skipped``, not ``added``."""
    out: list[ChangedFile] = []
    seen: set[str] = set()
    skipped = {s.get("path", ""): s.get("reason", "") for s in manifest.skipped}
    discovery = discover(cfg)
    for gone in discovery.skipped:
        skipped.setdefault(gone.path, gone.reason)
    for entry in discovery.entries:
        seen.add(entry.path)
        rec = manifest.files.get(entry.path)
        if rec is None and entry.path in skipped:
            out.append(ChangedFile(entry.path, "skipped", skipped[entry.path]))
        elif rec is None:
            out.append(ChangedFile(entry.path, "added"))
        elif (rec.mtime != entry.mtime or rec.size != entry.size) and _sha256(cfg, entry.path) != rec.sha256:
            out.append(ChangedFile(entry.path, "changed"))
    out.extend(ChangedFile(p, "removed") for p in manifest.files if p not in seen)
    return sorted(out, key=lambda c: c.path)


def _sha256(cfg: Config, path: str) -> str | None:
    try:
        return hashlib.sha256((cfg.root / path).read_bytes()).hexdigest()
    except OSError:
        return None  # vanished or unreadable since discovery: report it as changed


def collect_status(engine: Engine, manifest: Manifest, *, now: float | None = None) -> StatusReport:
    """Everything ``caas-tui status`` shows; ``engine`` must have been opened without refresh."""
    cfg = engine.cfg
    mentions = doc_mentions(engine)
    dates = change_dates(cfg.root, drift_paths(mentions))
    drift = find_drift(mentions, dates)
    changes = changed_since_index(cfg, manifest)
    return StatusReport(
        root=str(cfg.root),
        indexed_at=manifest.updated,
        index_age_s=max(0.0, (now if now is not None else time.time()) - manifest.updated),
        changed_files=tuple(c for c in changes if c.change != "skipped"),
        skipped=tuple(c for c in changes if c.change == "skipped"),
        stale=tuple(stale_verdicts(engine)),
        drift=tuple(drift),
        dates_from=dates.source,
    )
