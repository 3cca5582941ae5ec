"""Process-wide settings read from the environment (the only place that does so)."""
