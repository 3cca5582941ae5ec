"""The use cases that read views and write the log: routers, tasks and command lines translate and call them.

Each module holds one capability. A use case takes the services it needs (the log, the views, the clock, the
gateway) and decides nothing the domain does not: it finds with the views what the domain cannot see (which
subscription keeps a licence alive, which payments wait for the gateway), then calls the domain's use cases.
"""
