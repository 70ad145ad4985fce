-- +goose Up
-- A sale is reversed (storno) at most once (docs/FISCAL.md, "Stornos").
-- Before this migration a sale could be reversed again and again, and an
-- aborted transaction (CANCELLATION, ABORT, ...) was accepted with
-- cancels. Those records are signed and stay as they are; cancels_void
-- marks the ones that do not reverse the sale they name, so that the
-- unique index below can hold for the rest.
ALTER TABLE tse_sale_details ADD COLUMN cancels_void INTEGER NOT NULL DEFAULT 0 CHECK (cancels_void IN (0, 1));

-- A sale that moves no money (not a receipt, invoice or benefit in kind,
-- or aborted at the TSE) reverses nothing.
UPDATE tse_sale_details SET cancels_void = 1
WHERE cancels_tx_id IS NOT NULL AND tx_id IN (
    SELECT tx_id FROM tse_transactions
    WHERE receipt_type NOT IN ('RECEIPT', 'INVOICE', 'BENEFIT_IN_KIND') OR state = 'CANCELLED');

-- Of several stornos of one sale the first recorded (the lowest row
-- number, DSFinV-K BON_NR) is its storno; the later ones are marked. A
-- row is marked only when an earlier one stays, so the order in which
-- rows are updated does not matter.
UPDATE tse_sale_details SET cancels_void = 1
WHERE cancels_tx_id IS NOT NULL AND cancels_void = 0 AND EXISTS (
    SELECT 1 FROM tse_sale_details o
    JOIN tse_transactions ot ON ot.tx_id = o.tx_id
    JOIN tse_transactions me ON me.tx_id = tse_sale_details.tx_id
    WHERE o.cancels_tx_id = tse_sale_details.cancels_tx_id AND o.tx_id != tse_sale_details.tx_id
      AND o.cancels_void = 0 AND ot.rowid < me.rowid
      AND ot.receipt_type IN ('RECEIPT', 'INVOICE', 'BENEFIT_IN_KIND') AND ot.state != 'CANCELLED');

-- At most one storno per sale: a second one is refused by the database
-- even if a writer bypassed the store's check.
DROP INDEX tse_sale_details_cancels;
CREATE UNIQUE INDEX tse_sale_details_one_storno ON tse_sale_details(cancels_tx_id)
    WHERE cancels_tx_id IS NOT NULL AND cancels_void = 0;

-- A storno the TSE aborted (an admin cancelled it in the queue) reverses
-- nothing: the sale counts again and may be reversed anew.
-- +goose StatementBegin
CREATE TRIGGER tse_storno_aborted AFTER UPDATE OF state ON tse_transactions
WHEN NEW.state = 'CANCELLED' AND OLD.state != 'CANCELLED'
BEGIN
    UPDATE tse_sale_details SET cancels_void = 1 WHERE tx_id = NEW.tx_id AND cancels_tx_id IS NOT NULL;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER tse_storno_aborted;
DROP INDEX tse_sale_details_one_storno;
CREATE INDEX tse_sale_details_cancels ON tse_sale_details(cancels_tx_id) WHERE cancels_tx_id IS NOT NULL;
ALTER TABLE tse_sale_details DROP COLUMN cancels_void;
