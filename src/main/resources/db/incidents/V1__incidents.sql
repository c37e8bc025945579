-- Observatory's incidents: one row per period a subject spent in one bad state. The same script for SQLite and
-- PostgreSQL. Times are Unix epoch milliseconds (UTC); labels and evidence are JSON.
CREATE TABLE incident (
    id          VARCHAR(36) PRIMARY KEY,
    subject     TEXT        NOT NULL,
    source      TEXT        NOT NULL,
    kind        TEXT        NOT NULL,
    severity    TEXT        NOT NULL,
    reason      TEXT        NOT NULL,
    labels      TEXT        NOT NULL,
    evidence    TEXT        NOT NULL,
    opened_at   BIGINT      NOT NULL,
    resolved_at BIGINT,
    resolution  TEXT        NOT NULL
);

-- At most one open incident per subject: with several replicas on one database, the first insert of a transition
-- wins and the others find it open, so each incident is stored, and told, once.
CREATE UNIQUE INDEX incident_open_subject ON incident (subject) WHERE resolved_at IS NULL;

-- Lists by time, newest first, and the history of one subject.
CREATE INDEX incident_opened_at ON incident (opened_at);
CREATE INDEX incident_subject_opened_at ON incident (subject, opened_at);

-- Retention prunes by the end of an incident.
CREATE INDEX incident_resolved_at ON incident (resolved_at);
