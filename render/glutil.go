package render

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"

	"grainlab/shaders"
)

// program is a linked GL program with its uniform locations.
type program struct {
	id  uint32
	loc map[string]int32
}

func (p *program) u(name string) int32 {
	if l, ok := p.loc[name]; ok {
		return l
	}
	return -1
}

// compileProgram links the embedded shaders vert and frag; uniforms lists the
// uniform names whose locations are cached.
func compileProgram(vert, frag string, uniforms ...string) (*program, error) {
	id, err := LinkProgram(vert, frag)
	if err != nil {
		return nil, err
	}
	p := &program{id: id, loc: make(map[string]int32, len(uniforms))}
	for _, name := range uniforms {
		p.loc[name] = gl.GetUniformLocation(id, gl.Str(name+"\x00"))
	}
	return p, nil
}

// LinkProgram compiles the embedded shaders vert and frag (names in package
// shaders) and links them into a GL program; errors carry the GL info log.
func LinkProgram(vert, frag string) (uint32, error) {
	vs, err := compileShader(vert, gl.VERTEX_SHADER)
	if err != nil {
		return 0, err
	}
	defer gl.DeleteShader(vs)
	fs, err := compileShader(frag, gl.FRAGMENT_SHADER)
	if err != nil {
		return 0, err
	}
	defer gl.DeleteShader(fs)
	id := gl.CreateProgram()
	gl.AttachShader(id, vs)
	gl.AttachShader(id, fs)
	gl.LinkProgram(id)
	var ok int32
	gl.GetProgramiv(id, gl.LINK_STATUS, &ok)
	if ok == gl.FALSE {
		var n int32
		gl.GetProgramiv(id, gl.INFO_LOG_LENGTH, &n)
		log := strings.Repeat("\x00", int(n+1))
		gl.GetProgramInfoLog(id, n, nil, gl.Str(log))
		gl.DeleteProgram(id)
		return 0, fmt.Errorf("render: link %s+%s: %s", vert, frag, strings.TrimRight(log, "\x00"))
	}
	gl.DetachShader(id, vs)
	gl.DetachShader(id, fs)
	return id, nil
}

func compileShader(name string, kind uint32) (uint32, error) {
	src, err := shaders.Source(name)
	if err != nil {
		return 0, err
	}
	sh := gl.CreateShader(kind)
	cs, free := gl.Strs(src + "\x00")
	gl.ShaderSource(sh, 1, cs, nil)
	free()
	gl.CompileShader(sh)
	var ok int32
	gl.GetShaderiv(sh, gl.COMPILE_STATUS, &ok)
	if ok == gl.FALSE {
		var n int32
		gl.GetShaderiv(sh, gl.INFO_LOG_LENGTH, &n)
		log := strings.Repeat("\x00", int(n+1))
		gl.GetShaderInfoLog(sh, n, nil, gl.Str(log))
		gl.DeleteShader(sh)
		return 0, fmt.Errorf("render: compile %s: %s", name, strings.TrimRight(log, "\x00"))
	}
	return sh, nil
}

// upload copies data into buf (bound to target), growing it when needed.
func upload(target, buf uint32, capBytes *int, data []float32) {
	gl.BindBuffer(target, buf)
	n := len(data) * 4
	if n == 0 {
		return
	}
	if n > *capBytes {
		c := n + n/2
		gl.BufferData(target, c, nil, gl.STREAM_DRAW)
		*capBytes = c
	} else {
		gl.BufferData(target, *capBytes, nil, gl.STREAM_DRAW) // orphan
	}
	gl.BufferSubData(target, 0, n, unsafe.Pointer(unsafe.SliceData(data))) // gl.Ptr would box the slice
}

func attrib(loc uint32, size int32, stride, offsetFloats int, divisor uint32) {
	gl.EnableVertexAttribArray(loc)
	gl.VertexAttribPointerWithOffset(loc, size, gl.FLOAT, false, int32(stride*4), uintptr(offsetFloats*4))
	gl.VertexAttribDivisor(loc, divisor)
}

// setInstanceAttribs points locations 4..8 (model matrix, colour) of the bound
// VAO at instance firstInst of the bound ARRAY_BUFFER.
func setInstanceAttribs(firstInst int) {
	base := firstInst * instFloats
	for k := 0; k < 4; k++ {
		attrib(uint32(4+k), 4, instFloats, base+4*k, 1)
	}
	attrib(8, 4, instFloats, base+16, 1)
}
