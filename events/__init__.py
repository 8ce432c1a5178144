"""The bottom layer: event types, the JSON-lines log format, stores and annotations.

Nothing here knows any game; rulesets build on these types and hand their own event
unions to a `LogCodec`.
"""
