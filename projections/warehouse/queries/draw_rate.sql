-- How often finished matches end in a draw, and how many never finished. What-if branches
-- only with branches = true.
-- params: ruleset: text = NULL, branches: bool = false
SELECT ruleset, version, count(*) AS matches,
       count(*) FILTER (WHERE finished) AS finished,
       count(*) FILTER (WHERE draw) AS draws,
       round(count(*) FILTER (WHERE draw) / greatest(count(*) FILTER (WHERE finished), 1), 3) AS draw_rate
FROM matches
WHERE ($ruleset IS NULL OR ruleset = $ruleset) AND ($branches OR branch_of IS NULL)
GROUP BY ALL ORDER BY ruleset, version
