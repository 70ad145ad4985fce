package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"posbox/store"
	"strings"
)

// cmdUser is `posbox user add`: create a user from the command line.
func cmdUser(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "add" {
		return fmt.Errorf("usage: posbox user add --email E --name N --role admin|staff [--restaurant ID] --password-stdin")
	}
	fs := flag.NewFlagSet("user add", flag.ContinueOnError)
	fs.SetOutput(stderr)
	email := fs.String("email", "", "email address (login)")
	name := fs.String("name", "", "display name")
	role := fs.String("role", "staff", "admin or staff")
	restaurant := fs.String("restaurant", "", "restaurant id (default: the only restaurant)")
	pwStdin := fs.Bool("password-stdin", false, "read the password from standard input")
	cfg, err := loadConfig(fs, args[1:], "timezone")
	if err != nil {
		return usageErr(err)
	}
	if !*pwStdin {
		return fmt.Errorf("--password-stdin is required: passwords are never taken on the command line")
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	password := strings.TrimRight(line, "\r\n")
	st, err := store.Open(ctx, cfg.DataDir, store.Options{Logger: quietLogger(stderr)})
	if err != nil {
		return err
	}
	defer st.Close()
	rid, err := pickRestaurant(ctx, st, cfg, *restaurant)
	if err != nil {
		return err
	}
	u := &store.User{RestaurantID: rid, Email: *email, Name: *name, Role: *role}
	if err := st.CreateUser(ctx, u, password); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "created %s %s (%s) in restaurant %s\n", u.Role, u.Email, u.ID, rid)
	return nil
}

// pickRestaurant resolves --restaurant: the given id, else the only
// restaurant, else a new one in a fresh database.
func pickRestaurant(ctx context.Context, st *store.Store, cfg Config, id string) (string, error) {
	if id != "" {
		r, err := st.Restaurant(ctx, id)
		if err != nil {
			return "", err
		}
		return r.ID, nil
	}
	rs, err := st.Restaurants(ctx)
	if err != nil {
		return "", err
	}
	switch len(rs) {
	case 0:
		r := &store.Restaurant{Name: "My Restaurant", Timezone: cfg.Timezone}
		return r.ID, st.CreateRestaurant(ctx, r)
	case 1:
		return rs[0].ID, nil
	}
	return "", fmt.Errorf("%d restaurants: name one with --restaurant", len(rs))
}
