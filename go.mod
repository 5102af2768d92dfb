module grainlab

go 1.26

require (
	github.com/go-gl/gl v0.0.0-20231021071112-07e5d0ea2e71 // indirect
	github.com/go-gl/glfw/v3.3/glfw v0.0.0-20260823155953-d41da22a9587 // indirect
	github.com/go-gl/mathgl v1.2.0 // indirect
	github.com/inkyblackness/imgui-go/v4 v4.7.0 // indirect
	gonum.org/v1/gonum v0.17.0
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
