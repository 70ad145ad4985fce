package main

import (
	"fmt"
	"strings"
)

// exampleConfig is packaging/posbox.conf.example: every key, commented
// out with its default, generated from Config.settings() so it cannot
// drift (TestConfigExampleIsCurrent).
func exampleConfig() string {
	var b strings.Builder
	b.WriteString(`# posbox configuration: "key = value" lines; "#" starts a comment.
# Every key is shown commented out with its default; uncomment to change.
# Each key can also be set by the environment variable POSBOX_<KEY> and by
# the flag --<key-with-dashes>. Precedence: flag, environment, this file,
# default. Restart the service after a change.
`)
	def := DefaultConfig()
	for _, s := range def.settings() {
		val := s.value.String()
		switch s.key {
		case "data_dir":
			val = "/var/lib/posbox"
			s.usage += "\n# (./data in the foreground; the installed service gets --data-dir,\n# /var/lib/posbox or %ProgramData%\\posbox, which wins over this line)"
		case "backup_dir":
			val = "/var/lib/posbox/backups"
		}
		fmt.Fprintf(&b, "\n# %s\n%s\n", s.usage, strings.TrimSpace("#"+s.key+" = "+val))
	}
	return b.String()
}
