package main

import (
	"context"
	_ "embed" // the man page's source
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/template"
	"time"
)

// cmdMan is the hidden "posbox man": the manual page posbox(1) on
// standard output, dated SOURCE_DATE_EPOCH when set (reproducible
// packages) and today otherwise. "make man" writes and compresses it for
// the .deb and .rpm.
func cmdMan(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("man", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	date, err := manDate(os.Getenv("SOURCE_DATE_EPOCH"), time.Now())
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, manPage(version, date))
	return err
}

// manDate is the page's date: SOURCE_DATE_EPOCH (seconds since 1970, the
// reproducible-builds convention) when set, else now.
func manDate(epoch string, now time.Time) (time.Time, error) {
	if epoch == "" {
		return now.UTC(), nil
	}
	sec, err := strconv.ParseInt(epoch, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH %q: want seconds since 1970", epoch)
	}
	return time.Unix(sec, 0).UTC(), nil
}

// manTemplate is posbox(1)'s source; the commands and settings it lists
// come from the binary.
//
//go:embed packaging/linux/posbox.1.tmpl
var manTemplate string

var manPageTemplate = template.Must(template.New("posbox.1").Parse(manTemplate))

// manPage renders posbox(1) in man(7) format from the command table
// (commandTable, the source of "posbox help" too) and the settings
// (Config.settings, the source of the example config), so the page
// cannot miss a command or a key.
func manPage(ver string, date time.Time) string {
	type entry struct{ Synopsis, Summary string }
	type key struct{ Key, Env, Default, Usage string }
	data := struct {
		Date, Version string
		Commands      []entry
		Settings      []key
	}{Date: date.Format("2006-01-02"), Version: roffArg(ver)}
	for _, c := range commandTable() {
		if !c.hidden {
			data.Commands = append(data.Commands, entry{synopsisRoff(c), roffText(c.summary)})
		}
	}
	def := DefaultConfig()
	for _, s := range def.settings() {
		val := s.value.String()
		switch {
		case s.key == "data_dir":
			val += "; the installed service: /var/lib/posbox"
		case s.key == "backup_dir":
			val = "DATA_DIR/backups"
		case val == "":
			val = "empty"
		}
		data.Settings = append(data.Settings, key{roffText(s.key), roffText(strings.ToUpper(s.key)), roffText(val), roffText(s.usage)})
	}
	var b strings.Builder
	if err := manPageTemplate.Execute(&b, data); err != nil {
		panic(err) // the template is embedded: a test renders it
	}
	return b.String()
}

// synopsisRoff is a command's synopsis, "posbox" and its words in bold.
func synopsisRoff(c command) string {
	words := strings.Fields(c.synopsis)
	n := 1 // the command's name, and a subcommand word ("user add", "tse setup")
	if len(words) > 1 && !strings.HasPrefix(words[1], "-") && !strings.HasPrefix(words[1], "[") &&
		strings.ToLower(words[1]) == words[1] && strings.ToUpper(words[1]) != words[1] {
		n = 2
	}
	out := `\fBposbox ` + roffText(strings.Join(words[:n], " ")) + `\fR`
	if rest := words[n:]; len(rest) > 0 {
		out += " " + roffText(strings.Join(rest, " "))
	}
	return out
}

// roffText escapes plain text for a man(7) text line: backslashes,
// hyphens as minus signs (so options copy and paste), and a leading
// period or apostrophe that roff would take for a request.
func roffText(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffArg is roffText for a quoted macro argument.
func roffArg(s string) string {
	return strings.ReplaceAll(roffText(s), `"`, `\(dq`)
}
