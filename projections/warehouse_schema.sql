-- The warehouse: every logged match as tables. Rebuilt from the logs at any time;
-- never the source of truth.
CREATE TABLE IF NOT EXISTS matches (
    match_id VARCHAR PRIMARY KEY,
    ruleset VARCHAR, version VARCHAR, base_version VARCHAR, source VARCHAR, title VARCHAR,
    batch VARCHAR,                   -- the simulation batch holding the log, if any
    seed BIGINT, fingerprint VARCHAR, seat_count INTEGER,
    started_at TIMESTAMPTZ, ended_at TIMESTAMPTZ,
    events INTEGER, turns INTEGER, rounds INTEGER,
    first_side VARCHAR,              -- the side that took the first turn
    finished BOOLEAN, winner VARCHAR, draw BOOLEAN, win_reason VARCHAR, win_rule VARCHAR,
    declared BOOLEAN, declared_winner VARCHAR, declared_draw BOOLEAN, result_agrees BOOLEAN,
    violations INTEGER,              -- errors, after retractions and rulings
    synced_at TIMESTAMPTZ
);
CREATE TABLE IF NOT EXISTS seats (
    match_id VARCHAR, seat VARCHAR, player VARCHAR, side VARCHAR, seat_order INTEGER
);
CREATE TABLE IF NOT EXISTS rosters (
    match_id VARCHAR, side VARCHAR, piece VARCHAR
);
CREATE TABLE IF NOT EXISTS events (
    match_id VARCHAR, seq INTEGER, type VARCHAR, seat VARCHAR, recorded_at TIMESTAMPTZ,  -- seat: who did it (by)
    turn INTEGER, round INTEGER, phase VARCHAR, actor VARCHAR, voided BOOLEAN,
    detail VARCHAR                   -- the log line itself (JSON), for ad-hoc questions
);
CREATE TABLE IF NOT EXISTS steps (   -- per-step metrics in long form, one row per change
    match_id VARCHAR, seq INTEGER, metric VARCHAR, value DOUBLE
);
CREATE TABLE IF NOT EXISTS violations (
    match_id VARCHAR, seq INTEGER, rule VARCHAR, severity VARCHAR, message VARCHAR
);
CREATE TABLE IF NOT EXISTS notes (
    match_id VARCHAR, note_id VARCHAR, from_seq INTEGER, to_seq INTEGER, author VARCHAR,
    text VARCHAR, tags VARCHAR[], rule VARCHAR, removed BOOLEAN, replies INTEGER,
    created_at TIMESTAMPTZ
);
CREATE TABLE IF NOT EXISTS checkpoints (  -- where each match's projection stands
    match_id VARCHAR PRIMARY KEY, last_seq INTEGER, last_hash VARCHAR, inode BIGINT,
    fingerprint VARCHAR, state BLOB, metrics VARCHAR, first_side VARCHAR,
    declared VARCHAR, errors INTEGER
);
CREATE TABLE IF NOT EXISTS note_checkpoints (
    match_id VARCHAR PRIMARY KEY, notes_seq INTEGER
);
