"""Read models over one log: replay, scrubbing, audit, compare."""
