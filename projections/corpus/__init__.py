"""Many games at once: bot games, batches on every core, injected mistakes."""
