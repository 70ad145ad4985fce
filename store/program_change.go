package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// ProgramChange is one row of the box's program-change log (GoBD Rz.
// 151-155: which program version recorded what, since when): a release,
// commit or schema version the box first ran at FirstSeenAt.
type ProgramChange struct {
	Seq           int64
	Version       string
	Build         string
	SchemaVersion int64
	// SchemaFrom is the schema version the migrations of that start began
	// at (0: a new database); nil when none were applied.
	SchemaFrom  *int64
	FirstSeenAt time.Time
}

// SchemaVersion is the database's schema version after Open.
func (s *Store) SchemaVersion() int64 { return s.schemaVersion }

// RecordProgramVersion adds the running program (version, build and the
// schema version Open left) to the program-change log when it differs
// from the last row, and reports whether it did. main calls it once at
// every start: a restart of the same program adds nothing. The check and
// the insert are one write, so two starts cannot both add the same row.
func (s *Store) RecordProgramVersion(ctx context.Context, version, build string) (added bool, err error) {
	err = s.write(ctx, func(tx *Tx) error {
		var lastVersion, lastBuild string
		var lastSchema int64
		err := tx.QueryRowContext(ctx, `SELECT version, build, schema_version FROM program_changes ORDER BY seq DESC LIMIT 1`).
			Scan(&lastVersion, &lastBuild, &lastSchema)
		first := errors.Is(err, sql.ErrNoRows)
		if err != nil && !first {
			return err
		}
		if !first && lastVersion == version && lastBuild == build && lastSchema == s.schemaVersion {
			return nil
		}
		// Migrations applied by this start, or by "posbox migrate" since
		// the last row: the schema moved from there.
		var from *int64
		switch {
		case s.schemaBefore != s.schemaVersion:
			from = &s.schemaBefore
		case !first && lastSchema != s.schemaVersion:
			from = &lastSchema
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO program_changes (version, build, schema_version, schema_from, first_seen_at)
			VALUES (?, ?, ?, ?, ?)`, version, build, s.schemaVersion, from, tx.NowText()); err != nil {
			return err
		}
		added = true
		return nil
	})
	return added, err
}

// ProgramChanges is the whole program-change log, oldest first.
func (s *Store) ProgramChanges(ctx context.Context) ([]ProgramChange, error) {
	return queryAll(ctx, s.rdb, func(sc scanner) (ProgramChange, error) {
		var c ProgramChange
		var from sql.NullInt64
		var at string
		if err := sc.Scan(&c.Seq, &c.Version, &c.Build, &c.SchemaVersion, &from, &at); err != nil {
			return c, err
		}
		if from.Valid {
			c.SchemaFrom = &from.Int64
		}
		c.FirstSeenAt = ParseTime(at)
		return c, nil
	}, `SELECT seq, version, build, schema_version, schema_from, first_seen_at FROM program_changes ORDER BY seq`)
}
