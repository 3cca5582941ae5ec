"""Read models built from the event log, their runner and the queries the API calls."""
