package main

import (
	"context"
	"fmt"
	"io"

	"shipdesk/storage"
)

func runMigrate(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	var c Config
	fs := newFlagSet("migrate", "migrate up|down|status [flags]", stderr)
	commonFlags(fs, &c)
	action := "up"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		action, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := newLogger(c, stderr)
	db, err := openDB(ctx, c)
	if err != nil {
		return err
	}
	defer db.Close()
	switch action {
	case "up":
		return db.MigrateUp(ctx, log)
	case "down":
		return db.MigrateDown(ctx, log)
	case "status":
		st, err := db.MigrationStatus(ctx)
		if err != nil {
			return err
		}
		storage.PrintStatus(stdout, st)
		return nil
	}
	fs.Usage()
	return fmt.Errorf("unknown action %q: want up, down or status", action)
}
