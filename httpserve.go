package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// drainTimeout bounds how long a stop waits for requests in flight.
const drainTimeout = 10 * time.Second

// serveHTTP serves hs on ln until ctx ends, then drains: it stops
// accepting, answers the requests already accepted (at most drainTimeout)
// and returns. Once requests are accepted it logs msg with attrs and, when
// ready is not nil, sends it the listening address. The appliance and the
// TSE simulator start and stop the same way.
func serveHTTP(ctx context.Context, ln net.Listener, hs *http.Server, log *slog.Logger, ready chan<- string, msg string, attrs ...any) error {
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
