// Command ferretdb runs the embeddable FerretDB 1.x with its SQLite backend, for the test suites of the
// MongoDB read-store adapter. FerretDB's own cmd/ferretdb needs a version file generated at build time;
// the embeddable package does not, hence this small main.
//
// Usage: ferretdb -listen 127.0.0.1:0 -dir /path/to/scratch [-synchronous off]
//
// -synchronous sets SQLite's synchronous pragma (default "full", as FerretDB leaves it). The test suites
// pass "off": their databases are scratch data, which a killed server process still keeps (the writes
// are in the operating system's cache), and the fsync after every write made each operation cost
// milliseconds more.
//
// Once the listener is up it prints one line, the connection string (mongodb://127.0.0.1:PORT/), on
// standard output; it runs until SIGINT or SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "TCP address to listen on (port 0: any free port)")
	dir := flag.String("dir", "", "directory for the SQLite databases (required)")
	logLevel := flag.String("log-level", "error", "debug, info, warn or error")
	synchronous := flag.String("synchronous", "full", "SQLite synchronous pragma: off, normal or full")
	flag.Parse()

	if *dir == "" {
		fmt.Fprintln(os.Stderr, "ferretdb: -dir is required")
		os.Exit(2)
	}

	abs, err := filepath.Abs(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ferretdb:", err)
		os.Exit(2)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "ferretdb:", err)
		os.Exit(2)
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintln(os.Stderr, "ferretdb:", err)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	// The SQLite backend takes a file: URI naming a directory, with the trailing slash.
	switch *synchronous {
	case "off", "normal", "full":
	default:
		fmt.Fprintln(os.Stderr, "ferretdb: -synchronous must be off, normal or full")
		os.Exit(2)
	}
	pragmas := url.Values{"_pragma": {"synchronous(" + *synchronous + ")"}}
	sqliteURL := (&url.URL{Scheme: "file", Path: abs + "/", RawQuery: pragmas.Encode()}).String()

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: sqliteURL,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "ferretdb:", err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx)
	}()

	// MongoDBURI blocks until the listener is bound, so the printed port is the real one.
	fmt.Println(f.MongoDBURI())

	<-done
}
