package store

import (
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Error codes: stable, snake_case, the API's "code" field.
const (
	ENotFound         = "not_found"
	EValidation       = "validation_failed"
	EConflict         = "conflict"
	EAlreadyClockedIn = "already_clocked_in"
	ENotClockedIn     = "not_clocked_in"
	EShiftOverlap     = "shift_overlap"
	ELastAdmin        = "last_admin"

	// Discounts (redemption at the till).
	EDiscountInactive   = "discount_inactive"
	EDiscountNotStarted = "discount_not_started"
	EDiscountExpired    = "discount_expired"
	// EDiscountOutsideSchedule: now lies outside the discount's weekly
	// windows (docs/API.md, "The schedule").
	EDiscountOutsideSchedule = "discount_outside_schedule"
	EUsageLimitReached       = "usage_limit_reached"
	EMinOrderNotMet          = "min_order_not_met"
	// A redemption with the till's basket (docs/API.md, "Redeem with the
	// basket"): the order's earlier redemptions priced another basket, a
	// discount of the order does not combine, or nothing is left to take.
	EBasketChanged         = "basket_changed"
	EDiscountNotCombinable = "discount_not_combinable"
	ENoEligibleLines       = "no_eligible_lines"
	// Manager-only discounts (docs/API.md, "Manager-only discounts"): an
	// admins-only discount redeemed by staff, staff without an admin's
	// approval, an approval that is no active admin's.
	EDiscountAdminsOnly = "discount_admins_only"
	EApprovalRequired   = "discount_approval_required"
	EApprovalInvalid    = "discount_approval_invalid"
	// ERedemptionBooked: a sale names a redemption another sale booked
	// (docs/API.md, "Booking a redemption on the sale").
	ERedemptionBooked = "redemption_already_booked"

	// TSE.
	ETSEUnavailable = "tse_unavailable"
	// EAlreadyCancelled: a storno names a sale that another storno has
	// already reversed (docs/FISCAL.md, "Stornos").
	EAlreadyCancelled = "already_cancelled"
	// ERegistrationIncomplete: the ELSTER file of §146a (4) AO cannot be
	// made; its fields name each missing item (docs/FISCAL.md).
	ERegistrationIncomplete = "registration_incomplete"
)

// FieldError names one invalid field: the stable Code with its Params
// (what a client translates) and an English Message for API users.
type FieldError struct {
	Field   string
	Code    FieldCode
	Message string
	Params  map[string]any
}

// Error is a domain error the API shows to the caller. Any other error is
// internal and is not shown.
type Error struct {
	Code     string
	Message  string
	Fields   []FieldError
	Conflict *Conflict // the record a 409 collided with, when it has one
}

// Conflict names the record a request collided with (shift_overlap,
// time_entry_overlap) the way a person knows it: whose and when, so no
// client has to show its id. EndsAt is "" for an open time entry.
type Conflict struct {
	ID       string
	StartsAt string // store time format, as the API renders instants
	EndsAt   string
	UserName string
}

func (e *Error) Error() string {
	if len(e.Fields) > 0 {
		return fmt.Sprintf("%s: %s (%s: %s)", e.Code, e.Message, e.Fields[0].Field, e.Fields[0].Message)
	}
	return e.Code + ": " + e.Message
}

// Errorf builds an *Error.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// NotFound is the error for an unknown or foreign record.
func NotFound(what string) *Error { return Errorf(ENotFound, "%s not found", what) }

// IsNotFound reports whether err says a record does not exist. Every
// store look-up that finds nothing answers so, never with a nil record.
func IsNotFound(err error) bool { return ErrorCode(err) == ENotFound }

// Fields collects field errors during validation.
type Fields []FieldError

// Add records that field is invalid: a code from FieldCodes, an English
// message for API users, and the code's params as key/value pairs, e.g.
//
//	f.Add("name", FLength, "must be 1-200 characters", "min", 1, "max", 200)
//
// The params are exactly the ones FieldCodes documents for the code
// (TestFieldErrorsUseDocumentedCodes reads every call).
func (f *Fields) Add(field string, code FieldCode, message string, params ...any) {
	*f = append(*f, newFieldError(field, code, message, params))
}

func newFieldError(field string, code FieldCode, message string, params []any) FieldError {
	fe := FieldError{Field: field, Code: code, Message: message}
	for i := 0; i+1 < len(params); i += 2 {
		if k, ok := params[i].(string); ok {
			if fe.Params == nil {
				fe.Params = map[string]any{}
			}
			fe.Params[k] = params[i+1]
		}
	}
	return fe
}

// Err is nil when no field is invalid, else a validation_failed *Error.
func (f Fields) Err() error {
	if len(f) == 0 {
		return nil
	}
	msg := "1 field is invalid"
	if len(f) > 1 {
		msg = fmt.Sprintf("%d fields are invalid", len(f))
	}
	return &Error{Code: EValidation, Message: msg, Fields: f}
}

// Invalid is a validation error on one field; the arguments are Add's.
func Invalid(field string, code FieldCode, message string, params ...any) error {
	return Fields{newFieldError(field, code, message, params)}.Err()
}

// ErrorCode is err's domain code, or "" for an internal error.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// isUnique reports whether err is a UNIQUE constraint failure, or a
// PRIMARY KEY one (a WITHOUT ROWID table's key reports so).
func isUnique(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && (se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)
}
