package store

// FieldCode is a field error's stable machine code: the problem's
// errors[].code, which clients translate (the console shows no API
// message). Codes are made only here, each with its entry in FieldCodes,
// so no field error can carry a code that docs/API.md does not list.
type FieldCode struct{ name string }

// String is the code as the API spells it.
func (c FieldCode) String() string { return c.name }

// FieldCodeDoc documents one field code; docs/API.md lists exactly these
// (TestAPIDocListsFieldCodes) and the console translates each one.
type FieldCodeDoc struct {
	Code    FieldCode
	Meaning string
	Params  []string // the members of errors[].params, always all present
}

// FieldCodes is every field code, in the order docs/API.md lists them.
var FieldCodes []FieldCodeDoc

func fieldCode(name, meaning string, params ...string) FieldCode {
	c := FieldCode{name}
	FieldCodes = append(FieldCodes, FieldCodeDoc{c, meaning, params})
	return c
}

// The field codes. A param named field holds another field's name, which
// a client shows by that field's label.
var (
	// Presence and shape.
	FRequired   = fieldCode("required", "missing or empty")
	FNotNull    = fieldCode("not_null", "must not be null")
	FNotAllowed = fieldCode("not_allowed", "must be absent (or null) here, e.g. a target for a discount on the whole order")
	FWrongType  = fieldCode("wrong_type", "has the wrong JSON type; `type` is string, integer, number, boolean, array or object", "type")
	FNotUTF8    = fieldCode("not_utf8", "the body is not valid UTF-8")
	FBadFormat  = fieldCode("bad_format", "does not have the documented form (the message says which)")
	// The §146a (4) AO registration: the simulator is no TSE to register.
	FNotCertified = fieldCode("not_certified", "must be a certified TSE: the built-in simulator is none and is never registered")

	// Text.
	FLength       = fieldCode("length", "must have `min` to `max` characters", "min", "max")
	FTooLong      = fieldCode("too_long", "must have at most `max` characters", "max")
	FControlChars = fieldCode("control_chars", "must not contain control characters or line breaks")

	// Numbers.
	FTooSmall        = fieldCode("too_small", "must be `min` or more", "min")
	FNotPositive     = fieldCode("not_positive", "must be greater than 0")
	FOutOfRange      = fieldCode("out_of_range", "must be from `min` to `max`", "min", "max")
	FTooLarge        = fieldCode("too_large", "is too large; `max` is the largest value (a decimal string)", "max")
	FZero            = fieldCode("zero", "must not be 0")
	FNotDecimal      = fieldCode("not_decimal", "must be a plain decimal number such as 12.5")
	FTooManyDecimals = fieldCode("too_many_decimals", "must have at most `places` decimal places", "places")

	// Lists and choices.
	FTooMany   = fieldCode("too_many", "must have at most `max` entries", "max")
	FTooFew    = fieldCode("too_few", "must have at least `min` entries", "min")
	FOneOf     = fieldCode("one_of", "must be one of `values`", "values")
	FDuplicate = fieldCode("duplicate", "is already used (by another record, or twice in the list)")

	// Formats.
	FNotUUID        = fieldCode("not_uuid", "must be an id (a lowercase UUID)")
	FNotEmail       = fieldCode("not_email", "must be one email address")
	FNotPhone       = fieldCode("not_phone", "must be an E.164 phone number such as +4915112345678")
	FNotURL         = fieldCode("not_url", "must be an absolute http or https URL")
	FNotDate        = fieldCode("not_date", "must be a date YYYY-MM-DD")
	FNotTime        = fieldCode("not_time", "must be a time HH:MM")
	FNotTimestamp   = fieldCode("not_timestamp", "must be an RFC 3339 timestamp with an offset")
	FNotTimezone    = fieldCode("not_timezone", "must be an IANA timezone such as Europe/Berlin")
	FNotCountry     = fieldCode("not_country", "must be an ISO 3166-1 alpha-3 country code such as DEU")
	FNotCurrency    = fieldCode("not_currency", "must be an ISO 4217 currency code such as EUR")
	FNotEventType   = fieldCode("not_event_type", "must be an event name: a lowercase letter, then up to 63 of a-z 0-9 _ .")
	FNotStaffNumber = fieldCode("not_staff_number", "must be 1 to `max` letters, digits or '-'", "max")
	FNotPIN         = fieldCode("not_pin", "must be 4 to 8 digits")

	// Dates and times.
	FInFuture        = fieldCode("in_future", "must not be in the future")
	FDateOutOfRange  = fieldCode("date_out_of_range", "must lie between the years 0001 and 9999")
	FRangeTooLong    = fieldCode("range_too_long", "the range may span at most `days` days", "days")
	FBreakTooLong    = fieldCode("break_too_long", "the break must be shorter than the time worked (`minutes` minutes)", "minutes")
	FDSTGap          = fieldCode("dst_gap", "the shift has no length: the clocks go forward in this interval")
	FNothingToChange = fieldCode("nothing_to_change", "the request changes nothing")

	// Comparisons with another field (named by `field`).
	FBeforeField        = fieldCode("before_field", "must not be before `field`", "field")
	FAfterField         = fieldCode("after_field", "must not be after `field`", "field")
	FNotAfterField      = fieldCode("not_after_field", "must be later than `field`", "field")
	FEqualsField        = fieldCode("equals_field", "must differ from `field`", "field")
	FExceedsField       = fieldCode("exceeds_field", "must not exceed `field`", "field")
	FSignOfField        = fieldCode("sign_of_field", "must have the sign of `field` (0 only when it is 0)", "field")
	FRequiresField      = fieldCode("requires_field", "is given only together with `field`", "field")
	FBelowUsed          = fieldCode("below_used", "must not be below the times already used (`count`)", "count")
	FWrongPassword      = fieldCode("wrong_password", "the current password is wrong")
	FSamePassword       = fieldCode("same_password", "the new password must differ from the current one")
	FUnknownUser        = fieldCode("unknown_user", "names no user of this restaurant")
	FReservedEvent      = fieldCode("reserved_event", "is an event posbox raises itself; the POS posts only its own events")
	FNotSetUp           = fieldCode("not_set_up", "the channel is not set up on this box (its settings are missing)")
	FNotActiveUser      = fieldCode("not_active_user", "names no active user of this restaurant")
	FUnknownTill        = fieldCode("unknown_register", "names no register whose sales posbox has")
	FUnknownSale        = fieldCode("unknown_sale", "names no sale of this restaurant")
	FNotCancellable     = fieldCode("not_cancellable", "names a sale that cannot be cancelled (an order or a storno)")
	FStornoTotal        = fieldCode("storno_total", "a storno must reverse the whole sale's total")
	FSumMismatch        = fieldCode("sum_mismatch", "the lines, VAT amounts or payments do not add up (the message says which)")
	FDiscountAdds       = fieldCode("discount_adds", "a discount line must not add to the total")
	FUnknownRedemption  = fieldCode("unknown_redemption", "names no redemption of this restaurant and of the line's discount (for a storno: none the cancelled sale booked)")
	FRedemptionMismatch = fieldCode("redemption_mismatch", "the discount lines of a redemption must take off, per VAT rate, exactly what it recorded (the message says how much)")
)
