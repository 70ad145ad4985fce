package replicatest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// killDescendants kills every process below p. Stopped first, p forks no
// new one while they are listed.
func killDescendants(p *os.Process) {
	p.Signal(syscall.SIGSTOP)
	for _, pid := range descendants(p.Pid) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// pauseTree stops (pause) or continues p and every process below it.
func pauseTree(p *os.Process, pause bool) {
	sig := syscall.SIGCONT
	if pause {
		sig = syscall.SIGSTOP
		p.Signal(sig) // first, so it forks nothing new meanwhile
	}
	for _, pid := range descendants(p.Pid) {
		syscall.Kill(pid, sig)
	}
	p.Signal(sig)
}

// descendants lists every process below pid, read from /proc (Linux).
func descendants(pid int) []int {
	parent := map[int]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// The command name in parentheses may contain spaces: the fields
		// after its closing parenthesis are state, then the parent's pid.
		s := string(b)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) < 2 {
			continue
		}
		child, err1 := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		ppid, err2 := strconv.Atoi(fields[1])
		if err1 == nil && err2 == nil {
			parent[child] = ppid
		}
	}
	var out []int
	for child := range parent {
		// Bounded: a pid reused while /proc was read could make a loop.
		for p, depth := parent[child], 0; p > 1 && depth < 32; p, depth = parent[p], depth+1 {
			if p == pid {
				out = append(out, child)
				break
			}
		}
	}
	return out
}
