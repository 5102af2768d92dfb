package ui

import (
	"fmt"
	"math"
	"time"

	"github.com/inkyblackness/imgui-go/v4"

	"grainlab/render"
	"grainlab/sim/snap"
)

// displaySection is the part of the View section for the first view, the
// force arrows' fit, the force chains and the renderer's per-pass timing
// (viewer helper V1; called from viewSection).
func (p *Panel) displaySection(in *PanelInput, ch *bool) {
	v := in.View
	st := in.Render

	f := beginFlow()
	f.check("thin markers", &v.ThinMarkers, ch)
	tooltip("markers at most a third of a body on screen, one per marker-sized screen cell, none under 1.5 px")
	f.check("wall outlines", &v.WallOutline, ch)
	tooltip("enabled walls drawn as faint outlines once the bodies are inside them")
	f.check("pin arrows", &v.ArrowPinned, ch)
	tooltip(fmt.Sprintf("unpinned: the arrow scale follows the forces (the %.0fth percentile of |F| is drawn %.1f body radii long)",
		100*render.ArrowFitQuantile, render.ArrowFitLength))

	textColored(colDim, "force chains")
	f = beginFlow()
	f.swatchCheck("##chc", render.ChainColors[1], "chains", &v.ShowChains, ch)
	tooltip("lines between the centres of contacting bodies, width and colour by the pair's normal force")
	if v.ShowChains {
		thr := float32(v.ChainThreshold)
		hi := float32(max(st.ChainMax, 1e-9))
		label := "threshold (0: mean)"
		if imgui.SliderFloatV(label, &thr, 0, hi, "%.3g N", imgui.SliderFlagsLogarithmic) {
			v.ChainThreshold, *ch = float64(max(thr, 0)), true
		}
		imgui.SameLine()
		if imgui.Button("mean##chain") {
			v.ChainThreshold, *ch = 0, true
		}
		wp := v.ChainWidthPx
		if imgui.SliderFloatV("chain px", &wp, 1, 16, "%.1f", 0) {
			v.ChainWidthPx, *ch = wp, true
		}
		textColored(colDim, fmt.Sprintf("%d chains   mean %s   max %s   drawn above %s", st.Chains,
			FormatSI(st.ChainMean, "N"), FormatSI(st.ChainMax, "N"), FormatSI(st.ChainThreshold, "N")))
	}

	if imgui.TreeNode("render passes (ms)") {
		imgui.Text(PassTimes(st))
		imgui.TreePop()
	}
}

// WallForceText is the force readout next to a wall's checkbox: its contact
// force, or "" when the wall is disabled (it carries no force) or unloaded.
func WallForceText(w *snap.Wall) string {
	if f := w.Force.Norm(); w.Enabled && f > 0 && !math.IsInf(f, 0) {
		return "F=" + FormatSI(f, "N")
	}
	return ""
}

// PassTimes formats the per-pass times of a frame, one "name ms" line per
// pass that took time, and the total.
func PassTimes(st render.FrameStats) string {
	var total time.Duration
	s := ""
	for p := render.Pass(0); p < render.NumPasses; p++ {
		d := st.Pass[p]
		total += d
		if d > 0 {
			s += fmt.Sprintf("%-12s %6.2f\n", render.PassNames[p], float64(d)/1e6)
		}
	}
	return s + fmt.Sprintf("%-12s %6.2f", "total", float64(total)/1e6)
}
