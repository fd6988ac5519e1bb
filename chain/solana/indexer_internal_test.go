package solana

import (
	"bytes"
	"encoding/base64"
	"testing"

	"github.com/partner-platform/partnerd/chain"
)

// TestAttributeLogs: the "Program data:" lines go to the instruction that logged them, following
// the runtime's invoke and success lines; logs that are truncated or do not match leave every
// instruction without.
func TestAttributeLogs(t *testing.T) {
	const amm, token, budget, ed = "AMM1111111111111111111111111111111111111111", TokenProgram, ComputeBudgetProgram, "Ed25519SigVerify111111111111111111111111111"
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	instructions := func() []chain.SVMInstruction {
		return []chain.SVMInstruction{
			{Program: budget, Depth: 1, Outer: 0},
			{Program: ed, Depth: 1, Outer: 1}, // a precompile: runs without logging
			{Program: amm, Depth: 1, Outer: 2},
			{Program: token, Depth: 2, Outer: 2},
			{Program: token, Depth: 2, Outer: 2},
			{Program: amm, Depth: 1, Outer: 3},
		}
	}
	logs := []string{
		"Program " + budget + " invoke [1]",
		"Program " + budget + " success",
		"Program " + amm + " invoke [1]",
		"Program log: Instruction: SwapBaseInput",
		"Program " + token + " invoke [2]",
		"Program data: " + b64("inner"),
		"Program " + token + " consumed 4645 of 180000 compute units",
		"Program " + token + " success",
		"Program data: " + b64("ev") + " " + b64("ent"),
		"Program " + token + " invoke [2]",
		"Program " + token + " success",
		"Program " + amm + " consumed 30000 of 200000 compute units",
		"Program " + amm + " success",
		"Program " + amm + " invoke [1]",
		"Program data: " + b64("second"),
		"Program return: " + amm + " AQ==",
		"Program " + amm + " success",
	}
	ins := instructions()
	if !attributeLogs(ins, logs) {
		t.Fatal("the logs did not match")
	}
	want := [][]string{nil, nil, {"event"}, {"inner"}, nil, {"second"}}
	for i, in := range ins {
		var got []string
		for _, d := range in.LogData {
			got = append(got, string(d))
		}
		if len(got) != len(want[i]) || (len(got) > 0 && got[0] != want[i][0]) {
			t.Errorf("instruction %d logged %q, want %q", i, got, want[i])
		}
	}

	for name, bad := range map[string][]string{
		"truncated":           append(append([]string{}, logs[:9]...), "Log truncated"),
		"another program":     {"Program " + token + " invoke [1]", "Program " + token + " success"},
		"wrong depth":         append([]string{logs[0], logs[1], "Program " + amm + " invoke [2]"}, logs[3:]...),
		"an instruction left": logs[:13],
		"data outside":        {"Program data: " + b64("x")},
		"bad base64":          append(append([]string{}, logs[:5]...), "Program data: !!!"),
	} {
		ins := instructions()
		if attributeLogs(ins, bad) {
			t.Errorf("%s: the logs matched", name)
		}
		for i, in := range ins {
			if in.LogData != nil {
				t.Errorf("%s: instruction %d keeps %q", name, i, in.LogData)
			}
		}
	}
}

func TestSlotFingerprint(t *testing.T) {
	a, b := "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW", "4Nd1mYaHfyDj6YHcGcvLefoVjbVTTtNEjdwVqbCrqJjuM4jgz7ygVyDDnMvrjxrbhGdTgN5ydL4GTgE9vqkMJzTJ"
	if slotFingerprint([]string{a, b}) != slotFingerprint([]string{b, a}) {
		t.Error("the fingerprint depends on the order")
	}
	if slotFingerprint([]string{a}) == slotFingerprint([]string{b}) || slotFingerprint(nil) == slotFingerprint([]string{a}) {
		t.Error("two sets, one fingerprint")
	}
	h := anchor(123456789012, slotFingerprint([]string{a, b}))
	if len(h) > 66 { // the index's hash columns
		t.Errorf("anchor %q is longer than 66", h)
	}
	if slot, fp, ok := parseAnchor(h); !ok || slot != 123456789012 || fp != slotFingerprint([]string{a, b}) {
		t.Errorf("parseAnchor(%q) = %d, %q, %v", h, slot, fp, ok)
	}
	if _, _, ok := parseAnchor(""); ok {
		t.Error("an empty hash parsed as an anchor")
	}
}

func TestSigFeed(t *testing.T) {
	fd := &sigFeed{head: 50}
	for _, s := range []uint64{10, 10, 11, 20, 20, 30} {
		fd.held = append(fd.held, sigInfo{Slot: s})
	}
	if fd.coverage() != 50 {
		t.Errorf("coverage without pages left %d, want the walk's head 50", fd.coverage())
	}
	fd.marks = []pageMark{{first: sigInfo{Slot: 40}, size: 3}}
	if fd.coverage() != 29 { // slot 30 may go on in the page not held
		t.Errorf("coverage with a page left %d, want 29", fd.coverage())
	}
	if (&sigFeed{marks: fd.marks, held: []sigInfo{{Slot: 0}}}).coverage() != -1 {
		t.Error("slot 0 held with a page left covers a slot")
	}
	fd.consume(10)
	if len(fd.held) != 4 || fd.held[0].Slot != 11 {
		t.Errorf("after consuming up to 10: %v", fd.held)
	}
	fd.consume(25)
	if len(fd.held) != 1 || fd.held[0].Slot != 30 {
		t.Errorf("after consuming up to 25: %v", fd.held)
	}
	if !bytes.Equal([]byte(truncate("ab\u00e9", 3)), []byte("ab")) {
		t.Errorf("truncate cut a rune: %q", truncate("ab\u00e9", 3))
	}
}
