package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"shipdesk/storage"
)

// Config is everything serve needs; flags default to environment variables.
type Config struct {
	Addr        string
	DatabaseURL string
	SessionKey  string
	VarDir      string
	TrustProxy  bool
	LogFormat   string
	LogLevel    string
	IdleTimeout time.Duration
	MaxSession  time.Duration
	Migrate     bool
	SeedDemo    bool
	// MetricsToken lets a scraper read /metrics.
	MetricsToken string
	Lang         string // SHIPDESK_LANG
	Zone         string // SHIPDESK_TZ
}

// env returns the environment variable or a default.
func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

func envBool(name string, def bool) bool {
	v, err := strconv.ParseBool(env(name, strconv.FormatBool(def)))
	if err != nil {
		return def
	}
	return v
}

func envInt(name string, def int) int {
	n, err := strconv.Atoi(env(name, strconv.Itoa(def)))
	if err != nil {
		return def
	}
	return n
}

func envDuration(name string, def time.Duration) time.Duration {
	d, err := time.ParseDuration(env(name, def.String()))
	if err != nil {
		return def
	}
	return d
}

// commonFlags are the flags every command that touches the database shares.
func commonFlags(fs *flag.FlagSet, c *Config) {
	fs.StringVar(&c.DatabaseURL, "database-url", env("DATABASE_URL", ""), "PostgreSQL URL `url` (env DATABASE_URL)")
	fs.StringVar(&c.LogFormat, "log-format", env("SHIPDESK_LOG_FORMAT", "text"), "log format text or json (env SHIPDESK_LOG_FORMAT)")
	fs.StringVar(&c.LogLevel, "log-level", env("SHIPDESK_LOG_LEVEL", "info"), "log level debug, info, warn, error (env SHIPDESK_LOG_LEVEL)")
}

// newFlagSet returns a flag set whose usage lists the flags with their variables.
func newFlagSet(name, synopsis string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("shipdesk "+name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprintf(out, "Usage: shipdesk %s\n\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

func newLogger(c Config, w io.Writer) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.LogLevel)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if strings.EqualFold(c.LogFormat, "json") {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// openDB connects to DATABASE_URL with a clear message when it is missing.
func openDB(ctx context.Context, c Config) (*storage.DB, error) {
	if c.DatabaseURL == "" {
		return nil, errors.New("no database: set DATABASE_URL or --database-url (`make run` starts a private PostgreSQL under ./var/ and sets it)")
	}
	db, err := storage.Open(ctx, c.DatabaseURL)
	if err != nil {
		return nil, err
	}
	return db, nil
}

// openMigratedDB opens the database and refuses one whose migrations are not
// all applied (commands other than serve --migrate and migrate itself).
func openMigratedDB(ctx context.Context, c Config) (*storage.DB, error) {
	db, err := openDB(ctx, c)
	if err != nil {
		return nil, err
	}
	if err := db.CheckMigrated(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// sessionKey returns SESSION_KEY, or a key generated once and kept in the var
// directory (fine for one instance; several instances must share SESSION_KEY).
func sessionKey(c Config, log *slog.Logger) ([]byte, error) {
	if c.SessionKey != "" {
		if len(c.SessionKey) < 32 {
			return nil, errors.New("SESSION_KEY must be at least 32 characters (for example: openssl rand -hex 32)")
		}
		return []byte(c.SessionKey), nil
	}
	path := filepath.Join(c.VarDir, "session.key")
	if b, err := os.ReadFile(path); err == nil {
		key := strings.TrimSpace(string(b))
		if len(key) >= 32 {
			return []byte(key), nil
		}
	}
	if err := os.MkdirAll(c.VarDir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", c.VarDir, err)
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("generate session key: %w", err)
	}
	key := hex.EncodeToString(b)
	if err := os.WriteFile(path, []byte(key+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("store session key: %w", err)
	}
	log.Info("generated a session key", "file", path)
	return []byte(key), nil
}
