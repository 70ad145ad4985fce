-- +goose Up
-- The cash book of each register (docs/CASHDESK.md): the running cash
-- balance, the cash movements booked through posbox and the cash counts.
-- A movement is a sale too (a signed receipt with its DSFinV-K business
-- case, in tse_transactions and its details); these tables keep what the
-- sale does not: the running balance, the reason, the voucher, the count.
-- Everything here is append-only.

-- The running balance of a register's euro cash (the Soll-Bestand): one
-- row per counted sale with euro cash recorded once the register's cash
-- book has begun (its first booked movement), and one reversing row when
-- the TSE cancels such a sale. seq orders the rows for good (an INTEGER
-- PRIMARY KEY survives VACUUM); each row's balance is the previous one's
-- plus its cents, which the trigger enforces.
CREATE TABLE cash_ledger (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    restaurant_id TEXT NOT NULL REFERENCES restaurants(id),
    client_serial TEXT NOT NULL,
    tx_id         TEXT NOT NULL REFERENCES tse_transactions(tx_id),
    cents         INTEGER NOT NULL,
    balance_cents INTEGER NOT NULL,
    reverses      INTEGER NOT NULL DEFAULT 0 CHECK (reverses IN (0, 1)),
    created_at    TEXT NOT NULL,
    UNIQUE (tx_id, reverses)
);
CREATE INDEX cash_ledger_register ON cash_ledger(restaurant_id, client_serial, seq);

-- +goose StatementBegin
CREATE TRIGGER cash_ledger_running BEFORE INSERT ON cash_ledger
WHEN NEW.balance_cents != coalesce((SELECT balance_cents FROM cash_ledger
        WHERE restaurant_id = NEW.restaurant_id AND client_serial = NEW.client_serial ORDER BY seq DESC LIMIT 1), 0) + NEW.cents
BEGIN
    SELECT RAISE(ABORT, 'cash_ledger: balance must be the previous balance plus cents');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER cash_ledger_no_update BEFORE UPDATE ON cash_ledger
BEGIN
    SELECT RAISE(ABORT, 'cash_ledger is append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER cash_ledger_no_delete BEFORE DELETE ON cash_ledger
BEGIN
    SELECT RAISE(ABORT, 'cash_ledger is append-only');
END;
-- +goose StatementEnd
-- A sale the TSE cancels counts nothing (as in the closing): its cash
-- leaves the balance by a reversing row.
-- +goose StatementBegin
CREATE TRIGGER cash_ledger_tse_cancelled AFTER UPDATE OF state ON tse_transactions
WHEN NEW.state = 'CANCELLED' AND OLD.state != 'CANCELLED'
BEGIN
    INSERT INTO cash_ledger (restaurant_id, client_serial, tx_id, cents, balance_cents, reverses, created_at)
    SELECT l.restaurant_id, l.client_serial, l.tx_id, -l.cents,
           (SELECT x.balance_cents FROM cash_ledger x WHERE x.restaurant_id = l.restaurant_id
              AND x.client_serial = l.client_serial ORDER BY x.seq DESC LIMIT 1) - l.cents,
           1, NEW.updated_at
    FROM cash_ledger l WHERE l.tx_id = NEW.tx_id AND l.reverses = 0;
END;
-- +goose StatementEnd

-- A cash count (Kassensturz): what was counted against the balance it
-- was compared with (ledger_seq, the register's last ledger row then).
-- A difference is booked as a movement (DifferenzSollIst) in the same
-- transaction; the partial unique index lets one count per balance book
-- a difference, and the trigger refuses a count whose balance is no longer
-- the register's last: of two counts at once, one books.
CREATE TABLE cash_counts (
    id               TEXT PRIMARY KEY,
    restaurant_id    TEXT NOT NULL REFERENCES restaurants(id),
    client_serial    TEXT NOT NULL,
    count_no         INTEGER NOT NULL CHECK (count_no >= 1),
    ledger_seq       INTEGER NOT NULL REFERENCES cash_ledger(seq),
    expected_cents   INTEGER NOT NULL,
    counted_cents    INTEGER NOT NULL CHECK (counted_cents >= 0),
    difference_cents INTEGER NOT NULL CHECK (difference_cents = counted_cents - expected_cents),
    denominations    TEXT CHECK (denominations IS NULL OR (json_valid(denominations) AND json_type(denominations) = 'object')),
    difference_tx_id TEXT UNIQUE REFERENCES tse_transactions(tx_id),
    counted_by       TEXT,
    counted_by_name  TEXT NOT NULL,
    created_at       TEXT NOT NULL,
    CHECK ((difference_cents = 0) = (difference_tx_id IS NULL)),
    UNIQUE (restaurant_id, client_serial, count_no)
);
CREATE UNIQUE INDEX cash_counts_one_difference ON cash_counts(restaurant_id, client_serial, ledger_seq)
    WHERE difference_cents != 0;
CREATE INDEX cash_counts_time ON cash_counts(restaurant_id, created_at);

-- +goose StatementBegin
CREATE TRIGGER cash_counts_current BEFORE INSERT ON cash_counts
WHEN NEW.ledger_seq IS NOT (SELECT max(seq) FROM cash_ledger
        WHERE restaurant_id = NEW.restaurant_id AND client_serial = NEW.client_serial)
  OR NEW.expected_cents != (SELECT balance_cents FROM cash_ledger WHERE seq = NEW.ledger_seq)
BEGIN
    SELECT RAISE(ABORT, 'cash_counts: the count must compare with the register''s current balance');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER cash_counts_gap_free BEFORE INSERT ON cash_counts
WHEN NEW.count_no != (SELECT coalesce(max(count_no), 0) + 1 FROM cash_counts
                      WHERE restaurant_id = NEW.restaurant_id AND client_serial = NEW.client_serial)
BEGIN
    SELECT RAISE(ABORT, 'cash_counts: count_no must be the next number of the register');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER cash_counts_no_update BEFORE UPDATE ON cash_counts
BEGIN
    SELECT RAISE(ABORT, 'cash_counts are immutable');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER cash_counts_no_delete BEFORE DELETE ON cash_counts
BEGIN
    SELECT RAISE(ABORT, 'cash_counts are immutable');
END;
-- +goose StatementEnd

-- A cash movement booked through posbox (the sale tx_id is its signed
-- receipt): its kind, signed cents (the sign is the kind's, a reversal's
-- the opposite), reason and voucher, the movement it reverses (at most
-- one reversal each) or the count whose difference it books, and who
-- booked it. movement_no is gap-free per register.
CREATE TABLE cash_movements (
    tx_id          TEXT PRIMARY KEY REFERENCES tse_transactions(tx_id),
    restaurant_id  TEXT NOT NULL REFERENCES restaurants(id),
    client_serial  TEXT NOT NULL,
    movement_no    INTEGER NOT NULL CHECK (movement_no >= 1),
    kind           TEXT NOT NULL CHECK (kind IN ('opening_float', 'deposit', 'private_deposit', 'private_withdrawal',
                       'transfer_in', 'transfer_out', 'wage', 'expense', 'tip_payout', 'difference')),
    cents          INTEGER NOT NULL CHECK (cents != 0),
    reason         TEXT NOT NULL DEFAULT '',
    voucher_no     TEXT NOT NULL DEFAULT '',
    reverses_tx_id TEXT UNIQUE REFERENCES cash_movements(tx_id),
    count_id       TEXT UNIQUE REFERENCES cash_counts(id),
    booked_by      TEXT,
    booked_by_name TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    UNIQUE (restaurant_id, client_serial, movement_no),
    CHECK ((kind = 'difference') = (count_id IS NOT NULL) OR reverses_tx_id IS NOT NULL),
    CHECK (reverses_tx_id IS NOT NULL OR kind = 'difference'
        OR (kind IN ('opening_float', 'deposit', 'private_deposit', 'transfer_in') AND cents > 0)
        OR (kind IN ('private_withdrawal', 'transfer_out', 'wage', 'expense', 'tip_payout') AND cents < 0)),
    CHECK (kind != 'expense' OR reverses_tx_id IS NOT NULL OR (reason != '' AND voucher_no != ''))
);
CREATE INDEX cash_movements_time ON cash_movements(restaurant_id, created_at);

-- +goose StatementBegin
CREATE TRIGGER cash_movements_gap_free BEFORE INSERT ON cash_movements
WHEN NEW.movement_no != (SELECT coalesce(max(movement_no), 0) + 1 FROM cash_movements
                         WHERE restaurant_id = NEW.restaurant_id AND client_serial = NEW.client_serial)
BEGIN
    SELECT RAISE(ABORT, 'cash_movements: movement_no must be the next number of the register');
END;
-- +goose StatementEnd
-- A reversal is the same kind, on the same register, for the opposite amount.
-- +goose StatementBegin
CREATE TRIGGER cash_movements_reversal BEFORE INSERT ON cash_movements
WHEN NEW.reverses_tx_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM cash_movements o WHERE o.tx_id = NEW.reverses_tx_id
        AND o.reverses_tx_id IS NULL AND o.kind = NEW.kind AND o.client_serial = NEW.client_serial
        AND o.restaurant_id = NEW.restaurant_id AND o.cents = -NEW.cents)
BEGIN
    SELECT RAISE(ABORT, 'cash_movements: a reversal must negate an original movement of its register');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER cash_movements_no_update BEFORE UPDATE ON cash_movements
BEGIN
    SELECT RAISE(ABORT, 'cash_movements are immutable: reverse by a counter-entry');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER cash_movements_no_delete BEFORE DELETE ON cash_movements
BEGIN
    SELECT RAISE(ABORT, 'cash_movements are immutable: reverse by a counter-entry');
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE cash_movements;
DROP TABLE cash_counts;
DROP TRIGGER cash_ledger_tse_cancelled;
DROP TABLE cash_ledger;
