package hq

import (
	"strings"

	"posbox/replica"
)

// ErrorKinds are the words Restaurant.ErrorKind takes: waiting (no copy
// yet, the first restore runs), unreachable (the replica does not
// answer, or its folder is missing), key (HQ's key does not open the
// box's replica: the box does not list it in replica_recipients), empty
// (the replica holds no database yet), failed (anything else; the error
// says what). The replica's texts are Litestream's and its clients'.
var ErrorKinds = []string{"waiting", "unreachable", "key", "empty", "failed"}

func errorKind(msg string) string {
	m := strings.ToLower(msg)
	switch {
	case msg == "":
		return ""
	case strings.Contains(m, "the key does not open"), strings.Contains(m, "no identity matched"):
		return "key"
	case strings.Contains(m, "holds no database"), strings.Contains(m, "no snapshots"):
		return "empty"
	case msg == replica.ErrNotReady.Error():
		return "waiting"
	case strings.Contains(m, "not answering"), strings.Contains(m, "connect"), strings.Contains(m, "no such file"),
		strings.Contains(m, "no such host"), strings.Contains(m, "refused"), strings.Contains(m, "timeout"),
		strings.Contains(m, "unreachable"), strings.Contains(m, "list:"):
		return "unreachable"
	}
	return "failed"
}
