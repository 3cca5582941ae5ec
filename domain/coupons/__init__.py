"""Coupon groups, their codes, who used them, and how a code discounts a quote."""
