"""Subscriptions: licences renewed by billing keys, with dunning, cancellation and resumption."""
