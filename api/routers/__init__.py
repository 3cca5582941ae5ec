"""Routers per area, gathered by the app factory."""
