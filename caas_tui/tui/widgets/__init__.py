"""Widgets of the review app: each owns one pane and knows nothing of the others."""
