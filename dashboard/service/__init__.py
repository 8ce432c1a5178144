"""`tabletape serve`: the store over HTTP, for digital tables, phones and spectators.

`server` routes Litestar requests onto the same Python API as the command line; `wire`
holds what goes over the wire that is not already an API value; `client` is a typed
Python client that decodes answers into the same Structs the API returns.
"""
