"""Adapters to the outside world: payment gateway, mail, broker, passwords, error reporting."""
