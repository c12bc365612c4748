"""caas-tui: find out whether documentation is true."""

__version__ = "0.1.0"
