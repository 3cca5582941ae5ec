"""Customer accounts: registration, confirmation, credentials and profile."""
