-- Game length by version: events, turns and minutes at the table (finished matches).
-- Minutes come from human playtests only: bot games run on a simulated clock, so their
-- minutes are left empty rather than reported.
-- params: ruleset: text = NULL, source: text = NULL
SELECT ruleset, version, count(*) AS matches,
       round(avg(events), 1) AS mean_events, median(events) AS median_events,
       round(avg(turns), 1) AS mean_turns, median(turns) AS median_turns,
       round(median(epoch(ended_at - started_at)) FILTER (WHERE source <> 'simulation') / 60, 1) AS median_minutes
FROM matches
WHERE finished AND ($ruleset IS NULL OR ruleset = $ruleset) AND ($source IS NULL OR source = $source)
GROUP BY ruleset, version
ORDER BY ruleset, version
