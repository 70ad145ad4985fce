package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// TSEJob is one revision in the outbox.
type TSEJob struct {
	Seq              int64
	ID               string
	RestaurantID     string
	TSSID            string
	ClientID         string
	ClientSerial     string
	ClientRegistered bool
	TxID             string
	Revision         int
	TargetState      string
	Body             []byte
	Status           string
	Attempts         int
	NextAttemptAt    time.Time
	LastHTTPStatus   int
	LastErrorCode    string
	LastErrorMessage string
	CreatedAt        time.Time
	DoneAt           *time.Time
}

const tseJobColumns = `j.seq, j.id, j.restaurant_id, j.tss_id, j.client_id, COALESCE(c.client_serial, ''),
	c.registered_at IS NOT NULL, j.tx_id, j.revision, j.target_state, j.body, j.status, j.attempts, j.next_attempt_at,
	j.last_http_status, j.last_error_code, j.last_error_message, j.created_at, j.done_at`

const tseJobFrom = ` FROM tse_jobs j LEFT JOIN tse_clients c ON c.client_id = j.client_id `

func scanTSEJob(sc scanner) (*TSEJob, error) {
	var j TSEJob
	var next, created string
	var httpStatus sql.NullInt64
	var code, msg, done sql.NullString
	err := sc.Scan(&j.Seq, &j.ID, &j.RestaurantID, &j.TSSID, &j.ClientID, &j.ClientSerial, &j.ClientRegistered, &j.TxID,
		&j.Revision, &j.TargetState, &j.Body, &j.Status, &j.Attempts, &next, &httpStatus, &code, &msg, &created, &done)
	if err != nil {
		return nil, err
	}
	j.NextAttemptAt, j.CreatedAt, j.DoneAt = ParseTime(next), ParseTime(created), parseNullTime(done)
	j.LastHTTPStatus, j.LastErrorCode, j.LastErrorMessage = int(httpStatus.Int64), code.String, msg.String
	return &j, nil
}

// TSEHeadJob is the oldest unfinished revision of a TSS: the only one the
// worker may send (strict FIFO); not_found when the queue is empty. It
// ignores next_attempt_at: a head waiting for its retry is still the head,
// and waiting until it is due is the worker's business. Parked
// (attention) items do not block it. A CANCELLED revision that closes a
// stale transaction goes first: it has no other revision queued (see
// CancelTSETx), and it frees room when the TSS refuses new transactions
// with E_TX_LIMIT_REACHED, which would otherwise keep it stuck behind them.
func (s *Store) TSEHeadJob(ctx context.Context, tssID string) (*TSEJob, error) {
	return s.TSEHeadJobExcept(ctx, tssID, nil)
}

// TSEHeadJobExcept is TSEHeadJob without the revisions of the given
// terminals (client ids the TSS refuses for now): they wait, the others
// go on in order.
func (s *Store) TSEHeadJobExcept(ctx context.Context, tssID string, skipClients []string) (*TSEJob, error) {
	return s.TSEHeadJobSkipping(ctx, tssID, skipClients, nil)
}

// TSEHeadJobSkipping is TSEHeadJobExcept without the given jobs too: the
// ones the provider signed whose completion the writer has not yet
// committed (CompleteTSEJobAsync), which are no longer the head.
func (s *Store) TSEHeadJobSkipping(ctx context.Context, tssID string, skipClients []string, skipSeqs []int64) (*TSEJob, error) {
	args := []any{tssID}
	skip := ""
	if len(skipClients) > 0 {
		skip = ` AND j.client_id NOT IN (?` + strings.Repeat(`, ?`, len(skipClients)-1) + `)`
		for _, c := range skipClients {
			args = append(args, c)
		}
	}
	if len(skipSeqs) > 0 {
		skip += ` AND j.seq NOT IN (?` + strings.Repeat(`, ?`, len(skipSeqs)-1) + `)`
		for _, q := range skipSeqs {
			args = append(args, q)
		}
	}
	j, err := scanTSEJob(s.rs.QueryRowContext(ctx, `SELECT `+tseJobColumns+tseJobFrom+`
		WHERE j.tss_id = ? AND j.status IN ('pending', 'in_flight')`+skip+`
		ORDER BY (j.target_state = 'CANCELLED') DESC, j.seq LIMIT 1`, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("queued revision")
	}
	return j, err
}

// HeldTSEClient is a terminal the TSS refused to register, with revisions
// still waiting for it.
type HeldTSEClient struct {
	ClientID, Serial, Code, Message string
}

// HeldTSEClients lists unregistered terminals whose waiting revisions
// last failed with code: the queue's per-terminal hold, rebuilt at start.
func (s *Store) HeldTSEClients(ctx context.Context, tssID, code string) ([]HeldTSEClient, error) {
	rows, err := s.rs.QueryContext(ctx, `SELECT j.client_id, c.client_serial, j.last_error_code, COALESCE(j.last_error_message, '')
		FROM tse_jobs j JOIN tse_clients c ON c.client_id = j.client_id
		WHERE j.tss_id = ? AND j.status IN ('pending', 'in_flight') AND c.registered_at IS NULL AND j.last_error_code = ?
		GROUP BY j.client_id ORDER BY MIN(j.seq)`, tssID, code)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []HeldTSEClient
	for rows.Next() {
		var h HeldTSEClient
		if err := rows.Scan(&h.ClientID, &h.Serial, &h.Code, &h.Message); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// StartTSEJob marks a job in flight and counts the attempt before the
// request leaves, so a crash mid-request is visible and resent.
func (s *Store) StartTSEJob(ctx context.Context, seq int64) error {
	return s.write(ctx, func(tx *Tx) error { return startTSEJob(tx, seq) })
}

// ResetTSEInFlight hands in-flight jobs back to the queue (start-up after
// a crash, or a worker stopping mid-request). They are resent with the same
// bytes, which the provider treats idempotently.
func (s *Store) ResetTSEInFlight(ctx context.Context, tssID string) (int64, error) {
	var n int64
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tse_jobs SET status = 'pending' WHERE tss_id = ? AND status = 'in_flight'`, tssID)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// TSESigned is what the provider answered for one revision.
type TSESigned struct {
	Number           int64
	State            string
	Revision         int
	TimeStart        time.Time
	TimeEnd          *time.Time
	SignatureCounter int64
	SignatureValue   string
	LogTime          time.Time
	QRCodeData       string
	TSSSerialNumber  string
}

// StartTSEJobAsync is StartTSEJob handed to the writer without waiting
// for its commit: the worker sends the request meanwhile. The mark is
// lazy: it rides in the commit of the next write (usually the revision's
// completion), or is committed alone after 50 ms, so a request that hangs
// shows in_flight. Nothing is lost by not waiting: a job found in_flight
// or pending after a crash is resent alike. The outcome (for the log)
// comes on the returned channel.
func (s *Store) StartTSEJobAsync(seq int64) <-chan error {
	done := make(chan error, 1)
	s.writeAsync(func(tx *Tx) error {
		return startTSEJob(tx, seq)
	}, func(err error) { done <- err }, true)
	return done
}

func startTSEJob(tx *Tx, seq int64) error {
	_, err := tx.ExecContext(context.Background(), `UPDATE tse_jobs SET status = 'in_flight', attempts = attempts + 1
		WHERE seq = ? AND status IN ('pending', 'in_flight')`, seq)
	return err
}

// TSECompleted is the outcome of CompleteTSEJobAsync.
type TSECompleted struct {
	Closed *TSEOutage // the outage this completion closed, if any
	Err    error
}

// CompleteTSEJobAsync is CompleteTSEJob handed to the writer without
// waiting: the worker goes on with the next revision while the commit is
// made, and consecutive completions share commits. The outcome comes on
// the returned channel once the commit is durable (or failed).
func (s *Store) CompleteTSEJobAsync(job *TSEJob, r TSESigned) <-chan TSECompleted {
	done := make(chan TSECompleted, 1)
	var closed *TSEOutage
	s.writeAsync(func(tx *Tx) error {
		var err error
		closed, err = completeTSEJob(context.Background(), tx, job, r)
		return err
	}, func(err error) {
		if err != nil {
			closed = nil
		}
		done <- TSECompleted{Closed: closed, Err: err}
	}, false)
	return done
}

// CompleteTSEJob marks a job done and copies the signature into the mirror.
// When this empties the TSS's queue, an open outage is closed (event
// tse_recovered) in the same transaction; closed reports that.
func (s *Store) CompleteTSEJob(ctx context.Context, job *TSEJob, r TSESigned) (closed *TSEOutage, err error) {
	err = s.write(ctx, func(tx *Tx) error {
		var err error
		closed, err = completeTSEJob(ctx, tx, job, r)
		return err
	})
	return closed, err
}

func completeTSEJob(ctx context.Context, tx *Tx, job *TSEJob, r TSESigned) (*TSEOutage, error) {
	now := FormatTime(tx.Now)
	if _, err := tx.ExecContext(ctx, `UPDATE tse_jobs SET status = 'done', done_at = ?, last_http_status = NULL,
			last_error_code = NULL, last_error_message = NULL WHERE seq = ?`, now, job.Seq); err != nil {
		return nil, err
	}
	var end any
	if r.TimeEnd != nil {
		end = FormatTime(*r.TimeEnd)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE tse_transactions SET number = ?, state = ?, latest_revision = ?,
			time_start = ?, time_end = ?, signature_counter = ?, signature_value = ?, log_time = ?,
			qr_code_data = COALESCE(NULLIF(?, ''), qr_code_data), tss_serial_number = ?,
			signed_late = CASE WHEN receipt_without_tse = 1 AND ? IS NOT NULL THEN 1 ELSE signed_late END,
			updated_at = ? WHERE tx_id = ? AND latest_revision <= ?`,
		r.Number, r.State, r.Revision, FormatTime(r.TimeStart), end, r.SignatureCounter, r.SignatureValue,
		FormatTime(r.LogTime), r.QRCodeData, r.TSSSerialNumber, end, now, job.TxID, r.Revision); err != nil {
		return nil, err
	}
	// EXISTS, not COUNT: draining 5,000 queued sales must not count
	// the rest of the queue at every step.
	var pending bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM tse_jobs WHERE tss_id = ? AND status IN ('pending', 'in_flight'))`,
		job.TSSID).Scan(&pending); err != nil {
		return nil, err
	}
	if !pending {
		closed, err := closeTSEOutage(ctx, tx, job.TSSID)
		if IsNotFound(err) {
			return nil, nil
		}
		return closed, err
	}
	return nil, nil
}

// RetryTSEJob puts a failed job back for a later attempt.
func (s *Store) RetryTSEJob(ctx context.Context, seq int64, next time.Time, httpStatus int, code, msg string) error {
	return s.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE tse_jobs SET status = 'pending', next_attempt_at = ?, last_http_status = NULLIF(?, 0),
			last_error_code = ?, last_error_message = ? WHERE seq = ? AND status IN ('pending', 'in_flight')`,
			FormatTime(next), httpStatus, code, msg, seq)
		return err
	})
}

// ParkTSETx moves every unfinished revision of a transaction to attention
// (it can never succeed as sent) and records tse_error; the queue goes on
// with other transactions. Nothing is deleted.
func (s *Store) ParkTSETx(ctx context.Context, job *TSEJob, httpStatus int, code, msg string) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE tse_jobs SET status = 'attention', last_http_status = NULLIF(?, 0),
			last_error_code = ?, last_error_message = ? WHERE tx_id = ? AND status IN ('pending', 'in_flight')`,
			httpStatus, code, msg, job.TxID); err != nil {
			return err
		}
		_, err := InsertEvent(ctx, tx, job.RestaurantID, EventTSEError, map[string]any{
			"reason": "queue_stuck", "tx_id": job.TxID, "revision": job.Revision, "error_code": code, "message": msg,
		})
		return err
	})
}

// MarkTSEClientRegistered notes that the provider knows the client.
func (s *Store) MarkTSEClientRegistered(ctx context.Context, clientID string) error {
	return s.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE tse_clients SET registered_at = COALESCE(registered_at, ?) WHERE client_id = ?`,
			FormatTime(tx.Now), clientID)
		return err
	})
}

// TSEClient is a terminal known to the TSS.
type TSEClient struct {
	ClientID     string
	Serial       string
	RegisteredAt *time.Time
}

// TSEClients lists the terminals of a TSS.
func (s *Store) TSEClients(ctx context.Context, tssID string) ([]TSEClient, error) {
	rows, err := s.rs.QueryContext(ctx, `SELECT client_id, client_serial, registered_at FROM tse_clients WHERE tss_id = ?
		ORDER BY client_serial`, tssID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TSEClient
	for rows.Next() {
		var c TSEClient
		var reg sql.NullString
		if err := rows.Scan(&c.ClientID, &c.Serial, &reg); err != nil {
			return nil, err
		}
		c.RegisteredAt = parseNullTime(reg)
		out = append(out, c)
	}
	return out, rows.Err()
}

// TSEQueue is the admin's view of the outbox.
type TSEQueue struct {
	Pending        int
	Attention      int
	OldestQueuedAt *time.Time
	Items          []*TSEJob // unfinished and parked items, FIFO
}

// tseQueueCountSQL counts the unfinished jobs. Its status IN (...) is
// tse_jobs_unfinished's WHERE (migration 00019), so it reads only them,
// not the two jobs of every sale ever signed; TSEQueueState's list too.
const tseQueueCountSQL = `SELECT
	COALESCE(SUM(status IN ('pending', 'in_flight')), 0), COALESCE(SUM(status = 'attention'), 0),
	MIN(CASE WHEN status IN ('pending', 'in_flight') THEN created_at END)
	FROM tse_jobs WHERE restaurant_id = ? AND status IN ('pending', 'in_flight', 'attention')`

// TSEQueueState summarises and lists a restaurant's unfinished jobs.
func (s *Store) TSEQueueState(ctx context.Context, restaurantID string) (*TSEQueue, error) {
	q := &TSEQueue{Items: []*TSEJob{}}
	var oldest sql.NullString
	if err := s.rs.QueryRowContext(ctx, tseQueueCountSQL, restaurantID).
		Scan(&q.Pending, &q.Attention, &oldest); err != nil {
		return nil, err
	}
	q.OldestQueuedAt = parseNullTime(oldest)
	rows, err := s.rs.QueryContext(ctx, `SELECT `+tseJobColumns+tseJobFrom+`
		WHERE j.restaurant_id = ? AND j.status IN ('pending', 'in_flight', 'attention') ORDER BY j.seq LIMIT 500`, restaurantID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		j, err := scanTSEJob(rows)
		if err != nil {
			return nil, err
		}
		q.Items = append(q.Items, j)
	}
	return q, rows.Err()
}

// RetryTSEAttention puts a transaction's parked revisions back in the
// queue, due now (admin: "retry").
func (s *Store) RetryTSEAttention(ctx context.Context, restaurantID, txID string) error {
	return s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tse_jobs SET status = 'pending', attempts = 0, next_attempt_at = ?
			WHERE restaurant_id = ? AND tx_id = ? AND status = 'attention'`, FormatTime(tx.Now), restaurantID, txID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return Errorf(ETSEQueueState, "the transaction has no item that needs attention")
		}
		return nil
	})
}

// StaleTSETx is an ACTIVE transaction that nothing will finish.
type StaleTSETx struct {
	RestaurantID string
	TxID         string
	ClientID     string
	NextRevision int
}

// staleActiveSQL finds the ACTIVE transactions in tse_transactions_active
// (migration 00019), not among every one signed; status != 'superseded'
// (implied by the IN) lets the check of their jobs use tse_jobs_revision.
const staleActiveSQL = `SELECT t.restaurant_id, t.tx_id, t.client_id, t.latest_revision + 1
	FROM tse_transactions t
	WHERE t.tss_id = ? AND t.state = 'ACTIVE' AND t.latest_revision >= 1 AND t.source = 'posbox' AND t.created_at < ?
	AND NOT EXISTS (SELECT 1 FROM tse_jobs j WHERE j.tx_id = t.tx_id AND j.status IN ('pending', 'in_flight') AND j.status != 'superseded')`

// StaleActiveTSETx lists transactions started at the provider (revision 1
// done) with no unfinished job left, created before the cut-off.
func (s *Store) StaleActiveTSETx(ctx context.Context, tssID string, before time.Time) ([]StaleTSETx, error) {
	rows, err := s.rs.QueryContext(ctx, staleActiveSQL, tssID, FormatTime(before))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StaleTSETx
	for rows.Next() {
		var st StaleTSETx
		if err := rows.Scan(&st.RestaurantID, &st.TxID, &st.ClientID, &st.NextRevision); err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// CancelTSETx queues a CANCELLED revision for a transaction left ACTIVE
// at the provider and marks its parked revisions superseded.
func (s *Store) CancelTSETx(ctx context.Context, st StaleTSETx, body []byte) error {
	return s.write(ctx, func(tx *Tx) error {
		var tssID string
		var busy int
		err := tx.QueryRowContext(ctx, `SELECT tss_id, (SELECT COUNT(*) FROM tse_jobs WHERE tx_id = t.tx_id AND status IN ('pending', 'in_flight'))
			FROM tse_transactions t WHERE tx_id = ? AND restaurant_id = ? AND state = 'ACTIVE'`, st.TxID, st.RestaurantID).Scan(&tssID, &busy)
		if errors.Is(err, sql.ErrNoRows) {
			return Errorf(ETSEQueueState, "the transaction is not open at the TSE")
		}
		if err != nil {
			return err
		}
		if busy > 0 {
			return Errorf(ETSEQueueState, "the transaction still has revisions queued")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tse_jobs SET status = 'superseded' WHERE tx_id = ? AND status = 'attention'`, st.TxID); err != nil {
			return err
		}
		return insertTSEJob(ctx, tx, st.RestaurantID, tssID, st.ClientID, st.TxID, st.NextRevision, tseTxCancelled, body)
	})
}
