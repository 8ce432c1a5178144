-- Which rules playtesters break most: violations per 100 events, by rule and version.
-- params: ruleset: text = NULL, source: text = 'playtest', severity: text = 'error'
WITH scope AS (
    SELECT * FROM matches
    WHERE ($ruleset IS NULL OR ruleset = $ruleset) AND ($source IS NULL OR source = $source)
),
totals AS (SELECT ruleset, version, sum(events) AS events, count(*) AS matches FROM scope GROUP BY ALL)
SELECT s.ruleset, s.version, v.rule, count(*) AS violations, t.matches,
       round(100.0 * count(*) / t.events, 3) AS per_100_events
FROM violations v JOIN scope s USING (match_id) JOIN totals t USING (ruleset, version)
WHERE ($severity IS NULL OR v.severity = $severity)
GROUP BY s.ruleset, s.version, v.rule, t.matches, t.events
ORDER BY s.ruleset, s.version, violations DESC, v.rule
