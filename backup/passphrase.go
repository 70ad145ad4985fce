package backup

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

const (
	// minPassphraseLen is the shortest passphrase a backup is made with.
	minPassphraseLen = 12
	// PassphraseEnv holds the passphrase when no file is given.
	PassphraseEnv = "POSBOX_BACKUP_PASSPHRASE"
)

var (
	// ErrWrongPassphrase: the backup opens with another passphrase.
	ErrWrongPassphrase = errors.New("the passphrase does not open this backup")
	// ErrNoPassphrase: none of the passphrase's sources is set.
	ErrNoPassphrase = errors.New("a complete backup needs a passphrase: --passphrase-file FILE, or the environment variable " + PassphraseEnv)
)

// Passphrase is the passphrase of a complete backup: the file named by
// --passphrase-file (flagFile), else $POSBOX_BACKUP_PASSPHRASE, else the
// file of the backup_passphrase_file setting (settingFile). Never a
// command-line argument: ps shows those to every user of the box. A new
// backup (forNew) needs at least 12 characters.
func Passphrase(flagFile, settingFile string, forNew bool) (string, error) {
	var pass string
	var err error
	switch {
	case flagFile != "":
		pass, err = readPassphraseFile(flagFile)
	case os.Getenv(PassphraseEnv) != "":
		pass = os.Getenv(PassphraseEnv)
	case settingFile != "":
		pass, err = readPassphraseFile(settingFile)
	default:
		return "", ErrNoPassphrase
	}
	if err == nil && forNew {
		err = checkPassphrase(pass)
	}
	return pass, err
}

// readPassphraseFile reads a passphrase: the file's first line, without
// its line end.
func readPassphraseFile(file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("passphrase file: %w", err)
	}
	line, _, _ := strings.Cut(strings.TrimPrefix(string(b), "\ufeff"), "\n") // a BOM Notepad may write
	line = strings.TrimSuffix(line, "\r")
	if line == "" {
		return "", fmt.Errorf("passphrase file %s: the first line is empty", file)
	}
	return line, nil
}

func checkPassphrase(p string) error {
	if n := utf8.RuneCountInString(p); n < minPassphraseLen {
		return fmt.Errorf("the passphrase has %d characters; a backup needs at least %d", n, minPassphraseLen)
	}
	return nil
}
