package replica

import (
	"net/url"
	"strings"
)

// Redact is url as it may be logged or shown: without a password, and
// without the value of any query parameter that names a secret or key.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable replica URL)"
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
	}
	q := u.Query()
	for k := range q {
		l := strings.ToLower(k)
		if strings.Contains(l, "secret") || strings.Contains(l, "key") || strings.Contains(l, "password") || strings.Contains(l, "token") {
			q.Set(k, "xxxxx")
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}
