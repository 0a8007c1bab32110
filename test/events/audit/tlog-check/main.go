// An independent check of the event log's Merkle tree: Go's checksum-database library
// (golang.org/x/mod/sumdb/tlog, RFC 6962/9162 hashing) computes the roots of the same leaves and
// checks the proofs the service made. It reads one JSON request on stdin and writes one JSON answer.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"golang.org/x/mod/sumdb/tlog"
)

type inclusion struct {
	Index int64    `json:"index"`
	Size  int64    `json:"size"`
	Leaf  []byte   `json:"leaf"`
	Proof [][]byte `json:"proof"`
	Root  []byte   `json:"root"`
}

type consistency struct {
	First      int64    `json:"first"`
	Second     int64    `json:"second"`
	Proof      [][]byte `json:"proof"`
	FirstRoot  []byte   `json:"firstRoot"`
	SecondRoot []byte   `json:"secondRoot"`
}

type request struct {
	Leaves      [][]byte      `json:"leaves"`
	Inclusion   []inclusion   `json:"inclusion"`
	Consistency []consistency `json:"consistency"`
}

type answer struct {
	Roots       [][]byte `json:"roots"`
	Inclusion   []bool   `json:"inclusion"`
	Consistency []bool   `json:"consistency"`
}

type memory map[int64]tlog.Hash

func (m memory) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, index := range indexes {
		h, ok := m[index]
		if !ok {
			return nil, fmt.Errorf("no hash at %d", index)
		}
		out[i] = h
	}
	return out, nil
}

func toHash(b []byte) tlog.Hash {
	var h tlog.Hash
	copy(h[:], b)
	return h
}

func toProof(p [][]byte) []tlog.Hash {
	out := make([]tlog.Hash, len(p))
	for i, b := range p {
		out[i] = toHash(b)
	}
	return out
}

func main() {
	var req request
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	stored := memory{}
	var ans answer
	for n, leaf := range req.Leaves {
		hashes, err := tlog.StoredHashes(int64(n), leaf, stored)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		for i, h := range hashes {
			stored[tlog.StoredHashIndex(0, int64(n))+int64(i)] = h
		}
		root, err := tlog.TreeHash(int64(n+1), stored)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		ans.Roots = append(ans.Roots, root[:])
	}
	for _, c := range req.Inclusion {
		ans.Inclusion = append(ans.Inclusion, tlog.CheckRecord(toProof(c.Proof), c.Size, toHash(c.Root), c.Index, toHash(c.Leaf)) == nil)
	}
	for _, c := range req.Consistency {
		ans.Consistency = append(ans.Consistency, tlog.CheckTree(toProof(c.Proof), c.Second, toHash(c.SecondRoot), c.First, toHash(c.FirstRoot)) == nil)
	}
	json.NewEncoder(os.Stdout).Encode(ans)
}
