package shipping

import (
	"context"
	"fmt"
)

// Batches splits tracking numbers into batches of at most size, in order.
func Batches(numbers []string, size int) [][]string {
	if size <= 0 {
		size = 1
	}
	var out [][]string
	for len(numbers) > 0 {
		n := min(size, len(numbers))
		out = append(out, numbers[:n:n])
		numbers = numbers[n:]
	}
	return out
}

// TrackAll asks for the tracking of any number of shipments in batches of
// batchSize and merges the replies. A failed batch stops the work and returns
// what was merged so far with the error, so callers keep every event received.
func (c *Client) TrackAll(ctx context.Context, numbers []string, batchSize int) (map[string]Tracking, error) {
	out := make(map[string]Tracking, len(numbers))
	for i, batch := range Batches(numbers, batchSize) {
		got, err := c.Tracking(ctx, batch)
		if err != nil {
			return out, fmt.Errorf("tracking batch %d of %d shipments: %w", i+1, len(batch), err)
		}
		for k, v := range got {
			out[k] = v
		}
	}
	return out, nil
}
