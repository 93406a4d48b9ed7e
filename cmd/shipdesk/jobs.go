package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"shipdesk/app"
	"shipdesk/jobs"
	"shipdesk/mail"
)

// JobsConfig is the pollers' cadence.
type JobsConfig struct {
	Run bool
	jobs.Config
}

func jobsFlags(fs *flag.FlagSet, j *JobsConfig, inServe bool) {
	if inServe {
		fs.BoolVar(&j.Run, "jobs", envBool("SHIPDESK_JOBS", true), "run the pollers in this process too (env SHIPDESK_JOBS; false when `shipdesk jobs` runs them)")
	}
	fs.DurationVar(&j.LabelEvery, "label-every", envDuration("SHIPDESK_LABEL_EVERY", 3*time.Minute), "check pending labels this often (env SHIPDESK_LABEL_EVERY)")
	fs.DurationVar(&j.TrackEvery, "track-every", envDuration("SHIPDESK_TRACK_EVERY", 30*time.Minute), "refresh the tracking of moving shipments this often (env SHIPDESK_TRACK_EVERY)")
	fs.DurationVar(&j.DiscoverEvery, "discover-every", envDuration("SHIPDESK_DISCOVER_EVERY", 30*time.Minute), "look for shipments made outside shipdesk this often (env SHIPDESK_DISCOVER_EVERY)")
	fs.DurationVar(&j.Tick, "tick", envDuration("SHIPDESK_JOBS_TICK", 30*time.Second), "look for due work (and batches left by a stopped instance) this often (env SHIPDESK_JOBS_TICK)")
	fs.IntVar(&j.Batch, "track-batch", envInt("SHIPDESK_TRACK_BATCH", 100), "tracking numbers per call, at most 100 (env SHIPDESK_TRACK_BATCH)")
}

// runJobs runs the pollers alone, for deployments that keep them apart from
// the web instances. Any number may run: work is leased in the database.
func runJobs(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	var c Config
	fs := newFlagSet("jobs", "jobs [flags]", stderr)
	commonFlags(fs, &c)
	// The shop's token is sealed under the session key: the same as serve's.
	fs.StringVar(&c.SessionKey, "session-key", env("SESSION_KEY", ""), "serve's session key, under which the shop's token is sealed; read from the var directory when empty (env SESSION_KEY)")
	fs.StringVar(&c.VarDir, "var-dir", env("SHIPDESK_VAR_DIR", "var"), "directory of serve's generated files (env SHIPDESK_VAR_DIR)")
	var u UpstreamConfig
	upstreamFlags(fs, &u)
	var j JobsConfig
	jobsFlags(fs, &j, false)
	var m mail.Config
	mailFlags(fs, &m)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if u.ShippingURL == "" {
		return errors.New("SHIPPING_BASE_URL is required: the pollers must follow the service the dashboard uses (serve runs them itself with the in-process sandbox)")
	}
	log := newLogger(c, stderr)
	db, err := openMigratedDB(ctx, c)
	if err != nil {
		return err
	}
	defer db.Close()
	clients, _, stop, err := connectUpstream(u, log)
	if err != nil {
		return err
	}
	defer stop()
	// Mail is sent from here only to a server of SMTP_URL: a catcher in this
	// process would hide the mail from serve's Sent mail page. The daily
	// summary is queued by serve, which draws it.
	outbox, _, err := app.NewMail(db, m, false, clients.Clock(), j.Who(), log)
	if err != nil {
		return err
	}
	d, wb := app.NewDesks(db, clients, u.Settle, outbox, log)
	d.PublicURL = m.PublicURL
	fmt.Fprintln(stdout, "shipdesk jobs: polling labels, tracking and active shipments")
	go clients.FollowClock(ctx, followEvery)
	runner := app.NewJobs(db, d, wb, j.Config, clients.Clock(), log)
	runner.SendMail(outbox, nil)
	claims := app.NewClaims(db, d, wb, outbox, m.PublicURL, clients.Clock(), log)
	runner.AdvanceClaims(claims)
	wb.StatusLink = claims.StatusLinkOf
	key, err := sessionKey(c, log)
	if err != nil {
		return err
	}
	orders, err := app.NewShop(db, d, clients, key, j.Who(), "", m.PublicURL, log) // serve registers the webhooks
	if err != nil {
		return err
	}
	runner.FollowShop(orders)
	claims.Purchases = orders
	runner.Run(ctx)
	stopBatches(d, log)
	return nil
}
