"""Aggregates, business rules, ports and use cases of the storefront."""
