"""review layer."""
