"""Finance's use cases, shared by the back office (api/routers/finance.py), the workers (workers/tasks/finance.py)
and the operator's command line: the daily reconciliation with the gateway, the jobs finance asks for (a
verification of the log, an export, the month-end close pack) and the proofs of payments and events in the shape
the independent verifier reads (tests/integration/audit/tlogcheck). Each takes ``FinanceServices``."""
