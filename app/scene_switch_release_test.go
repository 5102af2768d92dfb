package app

import (
	"runtime/metrics"
	"testing"
)

// heapRetained is the heap memory the runtime holds from the OS: its
// objects (live or not yet swept), their spans' unused room and the free
// pages not yet released.
func heapRetained() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() + s[1].Value.Uint64() + s[2].Value.Uint64()
}

// The window's loop switching from a large world (the 20 000-sphere box)
// to a small scene gives the large world's memory back to the OS at the
// first publication of the new one (releaseDropped): the heap the runtime
// retains falls below a quarter of the large world's. Without it Go's
// scavenger kept it (the 10⁵ box: 543 MB free and resident after the
// switch, RSS 563 MB against 26 MB).
func TestSceneSwitchReleasesMemory(t *testing.T) {
	l := startLoop(t, Options{Scene: "sphere-box-soft", Workers: 1, Sets: []string{"generators[0].count=20000",
		"generators[0].region.max=[0.0589,0.0589,0.1178]", "walls[0].max=[0.0589,0.0589,0.1178]"}})
	for range 2 {
		l.Step()
		sync1(t, l)
	}
	big := heapRetained()
	l.Load(Options{Scene: "sphere-piling", Workers: 1})
	st := sync1(t, l)
	if st.Scene != "sphere-piling" {
		t.Fatalf("scene %q after the switch", st.Scene)
	}
	l.Step()
	sync1(t, l)
	small := heapRetained()
	t.Logf("heap retained: %.1f MB with the 20 000 box, %.1f MB after the switch", float64(big)/1e6, float64(small)/1e6)
	if small > big/4 {
		t.Errorf("the heap retained after the switch is %.1f MB (the large world's: %.1f MB)", float64(small)/1e6, float64(big)/1e6)
	}
}
