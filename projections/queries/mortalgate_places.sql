-- Where things happen on MortalGate's board, per version: the node each hero fell on (its
-- last node before it respawned) and where altars were captured (the capturer's node, in
-- the altar's zone). For the Compare page's heatmaps. bots: true bot games, false human logs.
-- params: version: text = NULL, bots: bool = NULL
WITH scope AS (
    SELECT match_id, version FROM matches
    WHERE ruleset = 'mortalgate' AND ($version IS NULL OR version = $version)
      AND ($bots IS NULL OR (source = 'simulation') = $bots)
),
moves AS (
    SELECT e.match_id, e.seq, e.type, json_extract_string(e.detail, '$.hero') AS hero,
           CASE WHEN e.type = 'HeroMoved' THEN json_extract(e.detail, '$.path[#-1]') ELSE json_extract(e.detail, '$.node') END AS node
    FROM events e JOIN scope USING (match_id)
    WHERE NOT e.voided AND e.type IN ('HeroPlaced', 'HeroMoved', 'HeroRespawned', 'AltarCaptured')
),
placed AS (
    SELECT match_id, type, last_value(node IGNORE NULLS) OVER (
               PARTITION BY match_id, hero ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
    FROM moves
)
SELECT s.version, CASE p.type WHEN 'HeroRespawned' THEN 'hero fell' ELSE 'altar captured' END AS what,
       CAST(json_extract(p.before, '$[0]') AS INTEGER) AS col, CAST(json_extract(p.before, '$[1]') AS INTEGER) AS row,
       count(*) AS times
FROM placed p JOIN scope s USING (match_id)
WHERE p.type IN ('HeroRespawned', 'AltarCaptured') AND p.before IS NOT NULL
GROUP BY ALL ORDER BY ALL
