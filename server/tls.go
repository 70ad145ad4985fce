package server

import (
	"net"
	"net/http"
	"strings"
)

// requireTLS keeps passwords and tokens off the restaurant's Wi-Fi in
// clear: a plain HTTP request from another machine is sent to https://
// when it is a page of the console (GET or HEAD outside /api, nothing
// secret in it yet), and refused otherwise; what it carried (a password
// in a login) has crossed the network already, so it is not acted on.
// Plain HTTP from the box itself (a reverse proxy, a technician's curl on
// localhost) passes.
func (s *Server) requireTLS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS != nil || fromLoopback(r.RemoteAddr) {
			next.ServeHTTP(w, r)
			return
		}
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && !isAPIPath(r.URL.Path) {
			http.Redirect(w, r, "https://"+r.Host+r.URL.RequestURI(), http.StatusPermanentRedirect)
			return
		}
		s.writeError(w, r, errHTTP(eHTTPSRequired, "this appliance speaks HTTPS: use https://"+r.Host+strings.TrimSuffix(r.URL.Path, "/")))
	})
}

// fromLoopback reports whether a RemoteAddr is this machine.
func fromLoopback(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
