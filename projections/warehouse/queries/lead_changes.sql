-- Lead changes and comebacks from each game's `score` metric (positive: the first listed
-- side leads). A lead change: the side ahead changes. A comeback: the winner was behind at
-- half time (the score halfway through the match's events), not merely at some moment.
-- A game without a `score` metric has none to read: NULL (n/a), not 0.
-- params: ruleset: text = NULL, version: text = NULL
WITH per_match AS (
    SELECT * FROM match_outcomes
    WHERE finished AND ($ruleset IS NULL OR ruleset = $ruleset) AND ($version IS NULL OR version = $version)
)
SELECT ruleset, version, count(*) AS matches,
       round(avg(lead_changes), 2) AS mean_lead_changes,
       sum(CAST(lead_changes > 0 AS INTEGER)) AS matches_with_lead_change,
       sum(CAST(comeback AS INTEGER)) AS comebacks,
       count(*) FILTER (WHERE winner IS NOT NULL) AS decided
FROM per_match GROUP BY ALL ORDER BY ruleset, version
