package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	_ "time/tzdata" // Windows and minimal systems have no IANA database
)

// Set at build time with -ldflags "-X main.version=... -X main.build=...".
var (
	version = "dev"
	build   = ""
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// command is one row of the command table.
type command struct {
	name     string   // the word after "posbox"
	aliases  []string // other spellings of name
	synopsis string   // the usage line after "posbox ", starting with name
	note     string   // shown in parentheses after the synopsis in "posbox help"
	summary  string   // what it does, for the manual page (plain text)
	hidden   bool     // in neither "posbox help" nor the manual page
	run      func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

// commandTable is the command table: run dispatches through it, and both
// "posbox help" (usage) and the manual page posbox(1) (manPage, in
// manpage.go) are rendered from it, so none of them can leave a command
// out. A function rather than a variable: help and man refer back to it.
func commandTable() []command {
	return append([]command{
		{name: "serve", synopsis: "serve [--addr HOST:PORT] [--data-dir DIR] [--config FILE]",
			summary: "Run the appliance in the foreground: the HTTP API and the admin console on --addr, " +
				"TSE signing with its offline queue, notifications and the nightly backup, until SIGINT or SIGTERM. " +
				"The first start creates the database, a restaurant and its admin (the password is in DATA_DIR/initial-admin-password). " +
				"Started by systemd or the Windows Service Control Manager it runs as that service.",
			run: func(ctx context.Context, args []string, _ io.Reader, _, stderr io.Writer) error {
				return cmdServe(ctx, args, stderr)
			}},
		{name: "migrate", synopsis: "migrate [--vacuum]",
			summary: "Apply the database migrations the binary carries and exit (serve does this at every start); --vacuum also switches an older database to incremental vacuum (stop the service first; docs/RETENTION.md).",
			run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
				return cmdMigrate(ctx, args, stdout, stderr)
			}},
		{name: "user", synopsis: "user add --email E --name N --role admin|staff [--restaurant ID] --password-stdin",
			summary: "Create a user. The password is read from the first line of standard input, never from the command line. " +
				"Without --restaurant the user joins the only restaurant (a new database gets one).",
			run: cmdUser},
		{name: "token", synopsis: "token --email E",
			summary: "Print an access token for the user, valid for token_ttl.",
			run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
				return cmdToken(ctx, args, stdout, stderr)
			}},
		{name: "tse", synopsis: "tse setup --api-key K --api-secret S [--url URL]", note: "default: fiskaly",
			summary: "Set up the fiskaly SIGN DE TSE (or a compatible one at --url) and switch the appliance to it. " +
				"An interrupted setup resumes; use a test API key first.",
			run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
				return cmdTSE(ctx, args, stdout, stderr)
			}},
		{name: "tse-sim", synopsis: "tse-sim [--addr HOST:PORT] --api-key K --api-secret S [--cert-validity D] [--max-active-tx N] [--max-clients N] [--export-delay D]",
			summary: "Serve the TSE simulator over HTTP with fiskaly SIGN DE v2's interface, for tests and training, until SIGINT or SIGTERM.",
			run: func(ctx context.Context, args []string, _ io.Reader, _, stderr io.Writer) error {
				return cmdTSESim(ctx, args, stderr)
			}},
		{name: "backup", synopsis: "backup [--complete [--passphrase-file F]] [--data-dir DIR] FILE",
			summary: "Write a consistent, checked copy of the database to FILE while the appliance runs (a plain SQLite file). " +
				"With --complete: the database, jwt.key, the TSE settings and simulator state, the fiscal archive and the HTTPS certificate in one file " +
				"(name it FILE.posbox-backup), encrypted with a passphrase of at least 12 characters from --passphrase-file or POSBOX_BACKUP_PASSPHRASE. " +
				"Never overwrites a file or creates a folder.",
			run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
				return cmdBackup(ctx, args, stdout, stderr)
			}},
		{name: "restore", synopsis: "restore [--passphrase-file F] [--data-dir DIR] FILE | --from URL --key-file F --data-dir DIR",
			summary: "Check a backup (complete or database only) and put it into a data dir that holds no database. Stop the service first. " +
				"With --from: rebuild a whole data dir (database, TSE archive, TSE settings and keys, jwt.key, HTTPS files, each checked) " +
				"from the replica at URL into a new or empty folder, with the recovery key from --key-file; the config goes to DIR/restored-config.",
			run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
				return cmdRestore(ctx, args, stdout, stderr)
			}},
		{name: "replica", synopsis: "replica key|status [--data-dir DIR] [--config FILE]",
			summary: "key: print the recovery sheet's text, the replica's recovery key (the private key: keep it off the box), its public key and the replica's URL; " +
				"refuses while there is no key yet. status: print the replica's URL (without secrets) and the recovery key's public key, " +
				"read without the server; the live state is the console's dashboard or GET /api/replica.",
			run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
				return cmdReplica(ctx, args, stdout, stderr)
			}},
		{name: "hq", synopsis: "hq [--listen HOST:PORT] [--data-dir DIR] [--config FILE] --follow URL [--key-file F] ... | hq key",
			summary: "Run HQ mode: follow the replicas of a chain's boxes read-only (--follow and --key-file repeatable, or hq_follow and hq_key_file), " +
				"never writing to a box, and serve the chain's console and GET /api/hq/restaurants: per restaurant today's sales per VAT rate, " +
				"who is clocked in, this week's hours, the TSE's health, open outages and how old HQ's copy is. HQ has its own users (first admin as on a box). " +
				"hq key makes and prints HQ's public key for the boxes' replica_recipients.",
			run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
				return cmdHQ(ctx, args, stdout, stderr)
			}},
		{name: "archive", synopsis: "archive copy [--data-dir DIR] [--config FILE] DEST",
			summary: "Copy the TSE archive (DATA_DIR/archive/tse: the verified TAR exports the tax office asks for, and their .sha256 files) " +
				"into the existing folder DEST, e.g. a USB stick at an audit. Each file is checked against its SHA-256 before and after; " +
				"files already in DEST are left alone and nothing is overwritten. Works while the appliance runs.",
			run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
				return cmdArchive(ctx, args, stdout, stderr)
			}},
		{name: "tls", synopsis: "tls [--data-dir DIR] [--config FILE]",
			summary: "Print the HTTPS certificate's SHA-256 fingerprint (for pinning it in a till), its names, addresses and expiry; " +
				"makes the certificate when the appliance has not started yet.",
			run: func(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
				return cmdTLS(ctx, args, stdout, stderr)
			}},
		{name: "service", synopsis: "service install|uninstall|start|stop|restart|status [--config FILE] [--data-dir DIR]",
			summary: "Manage posbox as a system service (systemd, or the Windows Service Control Manager). " +
				"install registers \"posbox serve\" with absolute paths, to start on boot and restart on failure, " +
				"writing the example config first if there is none; the .deb and .rpm have done that already: " +
				"there, do not run install and use systemctl or the other actions.",
			run: func(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
				return cmdService(args, stdout, stderr)
			}},
		{name: "version", aliases: []string{"--version", "-v"}, synopsis: "version",
			summary: "Print the version and build.",
			run: func(_ context.Context, _ []string, _ io.Reader, stdout, _ io.Writer) error {
				fmt.Fprintln(stdout, versionString())
				return nil
			}},
		{name: "help", aliases: []string{"-h", "--help"}, synopsis: "help", hidden: true,
			run: func(_ context.Context, _ []string, _ io.Reader, stdout, _ io.Writer) error {
				fmt.Fprint(stdout, usage())
				return nil
			}},
		{name: "man", synopsis: "man", hidden: true, run: cmdMan},
	}, buildTagCommands...)
}

// buildTagCommands are commands only a build tag compiles in (cmd_seed.go,
// -tags seed): hidden, never in the shipped binary.
var buildTagCommands []command

// usage is "posbox help": the synopsis of every command in the table.
func usage() string {
	var b strings.Builder
	b.WriteString("posbox: the back office of a restaurant POS system\n\nUsage:\n")
	for _, c := range commandTable() {
		if c.hidden {
			continue
		}
		b.WriteString("  posbox " + c.synopsis)
		if c.note != "" {
			b.WriteString("   (" + c.note + ")")
		}
		b.WriteString("\n")
	}
	b.WriteString(`
Every command takes --data-dir DIR (POSBOX_DATA_DIR) and --config FILE.
Run "posbox COMMAND -h" for a command's flags.
`)
	return b.String()
}

// lookup finds a command by name or alias.
func lookup(name string) (command, bool) {
	for _, c := range commandTable() {
		if c.name == name || slices.Contains(c.aliases, name) {
			return c, true
		}
	}
	return command{}, false
}

// run is the whole program, in a form tests can drive.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return 2
	}
	c, ok := lookup(args[0])
	if !ok {
		fmt.Fprintf(stderr, "posbox: unknown command %q\n\n%s", args[0], usage())
		return 2
	}
	if err := c.run(ctx, args[1:], stdin, stdout, stderr); err != nil {
		if err != errUsage {
			fmt.Fprintln(stderr, "posbox:", err)
		}
		return 1
	}
	return 0
}

func versionString() string {
	if build == "" {
		return "posbox " + version
	}
	return "posbox " + version + " (" + build + ")"
}

// errUsage marks an error the flag package has already printed.
var errUsage = errors.New("usage")

func usageErr(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return errUsage
	}
	return err
}

// quietLogger logs warnings only, for one-shot commands.
func quietLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
}
