"""retrieve layer."""
