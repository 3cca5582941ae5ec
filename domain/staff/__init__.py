"""The back office's people: staff members, their roles and what each role may do, how they sign in, and the
actions they take on customers' things (each recorded with its actor and reason)."""
