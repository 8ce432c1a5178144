-- One row per match: result, who went first, length, lead changes, comeback (the winner
-- was behind at half time), rules broken and median seconds per turn (human logs only):
-- the rows the balance verdicts count. bots = true: simulated games only; false: human
-- playtests and imports only; NULL: both (never pooled by the verdicts). What-if branches
-- only with branches = true.
-- params: ruleset: text = NULL, version: text = NULL, bots: bool = NULL, batch: text = NULL, branches: bool = false
SELECT * FROM match_outcomes
WHERE ($ruleset IS NULL OR ruleset = $ruleset) AND ($version IS NULL OR version = $version)
  AND ($bots IS NULL OR (source = 'simulation') = $bots) AND ($batch IS NULL OR batch = $batch)
  AND ($branches OR branch_of IS NULL)
ORDER BY ruleset, version, match_id
