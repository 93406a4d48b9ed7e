package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"shipdesk/identity"
	"shipdesk/staff"
)

func runUser(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var c Config
	var username, role string
	var passwordStdin bool
	fs := newFlagSet("user", "user add|passwd|disable|enable|list [flags]\n\n  shipdesk user add --username NAME --role clerk|agent|manager --password-stdin\n  shipdesk user passwd --username NAME --password-stdin\n  shipdesk user disable --username NAME\n  shipdesk user enable --username NAME\n  shipdesk user list\n", stderr)
	commonFlags(fs, &c)
	fs.StringVar(&username, "username", "", "the account's username")
	fs.StringVar(&role, "role", "", "clerk, agent or manager (add)")
	fs.BoolVar(&passwordStdin, "password-stdin", false, "read the password from the first line of standard input (never pass passwords as arguments: they show in process lists)")
	if len(args) == 0 || args[0] == "" || args[0][0] == '-' {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fs.Usage()
			return nil
		}
		fs.Usage()
		return errors.New("name an action: add, passwd, disable, enable or list")
	}
	action := args[0]
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	db, err := openMigratedDB(ctx, c)
	if err != nil {
		return err
	}
	defer db.Close()
	accounts, err := staff.New(db, staff.Config{})
	if err != nil {
		return err
	}
	readPassword := func() (string, error) {
		if !passwordStdin {
			return "", errors.New("--password-stdin is required: pipe the password in (for example: printf '%s' \"$PW\" | shipdesk user ...)")
		}
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("read password: %w", err)
		}
		return strings.TrimRight(line, "\r\n"), nil
	}
	needUser := func() error {
		if username == "" {
			return errors.New("--username is required")
		}
		return nil
	}

	switch action {
	case "add":
		if err := needUser(); err != nil {
			return err
		}
		r, err := identity.ParseRole(role)
		if err != nil {
			return err
		}
		pw, err := readPassword()
		if err != nil {
			return err
		}
		u, err := accounts.AddUser(ctx, staff.CLI, username, r, pw)
		if err != nil {
			return describe(err)
		}
		fmt.Fprintf(stdout, "added %s (%s)\n", u.Username, u.Role)
	case "passwd":
		if err := needUser(); err != nil {
			return err
		}
		id, err := accounts.UserID(ctx, username)
		if err != nil {
			return describe(err)
		}
		pw, err := readPassword()
		if err != nil {
			return err
		}
		if err := accounts.SetPassword(ctx, staff.CLI, id, pw); err != nil {
			return describe(err)
		}
		fmt.Fprintf(stdout, "password of %s set; their sessions have ended\n", staff.NormalizeUsername(username))
	case "disable", "enable":
		if err := needUser(); err != nil {
			return err
		}
		id, err := accounts.UserID(ctx, username)
		if err != nil {
			return describe(err)
		}
		if err := accounts.SetDisabled(ctx, staff.CLI, id, action == "disable"); err != nil {
			return describe(err)
		}
		fmt.Fprintf(stdout, "%s %sd\n", staff.NormalizeUsername(username), action)
	case "list":
		users, err := accounts.Users(ctx)
		if err != nil {
			return err
		}
		for _, u := range users {
			state := "active"
			if u.Disabled() {
				state = "disabled"
			}
			fmt.Fprintf(stdout, "%-24s %-8s %s\n", u.Username, u.Role, state)
		}
	default:
		fs.Usage()
		return fmt.Errorf("unknown action %q", action)
	}
	return nil
}
