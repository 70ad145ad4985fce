package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"posbox/store"
)

// approvalRequest is an admin's approval given at the till: her email
// and password, typed in by her (docs/API.md, "Manager-only discounts").
type approvalRequest struct {
	Email    *string `json:"email"`
	Password *string `json:"password"`
}

// maxReasonLen bounds the reason a manager-only discount is given for.
const maxReasonLen = 255

// redeemApproval reads reason and approval into in. The approval is
// checked like a login (the login's limits, one answer for every wrong
// one) only when staff redeem: an admin approves by redeeming herself.
// It is checked only for a discount whose approval is admin_approval;
// the store decides again, in the transaction that counts the use.
// approver is the approving admin's name, "" for none.
func (s *Server) redeemApproval(ctx context.Context, r *http.Request, discountID string, req redeemRequest, f *store.Fields, in *store.RedeemInput) (approver string, err error) {
	if req.Reason != nil {
		if n := utf8.RuneCountInString(*req.Reason); n < 1 || n > maxReasonLen || strings.TrimSpace(*req.Reason) == "" {
			f.Add("reason", store.FLength, fmt.Sprintf("must be 1-%d characters, not only spaces", maxReasonLen), "min", 1, "max", maxReasonLen)
		}
		in.Reason = req.Reason
	}
	c := caller(ctx)
	in.ByAdmin = c.user.Role == store.RoleAdmin
	if in.ByAdmin {
		return c.user.Name, nil
	}
	a := req.Approval
	if a == nil {
		return "", nil
	}
	// An approval sent for a discount that needs none is not checked: a
	// wrong password there refuses nothing and counts toward no limit.
	if need, err := s.store.DiscountApproval(ctx, c.restaurant.ID, discountID); err != nil || need != store.ApprovalAdmin {
		return "", err
	}
	required(f, "approval.email", a.Email)
	required(f, "approval.password", a.Password)
	if a.Email != nil && len(*a.Email) > store.MaxEmailLen {
		f.Add("approval.email", store.FTooLong, fmt.Sprintf("must be at most %d characters", store.MaxEmailLen), "max", store.MaxEmailLen)
	}
	if a.Password != nil && len(*a.Password) > store.MaxPasswordLen {
		f.Add("approval.password", store.FTooLong, fmt.Sprintf("must be at most %d bytes", store.MaxPasswordLen), "max", store.MaxPasswordLen)
	}
	if len(*f) > 0 {
		return "", nil
	}
	email, ip := strings.ToLower(strings.TrimSpace(*a.Email)), clientAddr(r)
	if ok, wait := s.loginLimiter.allow(ip, email, s.now()); !ok {
		return "", &httpError{code: eRateLimited, detail: "too many approvals with wrong passwords; try again later", retryAfter: wait}
	}
	u, err := s.store.Authenticate(ctx, email, *a.Password)
	switch {
	case store.ErrorCode(err) == store.ENotFound || (err == nil && (u.RestaurantID != c.restaurant.ID || u.Role != store.RoleAdmin)):
		s.log.WarnContext(ctx, "discount approval refused", "email", email, "remote", ip)
		return "", store.Errorf(store.EApprovalInvalid, "the approval is not an active admin's of this restaurant, or the password is wrong")
	case err != nil:
		return "", err
	}
	s.loginLimiter.succeeded(ip, email, s.now())
	in.ApprovedBy = u.ID
	return u.Name, nil
}
