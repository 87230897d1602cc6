package driver

import (
	"bytes"
	"maps"
	"os"
	"slices"
	"strconv"
)

// relatives returns the processes to end with the implementation's
// process pid, as /proc shows them: pid and its descendants (a child that
// started a session of its own included), the processes of its session
// and group (a descendant whose parent has exited included), and every
// process whose environment carries its tag (one that did both). A
// descendant that left the session, lost its parent and cleared its
// environment is not found.
func relatives(pid int, tag string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return []int{pid}
	}
	self := os.Getpid()
	children := map[int][]int{}
	found := map[int]bool{pid: true}
	mark := []byte(tagVariable + "=" + tag + "\x00")
	nulMark := append([]byte{0}, mark...) // the mark after another variable
	for _, e := range entries {
		q, err := strconv.Atoi(e.Name())
		if err != nil || q == self || q == pid {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone
		}
		// pid (comm) state ppid pgrp session ...; comm may hold anything but
		// ends at the last ')'.
		f := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
		if len(f) < 4 {
			continue
		}
		ppid, _ := strconv.Atoi(string(f[1]))
		pgrp, _ := strconv.Atoi(string(f[2]))
		sid, _ := strconv.Atoi(string(f[3]))
		children[ppid] = append(children[ppid], q)
		if pgrp == pid || sid == pid {
			found[q] = true
			continue
		}
		if env, err := os.ReadFile("/proc/" + e.Name() + "/environ"); err == nil && (bytes.Contains(env, nulMark) || bytes.HasPrefix(env, mark)) {
			found[q] = true
		}
	}
	// The descendants by parent, of every process found.
	queue := slices.Collect(maps.Keys(found))
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for _, c := range children[q] {
			if !found[c] && c != self {
				found[c] = true
				queue = append(queue, c)
			}
		}
	}
	return slices.Collect(maps.Keys(found))
}
