-- How long finished matches run: how many matches ended after each number of turns, per
-- version (a histogram; with a and b, only those two versions).
-- params: ruleset: text = NULL, a: text = NULL, b: text = NULL, source: text = NULL
SELECT ruleset, version, turns, count(*) AS matches, round(avg(events), 1) AS mean_events
FROM matches
WHERE finished AND ($ruleset IS NULL OR ruleset = $ruleset)
  AND ($a IS NULL OR version IN ($a, $b)) AND ($source IS NULL OR source = $source)
GROUP BY ALL
ORDER BY ruleset, version, turns
