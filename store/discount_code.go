package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
	"unicode/utf8"
)

// Discount code limits (docs/API.md, "Discount codes").
const (
	MaxCodesPerBatch = 1000
	MaxUsesPerCode   = 1000
	MaxGuestRefLen   = 100
	// codeDraws is how often a batch draws again after a collision with a
	// code the restaurant already has, per code, before it gives up: with
	// 31⁸ codes even a million stored ones make one retry rare.
	codeDraws = 10
)

// Errors of a redemption with codes.
const (
	EDiscountCodeRequired  = "discount_code_required"
	EDiscountCodeInvalid   = "discount_code_invalid"
	EDiscountCodeUsedUp    = "discount_code_used_up"
	EDiscountCodeGuestUsed = "discount_code_guest_used"
)

// CodeBatchInput is what the admin asks for: Count codes, each usable
// UsesPerCode times, once per guest reference when OncePerGuest.
type CodeBatchInput struct {
	Count        int64
	UsesPerCode  int64
	OncePerGuest bool
	CreatedBy    string // user id
}

// CodeBatch is one batch of codes of a discount.
type CodeBatch struct {
	ID           string
	DiscountID   string
	CreatedBy    string
	CreatedAt    time.Time
	Count        int64
	UsesPerCode  int64
	OncePerGuest bool
	Codes        []*DiscountCode
}

// DiscountCode is one code: Code is normalised ("K7QP-MX3D").
type DiscountCode struct {
	ID             string
	Code           string
	BatchID        string
	DiscountID     string
	Uses           int64
	MaxUses        int64
	OncePerGuest   bool
	LastUsedAt     *time.Time
	BatchCreatedAt time.Time
}

// CreateCodeBatch makes a batch of in.Count codes of the discount, each
// drawn by newCode (posbox/discount.NewCode): a code the restaurant has
// already is refused by the unique index and drawn again. The batch and
// all its codes commit together.
func (s *Store) CreateCodeBatch(ctx context.Context, restaurantID, discountID string, in CodeBatchInput,
	newCode func() string) (*CodeBatch, error) {
	var f Fields
	if in.Count < 1 || in.Count > MaxCodesPerBatch {
		f.Add("count", FOutOfRange, "must be from 1 to 1000", "min", 1, "max", MaxCodesPerBatch)
	}
	if in.UsesPerCode < 1 || in.UsesPerCode > MaxUsesPerCode {
		f.Add("uses_per_code", FOutOfRange, "must be from 1 to 1000", "min", 1, "max", MaxUsesPerCode)
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	var b *CodeBatch
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := discountTx(ctx, tx, restaurantID, discountID); err != nil {
			return err
		}
		b = &CodeBatch{ID: NewID(), DiscountID: discountID, CreatedBy: in.CreatedBy, CreatedAt: tx.Now,
			Count: in.Count, UsesPerCode: in.UsesPerCode, OncePerGuest: in.OncePerGuest}
		if _, err := tx.ExecContext(ctx, `INSERT INTO discount_code_batches (id, restaurant_id, discount_id, created_by,
			created_at, count, uses_per_code, once_per_guest) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			b.ID, restaurantID, discountID, b.CreatedBy, tx.NowText(), b.Count, b.UsesPerCode, b.OncePerGuest); err != nil {
			return err
		}
		for range b.Count {
			c, err := insertCode(ctx, tx, restaurantID, b, newCode)
			if err != nil {
				return err
			}
			b.Codes = append(b.Codes, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// insertCode stores one new code of batch b, drawing again on a
// collision.
func insertCode(ctx context.Context, tx *Tx, restaurantID string, b *CodeBatch, newCode func() string) (*DiscountCode, error) {
	c := &DiscountCode{ID: NewID(), BatchID: b.ID, DiscountID: b.DiscountID, MaxUses: b.UsesPerCode,
		OncePerGuest: b.OncePerGuest, BatchCreatedAt: b.CreatedAt}
	for range codeDraws {
		c.Code = newCode()
		res, err := tx.ExecContext(ctx, `INSERT INTO discount_codes (id, restaurant_id, code, batch_id, discount_id, uses,
			max_uses, once_per_guest) VALUES (?, ?, ?, ?, ?, 0, ?, ?) ON CONFLICT (restaurant_id, code) DO NOTHING`,
			c.ID, restaurantID, c.Code, c.BatchID, c.DiscountID, c.MaxUses, c.OncePerGuest)
		if err != nil {
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return nil, err
		} else if n == 1 {
			return c, nil
		}
	}
	return nil, errors.New("store: no free discount code after 10 draws")
}

const codeColumns = `c.id, c.code, c.batch_id, c.discount_id, c.uses, c.max_uses, c.once_per_guest, c.last_used_at, b.created_at`

func scanCode(row scanner) (*DiscountCode, error) {
	var c DiscountCode
	var last sql.NullString
	var created string
	if err := row.Scan(&c.ID, &c.Code, &c.BatchID, &c.DiscountID, &c.Uses, &c.MaxUses, &c.OncePerGuest, &last, &created); err != nil {
		return nil, err
	}
	c.LastUsedAt, c.BatchCreatedAt = parseNullTime(last), ParseTime(created)
	return &c, nil
}

// DiscountCodes lists the discount's codes, batch by batch (oldest
// first), each batch's codes in alphabetical order; only batch batchID
// when it is not "". 404 for an unknown discount or batch.
func (s *Store) DiscountCodes(ctx context.Context, restaurantID, discountID, batchID string) (*Discount, []*DiscountCode, error) {
	sqlTx, err := s.rdb.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, nil, err
	}
	defer sqlTx.Rollback() //nolint:errcheck // read-only
	tx := sqlTx
	d, err := scanDiscount(tx.QueryRowContext(ctx, `SELECT `+discountColumns+` FROM discounts
		WHERE restaurant_id = ? AND id = ?`, restaurantID, discountID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, NotFound("discount")
	} else if err != nil {
		return nil, nil, err
	}
	if batchID != "" {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM discount_code_batches WHERE id = ? AND discount_id = ?`, batchID, discountID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil, NotFound("code batch")
		} else if err != nil {
			return nil, nil, err
		}
	}
	codes, err := queryAll(ctx, tx, scanCode, `SELECT `+codeColumns+` FROM discount_codes c
		JOIN discount_code_batches b ON b.id = c.batch_id
		WHERE c.discount_id = ? AND (? = '' OR c.batch_id = ?)
		ORDER BY b.created_at, b.id, c.code`, discountID, batchID, batchID)
	if err != nil {
		return nil, nil, err
	}
	return d, codes, nil
}

// checkGuestRef is the 422 on a guest reference: 1-100 characters, and
// only with a code.
func checkGuestRef(f *Fields, in RedeemInput) {
	if in.GuestRef == nil {
		return
	}
	if n := utf8.RuneCountInString(*in.GuestRef); n < 1 || n > MaxGuestRefLen {
		f.Add("guest_ref", FLength, "must be 1-100 characters", "min", 1, "max", MaxGuestRefLen)
	} else if in.Code == nil {
		f.Add("guest_ref", FNotAllowed, "is only read with a code")
	}
}

// useCodeTx counts one use of the code the till gave for discount d,
// inside the redemption's transaction: nil when none was given and d
// does not require one. The conditional UPDATE decides the code's limit
// and the unique (code, guest) pair the once-per-guest rule, so both
// hold however many terminals redeem at once.
func useCodeTx(ctx context.Context, tx *Tx, restaurantID string, d *Discount, in RedeemInput) (*DiscountCode, error) {
	if in.Code == nil {
		if d.RequiresCode {
			return nil, Errorf(EDiscountCodeRequired, "discount %q is redeemed with a code only", d.Name)
		}
		return nil, nil
	}
	c, err := scanCode(tx.QueryRowContext(ctx, `SELECT `+codeColumns+` FROM discount_codes c
		JOIN discount_code_batches b ON b.id = c.batch_id
		WHERE c.restaurant_id = ? AND c.code = ?`, restaurantID, *in.Code))
	switch {
	case errors.Is(err, sql.ErrNoRows) || (err == nil && c.DiscountID != d.ID):
		// A code of another discount is as unknown here as none.
		return nil, Errorf(EDiscountCodeInvalid, "%q is not a code of discount %q", *in.Code, d.Name)
	case err != nil:
		return nil, err
	case c.OncePerGuest && in.GuestRef == nil:
		return nil, Invalid("guest_ref", FRequired, "is required: code "+c.Code+" is usable once per guest")
	}
	err = tx.QueryRowContext(ctx, `UPDATE discount_codes SET uses = uses + 1, last_used_at = ?
		WHERE id = ? AND uses < max_uses RETURNING uses`, tx.NowText(), c.ID).Scan(&c.Uses)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, Errorf(EDiscountCodeUsedUp, "code %s has been used all %d times allowed", c.Code, c.MaxUses)
	} else if err != nil {
		return nil, err
	}
	now := tx.Now
	c.LastUsedAt = &now
	if !c.OncePerGuest {
		return c, nil
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO discount_code_guest_uses (code_id, guest_ref, created_at) VALUES (?, ?, ?)
		ON CONFLICT (code_id, guest_ref) DO NOTHING`, c.ID, *in.GuestRef, tx.NowText())
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, err
	} else if n == 0 {
		return nil, Errorf(EDiscountCodeGuestUsed, "code %s has been used by this guest already", c.Code)
	}
	return c, nil
}

// CodeByText finds the restaurant's code whose normalised text is code,
// read only: pricing a basket asks which discount a code would unlock
// without using it. 404 when there is none.
func (s *Store) CodeByText(ctx context.Context, restaurantID, code string) (*DiscountCode, error) {
	c, err := scanCode(s.rdb.QueryRowContext(ctx, `SELECT `+codeColumns+` FROM discount_codes c
		JOIN discount_code_batches b ON b.id = c.batch_id
		WHERE c.restaurant_id = ? AND c.code = ?`, restaurantID, code))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("discount code")
	}
	return c, err
}
