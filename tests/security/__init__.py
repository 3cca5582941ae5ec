"""The outside attacker's probe, finding by finding: each attack as it ran, now refused, the victim untouched."""
