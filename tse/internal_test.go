package tse

import "context"

// Hooks for the external tests (package tse_test): they drive the client
// against the simulator, and tse/tsesim imports this package.

// GetTSS reads any TSS, not only the configured one.
func (f *Fiskaly) GetTSS(ctx context.Context, tssID string) (TSSInfo, error) {
	return f.getTSS(ctx, tssID)
}

// Token signs in (or reuses the access token).
func (f *Fiskaly) Token(ctx context.Context) (string, error) { return f.token(ctx, "") }
