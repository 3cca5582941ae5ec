// tlogcheck verifies the storefront's checkpoints and proofs with Go's golang.org/x/mod/sumdb/note and
// tlog, an implementation of signed notes and RFC 6962 trees that the storefront did not write.
//
// It reads one JSON document on standard input and prints one line per check: "ok <name>" or
// "fail <name>: <reason>".
package main

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type inclusion struct {
	Name   string   `json:"name"`
	Note   string   `json:"note"`
	Record string   `json:"record"`
	Index  int64    `json:"index"`
	Proof  []string `json:"proof"`
}

type consistency struct {
	Name    string   `json:"name"`
	OldNote string   `json:"old_note"`
	NewNote string   `json:"new_note"`
	Proof   []string `json:"proof"`
}

type input struct {
	VerifierKey string        `json:"verifier_key"`
	Inclusions  []inclusion   `json:"inclusions"`
	Consistency []consistency `json:"consistency"`
}

// checkpoint opens a signed note with the key and reads its size and root hash.
func checkpoint(vkey, text string) (int64, tlog.Hash, error) {
	var root tlog.Hash
	verifier, err := note.NewVerifier(vkey)
	if err != nil {
		return 0, root, err
	}
	n, err := note.Open([]byte(text), note.VerifierList(verifier))
	if err != nil {
		return 0, root, err
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 || lines[3] != "" {
		return 0, root, fmt.Errorf("not a checkpoint: %q", n.Text)
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		return 0, root, err
	}
	raw, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(raw) != len(root) {
		return 0, root, fmt.Errorf("bad root hash %q", lines[2])
	}
	copy(root[:], raw)
	return size, root, nil
}

func hashes(list []string) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(list))
	for i, h := range list {
		raw, err := hex.DecodeString(h)
		if err != nil || len(raw) != len(out[i]) {
			return nil, fmt.Errorf("bad hash %q", h)
		}
		copy(out[i][:], raw)
	}
	return out, nil
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	report := func(name string, err error) {
		if err != nil {
			fmt.Printf("fail %s: %v\n", name, err)
		} else {
			fmt.Printf("ok %s\n", name)
		}
	}
	for _, c := range in.Inclusions {
		report(c.Name, func() error {
			size, root, err := checkpoint(in.VerifierKey, c.Note)
			if err != nil {
				return err
			}
			proof, err := hashes(c.Proof)
			if err != nil {
				return err
			}
			return tlog.CheckRecord(proof, size, root, c.Index, tlog.RecordHash([]byte(c.Record)))
		}())
	}
	for _, c := range in.Consistency {
		report(c.Name, func() error {
			oldSize, oldRoot, err := checkpoint(in.VerifierKey, c.OldNote)
			if err != nil {
				return err
			}
			newSize, newRoot, err := checkpoint(in.VerifierKey, c.NewNote)
			if err != nil {
				return err
			}
			proof, err := hashes(c.Proof)
			if err != nil {
				return err
			}
			return tlog.CheckTree(proof, newSize, newRoot, oldSize, oldRoot)
		}())
	}
}
