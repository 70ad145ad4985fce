// Package diskfree answers how much an unprivileged writer may still
// write on the file system holding a folder: the replica's bounded
// backlog and the retention job's vacuum both ask before they grow a file.
package diskfree
