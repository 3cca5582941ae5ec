"""Finance's decisions: the daily reconciliation's runs and what finance did about each mismatch, and the
recorded verifications of the log."""
