package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyTimesKey: verify --times-key-file checks each replay's think
// times with the key of the signed server that dealt it. The game's
// verdict stays what it is without the key (a tampered time or seal is
// "NOT sealed", never an invalid game; a tampered claim is invalid with
// its times still sealed); the JSON verdict carries "thinkTimes"; and
// without the flag the output is that of the same replay without times,
// byte for byte.
func TestVerifyTimesKey(t *testing.T) {
	rep := playTimedGame(t, "verify times", 60)
	n := len(rep.Times)
	dir := t.TempDir()
	write := dirWriter(t, dir)
	keyFile := write("key", []byte(timesKey+"\n"))
	otherKey := write("other", []byte(strings.Repeat("y", 32)))
	good := write("timed/g.json", rep.EncodeJSON())

	slower := slowerAt(rep, n/2)
	forgedTime := write("forged-time.json", slower.EncodeJSON())
	reseal := *rep
	reseal.TimesSeal = "hmac-sha256:" + strings.Repeat("0", 64)
	forgedSeal := write("forged-seal.json", reseal.EncodeJSON())
	bare := untimedCopy(rep)
	untimed := write("untimed/g.json", bare.EncodeJSON())
	cheat := *rep
	cheat.Claim.Score += 4
	claimed := write("claimed.json", cheat.EncodeJSON())

	sealed := `"thinkTimes":{"count":` + itoa(n) + `,"sealed":true}`
	for _, tc := range []struct {
		args     []string
		code     int
		want     []string
		dontWant []string
	}{
		{[]string{"--times-key-file", keyFile, good}, exitOK,
			[]string{"ok ", "think times: " + itoa(n) + ", sealed by the server whose key was given", "think times: 1 replay sealed by the key given, 0 with times NOT sealed by it, 0 without times"}, []string{"NOT sealed by the server"}},
		{[]string{"--json", "--times-key-file", keyFile, good}, exitOK, []string{`"valid":true`, sealed}, nil},
		{[]string{"--times-key-file", otherKey, good}, exitOK,
			[]string{"ok ", "NOT sealed by the server whose key was given: " + "the times seal does not match: these are not the times a server with this key measured for this game (the verdict on the game stands)"}, nil},
		{[]string{"--times-key-file", keyFile, forgedTime}, exitOK, []string{"ok ", "think times: " + itoa(n) + ", NOT sealed"}, []string{", sealed by"}},
		{[]string{"--json", "--times-key-file", keyFile, forgedSeal}, exitOK,
			[]string{`"valid":true`, `"thinkTimes":{"count":` + itoa(n) + `,"sealed":false,"reason":"the times seal does not match`}, nil},
		{[]string{"--times-key-file", keyFile, untimed}, exitOK, []string{"think times: none to check: the replay has no times, or no times seal", "0 with times NOT sealed by it, 1 without times"}, nil},
		{[]string{"--json", "--analyze", "--times-key-file", keyFile, good}, exitOK, []string{sealed, `"think_time":{"moves":` + itoa(n) + `,"sealed":true,`}, nil},
		{[]string{"--json", "--analyze", "--times-key-file", keyFile, forgedTime}, exitOK, []string{`"think_time":{"moves":` + itoa(n) + `,"sealed":false,`}, []string{`"sealed":true`}},
		{[]string{"--json", "--times-key-file", keyFile, claimed}, exitFailed, []string{`"valid":false`, `"reason":"claim-score"`, sealed}, nil},
		{[]string{"--times-key-file", keyFile, claimed}, exitFailed, []string{"FAIL", "think times: " + itoa(n) + ", sealed by"}, nil},
	} {
		code, out, errOut := runCLI(t, "", append([]string{"verify"}, tc.args...)...)
		if code != tc.code {
			t.Errorf("verify %v: exit %d, want %d\n%s%s", tc.args, code, tc.code, out, errOut)
		}
		all := out + errOut
		for _, w := range tc.want {
			if !strings.Contains(all, w) {
				t.Errorf("verify %v: want %q in\n%s", tc.args, w, all)
			}
		}
		for _, w := range tc.dontWant {
			if strings.Contains(all, w) {
				t.Errorf("verify %v: %q in\n%s", tc.args, w, all)
			}
		}
		if strings.Contains(strings.Join(tc.args, " "), "--json") {
			var v map[string]any
			if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &v); err != nil {
				t.Errorf("verify %v: %v", tc.args, err)
			}
		}
	}

	// Without a key, nothing changes: the timed replay's verdicts are the
	// untimed one's, byte for byte, and no line is about times.
	for _, args := range [][]string{nil, {"--json"}} {
		_, a, ae := runCLI(t, "", append(append([]string{"verify"}, args...), filepath.Join(dir, "timed"))...)
		_, b, be := runCLI(t, "", append(append([]string{"verify"}, args...), filepath.Join(dir, "untimed"))...)
		b, be = strings.ReplaceAll(b, "untimed", "timed"), strings.ReplaceAll(be, "untimed", "timed")
		if a != b || ae != be || strings.Contains(a+ae, "think") {
			t.Errorf("verify %v without a key: a timed replay's output differs from the untimed one's:\n%s%s\n%s%s", args, a, ae, b, be)
		}
	}

	// A key too short, or missing, is refused before anything is read.
	short := write("short", []byte("abc"))
	for _, f := range []string{short, filepath.Join(dir, "none")} {
		code, _, errOut := runCLI(t, "", "verify", "--times-key-file", f, good)
		if code != exitBadUsage || !strings.Contains(errOut, "--times-key-file") {
			t.Errorf("verify --times-key-file %s: exit %d, %s", f, code, errOut)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
