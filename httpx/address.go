package httpx

import (
	"net"
	"net/http"
	"strings"
)

// ClientAddress returns the client's IP address. Behind a trusted reverse proxy
// it is the right-most X-Forwarded-For entry: the one our proxy added. Everything
// to its left (earlier entries, earlier header lines) came from the client, who
// can write anything there. Without a trusted proxy the header is ignored.
func ClientAddress(r *http.Request, trustProxy bool) string {
	if trustProxy {
		if ip := lastForwardedFor(r.Header); ip != "" {
			return ip
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// lastForwardedFor is the last entry of the last X-Forwarded-For line when it is
// an IP address, else "". A proxy may append to the client's line or add a line
// of its own, so only the very last entry is ours in both cases.
func lastForwardedFor(h http.Header) string {
	lines := h.Values("X-Forwarded-For")
	if len(lines) == 0 {
		return ""
	}
	last := lines[len(lines)-1]
	entry := strings.TrimSpace(last[strings.LastIndex(last, ",")+1:])
	ip := net.ParseIP(entry)
	if ip == nil {
		return ""
	}
	return ip.String()
}
