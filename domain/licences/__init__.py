"""Customers' licences: validity, licence keys and devices."""
