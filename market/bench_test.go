package market

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkRefresh measures what Run does every RefreshInterval for a chain whose index holds pools
// against one stablecoin and a day of swaps, at a few sizes: "full" rebuilds the snapshot from
// scratch (what every refresh did before the day window), "idle" is a refresh with nothing new in
// the index, "block" one after a block of 10 swaps.
func BenchmarkRefresh(b *testing.B) {
	for _, size := range []struct{ pools, swaps int }{{100, 5_000}, {1_000, 20_000}, {10_000, 50_000}} {
		now := time.Now()
		c := dayOld(b, size.pools, now)
		all := make([]int, size.pools)
		for i := range all {
			all[i] = i
		}
		for from := 0; from < size.swaps; from += 5_000 {
			n := min(5_000, size.swaps-from)
			day, start := int64(24*3600), now.Unix()-24*3600
			c.swap(n, start+int64(from)*day/int64(size.swaps), start+int64(from+n)*day/int64(size.swaps), all...)
		}
		name := fmt.Sprintf("pools=%d/swaps=%d", size.pools, size.swaps)
		b.Run(name+"/full", func(b *testing.B) {
			for b.Loop() {
				if _, err := c.service(&now).refresh(b.Context(), "base"); err != nil {
					b.Fatal(err)
				}
			}
		})
		s := c.service(&now)
		if _, err := s.refresh(b.Context(), "base"); err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/idle", func(b *testing.B) {
			for b.Loop() {
				now = now.Add(time.Second)
				if _, err := s.refresh(b.Context(), "base"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/block", func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				now = now.Add(time.Second)
				c.swap(10, now.Unix()-1, now.Unix(), 0, 1, 2, 3, 4)
				b.StartTimer()
				if _, err := s.refresh(b.Context(), "base"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
