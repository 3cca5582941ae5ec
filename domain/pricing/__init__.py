"""Pricing: quotes of what a licence costs, with each discount it was charged with."""
