// Package hq is posbox's HQ mode (`posbox hq`): the same binary follows
// the replicas of a chain's boxes read-only and sums them up. It knows
// nothing of HTTP; server shows what it returns (server.HQ).
//
//   - hq.go: Start (one follower per box, package replica's Follow), the
//     chain as of now: per restaurant its summary (store.HQSummary, read
//     from the box's copy with store.OpenReadOnly), how old the copy is,
//     what failed; totals across the chain.
//
// HQ never writes to a box: a follower only lists and reads the replica;
// it writes its own copy in HQ's data dir (DATA_DIR/hq/), which is only
// a cache, restored afresh whenever it cannot continue (docs/HQ.md).
package hq
