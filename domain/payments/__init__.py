"""Payments: orders keyed by merchantUid, confirmed against the gateway, refunded."""
