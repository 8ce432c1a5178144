"""`tabletape serve`: the store over HTTP, and a typed client of it."""
