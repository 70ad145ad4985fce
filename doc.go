// Command posbox is the back-office appliance of a restaurant POS system.
//
// Package main wires; it holds no subsystem (docs/DESIGN.md). main.go is
// the command table (the source of "posbox help", the dispatch and, with
// manpage.go, the manual page); each cmd_*.go is one command's flags,
// prompts and printing around a package's call; config.go the settings.
// cmd_serve.go's serve is the one start/stop path, in a terminal and under
// a service manager (service*.go, kardianos/service) alike: it opens the
// store (bootstrap.go: the first admin, the signing key), the certificate
// and the TSE (tse_config.go: fiskaly once tse.json exists, else the
// embedded simulator), then starts each area from its start_*.go on one
// cron (every spec CRON_TZ=UTC). When its context ends it drains requests
// (10 s), cancels the workers, stops the cron (5 s), waits for the workers
// (10 s; what they held stays queued) and closes the database: 25 s, below
// the service manager's bounds.
package main
