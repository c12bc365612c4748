"""index layer."""

from caas_tui.index import whoosh_lazy

# before anything here imports Whoosh: its English morphology tables load on first use only
whoosh_lazy.install()
