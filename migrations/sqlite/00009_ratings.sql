-- Glicko-2 ratings and the rating decision of each finished race between
-- two players (see the PostgreSQL migration of the same number).
-- Ratings are REAL; times INTEGER microseconds, as everywhere.

-- +goose Up
CREATE TABLE ratings (
    player_id  TEXT    NOT NULL PRIMARY KEY REFERENCES players (id),
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    races      INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE race_ratings (
    game_id            TEXT    NOT NULL PRIMARY KEY REFERENCES games (id),
    seat1              TEXT    NOT NULL REFERENCES players (id),
    seat2              TEXT    NOT NULL REFERENCES players (id),
    rated              INTEGER NOT NULL,
    flag               TEXT    NOT NULL,
    gap1_ms            INTEGER NOT NULL,
    gap2_ms            INTEGER NOT NULL,
    before1_rating     REAL    NOT NULL,
    before1_deviation  REAL    NOT NULL,
    before1_volatility REAL    NOT NULL,
    before1_races      INTEGER NOT NULL,
    before2_rating     REAL    NOT NULL,
    before2_deviation  REAL    NOT NULL,
    before2_volatility REAL    NOT NULL,
    before2_races      INTEGER NOT NULL,
    after1_rating      REAL    NOT NULL,
    after1_deviation   REAL    NOT NULL,
    after1_volatility  REAL    NOT NULL,
    after1_races       INTEGER NOT NULL,
    after2_rating      REAL    NOT NULL,
    after2_deviation   REAL    NOT NULL,
    after2_volatility  REAL    NOT NULL,
    after2_races       INTEGER NOT NULL,
    at                 INTEGER NOT NULL
) WITHOUT ROWID;

-- +goose Down
DROP TABLE race_ratings;
DROP TABLE ratings;
