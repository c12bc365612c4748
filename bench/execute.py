"""How long ``review --execute`` takes to run a generated tutorial (a script, no assertions).

    python bench/execute.py [--blocks 20] [--no-bwrap]

Writes a tutorial of N Python blocks (each using the names of the one before, a doctest
every fifth block) into a throwaway project and times ExecuteReviewer on it: sandbox start,
the one session and the verdicts.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import extract_claims
from caas_tui.review.execute import ExecuteReviewer


def tutorial(n: int) -> str:
    parts = ["# Generated tutorial\n", "```python\nfrom pkg.calc import add\ntotal = 0\n```\n"]
    for i in range(1, n):
        if i % 5 == 0:
            parts.append(f"Step {i}:\n\n```pycon\n>>> add(total, {i}) - total\n{i}\n```\n")
        else:
            parts.append(f"Step {i}:\n\n```python\ntotal = add(total, {i})\nprint(total)\n```\n")
    return "\n".join(parts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--blocks", type=int, default=20)
    ap.add_argument("--no-bwrap", action="store_true", help="time the rlimits-only fallback")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="caas-bench-exec-") as tmp:
        root = Path(tmp) / "proj"
        (root / "pkg").mkdir(parents=True)
        (root / "pkg" / "__init__.py").write_text("")
        (root / "pkg" / "calc.py").write_text("def add(a, b):\n    return a + b\n")
        (root / "docs").mkdir()
        text = tutorial(args.blocks)
        (root / "docs" / "tutorial.md").write_text(text)
        claims = extract_claims("docs/tutorial.md", text)
        engine = Engine.open(root, index_dir=Path(tmp) / "index")
        try:
            reviewer = ExecuteReviewer(use_bwrap=False if args.no_bwrap else None)
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                verdicts = reviewer.review(claims, engine)
                times.append(time.perf_counter() - start)
        finally:
            engine.close()
    blocks = [v for c, v in zip(claims, verdicts, strict=True) if c.kind == "code"]
    labels = {label: sum(1 for v in blocks if v.verdict == label) for label in ("consistent", "unverified",
                                                                                "contradicted")}
    for note in reviewer.notes:
        print(note)
    sandbox = "rlimits only" if args.no_bwrap else "bwrap"
    print(f"{len(blocks)} blocks ({sandbox}): best {min(times):.2f} s, worst {max(times):.2f} s over {args.repeat} runs;"
          f" verdicts {labels}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
