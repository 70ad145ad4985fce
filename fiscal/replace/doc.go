// Package replace is the guided replacement of a TSS (docs/TSE.md,
// "Replacing the TSS"): a staged procedure whose state is a row of
// tse_replacements, so a crash midway resumes at the step it reached.
// The steps, in the order the law and fiskaly need:
//
//  1. closing: every register closed through the closing code; refused
//     while sales wait unsigned, unless the TSE can no longer sign
//     (unreachable, expired, disabled) and the admin gives a reason;
//  2. export: the final TAR export of the old TSS pulled and verified
//     into the archive (the archive's own run), up to its last counter;
//  3. disable: the old TSS DISABLED at the provider (final at fiskaly),
//     and the disabling's own log message archived too;
//  4. setup: a new TSS with the same API key (tse.SetupReplacement),
//     tse.json replaced, the old one kept;
//  5. switch: the queue moves to the new TSS by a controlled restart of
//     the service (Options.Restart); sales meanwhile answer 503 with
//     Retry-After (Replacer.Blocking). After the restart Finish records
//     the change: the new TSS's in-service date in the fiscal master
//     data, the old one's out-of-service date in the replacement's row.
//
// replace.go: the replacer and its steps; steps.go: what each step does.
package replace
