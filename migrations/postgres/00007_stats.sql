-- Player statistics.
-- actions: a solo game's score, moves and milliseconds of play after each
-- action (NULL for races and for actions stored before), so that a game's
-- figures are its last action's row.
-- players: the reset point of the statistics (NULL: never reset).
-- games_solo_player: a player's solo games by start.
-- actions_assists: the actions that make a win assisted; its predicate is
-- store.AssistActions word for word, so that the planner may use it.

-- +goose Up
ALTER TABLE actions ADD COLUMN score integer;
ALTER TABLE actions ADD COLUMN moves integer;
ALTER TABLE actions ADD COLUMN play_ms bigint;
ALTER TABLE players ADD COLUMN stats_since timestamptz;
CREATE INDEX games_solo_player ON games (seat1, created_at) WHERE kind = 'solo';
CREATE INDEX actions_assists ON actions (game_id) WHERE action IN ('{"type":"undo"}', '{"type":"finish"}');

-- +goose Down
DROP INDEX actions_assists;
DROP INDEX games_solo_player;
ALTER TABLE players DROP COLUMN stats_since;
ALTER TABLE actions DROP COLUMN play_ms;
ALTER TABLE actions DROP COLUMN moves;
ALTER TABLE actions DROP COLUMN score;
