-- The trigger of migration 00013 on each batch of actions inserted, now
-- done at once when the batch holds no action of a solo game. Before, a
-- batch of race actions was joined with games three times (for the
-- players' locks, the figures and the results) to find nothing. A solo
-- action is known at once by its tally (every solo action is stored with
-- its score since migration 00007; a race action never is), and else by
-- its game's kind.

-- And the unique index of the client action ids goes: the table that owns
-- a game decides an action id's duplicates, from the game's whole log,
-- which it holds (a resend is answered with the stored seq and not stored
-- again), and the primary key (game_id, seq) keeps two writers of one game
-- from both storing. The index cost every batch a page written per game it
-- touched, beside the table's own page: an action of a closed-loop client
-- is about alone of its game in its batch.

-- +goose Up
DROP INDEX actions_client_id;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION actions_solo_results() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM added AS a
        WHERE a.score IS NOT NULL OR EXISTS (SELECT 1 FROM games AS g WHERE g.id = a.game_id AND g.kind = 'solo')
    ) THEN
        RETURN NULL;
    END IF;
    PERFORM stats_lock(o.id) FROM (
        SELECT DISTINCT g.seat1 AS id FROM added AS a JOIN games AS g ON g.id = a.game_id AND g.kind = 'solo' ORDER BY 1
    ) AS o;
    UPDATE solo_figures AS f SET
        last_seq = GREATEST(f.last_seq, b.seq),
        score = CASE WHEN b.seq > f.last_seq THEN b.score ELSE f.score END,
        moves = CASE WHEN b.seq > f.last_seq THEN b.moves ELSE f.moves END,
        play_ms = CASE WHEN b.seq > f.last_seq THEN b.play_ms ELSE f.play_ms END
    FROM (SELECT DISTINCT ON (a.game_id) a.game_id, a.seq, a.score, a.moves, a.play_ms FROM added AS a ORDER BY a.game_id, a.seq DESC) AS b
    WHERE f.game_id = b.game_id;
    IF NOT EXISTS (
        SELECT 1 FROM added AS a JOIN games AS g ON g.id = a.game_id AND g.kind = 'solo'
        WHERE a.action IN ('{"type":"undo"}', '{"type":"finish"}') OR NOT EXISTS (SELECT 1 FROM solo_results AS s WHERE s.game_id = a.game_id)
    ) THEN
        RETURN NULL;
    END IF;
    UPDATE solo_results AS s SET undone = 1, helped = 1
    FROM (SELECT DISTINCT a.game_id FROM added AS a WHERE a.action IN ('{"type":"undo"}', '{"type":"finish"}')) AS b
    WHERE s.game_id = b.game_id AND s.undone = 0;
    FOR r IN
        SELECT DISTINCT ON (a.game_id) a.game_id, a.seq, a.score, a.moves, a.play_ms,
            bool_or(a.action IN ('{"type":"undo"}', '{"type":"finish"}')) OVER (PARTITION BY a.game_id) AS undone
        FROM added AS a JOIN games AS g ON g.id = a.game_id AND g.kind = 'solo'
        WHERE NOT EXISTS (SELECT 1 FROM solo_results AS s WHERE s.game_id = a.game_id)
        ORDER BY a.game_id, a.seq DESC
    LOOP
        INSERT INTO solo_results (game_id, player_id, draw, scoring, created_at, since, won, undone, helped)
        SELECT g.id, g.seat1,
            CASE WHEN substr(g.code, 6, 1) IN ('0', '1', '2', '3', '4', '5', '6', '7', '8', '9') THEN CAST(substr(g.code, 6, 1) AS integer) ELSE 0 END,
            substr(g.code, 7, 1), g.created_at,
            CASE WHEN g.created_at > COALESCE(p.stats_since, '-infinity') THEN COALESCE(p.stats_since, '-infinity') END,
            CASE WHEN g.status = 'won' THEN 1 ELSE 0 END, CASE WHEN r.undone THEN 1 ELSE 0 END,
            CASE WHEN r.undone OR g.hints > 0 OR g.checked THEN 1 ELSE 0 END
        FROM games AS g JOIN players AS p ON p.id = g.seat1
        WHERE g.id = r.game_id;
        INSERT INTO solo_figures (game_id, player_id, draw, scoring, since, won, last_seq, score, moves, play_ms)
        SELECT s.game_id, s.player_id, s.draw, s.scoring, s.since, s.won, r.seq, r.score, r.moves, r.play_ms
        FROM solo_results AS s WHERE s.game_id = r.game_id;
    END LOOP;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- +goose Down
-- Client ids the table refused as duplicates were never stored twice, but the
-- store takes them: a later repeat of an id loses it, so that the index holds.
UPDATE actions SET client_id = NULL
WHERE client_id IS NOT NULL AND client_id <> '' AND EXISTS (
    SELECT 1 FROM actions AS b
    WHERE b.game_id = actions.game_id AND b.seat = actions.seat AND b.client_id = actions.client_id AND b.seq < actions.seq);
CREATE UNIQUE INDEX actions_client_id ON actions (game_id, seat, client_id)
    WHERE client_id IS NOT NULL AND client_id <> '';

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION actions_solo_results() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    PERFORM stats_lock(o.id) FROM (
        SELECT DISTINCT g.seat1 AS id FROM added AS a JOIN games AS g ON g.id = a.game_id AND g.kind = 'solo' ORDER BY 1
    ) AS o;
    UPDATE solo_figures AS f SET
        last_seq = GREATEST(f.last_seq, b.seq),
        score = CASE WHEN b.seq > f.last_seq THEN b.score ELSE f.score END,
        moves = CASE WHEN b.seq > f.last_seq THEN b.moves ELSE f.moves END,
        play_ms = CASE WHEN b.seq > f.last_seq THEN b.play_ms ELSE f.play_ms END
    FROM (SELECT DISTINCT ON (a.game_id) a.game_id, a.seq, a.score, a.moves, a.play_ms FROM added AS a ORDER BY a.game_id, a.seq DESC) AS b
    WHERE f.game_id = b.game_id;
    IF NOT EXISTS (
        SELECT 1 FROM added AS a JOIN games AS g ON g.id = a.game_id AND g.kind = 'solo'
        WHERE a.action IN ('{"type":"undo"}', '{"type":"finish"}') OR NOT EXISTS (SELECT 1 FROM solo_results AS s WHERE s.game_id = a.game_id)
    ) THEN
        RETURN NULL;
    END IF;
    UPDATE solo_results AS s SET undone = 1, helped = 1
    FROM (SELECT DISTINCT a.game_id FROM added AS a WHERE a.action IN ('{"type":"undo"}', '{"type":"finish"}')) AS b
    WHERE s.game_id = b.game_id AND s.undone = 0;
    FOR r IN
        SELECT DISTINCT ON (a.game_id) a.game_id, a.seq, a.score, a.moves, a.play_ms,
            bool_or(a.action IN ('{"type":"undo"}', '{"type":"finish"}')) OVER (PARTITION BY a.game_id) AS undone
        FROM added AS a JOIN games AS g ON g.id = a.game_id AND g.kind = 'solo'
        WHERE NOT EXISTS (SELECT 1 FROM solo_results AS s WHERE s.game_id = a.game_id)
        ORDER BY a.game_id, a.seq DESC
    LOOP
        INSERT INTO solo_results (game_id, player_id, draw, scoring, created_at, since, won, undone, helped)
        SELECT g.id, g.seat1,
            CASE WHEN substr(g.code, 6, 1) IN ('0', '1', '2', '3', '4', '5', '6', '7', '8', '9') THEN CAST(substr(g.code, 6, 1) AS integer) ELSE 0 END,
            substr(g.code, 7, 1), g.created_at,
            CASE WHEN g.created_at > COALESCE(p.stats_since, '-infinity') THEN COALESCE(p.stats_since, '-infinity') END,
            CASE WHEN g.status = 'won' THEN 1 ELSE 0 END, CASE WHEN r.undone THEN 1 ELSE 0 END,
            CASE WHEN r.undone OR g.hints > 0 OR g.checked THEN 1 ELSE 0 END
        FROM games AS g JOIN players AS p ON p.id = g.seat1
        WHERE g.id = r.game_id;
        INSERT INTO solo_figures (game_id, player_id, draw, scoring, since, won, last_seq, score, moves, play_ms)
        SELECT s.game_id, s.player_id, s.draw, s.scoring, s.since, s.won, r.seq, r.score, r.moves, r.play_ms
        FROM solo_results AS s WHERE s.game_id = r.game_id;
    END LOOP;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
