// Command partnerd is the partner platform: the /v1 partner API (serve), database migrations
// (migrate), the operators' admin commands (consumer, key, usage, operator, user) and the contract
// (openapi).
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

	"github.com/partner-platform/partnerd/api"
)

const usageText = `partnerd: the partner API platform

Usage: partnerd [GLOBAL FLAGS] COMMAND [ARGUMENTS] [FLAGS]

  partnerd serve [--addr HOST:PORT] [--database-url URL]
  partnerd migrate [--database-url URL]
  partnerd openapi
      print the OpenAPI document that serve publishes at /v1/openapi.json (no database needed)
  partnerd consumer create --name NAME [--scopes S,...] [--rpm N] [--burst N] [--allow CIDR,...] [--price TEXT] [--enable]
  partnerd consumer update ID [--name NAME] [--scopes S,...] [--rpm N] [--burst N] [--allow CIDR,...] [--disable-endpoints OP,...] [--price TEXT]
  partnerd consumer enable|disable ID [--reason TEXT]
  partnerd consumer list [--search TEXT]
  partnerd consumer show ID
  partnerd key create --consumer ID --name NAME
  partnerd key rotate ID [--grace DURATION]
      the old key works until the grace ends (default 24h, 0 to 7d); a key is rotated once
  partnerd key end-grace ID
      a rotated key stops working now instead of when its grace ends
  partnerd key revoke ID
  partnerd key list --consumer ID
  partnerd usage --consumer ID [--days N]
  partnerd operator create --email EMAIL
      password from PARTNER_OPERATOR_PASSWORD, else the first line of standard input
  partnerd user create --consumer ID --email EMAIL [--ttl DURATION]
  partnerd user link ID [--ttl DURATION]
      print the user and a one-time set-password link (valid 72h by default, at most 7d; earlier
      unused links of the user stop working); the link's base is PARTNER_PUBLIC_URL, default
      http:// and PARTNER_ADDR; publicUrl and publicUrlFrom say which base was used
  partnerd user list [--consumer ID]

Global flags, before or after the command (partnerd --database-url URL consumer list):
  --database-url URL   every command; env PARTNER_DATABASE_URL, default sqlite:./data/partner.db
  --addr HOST:PORT     serve only: the listen address; env PARTNER_ADDR, default 127.0.0.1:8080
Flags override environment variables; a flag after the command overrides the same flag before it.
Admin commands print one JSON object on stdout; errors go to stderr with a non-zero exit.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// run executes one command and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	args, getenv, err := globalFlags(args, getenv)
	if errors.Is(err, flag.ErrHelp) || err == nil && (len(args) == 0 || args[0] == "help") {
		fmt.Fprint(stdout, usageText)
		return 0
	}
	if err == nil {
		err = command(ctx, args, stdout, stderr, getenv)
	}
	if err != nil {
		fmt.Fprintln(stderr, "partnerd:", err)
		return 1
	}
	return 0
}

// command runs the command args[0] with the rest of args.
func command(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], stderr, getenv)
	case "migrate":
		return migrate(ctx, args[1:], stdout, getenv)
	case "consumer":
		return consumerCommand(ctx, args[1:], stdout, getenv)
	case "key":
		return keyCommand(ctx, args[1:], stdout, getenv)
	case "usage":
		return usageCommand(ctx, args[1:], stdout, getenv)
	case "operator":
		return operatorCommand(ctx, args[1:], stdout, getenv)
	case "user":
		return userCommand(ctx, args[1:], stdout, getenv)
	case "openapi":
		return openAPICommand(args[1:], stdout)
	}
	return fmt.Errorf("unknown command %q (see partnerd help)", args[0])
}

// openAPICommand prints the OpenAPI document the API serves.
func openAPICommand(args []string, stdout io.Writer) error {
	if len(args) > 0 {
		return fmt.Errorf("openapi: unexpected argument %q", args[0])
	}
	doc, err := api.Document()
	if err != nil {
		return fmt.Errorf("openapi: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "%s\n", doc)
	return err
}
