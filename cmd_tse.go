package main

import (
	"context"
	"errors"
	"flag"
	"io"

	"posbox/tse"
)

const tseUsage = "usage: posbox tse setup --api-key K --api-secret S [--url URL] [--data-dir DIR]"

// cmdTSE is `posbox tse setup`: provisions a fiskaly TSS (tse.Setup).
func cmdTSE(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "setup" {
		return errors.New(tseUsage)
	}
	fs := flag.NewFlagSet("tse setup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", tse.FiskalyURL, "fiskaly SIGN DE v2 URL (or any compatible one, e.g. a posbox tse-sim)")
	apiKey := fs.String("api-key", "", "API key (use a TEST key first)")
	apiSecret := fs.String("api-secret", "", "API secret")
	cfg, err := loadConfig(fs, args[1:], "log_format", "log_level")
	if err != nil {
		return usageErr(err)
	}
	if *apiKey == "" || *apiSecret == "" {
		return errors.New("tse setup: --api-key and --api-secret are required\n" + tseUsage)
	}
	return tse.Setup(ctx, cfg.DataDir, *url, *apiKey, *apiSecret, stdout, quietLogger(stderr))
}
