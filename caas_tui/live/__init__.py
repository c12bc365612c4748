"""live layer."""
