// Command shipdesk is the dashboard's one binary:
//
//	shipdesk serve     serve the dashboard (the default)
//	shipdesk migrate   apply, roll back or list database migrations
//	shipdesk user      add staff, set passwords, disable accounts
//	shipdesk jobs      run the pollers alone (serve runs them too)
//	shipdesk sandbox   serve the simulator of the service's three interfaces
//	shipdesk check-upstream  verify the API keys
//
// Configuration comes from flags, with environment variables as defaults
// (DATABASE_URL, SHIPDESK_ADDR, SESSION_KEY, …); `shipdesk CMD --help` lists them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"serve", "serve the dashboard (default)", runServe},
		{"migrate", "apply, roll back or list database migrations (up, down, status)", runMigrate},
		{"user", "manage staff accounts (add, passwd, disable, enable, list)", runUser},
		{"jobs", "run the pollers (labels, tracking, shipments made elsewhere) without serving pages", runJobs},
		{"sandbox", "serve the simulator of the shipping, cart and returns APIs", runSandbox},
		{"check-upstream", "verify the shipping and returns keys against the service in use", runCheckUpstream},
	}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	name := "serve"
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		usage(stdout)
		return 0
	}
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	for _, c := range commands() {
		if c.name != name {
			continue
		}
		if err := c.run(ctx, args, stdin, stdout, stderr); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			fmt.Fprintf(stderr, "shipdesk %s: %v\n", name, err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(stderr, "shipdesk: unknown command %q\n\n", name)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: shipdesk [command] [flags]")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'shipdesk COMMAND --help' for the flags and environment variables of a command.")
}
