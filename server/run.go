package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// NewHTTPServer is the appliance's HTTP server: timeouts that a slow or
// silent till cannot hold a connection past, errors to the log.
func NewHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// drainTimeout bounds how long a stop waits for requests in flight.
const drainTimeout = 10 * time.Second

// Run serves hs on ln until ctx ends, then drains: it stops
// accepting, answers the requests already accepted (at most drainTimeout)
// and returns. Once requests are accepted it logs msg with attrs and, when
// ready is not nil, sends it the listening address. The appliance and the
// TSE simulator (posbox tse-sim) start and stop the same way.
func Run(ctx context.Context, ln net.Listener, hs *http.Server, log *slog.Logger, ready chan<- string, msg string, attrs ...any) error {
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	log.Info(msg, attrs...)
	if ready != nil {
		ready <- ln.Addr().String()
	}
	select {
	case <-ctx.Done():
	case err := <-served:
		return err
	}
	log.Info("stopping: draining requests in flight", "bound", drainTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), drainTimeout)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		log.Warn("http shutdown", "err", err)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
