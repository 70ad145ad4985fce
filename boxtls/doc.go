// Package boxtls is the appliance's HTTPS: its certificate and the
// listener that takes HTTPS and plain HTTP on one port.
//
// cert.go: the owner's certificate (tls_cert_file, tls_key_file) or one
// made on first start: ECDSA P-256, self-signed, for the host name,
// name.local, localhost and every interface address, valid ten years,
// kept in DATA_DIR/tls/ (folder 0700, files 0600). Tills trust it by
// pinning its SHA-256 fingerprint, which the log, /api/health, the
// console's login page and `posbox tls` show; a certificate renewed on a
// schedule would break every pinned till, and a public CA cannot sign
// for 192.168.x.y. Addresses that change later (DHCP) are not in the
// certificate; a pinning till does not care, a browser asks once.
//
// listener.go: the split listener reads the first byte of each
// connection (0x16 starts a TLS handshake) and hands the HTTP server a
// *tls.Conn or the plain connection, so http://localhost:8080/ keeps
// working on the box (make run, scripts) while the same port is HTTPS
// for everyone else; the server refuses plain requests from the network
// (server.Config.RequireTLS). TLS 1.2 at least, HTTP/1.1 only: h2 over a
// sniffed listener would need ALPN plumbing for no gain on a LAN.
package boxtls
