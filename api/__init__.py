"""The HTTP API under /web/unicornpro/v1 and the server for the built web app."""
