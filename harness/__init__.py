"""The test harness: what `make test`, the e2e stack and `make run`'s test mode use to move time and seed staff,
and what production never installs (pyproject.toml's packages leave it out; an import-linter contract names the
test-only entry points that import it, and tests/unit/test_production_imports.py holds production processes to it).

- ``harness.clock``: the shared test clock every process reads when TEST_CLOCK is on.
- ``harness.staff``: staff members seeded without the owner's invitation (the test harness's staff routes).
"""
