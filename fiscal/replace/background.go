package replace

import (
	"context"
	"sync"

	"posbox/store"
)

// background runs the steps after the request that asked for them has
// been answered: the final export can take minutes at fiskaly.
type background struct {
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func (b *background) init() {
	b.once.Do(func() { b.ctx, b.cancel = context.WithCancel(context.Background()) })
}

// Begin records a new replacement (as Start) and runs its steps in the
// background; it answers the replacement as recorded. Follow it with
// Current.
func (r *Replacer) Begin(ctx context.Context, restaurantID, userID, forceReason string) (*store.TSEReplacement, error) {
	if err := r.serves(restaurantID); err != nil {
		return nil, err
	}
	rep, err := r.record(ctx, restaurantID, userID, forceReason)
	if err != nil {
		return nil, err
	}
	r.goContinue(restaurantID)
	return rep, nil
}

// Resume goes on with the replacement under way in the background (an
// admin's "continue", or the start after a crash); nil when none is.
func (r *Replacer) Resume(ctx context.Context, restaurantID string) (*store.TSEReplacement, error) {
	if err := r.serves(restaurantID); err != nil {
		return nil, err
	}
	rep, err := r.Current(ctx, restaurantID)
	if err != nil || rep == nil {
		return rep, err
	}
	r.goContinue(restaurantID)
	return rep, nil
}

func (r *Replacer) goContinue(restaurantID string) {
	r.bg.init()
	r.bg.wg.Add(1)
	go func() {
		defer r.bg.wg.Done()
		if _, err := r.Continue(r.bg.ctx, restaurantID); err != nil && r.bg.ctx.Err() == nil {
			r.log.Warn("TSS replacement", "err", err)
		}
	}()
}

// Close stops a background run (resumed at the next start) and waits.
func (r *Replacer) Close() {
	r.bg.init()
	r.bg.cancel()
	r.bg.wg.Wait()
}
