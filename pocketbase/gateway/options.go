package gateway

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// DefaultSessionTime is how long `-session-<id>` keeps the same upstream.
const DefaultSessionTime = 10 * time.Minute

// MaxSessionMinutes bounds `-sesstime-<minutes>` (24 hours).
const MaxSessionMinutes = 1440

// Options are what a customer appends to a RESIDENTIAL proxy's username:
// USERNAME-session-<id>-sesstime-<minutes>-country-<cc>, in any order.
type Options struct {
	Session     string
	SessionTime time.Duration
	Country     string
}

var trailingOption = regexp.MustCompile(`-(session|sesstime|country)-([A-Za-z0-9_]{1,64})$`)

// splitUsername separates a username from its trailing options. A username that has no
// options comes back whole.
func splitUsername(full string) (string, Options, error) {
	opts := Options{}
	name := full
	seen := map[string]bool{}
	for {
		m := trailingOption.FindStringSubmatchIndex(name)
		if m == nil {
			break
		}
		key, value := name[m[2]:m[3]], name[m[4]:m[5]]
		if seen[key] {
			return full, Options{}, fmt.Errorf("the username option -%s is given twice", key)
		}
		seen[key] = true
		switch key {
		case "session":
			opts.Session = value
		case "sesstime":
			minutes, err := strconv.Atoi(value)
			if err != nil || minutes < 1 || minutes > MaxSessionMinutes {
				return full, Options{}, fmt.Errorf("-sesstime must be a number of minutes from 1 to %d", MaxSessionMinutes)
			}
			opts.SessionTime = time.Duration(minutes) * time.Minute
		case "country":
			if len(value) != 2 {
				return full, Options{}, errors.New("-country must be a two-letter country code")
			}
			opts.Country = strings.ToUpper(value)
		}
		name = name[:m[0]]
	}
	if opts.SessionTime > 0 && opts.Session == "" {
		return full, Options{}, errors.New("-sesstime needs -session-<id>")
	}
	if opts.Session != "" && opts.SessionTime == 0 {
		opts.SessionTime = DefaultSessionTime
	}
	return name, opts, nil
}

func (o Options) empty() bool { return o == Options{} }

func sortExits(exits []Exit) {
	sort.Slice(exits, func(i, j int) bool { return exits[i].ProxyID < exits[j].ProxyID })
}
