"""caas-tui: find out whether documentation is true."""

import os

# OpenBLAS's worker threads busy-wait for a while after every matrix product. On the
# 2-4 cores this runs on they starve whatever comes next: the BM25 query, the
# transformer encoding a re-rank or a dense query (measured on 2 cores: MiniLM query
# 89 ms -> 12 ms, hybrid+rerank p50 246 -> 188 ms with one thread). Our products are
# one query vector against the index, where a second thread gains nothing. It only
# works before numpy loads, and a user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
