// Package render draws a snap.Snapshot with OpenGL 4.1 core: instanced lit
// bodies, walls, contact markers, force arrows and overlays. Camera, View,
// colours and picking are pure Go and usable without a GL context.
//
// A frame on the GL thread (runtime.LockOSThread in an init of the main
// package; window created with a 4.1 core forward-compatible context):
//
//	glfw.PollEvents()                      // ui.Platform callbacks feed imgui and the app
//	u.NewFrame()                           // ui.UI: platform inputs + imgui.NewFrame
//	in.Snap, in.View = snap, &view         // latest published snapshot
//	in.ColorRange[0], in.ColorRange[1] = r.ColorRange()
//	acts := panel.Draw(&in)                // skip when the panel is hidden (H)
//	fbw, fbh := win.GetFramebufferSize()
//	r.Draw(snap, &view, cam, fbw, fbh)     // 3D scene into the back buffer
//	u.Render()                             // imgui on top (restores GL state)
//	img := render.Screenshot(fbw, fbh)     // optional, before SwapBuffers
//	win.SwapBuffers()
//	// then apply acts (play/pause/step/reset, law, walls, ...) to the sim
//
// Picking uses window (cursor) coordinates: cam.Ray(x, y, winW, winH) then
// PickBody, or PickContactScreen(s, &view, cam, x, y, winW, winH, 8).
package render
