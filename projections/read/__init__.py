"""Read models over one log: what a log says when it is folded through its rules.

`replay` is the fold itself (one pure step per event, in constant memory); `timeline`
keeps snapshots of it for scrubbing, `audit` judges every event against the rules of the
version played, `compare` replays one log under two versions in lock step, `rulediff`
sets two versions' params side by side, `words` says an event in the game's own words,
`frames` turns a match into the boards a seat may see for scrubbing in the browser, and
`retype` re-reads a log-only playtest as a typed game. `foldcache` keeps folds, audits and
Timelines in the store's result cache, keyed by the log's bytes and the rules: the only
writes here, to a cache that may be deleted at any time.
"""
