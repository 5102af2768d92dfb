// Command crewreplay replays traces of the crew's fork–joins (a grainlab
// built with -tags crewtrace, run with GRAINLAB_CREW_TRACE=FILE and two or
// more workers: every pass's items timed one by one on one core; see
// sim/world/crew_trace.go) through batch-claiming rules, and prints for
// each rule how far the passes on two workers would exceed half the
// one-worker work: the imbalance at the joins, the claims and the helper's
// lateness, with no noise of the machine in it. Several traces of the same
// run (the same bits, so the same items in the same order) are combined
// item by item, the least time of each, which removes most of the time
// other processes took.
//
//	go build -tags crewtrace -o /tmp/gl-trace . && for r in 1 2 3; do
//	  GRAINLAB_CREW_TRACE=/tmp/t$r.bin GOMAXPROCS=1 /tmp/gl-trace bench --time 0.1 --workers 2; done
//	go run ./internal/crewreplay /tmp/t1.bin /tmp/t2.bin /tmp/t3.bin
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
)

// pass is one traced fork–join: the serial time before it and each item's time (ns).
type pass struct {
	gap   float64
	items []float64
}

func load(path string) ([]pass, error) {
	d, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []pass
	for off := 0; off < len(d); {
		if off+8 > len(d) {
			return nil, fmt.Errorf("%s: truncated at byte %d", path, off)
		}
		n := int(int32(binary.LittleEndian.Uint32(d[off:])))
		gap := float64(math.Float32frombits(binary.LittleEndian.Uint32(d[off+4:])))
		off += 8
		if n < 0 || off+4*n > len(d) {
			return nil, fmt.Errorf("%s: truncated at byte %d", path, off)
		}
		it := make([]float64, n)
		for i := range it {
			it[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(d[off:])))
			off += 4
		}
		out = append(out, pass{gap, it})
	}
	return out, nil
}

// rule returns the end of the batch claimed at next of n items on nw workers.
type rule func(n, next, nw int) int

// simulate returns a pass's time on nw workers: helpers start late, every
// claim costs claim, the caller joins when the last batch is done.
// Passes of at most 8 items (one range per worker) take one item a claim.
func simulate(items []float64, nw int, r rule, late, claim float64) (span float64, batches int) {
	free := make([]float64, nw)
	for k := 1; k < nw; k++ {
		free[k] = late
	}
	n := len(items)
	for next := 0; next < n; batches++ {
		k := 0
		for j := range free {
			if free[j] < free[k] {
				k = j
			}
		}
		hi := next + 1
		if n > 8 {
			hi = r(n, next, nw)
		}
		t := claim
		for _, x := range items[next:hi] {
			t += x
		}
		free[k] += t
		next = hi
	}
	for _, f := range free {
		span = max(span, f)
	}
	return span, batches
}

func main() {
	late := flag.Float64("late", 300, "ns from a pass's start to the helper's first claim")
	claim := flag.Float64("claim", 100, "ns per claimed batch (the atomic operation, the stage clocks)")
	nw := flag.Int("workers", 2, "workers to replay on")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: crewreplay [-late ns] [-claim ns] [-workers n] TRACE...")
		os.Exit(2)
	}
	var ps []pass
	for i, path := range flag.Args() {
		r, err := load(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "crewreplay:", err)
			os.Exit(1)
		}
		if i == 0 {
			ps = r
			continue
		}
		if len(r) != len(ps) {
			fmt.Fprintf(os.Stderr, "crewreplay: %s has %d passes, %s %d: not the same run\n", path, len(r), flag.Arg(0), len(ps))
			os.Exit(1)
		}
		for j := range r {
			if len(r[j].items) != len(ps[j].items) {
				fmt.Fprintf(os.Stderr, "crewreplay: pass %d differs in size: not the same run\n", j)
				os.Exit(1)
			}
			ps[j].gap = min(ps[j].gap, r[j].gap)
			for k, x := range r[j].items {
				ps[j].items[k] = min(ps[j].items[k], x)
			}
		}
	}
	// The clock's own cost: the least item time of the whole trace.
	clock := math.Inf(1)
	for _, p := range ps {
		for _, x := range p.items {
			clock = min(clock, x)
		}
	}
	work := 0.0
	for _, p := range ps {
		for j := range p.items {
			p.items[j] = max(0, p.items[j]-clock)
			work += p.items[j]
		}
	}
	fmt.Printf("%d passes, %.1f ms of items (clock %.0f ns per item taken off); replayed on %d workers, helper %.0f ns late, %.0f ns per claim\n",
		len(ps), work/1e6, clock, *nw, *late, *claim)
	serial := serialShare(ps)
	rules := []struct {
		name string
		r    rule
	}{
		{"equal n/(16·nw), ≥ 8", func(n, next, nw int) int { return min(n, next+max(8, n/(16*nw))) }},
		{"guided left/(2·nw), ≥ 8", func(n, next, nw int) int { return min(n, next+max(8, (n-next)/(2*nw))) }},
		{"guided left/nw, ≥ 8", func(n, next, nw int) int { return min(n, next+max(8, (n-next)/nw)) }},
		{"guided left/(2·nw), ≥ 4", func(n, next, nw int) int { return min(n, next+max(4, (n-next)/(2*nw))) }},
	}
	for _, r := range rules {
		type class struct {
			passes          int
			ideal, over, nb float64
		}
		by := map[int]*class{}
		var ideal, over float64
		for _, p := range ps {
			span, nb := simulate(p.items, *nw, r.r, *late, *claim)
			sum := 0.0
			for _, x := range p.items {
				sum += x
			}
			c := by[len(p.items)/100]
			if c == nil {
				c = &class{}
				by[len(p.items)/100] = c
			}
			c.passes++
			c.ideal += sum / float64(*nw)
			c.over += span - sum/float64(*nw)
			c.nb += float64(nb)
			ideal += sum / float64(*nw)
			over += span - sum/float64(*nw)
		}
		fmt.Printf("\n%-24s passes exceed 1/%d of the work by %.2f ms, %.1f%%; with the gaps, %d workers %.3fx one core\n",
			r.name, *nw, over/1e6, 100*over/ideal, *nw, (serial+work)/(serial+ideal+over))
		var keys []int
		for k := range by {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		for _, k := range keys {
			c := by[k]
			fmt.Printf("    %4d–%4d items: %5d passes, %6.1f batches each, %.1f%% over\n", 100*k, 100*k+99, c.passes, c.nb/float64(c.passes), 100*c.over/c.ideal)
		}
	}
}

// serialShare prints the serial time between the fork–joins (the gaps;
// the first, the set-up before the first pass, apart), in total and by
// the size class of the pass that follows, with the median gap per pass,
// and returns the gaps' total without the set-up.
func serialShare(ps []pass) float64 {
	if len(ps) == 0 {
		return 0
	}
	type class struct{ gaps []float64 }
	by := map[int]*class{}
	total, work := 0.0, 0.0
	for _, p := range ps[1:] {
		c := by[len(p.items)/100]
		if c == nil {
			c = &class{}
			by[len(p.items)/100] = c
		}
		c.gaps = append(c.gaps, p.gap)
		total += p.gap
	}
	for _, p := range ps {
		for _, x := range p.items {
			work += x
		}
	}
	fmt.Printf("serial: set-up %.1f ms before the first pass; then %.1f ms between passes, %.1f%% of gaps + items\n",
		ps[0].gap/1e6, total/1e6, 100*total/(total+work))
	var keys []int
	for k := range by {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		c := by[k]
		sum := 0.0
		for _, g := range c.gaps {
			sum += g
		}
		sort.Float64s(c.gaps)
		fmt.Printf("    before %4d–%4d items: %5d passes, %7.2f ms, median %6.1f µs\n",
			100*k, 100*k+99, len(c.gaps), sum/1e6, c.gaps[len(c.gaps)/2]/1e3)
	}
	return total
}
