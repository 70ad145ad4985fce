package replicatest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// VersityGWVersion is the S3 gateway the tests run: the newest release on
// the module proxy when it was chosen (versitygw v1.8.0).
const VersityGWVersion = "v1.8.0"

const versityGWPackage = "github.com/versity/versitygw/cmd/versitygw"

var versityGWBuild struct {
	once sync.Once
	path string
	err  string // why there is none
}

// versityGW returns the gateway's program, building it on first use with
// `go install …@VersityGWVersion` into the user's cache folder, where
// later test runs find it (as Go's build cache does; a cold build takes
// about two minutes, downloads from the module proxy included).
func versityGW(tb testing.TB) string {
	tb.Helper()
	b := &versityGWBuild
	b.once.Do(func() { b.path, b.err = buildVersityGW() })
	if b.err != "" {
		missing(tb, b.err)
	}
	return b.path
}

func buildVersityGW() (path, why string) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", "no cache folder for the S3 gateway: " + err.Error()
	}
	dir := filepath.Join(cache, "posbox-replicatest", "versitygw-"+VersityGWVersion)
	path = filepath.Join(dir, "versitygw")
	if _, err := os.Stat(path); err == nil {
		return path, ""
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", "no go command to build the S3 gateway (" + versityGWPackage + ")"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err.Error()
	}
	// Built into a fresh folder and renamed into place, so two test
	// binaries building at once never run a half-written program.
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err.Error()
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command(goBin, "install", versityGWPackage+"@"+VersityGWVersion)
	// GOFLAGS cleared: the test's own (-race, -mod) are not the gateway's.
	cmd.Env = append(os.Environ(), "GOBIN="+tmp, "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "cannot build the S3 gateway (" + versityGWPackage + "@" + VersityGWVersion + "): " + err.Error() + "\n" + string(out)
	}
	if err := os.Rename(filepath.Join(tmp, "versitygw"), path); err != nil {
		return "", err.Error()
	}
	return path, ""
}
