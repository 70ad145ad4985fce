package notify

import (
	"fmt"
	"net"
	"path"
	"strings"
)

// HostList is the webhook allow list in Gitea's syntax: the builtins
// external, private, loopback and *, host name patterns (*.corp.lan) and
// CIDRs (10.0.0.0/8). Link-local, unspecified, multicast and broadcast
// addresses are refused whatever it says.
type HostList struct {
	external, private, loopback, all bool
	nets                             []*net.IPNet
	patterns                         []string // lower-case host or IP globs
}

// ParseHostList reads a comma-separated allow list.
func ParseHostList(s string) (*HostList, error) {
	h := &HostList{}
	for _, item := range strings.Split(s, ",") {
		item = strings.ToLower(strings.TrimSpace(item))
		switch item {
		case "":
		case "external":
			h.external = true
		case "private":
			h.private = true
		case "loopback":
			h.loopback = true
		case "*":
			h.all = true
		default:
			if strings.Contains(item, "/") {
				_, n, err := net.ParseCIDR(item)
				if err != nil {
					return nil, fmt.Errorf("webhook_allowed_hosts: %q is not a CIDR", item)
				}
				h.nets = append(h.nets, n)
				continue
			}
			if _, err := path.Match(item, ""); err != nil {
				return nil, fmt.Errorf("webhook_allowed_hosts: bad pattern %q", item)
			}
			h.patterns = append(h.patterns, item)
		}
	}
	return h, nil
}

// special ranges that are neither external nor (RFC 1918) private but
// Gitea counts as private: CGNAT, benchmarking, documentation nets.
var privateExtra = mustCIDRs("100.64.0.0/10", "198.18.0.0/15", "192.0.0.0/24", "192.0.2.0/24",
	"198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4", "64:ff9b::/96", "2001:db8::/32")

func mustCIDRs(cidrs ...string) []*net.IPNet {
	var out []*net.IPNet
	for _, c := range cidrs {
		_, n, err := net.ParseCIDR(c)
		if err != nil {
			panic(err)
		}
		out = append(out, n)
	}
	return out
}

// Allowed reports whether host (as written in the URL) resolving to ip
// may be dialled.
func (h *HostList) Allowed(host string, ip net.IP) bool {
	if ip == nil || ip.IsUnspecified() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.Equal(net.IPv4bcast) {
		return false
	}
	if h.all {
		return true
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, p := range h.patterns {
		if ok, _ := path.Match(p, host); ok {
			return true
		}
		if ok, _ := path.Match(p, ip.String()); ok {
			return true
		}
	}
	for _, n := range h.nets {
		if n.Contains(ip) {
			return true
		}
	}
	private := ip.IsPrivate() || inAny(privateExtra, ip)
	switch {
	case ip.IsLoopback():
		return h.loopback
	case private:
		return h.private
	default:
		return h.external && ip.IsGlobalUnicast()
	}
}

func inAny(nets []*net.IPNet, ip net.IP) bool {
	for _, n := range nets {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}
