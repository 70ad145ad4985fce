// Command posbox is the back-office appliance of a restaurant POS system.
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

const usage = `posbox: the back office of a restaurant POS system

Usage:
  posbox serve [--addr HOST:PORT] [--data-dir DIR] [--config FILE]
  posbox migrate
  posbox user add --email E --name N --role admin|staff [--restaurant ID] --password-stdin
  posbox token --email E
  posbox tse setup --api-key K --api-secret S [--url URL]   (default: fiskaly)
  posbox tse-sim [--addr HOST:PORT] --api-key K --api-secret S [--cert-validity D] [--max-active-tx N] [--max-clients N]
  posbox backup [--data-dir DIR] FILE
  posbox service install|uninstall|start|stop|restart|status [--config FILE] [--data-dir DIR]
  posbox version

Every command takes --data-dir DIR (POSBOX_DATA_DIR) and --config FILE.
Run "posbox COMMAND -h" for a command's flags.
`

// run is the whole program, in a form tests can drive.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = cmdServe(ctx, args[1:], stderr)
	case "migrate":
		err = cmdMigrate(ctx, args[1:], stdout, stderr)
	case "user":
		err = cmdUser(ctx, args[1:], stdin, stdout, stderr)
	case "token":
		err = cmdToken(ctx, args[1:], stdout, stderr)
	case "tse":
		err = cmdTSE(ctx, args[1:], stdout, stderr)
	case "tse-sim":
		err = cmdTSESim(ctx, args[1:], stderr)
	case "backup":
		err = cmdBackup(ctx, args[1:], stdout, stderr)
	case "service":
		err = cmdService(args[1:], stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, versionString())
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "posbox: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	if err != nil {
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
