package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"

	"filippo.io/age"

	"posbox/console"
	"posbox/hq"
	"posbox/replica"
	"posbox/server"
	"posbox/store"
)

// listValue is a setting that may be given more than once (a flag
// repeated, a line repeated in the config file) or as several values
// separated by spaces (the environment): each adds to the list.
type listValue []string

func (v *listValue) Set(s string) error { *v = append(*v, strings.Fields(s)...); return nil }
func (v *listValue) String() string     { return strings.Join(*v, " ") }

// serveHQ runs HQ mode until ctx is done: HQ's own database (its users,
// the first admin and its password file as on a box), the followers of
// the boxes' replicas, and the server in HQ mode. It writes nothing to
// a box. ready, when not nil, receives the listening address.
func serveHQ(ctx context.Context, cfg Config, log *slog.Logger, ready chan<- string) error {
	if len(cfg.HQFollow) == 0 {
		return fmt.Errorf("hq: no box to follow: give --follow URL (or hq_follow in the config)")
	}
	for _, u := range cfg.HQFollow {
		if err := replica.CheckURL(u); err != nil {
			return fmt.Errorf("hq: --follow: %w", err)
		}
	}
	ids, err := hqIdentities(cfg, log)
	if err != nil {
		return err
	}
	cfg.ReplicaURL = "" // HQ's own database is not replicated: it holds only HQ's users
	st, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("close database", "err", err)
		}
	}()
	if err := nameHQ(ctx, st); err != nil {
		return err
	}
	followCtx, stopFollowing := context.WithCancel(context.WithoutCancel(ctx))
	defer stopFollowing()
	chain, err := hq.Start(followCtx, hq.Options{Follow: cfg.HQFollow, Identities: ids, DataDir: cfg.DataDir})
	if err != nil {
		return err
	}
	key, err := loadJWTKey(cfg.DataDir)
	if err != nil {
		return err
	}
	cert, err := loadCert(cfg, log)
	if err != nil {
		return err
	}
	scfg := server.Config{Version: version, Build: build, JWTKey: key, TokenTTL: cfg.TokenTTL, Console: console.Files, HQ: hqView{chain}}
	if cert != nil {
		scfg.RequireTLS, scfg.TLSFingerprint = true, cert.Fingerprint
	}
	srv := server.New(st, scfg, log)
	defer srv.Close()
	ln, scheme, err := listen(cfg.Addr, cert)
	if err != nil {
		return err
	}
	err = server.Run(ctx, ln, server.NewHTTPServer(srv.Handler(), log), log, ready,
		"posbox HQ serving", "addr", ln.Addr().String(), "url", scheme+"://"+ln.Addr().String()+"/", "data_dir", cfg.DataDir,
		"boxes", len(cfg.HQFollow), "version", versionString())
	if err != nil {
		return err
	}
	log.Info("posbox HQ stopped")
	return nil
}

// hqName is the name of HQ's own restaurant record (its users' home),
// in the console's header.
const hqName = "Zentrale"

// nameHQ names the record the first start made as a box's ("My
// Restaurant") after HQ.
func nameHQ(ctx context.Context, st *store.Store) error {
	rs, err := st.Restaurants(ctx)
	if err != nil || len(rs) != 1 || rs[0].Name != "My Restaurant" {
		return err
	}
	_, err = st.UpdateRestaurantSettings(ctx, rs[0].ID, store.RestaurantSettings{Name: store.Of(hqName)})
	return err
}

// hqIdentities are the keys of hq_key_file, or HQ's own key
// (DATA_DIR/hq.key), made at the first start without one.
func hqIdentities(cfg Config, log *slog.Logger) ([]age.Identity, error) {
	var ids []age.Identity
	for _, f := range cfg.HQKeyFiles {
		id, err := replica.LoadKey(f)
		if err != nil {
			return nil, fmt.Errorf("hq: --key-file: %w", err)
		}
		ids = append(ids, id)
	}
	if len(ids) > 0 {
		return ids, nil
	}
	id, created, err := replica.LoadOrCreateHQKey(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	if created {
		log.Warn("HQ key created: put its public key into every box's replica_recipients",
			"key_file", filepath.Join(cfg.DataDir, replica.HQKeyFile), "public_key", id.Recipient().String())
	}
	return []age.Identity{id}, nil
}

// hqView is the chain as the server shows it (server.HQ): package hq's
// types converted to server's own (the same fields).
type hqView struct{ h *hq.HQ }

func (v hqView) Chain(ctx context.Context) server.HQChain {
	c := v.h.Chain(ctx)
	out := server.HQChain{At: c.At, Restaurants: make([]server.HQRestaurant, 0, len(c.Restaurants)), Totals: server.HQTotals(c.Totals)}
	for _, r := range c.Restaurants {
		out.Restaurants = append(out.Restaurants, server.HQRestaurant(r))
	}
	return out
}
