package store

import "context"

// The writer's copy of the enabled notification rules. Every event a
// write raises (two per clock-in/out pair) asked notification_settings
// which rules match it; the answer changes only when an admin edits the
// rules. The copy lives on the writer goroutine, which alone writes, and
// the pre-update hook drops it the moment any statement on the writer
// connection changes a row of notification_settings (cascades included),
// so an event sees the rules of its own transaction, as the query did.
// It is also dropped when an operation or a batch fails (it may have
// been filled from a change that was then rolled back) and when the hook
// moves to a new connection.

// maxCachedRuleKeys bounds the copy (restaurants × event types).
const maxCachedRuleKeys = 1024

type ruleKey struct{ restaurantID, eventType string }

// dropRules forgets the copy. Only the writer goroutine calls it.
func (w *writer) dropRules() { w.rules = nil }

// matchingRules answers the ids of the enabled rules of the event's
// restaurant and type, oldest first: from the copy, else from the
// database (then kept).
func matchingRules(ctx context.Context, tx *Tx, restaurantID, eventType string) ([]string, error) {
	var w *writer
	if tx.st != nil {
		w = tx.st.w
	}
	k := ruleKey{restaurantID, eventType}
	if w != nil {
		if ids, ok := w.rules[k]; ok {
			return ids, nil
		}
	}
	ids, err := queryRules(ctx, tx, k)
	if err != nil || w == nil {
		return ids, err
	}
	if w.rules == nil || len(w.rules) >= maxCachedRuleKeys {
		w.rules = map[ruleKey][]string{}
	}
	w.rules[k] = ids
	return ids, nil
}

func queryRules(ctx context.Context, tx *Tx, k ruleKey) ([]string, error) {
	return queryAll(ctx, tx, scanString, `SELECT id FROM notification_settings
		WHERE restaurant_id = ? AND event_type = ? AND is_enabled = 1 ORDER BY created_at, id`, k.restaurantID, k.eventType)
}
